"""`make bench` / `python -m bench [SUITE ...]`: all the suites, or those named (see SUITES).
The soak runs `SOAK_MINUTES` (default 5) minutes."""

from __future__ import annotations

import sys

from bench import (
    asked,
    bank,
    cards,
    discord,
    fleet,
    grading,
    numpy_gate,
    picks,
    queue,
    quiz_burst,
    ratelimit,
    reports,
    review,
    schedule,
    scores,
    slack,
    soak,
    stores,
)

SUITES = {
    "bank": bank.main,
    "picks": picks.main,
    "schedule": schedule.main,
    "fleet": fleet.main,
    "ratelimit": ratelimit.main,
    "grading": grading.main,
    "discord": discord.main,
    "slack": slack.main,
    "burst": quiz_burst.main,
    "review": review.main,
    "soak": soak.main,
    "scores": scores.main,
    "stores": stores.main,
    "queue": queue.main,
    "reports": reports.main,
    "numpy": numpy_gate.main,
    "cards": cards.main,
    "asked": asked.main,
}

if __name__ == "__main__":
    unknown = [name for name in sys.argv[1:] if name not in SUITES]
    if unknown:
        sys.exit(f"unknown suite(s): {', '.join(unknown)}; choose from {', '.join(SUITES)}")
    for name in sys.argv[1:] or list(SUITES):
        SUITES[name]()
