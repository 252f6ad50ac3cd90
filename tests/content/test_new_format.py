"""The bilingual format of content/README.md: English files, quick checks, related items,
review record and status, each fault named by file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.content import schema
from bot.content.bank import read_bank
from bot.errors import ContentError
from bot.types import Bilingual, Kind, Locale, Status
from tests.fakes import write_question

# Line numbers in the comments: faults below are asserted at them.
ITEM = """\
---
id: kv-cache-size
title: KV Cache 占多少显存？
title_en: How much memory does the KV cache take?
kind: qa
difficulty: medium
topics: [inference, memory]
source: original
related: [python-gil]
reviewed: [figures, links]
status: published
quiz:
  - question:
      zh: 每个 token 的 KV Cache 约多大？
      en: About how large is the KV cache per token?
    options:
      - text: {zh: 约 0.5 MB, en: about 0.5 MB}
        correct: true
        why:
          zh: 2 × 32 × 4096 × 2 字节。
          en: 2 × 32 × 4096 × 2 bytes.
      - text: {zh: 约 16 KB, en: about 16 KB}
        why: {zh: 只算了一层。, en: That is one layer only.}
      - text: {zh: 约 1 MB, en: about 1 MB}
        why: {zh: 那是 FP32。, en: That assumes FP32.}
      - text: {zh: 约 14 GB, en: about 14 GB}
        why: {zh: 那是权重。, en: That is the weights.}
  - question: {zh: 哪个因素不影响 KV Cache？, en: Which does not change the KV cache size?}
    options:
      - text: {zh: 层数, en: layers}
        why: {zh: 每层都存 K 和 V。, en: Every layer stores K and V.}
      - text: {zh: 词表大小, en: vocabulary size}
        correct: true
        why: {zh: 词表只影响嵌入和输出层。, en: It only sizes the embedding and the head.}
      - text: {zh: 序列长度, en: sequence length}
        why: {zh: 每个 token 都要存。, en: Every token is stored.}
      - text: {zh: KV 头数, en: KV heads}
        why: {zh: GQA 就是靠减少它。, en: GQA saves memory by cutting it.}
