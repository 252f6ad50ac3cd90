"""Quick checks must not give their answer away by its length, per language and bank-wide."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.content import giveaway
from bot.content.bank import read_bank
from bot.types import Bilingual, QuickCheck, QuizOption
from tests.content.test_validate import run_cli
from tests.fakes import REPO, write_question


def check(right: tuple[str, str], *others: tuple[str, str]) -> QuickCheck:
    """A quick check whose first option is right; texts as (zh, en)."""
    why = Bilingual("因为", "because")
    options = [QuizOption(Bilingual(*right), why, correct=True)]
    options += [QuizOption(Bilingual(*text), why) for text in others]
    return QuickCheck(Bilingual("问", "asked"), tuple(options))


LONG_RIGHT = check(("一二三四", "abcd"), ("一二", "ab"), ("一", "a"), ("一二三", "abc"))
TIED = check(("一二三", "abcd"), ("一二三", "ab"), ("一", "a"), ("一", "abc"))
HIDDEN = check(("一", "a"), ("一二", "ab"), ("一二三", "abc"), ("一", "a"))


@pytest.mark.parametrize(
    ("quick", "zh", "en"),
    [(LONG_RIGHT, True, True), (TIED, False, True), (HIDDEN, False, False)],
)
def test_the_right_option_counts_only_when_strictly_longest(
    quick: QuickCheck, zh: bool, en: bool
) -> None:
    assert giveaway.right_is_longest(quick, "zh") is zh
    assert giveaway.right_is_longest(quick, "en") is en


def test_the_figure_is_the_worse_language() -> None:
    figure = giveaway.Giveaway(6, {"zh": 1, "en": 2})
    assert figure.worst == ("en", 2)
    assert not figure.too_many  # a third exactly is allowed
    assert figure.summary() == ("quick checks: right option longest in 2 of 6 (33%, in English; "
                                "at most a third allowed)")  # fmt: skip
    assert giveaway.Giveaway(6, {"zh": 3, "en": 2}).too_many
    assert not giveaway.Giveaway(0, {"zh": 0, "en": 0}).too_many


def test_a_bank_giving_answers_away_has_one_fault_naming_no_file(tmp_path: Path) -> None:
    figure = giveaway.Giveaway(3, {"zh": 1, "en": 2})
    (fault,) = giveaway.faults(figure, tmp_path)
    assert (fault.path, fault.line) == (tmp_path, 0)
    assert "longest in 2 of 3 (67%, in English" in fault.message
    assert giveaway.faults(giveaway.Giveaway(3, {"zh": 1, "en": 1}), tmp_path) == []


def _quiz(right: str, other: str) -> list[dict[str, object]]:
    def option(text: str, correct: bool) -> dict[str, object]:
        return {"text": {"zh": text, "en": text}, "why": {"zh": "因为", "en": "because"},
                **({"correct": True} if correct else {})}  # fmt: skip

    options = [option(right, True)] + [option(other + str(i), False) for i in range(3)]
    return [{"question": {"zh": "问", "en": "asked"}, "options": options}] * 2


def test_validate_fails_a_bank_whose_answers_are_longest(tmp_path: Path) -> None:
    root = tmp_path / "content"
    for qid in ("one", "two", "three"):
        write_question(root, qid, "标题", "解析", title_en="Title", quiz=_quiz("long right", "x"))
        (root / "questions" / f"{qid}.en.md").write_text("Answer\n", encoding="utf-8")
    write_question(root, "four", "标题", "解析", title_en="Title", quiz=_quiz("r", "wrong"))
    (root / "questions" / "four.en.md").write_text("Answer\n", encoding="utf-8")
    result = run_cli("content", "validate", "--no-grade", "--json", content=root, tmp=tmp_path)
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["quick_checks"]["right_longest"] == {"zh": 6, "en": 6}
    assert report["faults"] == [f"{root}:0: quick checks: right option longest in 6 of 8 "
                                "(75%, in Chinese; at most a third allowed)"]  # fmt: skip


def test_the_shipped_bank_keeps_its_answers_hidden() -> None:
    figure = giveaway.measure(read_bank(REPO / "content").questions)
    assert figure.checks > 0 and not figure.too_many, figure.summary()
