"""`make bench` / `python -m bench [bank|schedule|grading|discord|slack|soak|scores]`: all, or those
named. The soak runs `SOAK_MINUTES` (default 5) minutes."""

from __future__ import annotations

import sys

from bench import bank, discord, grading, schedule, scores, slack, soak

SUITES = {
    "bank": bank.main,
    "schedule": schedule.main,
    "grading": grading.main,
    "discord": discord.main,
    "slack": slack.main,
    "soak": soak.main,
    "scores": scores.main,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SUITES):
        SUITES[name]()
