"""Autocomplete: the values an option could take, best first, for what was typed so far.

Platforms that complete as the user types (Discord) ask on every keystroke, so this is one
small indexed query and a sort in memory. Which list an option draws from is declared once,
in `OptionSpec.suggest`; an option without it gets no suggestions.

Ranking: ids that start with the prefix, then ids or titles that contain it; at most
`MAX_CHOICES`, each name cut to `MAX_NAME` characters (Discord's limits, and sensible ones).
Time zones: IANA names whose whole name or city starts with what was typed, then those that
contain it (`shang` offers Asia/Shanghai, `new` offers America/New_York first).
"""

from __future__ import annotations

import functools

from bot.commands.spec import BY_NAME, Suggest
from bot.schedule.times import zone_names
from bot.store.questions import QuestionStore
from bot.types import Choice, Kind, Locale

MAX_CHOICES = 25
MAX_NAME = 100


async def complete(
    store: QuestionStore,
    command: str,
    option: str,
    prefix: str,
    locale: Locale,
    server: str | None = None,
) -> tuple[Choice, ...]:
    """Suggestions among what is served in `server` (the shared bank's and its own items;
    the shared bank's only without one)."""
    spec = BY_NAME.get(command)
    declared = spec.option(option) if spec else None
    if declared is None or declared.suggest is None:
        return ()
    typed = prefix.strip().lower()
    if declared.suggest is Suggest.TIMEZONE:
        return _zones(typed)
    if declared.suggest is Suggest.TOPIC:
        counts = await store.topics(server)
        return tuple(Choice(_cut(f"{c.topic} ({c.questions})"), c.topic)
                     for c in counts if typed in c.topic)[:MAX_CHOICES]  # fmt: skip
    kind = Kind.CODING if declared.suggest is Suggest.PROBLEM else None
    rows = await store.titles(kind, server)
    ranked = sorted((rank, qid, _label(qid, title, title_en, locale))
                    for qid, title, title_en in rows
                    if (rank := _rank(typed, qid, title, title_en)) is not None)  # fmt: skip
    return tuple(Choice(label, qid) for _, qid, label in ranked[:MAX_CHOICES])


def _zones(typed: str) -> tuple[Choice, ...]:
    key = typed.replace(" ", "_")
    ranked = sorted((rank, zone) for zone in _zone_names()
                    if (rank := _zone_rank(key, zone.lower())) is not None)  # fmt: skip
    return tuple(Choice(zone, zone) for _, zone in ranked[:MAX_CHOICES])


def _zone_rank(key: str, zone: str) -> int | None:
    city = zone.rsplit("/", 1)[-1]
    if zone.startswith(key) or city.startswith(key):
        return 0
    return 1 if key in zone else None


@functools.cache
def _zone_names() -> tuple[str, ...]:
    """Canonical region/city names (no Etc/ or legacy aliases such as `US/Pacific`)."""
    regions = ("Africa/", "America/", "Antarctica/", "Asia/", "Atlantic/", "Australia/",
               "Europe/", "Indian/", "Pacific/")  # fmt: skip
    return tuple(sorted(z for z in zone_names() if z.startswith(regions)))


def _rank(typed: str, qid: str, title: str, title_en: str | None) -> int | None:
    if qid.startswith(typed):
        return 0
    haystack = f"{qid} {title} {title_en or ''}".lower()
    return 1 if typed in haystack else None


def _label(qid: str, title: str, title_en: str | None, locale: Locale) -> str:
    shown = title_en if locale is Locale.EN and title_en else title
    return _cut(f"{shown} · {qid}")


def _cut(text: str) -> str:
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 1] + "…"
