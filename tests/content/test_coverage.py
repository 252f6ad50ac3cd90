"""The shipped bank covers what AI-infrastructure rounds ask, as the README promises: these
counts are content's tests, as the suite is the code's."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from bot.content.bank import Bank, read_bank
from bot.content.topics import TOPICS as TOPIC_TABLE
from bot.grading.problems import CODE_BLOCK
from bot.types import Kind, Question, Status
from tests.fakes import REPO

EXPLAINED = 240
PROBLEMS = 30
NUMPY_PROBLEMS = 8
TOPICS, PER_TOPIC = 12, 8
# Every topic of the table is taught, the newest areas included, by several explained items.
EVERY_TOPIC = 3


@pytest.fixture(scope="module")
def bank() -> Bank:
    return read_bank(REPO / "content")


def explained(bank: Bank) -> list[Question]:
    return [q for q in bank.questions if q.kind is Kind.QA and q.status is Status.PUBLISHED]


def problems(bank: Bank) -> list[Question]:
    return [q for q in bank.questions if q.kind is Kind.CODING and q.status is Status.PUBLISHED]


def test_enough_explained_questions_over_enough_topics(bank: Bank) -> None:
    items = explained(bank)
    assert len(items) >= EXPLAINED
    per_topic = Counter(topic for q in items for topic in q.topics)
    covered = [topic for topic, count in per_topic.items() if count >= PER_TOPIC]
    assert len(covered) >= TOPICS, per_topic
    taught = [t.slug for t in TOPIC_TABLE if t.slug != "algorithms"]  # problems teach that one
    thin = [slug for slug in taught if per_topic[slug] < EVERY_TOPIC]
    assert not thin, per_topic


def test_every_explained_question_teaches_in_both_languages_with_quick_checks(bank: Bank) -> None:
    for q in explained(bank):
        assert q.title_en and q.answer_en, q.id
        assert len(q.quiz) >= 2, q.id
        for section in ("## 追问", "## 常见错误", "## 参考"):
            assert section in q.answer, (q.id, section)
        for section in ("## Follow-ups", "## Common mistakes", "## References"):
            assert section in q.answer_en, (q.id, section)


def test_enough_graded_problems_with_hints_and_numpy_ones_among_them(bank: Bank) -> None:
    found = problems(bank)
    assert len(found) >= PROBLEMS
    assert all(len(q.hints) == 3 and q.prompt_en and q.answer_en for q in found)
    numpy = [q for q in found if "import numpy" in _reference(q.id)]
    assert len(numpy) >= NUMPY_PROBLEMS, [q.id for q in numpy]


def test_every_item_says_what_its_second_reading_checked() -> None:
    """A published item has had an independent second reading, and says what it checked;
    an item not yet read is a draft, never served."""
    for path in sorted((REPO / "content").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---\n"):
            head = yaml.safe_load(text.split("\n---\n", 1)[0].removeprefix("---\n"))
            if head.get("status", "published") == "published":
                assert isinstance(head.get("reviewed"), list) and head["reviewed"], path


def _reference(problem_id: str) -> str:
    text = (REPO / "content" / "problems" / problem_id / "explanation.md").read_text("utf-8")
    match = CODE_BLOCK.search(text)
    return match.group(1) if match else ""
