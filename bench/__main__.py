"""`make bench` / `python -m bench [bank|picks|schedule|grading|discord|slack|soak]`: all, or those
named. The soak runs `SOAK_MINUTES` (default 5) minutes."""

from __future__ import annotations

import sys

from bench import bank, discord, grading, picks, schedule, slack, soak

SUITES = {
    "bank": bank.main,
    "picks": picks.main,
    "schedule": schedule.main,
    "grading": grading.main,
    "discord": discord.main,
    "slack": slack.main,
    "soak": soak.main,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SUITES):
        SUITES[name]()
