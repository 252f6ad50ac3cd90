"""The export's planning and writing (`bot.content.exporter`), with the server items built
as the store returns them: fully written items keep their quick checks, hints and English
and are held back only by review; `read_bank` reads the export beside the bank; ids that
are not slugs never name a file; no path leaves the export's directory."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.content import frontmatter
from bot.content.bank import read_bank
from bot.content.exporter import ExportPlan, UnsafePath, plan_export, write_export
from bot.content.importer import Write
from bot.store.exports import ServerItem
from bot.types import Bilingual, Difficulty, Kind, Question, QuickCheck, QuizOption, Source

REPORT = Source("report.txt", "某公司 一面", company="某公司", round="一面")


def check(n: int) -> QuickCheck:
    options = tuple(QuizOption(Bilingual(f"选项 {n}{i}", f"option {n}{i}"),
                               Bilingual(f"因为 {i}", f"because {i}"), correct=i == 0)
                    for i in range(4))  # fmt: skip
    return QuickCheck(Bilingual(f"问题 {n}？", f"Question {n}?"), options)


def qa(qid: str, title: str = "什么是 NUMA？", **extra: object) -> ServerItem:
    question = Question(id=qid, title=title, kind=Kind.QA, difficulty=Difficulty.HARD,
                        topics=("os",), sources=(REPORT,), answer="NUMA 是非一致内存访问。",
                        **extra)  # type: ignore[arg-type]  # fmt: skip
    return ServerItem(question, explained=True)


def written(tmp_path: Path, plan: ExportPlan) -> Path:
    out = tmp_path / "out"
    write_export(plan, out)
    return out


def test_a_finished_item_keeps_everything_and_waits_only_for_review(
    tmp_path: Path, content_dir: Path
) -> None:
    numa = qa("s.numa", title_en="What is NUMA?", answer_en="NUMA is non-uniform memory access.",
              quiz=(check(1), check(2)))  # fmt: skip
    hints = tuple(Bilingual(f"提示 {i}", f"hint {i}") for i in (1, 2, 3))
    lru = ServerItem(Question(
        id="s.lru", title="手撕：LRU 缓存", title_en="An LRU cache", kind=Kind.CODING,
        difficulty=Difficulty.MEDIUM, topics=("algorithms",), sources=(REPORT,),
        answer="用哈希表加双向链表。", answer_en="A hash map and a doubly linked list.",
        prompt="实现 LRU 缓存。", prompt_en="Implement an LRU cache.",
        signature="def lru(capacity: int) -> None", hints=hints, related=("s.numa",),
    ), explained=True, asked_in=(Source("report-0123456789ab", "另一家 二面"),))  # fmt: skip
    plan = plan_export(content_dir, [numa, lru])
    assert [(i.id, i.missing) for i in plan.items] == [("numa", ("review",)), ("lru", ("review",))]
    assert plan.items[1].files == ("problems/lru/problem.md", "problems/lru/explanation.md",
                                   "problems/lru/problem.en.md",
                                   "problems/lru/explanation.en.md")  # fmt: skip
    out = written(tmp_path, plan)
    assert (out / "questions" / "numa.en.md").read_text("utf-8") == (
        "NUMA is non-uniform memory access.\n"
    )
    problem = frontmatter.parse((out / "problems" / "lru" / "problem.md").read_text("utf-8"))
    assert problem.data["related"] == ["numa"] and len(problem.data["hints"]) == 3
    assert problem.data["sources"][1] == {"document": "report-0123456789ab", "title": "另一家 二面"}
    merged = tmp_path / "merged"
    shutil.copytree(content_dir, merged)
    shutil.copytree(out, merged, dirs_exist_ok=True)
    read = {q.id: q for q in read_bank(merged).questions}
    assert read["numa"].quiz == numa.question.quiz and read["lru"].hints == hints
    assert read["lru"].prompt_en == "Implement an LRU cache." and read["numa"].title_en


def test_ids_are_unique_against_the_bank_and_within_the_export(content_dir: Path) -> None:
    plan = plan_export(content_dir, [qa("s.python-gil"), qa("s.python-gil-2")])
    assert [i.id for i in plan.items] == ["python-gil-2", "python-gil-2-2"]
    assert plan_export(content_dir / "none", [qa("s.python-gil")]).items[0].id == "python-gil"


def test_an_id_that_is_not_a_slug_never_names_a_file(tmp_path: Path, content_dir: Path) -> None:
    plan = plan_export(content_dir, [qa("s.../../../etc/passwd", title="../x NUMA 是什么")])
    assert plan.items[0].id == "x-numa" and plan.items[0].files == ("questions/x-numa.md",)
    out = written(tmp_path, plan)
    assert [p.relative_to(out).as_posix() for p in out.rglob("*.md")] == ["questions/x-numa.md"]


def test_no_file_is_written_outside_the_directory(tmp_path: Path) -> None:
    plan = ExportPlan((), (Write(Path("questions/a.md"), "a"), Write(Path("../escape.md"), "x")))
    with pytest.raises(UnsafePath):
        written(tmp_path, plan)
    assert not (tmp_path / "escape.md").exists() and not (tmp_path / "out").exists()
