"""Fakes at the core's boundaries, and helpers that write content files for tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
BANK = REPO / "content"


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: datetime = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)) -> None:
        self.current = start

    def now(self) -> datetime:
        return self.current

    def advance(self, delta: timedelta) -> None:
        self.current += delta


def write_question(
    root: Path,
    qid: str,
    title: str,
    answer: str,
    *,
    topics: tuple[str, ...] = ("misc",),
    kind: str = "qa",
    **extra: object,
) -> Path:
    """Write a valid content file (a problem folder for coding) and return its main path."""
    meta: dict[str, object] = {
        "id": qid, "title": title, "kind": kind, "difficulty": "medium",
        "topics": list(topics),
        "sources": [{"document": "report.txt", "title": "某公司 一面"}],
        **extra,
    }  # fmt: skip
    head = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
    if kind == "coding":
        folder = root / "problems" / qid
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "explanation.md").write_text(answer, encoding="utf-8")
        path, body = folder / "problem.md", f"{title} statement"
    else:
        (root / "questions").mkdir(parents=True, exist_ok=True)
        path, body = root / "questions" / f"{qid}.md", answer
    path.write_text(f"---\n{head}---\n{body}\n", encoding="utf-8")
    return path