---
答案：每个 token 每层存 K 和 V。
"""
ENGLISH = "Answer: each token stores K and V in every layer.\n"


def write_item(root: Path, text: str = ITEM, english: str | None = ENGLISH) -> Path:
    write_question(root, "python-gil", "GIL 是什么？", "解析", topics=("python",))
    path = root / "questions" / "kv-cache-size.md"
    path.write_text(text, encoding="utf-8")
    if english is not None:
        path.with_name("kv-cache-size.en.md").write_text(english, encoding="utf-8")
    return path


def faults_of(root: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        read_bank(root)
    return [str(f).replace(str(root) + "/", "") for f in caught.value.faults]


def edit(old: str, new: str, text: str = ITEM) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_an_item_in_the_new_format_validates_and_loads(tmp_path: Path) -> None:
    write_item(tmp_path)
    item = next(q for q in read_bank(tmp_path).questions if q.id == "kv-cache-size")
    assert item.sources == () and item.related == ("python-gil",)
    assert item.status is Status.PUBLISHED and item.kind is Kind.QA
    assert item.answer_en == ENGLISH.strip()
    assert item.answer_in(Locale.EN) == ENGLISH.strip()
    assert item.answer_in(Locale.ZH).startswith("答案")
    first, second = item.quiz
    assert first.question == Bilingual("每个 token 的 KV Cache 约多大？",
                                       "About how large is the KV cache per token?")  # fmt: skip
    assert [o.correct for o in first.options] == [True, False, False, False]
    assert second.correct_index() == 1
    assert second.options[1].why.in_(Locale.EN) == "It only sizes the embedding and the head."


def test_english_files_are_not_items(tmp_path: Path) -> None:
    write_item(tmp_path)
    assert sorted(q.id for q in read_bank(tmp_path).questions) == ["kv-cache-size", "python-gil"]


@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        ("      - text: {zh: 约 14 GB, en: about 14 GB}\n"
         "        why: {zh: 那是权重。, en: That is the weights.}\n", "",
         "16: quiz 1: 'options' must list exactly 4 options (found 3)"),
        ("      - text: {zh: 序列长度, en: sequence length}\n",
         "      - text: {zh: 序列长度, en: sequence length}\n        correct: true\n",
         "35: quiz 2: options 2, 3 are all marked correct (exactly one must be)"),
        ("          en: 2 × 32 × 4096 × 2 bytes.\n", "",
         "19: quiz 1, option 1: 'why' has no 'en'"),
        ("related: [python-gil]", "related: [python-gil, paged-attention]",
         "9: related id 'paged-attention' names no item of the bank"),
        ("topics: [inference, memory]", "topics: [inference, hardware]",
         "7: topic 'hardware' is not in the topic table of content/README.md; "
         "did you mean 'gpu'?"),
        ("source: original", "source: a blog",
         "8: 'source' can only be 'original'; a report goes in 'sources'"),
        ("reviewed: [figures, links]", "reviewed: [figures, vibes]",
         "10: reviewed: 'vibes' is not one of figures, formulas, claims, code, apis, versions, "
         "references, links, examples, corrections, translation"),
        ("status: published", "status: live",
         "11: 'status' is 'live'; expected one of: published, draft"),
        ("答案：每个 token 每层存 K 和 V。", "答案：TODO",
         "40: a published item still says TODO (finish it, or mark it 'status: draft')"),
        ("title_en: How much memory does the KV cache take?\n", "",
         "1: missing required key 'title_en'"),
    ],
)  # fmt: skip
def test_each_fault_names_file_and_line(tmp_path: Path, old: str, new: str, fault: str) -> None:
    write_item(tmp_path, edit(old, new))
    assert f"questions/kv-cache-size.md:{fault}" in faults_of(tmp_path)


def test_a_published_qa_item_with_a_quiz_needs_two_quick_checks(tmp_path: Path) -> None:
    one = ITEM[: ITEM.index("  - question: {zh: 哪个")] + ITEM[ITEM.index("---\n答案") :]
    write_item(tmp_path, one)
    assert faults_of(tmp_path) == [
        "questions/kv-cache-size.md:12: a published question needs at least 2 quick checks "
        "in 'quiz' (found 1)"
    ]
    write_item(tmp_path, edit("status: published", "status: draft", one))
    assert len(read_bank(tmp_path).questions) == 2


def test_no_correct_option_is_a_fault_at_the_options(tmp_path: Path) -> None:
    write_item(tmp_path, edit("        correct: true\n        why:\n", "        why:\n"))
    assert faults_of(tmp_path) == [
        "questions/kv-cache-size.md:16: quiz 1: no option is marked 'correct: true' "
        "(exactly one must be)"
    ]


def test_sources_and_source_original_are_exclusive(tmp_path: Path) -> None:
    both = edit("source: original", "source: original\nsources: [{document: a, title: b}]")
    write_item(tmp_path, both)
    assert "questions/kv-cache-size.md:8: give either 'sources' or 'source: original', not both" \
        in faults_of(tmp_path)  # fmt: skip
    write_item(tmp_path, edit("source: original\n", ""))
    assert "questions/kv-cache-size.md:1: missing 'sources' (or 'source: original')" \
        in faults_of(tmp_path)  # fmt: skip


def test_a_missing_english_file_is_a_fault_naming_its_path(tmp_path: Path) -> None:
    write_item(tmp_path, english=None)
    assert faults_of(tmp_path) == [
        "questions/kv-cache-size.en.md:1: missing: a published item needs its English version here"
    ]


def test_an_english_file_is_checked_too(tmp_path: Path) -> None:
    write_item(tmp_path, english="\n\nAnswer:\nTODO translate\n")
    assert faults_of(tmp_path) == [
        "questions/kv-cache-size.en.md:4: a published item still says TODO (finish it, or "
        "mark it 'status: draft')"
    ]
    write_item(tmp_path, english="   \n")
    assert faults_of(tmp_path) == ["questions/kv-cache-size.en.md:1: the English version is empty"]


def test_a_draft_needs_no_english_and_may_say_todo(tmp_path: Path) -> None:
    draft = edit("答案：每个 token 每层存 K 和 V。", "TODO", edit("status: published", "status: draft"))
    write_item(tmp_path, draft, english=None)
    item = next(q for q in read_bank(tmp_path).questions if q.id == "kv-cache-size")
    assert item.status is Status.DRAFT and item.answer_en is None


def test_problems_read_their_english_statement_and_explanation(tmp_path: Path) -> None:
    write_question(tmp_path, "fast-power", "快速幂", "解析", kind="coding", topics=("algorithms",),
                   signature="def f() -> None")  # fmt: skip
    folder = tmp_path / "problems" / "fast-power"
    (folder / "problem.en.md").write_text("Fast power statement\n", encoding="utf-8")
    (folder / "explanation.en.md").write_text("Square and multiply.\n", encoding="utf-8")
    (problem,) = read_bank(tmp_path).questions
    assert problem.prompt_in(Locale.EN) == "Fast power statement"
    assert problem.answer_in(Locale.EN) == "Square and multiply."
    assert problem.prompt_in(Locale.ZH) == "快速幂 statement"


def test_the_shipped_bank_is_bilingual_throughout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every published item of the bank has its English title and files, quiz or not."""
    from tests.fakes import REPO

    monkeypatch.setattr(schema, "ENGLISH_REQUIRED_OF_ALL", True)
    assert read_bank(REPO / "content").questions  # raises ContentError naming what is missing
