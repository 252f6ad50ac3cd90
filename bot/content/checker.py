"""Reading one file's front matter while collecting its faults, each at its line.

A `Checker` never raises: every reader returns None (or an empty value) for a bad field and
records why, so validation reports all of a file's faults in one pass. Nested values are
found by path (`"quiz", 0, "options", 2, "why"`) and faulted at the line of that key or item.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any, TypeVar

from bot.content.frontmatter import FrontMatter
from bot.errors import Fault

E = TypeVar("E", bound=enum.Enum)


class Checker:
    """Accumulates faults for one file while reading its front matter."""

    def __init__(self, path: Path, fm: FrontMatter) -> None:
        self.path, self.fm, self.faults = path, fm, list[Fault]()

    def fault(self, key: str, message: str, index: int | None = None) -> None:
        self.faults.append(Fault(self.path, self.fm.line_of(key, index), message))

    def fault_at(self, path: tuple[str | int, ...], message: str) -> None:
        self.faults.append(Fault(self.path, self.fm.line_at(*path), message))

    def missing(self, key: str) -> None:
        self.faults.append(Fault(self.path, 1, f"missing required key '{key}'"))

    def text(self, key: str, *, required: bool = True) -> str | None:
        value = self.fm.data.get(key)
        if value is None:
            if required:
                self.missing(key)
            return None
        if not isinstance(value, str) or not value.strip():
            self.fault(key, f"'{key}' must be a non-empty string")
            return None
        return value.strip()

    def choice(self, key: str, enum_type: type[E], default: E | None = None) -> E | None:
        raw = self.text(key, required=default is None)
        if raw is None:
            return default if key not in self.fm.data else None
        try:
            return enum_type(raw)
        except ValueError:
            allowed = ", ".join(str(e.value) for e in enum_type)
            self.fault(key, f"'{key}' is '{raw}'; expected one of: {allowed}")
            return None

    def items(self, key: str, *, required: bool = True) -> list[Any]:
        value = self.fm.data.get(key)
        if value is None:
            if required:
                self.missing(key)
            return []
        if not isinstance(value, list) or not value:
            self.fault(key, f"'{key}' must be a non-empty list")
            return []
        return value

    def slugs(self, key: str, noun: str, pattern: Any, *, required: bool) -> tuple[str, ...]:
        """A list of distinct slugs (topics, related ids), each faulted at its own line."""
        found: list[str] = []
        for i, item in enumerate(self.items(key, required=required)):
            if not isinstance(item, str) or not pattern.match(item):
                self.fault(key, f"{noun} {item!r} is not a slug", i)
            elif item in found:
                self.fault(key, f"{noun} '{item}' is listed twice", i)
            else:
                found.append(item)
        return tuple(found)
