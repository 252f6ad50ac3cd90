"""A coding problem's three hints: checked in the files, kept through the database."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.content.bank import read_bank
from bot.content.loader import load_bank
from bot.errors import ContentError
from bot.store.questions import QuestionStore
from bot.types import Bilingual
from bot.store.db import SqliteDatabase
from tests.fakes import REPO, write_question

HINTS = [{"zh": "先想暴力解法。", "en": "Start from the brute force."},
         {"zh": "反复平方。", "en": "Square repeatedly."},
         {"zh": "result *= x 当 n 为奇数\n然后 x *= x", "en": "result *= x when n is odd\nthen x *= x"}]  # fmt: skip


def faults_of(root: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        read_bank(root)
    return [str(f).replace(str(root) + "/", "") for f in caught.value.faults]


def problem(root: Path, **extra: object) -> Path:
    return write_question(root, "fast-power", "快速幂", "思路", kind="coding",
                          signature="def my_pow(x: float, n: int) -> float", **extra)  # fmt: skip


def test_hints_are_read_in_order_and_may_span_lines(tmp_path: Path) -> None:
    problem(tmp_path, hints=HINTS)
    (item,) = read_bank(tmp_path).questions
    assert item.hints == tuple(Bilingual(h["zh"], h["en"]) for h in HINTS)
    assert item.hints[2].en == "result *= x when n is odd\nthen x *= x"


@pytest.mark.parametrize(
    ("hints", "fault"),
    [
        (HINTS[:2], "'hints' is a list of exactly 3: nudge, approach, near-solution"),
        ([*HINTS, HINTS[0]], "'hints' is a list of exactly 3"),
        ("just try", "'hints' is a list of exactly 3"),
        ([HINTS[0], {"zh": "只有中文"}, HINTS[2]], "hint 2 (approach) must be a mapping with zh and en"),
        ([HINTS[0], HINTS[1], {"zh": "近似答案", "en": "  "}],
         "hint 3 (near-solution): 'en' must be non-empty text"),
    ],
)
def test_malformed_hints_are_faults_at_their_line(tmp_path: Path, hints: object,
                                                  fault: str) -> None:  # fmt: skip
    path = problem(tmp_path, hints=hints)
    (found,) = faults_of(tmp_path)
    name, line, message = found.split(":", 2)
    assert name == "problems/fast-power/problem.md" and message.strip().startswith(fault)
    assert path.read_text(encoding="utf-8").splitlines()[int(line) - 1].lstrip().startswith(
        ("hints:", "- zh:", "zh:", "en:", "- ")
    )


def test_a_published_problem_needs_hints_and_a_draft_does_not(tmp_path: Path) -> None:
    problem(tmp_path, hints=None)
    assert faults_of(tmp_path) == ["problems/fast-power/problem.md:1: missing required key "
                                   "'hints'"]  # fmt: skip
    problem(tmp_path, hints=None, status="draft")
    assert read_bank(tmp_path).questions[0].hints == ()


def test_an_explained_question_has_no_hints(tmp_path: Path) -> None:
    write_question(tmp_path, "python-gil", "GIL 是什么？", "一把锁。", hints=HINTS)
    (fault,) = faults_of(tmp_path)
    assert fault.endswith(": only coding problems have hints")


def test_every_shipped_problem_has_three_hints_in_both_languages() -> None:
    problems = [q for q in read_bank(REPO / "content").questions if q.kind.value == "coding"]
    assert problems
    for item in problems:
        assert len(item.hints) == 3 and all(h.zh and h.en for h in item.hints), item.id


async def test_hints_survive_the_database(db: aiosqlite.Connection, tmp_path: Path) -> None:
    problem(tmp_path, hints=HINTS)
    await load_bank(SqliteDatabase(db), tmp_path)
    stored = await QuestionStore(SqliteDatabase(db)).get("fast-power")
    assert stored is not None and stored.hints == read_bank(tmp_path).questions[0].hints
