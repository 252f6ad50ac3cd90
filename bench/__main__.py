"""`make bench` / `python -m bench [bank|schedule|discord]`: every benchmark, or the one named."""

from __future__ import annotations

import sys

from bench import bank, discord, schedule

SUITES = {"bank": bank.main, "schedule": schedule.main, "discord": discord.main}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SUITES):
        SUITES[name]()
