"""`studybot content import`: real reports into a real content directory, read back with
`read_bank`. The command is driven through click's runner; the bank is files in tmp_path."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bot.cli.importing import import_command
from bot.content import frontmatter
from bot.content.bank import read_bank
from bot.content.importer import plan_import, slug_for
from bot.content.matching import normalise_title, similarity
from bot.types import Kind, Question
from tests.fakes import REPO

REPORTS = Path(__file__).parent / "reports"
SEED_000 = "000_7025d64c92ab19c8.txt"
SEED_002 = "002_65862a52e5c59db9.txt"


@pytest.fixture
def reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copies of the fixture reports; the working directory is tmp_path (no stray .env)."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "reports"
    shutil.copytree(REPORTS, folder)
    return folder


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return tmp_path / "content"


def run(content: Path, *args: str | Path) -> Result:
    env = {"STUDYBOT_CONTENT_DIR": str(content)}
    return CliRunner().invoke(import_command, [str(a) for a in args], env=env)


def run_json(content: Path, *args: str | Path) -> tuple[int, dict[str, Any]]:
    result = run(content, "--json", *args)
    return result.exit_code, json.loads(result.stdout)


def snapshot(root: Path) -> dict[str, bytes]:
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def by_title(root: Path) -> dict[str, Question]:
    return {q.title: q for q in read_bank(root).questions}


def write_bank_file(root: Path, data: dict[str, Any], body: str) -> Path:
    path = root / "questions" / f"{data['id']}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(frontmatter.dump(data, body), encoding="utf-8")
    return path


def test_import_into_empty_content_dir_gives_a_valid_bank(reports: Path, content: Path) -> None:
    result = run(content, reports / SEED_000, reports / SEED_002)
    assert result.exit_code == 0, result.output
    questions = read_bank(content).questions
    assert len(questions) == 11
    assert sum(q.kind is Kind.CODING for q in questions) == 3
    gil = by_title(content)["Python全局解释器锁（GIL）是什么？"]
    assert gil.id == "python-gil" and "python" in gil.topics
    assert "| 任务类型 | GIL影响 | 原因 |\n|---|---|---|" in gil.answer
    nio = by_title(content)["C++多线程和多进程有什么区别？"].sources[0]
    assert (nio.document, nio.company, nio.round) == (SEED_000, "蔚来", "一面")
    assert nio.role == "AI Infra 实习"


def test_coding_problems_are_stubs_with_todo_notes(reports: Path, content: Path) -> None:
    assert run(content, reports / SEED_000).exit_code == 0
    problem = by_title(content)["旋转矩阵（Python实现）？"]
    assert problem.kind is Kind.CODING
    assert problem.signature == "def solve() -> None"
    assert problem.prompt is not None and "TODO" in problem.prompt
    assert "TODO" in problem.answer
    assert (content / "problems" / problem.id / "explanation.md").is_file()


def test_human_summary_lists_each_question(reports: Path, content: Path) -> None:
    first = run(content, reports / SEED_002)
    assert "new → " in first.output and "python-gil.md" in first.output
    second = run(content, reports / SEED_002)
    assert "duplicate of python-gil (source already listed)" in second.output
    assert second.output.count("duplicate of") == 7


def test_importing_the_same_report_twice_creates_no_duplicates(
    reports: Path, content: Path
) -> None:
    assert run(content, reports / SEED_000, reports / SEED_002).exit_code == 0
    before = snapshot(content)
    code, out = run_json(content, reports / SEED_000, reports / SEED_002)
    assert code == 0
    ids = {q.id for q in read_bank(content).questions}
    questions = [q for f in out["files"] for q in f["questions"]]
    assert len(questions) == 11
    assert all(q["duplicate_of"] in ids for q in questions)
    assert snapshot(content) == before


def test_near_duplicate_adds_the_source_to_the_existing_file(reports: Path, content: Path) -> None:
    assert run(content, reports / SEED_002).exit_code == 0
    gil_path = content / "questions" / "python-gil.md"
    before = frontmatter.parse(gil_path.read_text(encoding="utf-8"))
    code, out = run_json(content, reports / "near_duplicate.txt")
    assert code == 0
    outcomes = [(q["title"], q["duplicate_of"]) for q in out["files"][0]["questions"]]
    power = read_bank(content)  # still valid after the rewrite
    power_id = next(q.id for q in power.questions if q.title.startswith("数值的整数次方"))
    assert outcomes == [
        ("Python的全局解释器锁(GIL)是什么", "python-gil"),
        ("数值的整数次方", power_id),
        ("讲一下你做过的项目", None),
    ]
    after = frontmatter.parse(gil_path.read_text(encoding="utf-8"))
    assert after.body == before.body
    assert {k: v for k, v in after.data.items() if k != "sources"} == {
        k: v for k, v in before.data.items() if k != "sources"
    }
    assert after.data["sources"] == [
        *before.data["sources"],
        {"document": "near_duplicate.txt", "title": "美团 基础架构 社招 三面",
         "company": "美团", "role": "基础架构 社招", "round": "三面"},
    ]  # fmt: skip
    assert len(by_title(content)["数值的整数次方（快速幂）？"].sources) == 2


def test_source_is_appended_to_a_hand_written_file_keeping_every_other_key(
    reports: Path, content: Path
) -> None:
    data = {
        "id": "gil", "title": "Python 全局解释器锁 (GIL) 是什么?", "title_en": "What is the GIL?",
        "kind": "qa", "difficulty": "hard", "topics": ["python"],
        "sources": [{"document": "old.txt", "title": "旧的面经"}],
    }  # fmt: skip
    body = "A reviewed answer.\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    path = write_bank_file(content, data, body)
    assert run(content, reports / SEED_002).exit_code == 0
    after = frontmatter.parse(path.read_text(encoding="utf-8"))
    assert after.body == body
    assert list(after.data) == list(data)
    assert after.data["title_en"] == "What is the GIL?" and after.data["difficulty"] == "hard"
    assert [s["document"] for s in after.data["sources"]] == ["old.txt", SEED_002]
    assert not (content / "questions" / "python-gil.md").exists()
    read_bank(content)


def test_duplicates_within_one_batch_share_one_file(
    reports: Path, content: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy_of_002.txt"
    copy.write_text((reports / SEED_002).read_text(encoding="utf-8"), encoding="utf-8")
    code, out = run_json(content, reports / SEED_002, copy)
    assert code == 0
    first, second = out["files"]
    assert all(q["duplicate_of"] is None for q in first["questions"])
    ids = {title: q.id for title, q in by_title(content).items()}
    assert [q["duplicate_of"] for q in second["questions"]] == [
        ids[q["title"]] for q in second["questions"]
    ]
    assert len(read_bank(content).questions) == 7
    gil = by_title(content)["Python全局解释器锁（GIL）是什么？"]
    assert [s.document for s in gil.sources] == [SEED_002, "copy_of_002.txt"]


def test_same_question_twice_in_one_report_is_one_question(tmp_path: Path, content: Path) -> None:
    report = tmp_path / "twice.txt"
    text = "某公司 一面\nQ: 什么是GIL？\n一把锁。\nQ：什么是 GIL\n还是一把锁。\n"
    report.write_text(text, encoding="utf-8")
    code, out = run_json(content, report)
    assert code == 0
    first, second = out["files"][0]["questions"]
    assert first["duplicate_of"] is None and second["duplicate_of"] is not None
    assert len(read_bank(content).questions[0].sources) == 1


def test_ids_avoid_collisions_with_the_bank(reports: Path, content: Path) -> None:
    taken = {
        "id": "python-gil", "title": "完全不同的问题", "kind": "qa", "difficulty": "easy",
        "topics": ["os"], "sources": [{"document": "x.txt", "title": "x"}],
    }  # fmt: skip
    write_bank_file(content, taken, "答案")
    assert run(content, reports / SEED_002).exit_code == 0
    assert by_title(content)["Python全局解释器锁（GIL）是什么？"].id == "python-gil-2"


def test_document_without_questions_is_rejected_and_nothing_is_written(
    reports: Path, content: Path
) -> None:
    code, out = run_json(content, reports / "no_questions.txt")
    assert code == 1
    assert snapshot(content) == {}
    assert out == {
        "files": [
            {
                "path": str(reports / "no_questions.txt"),
                "rejected": True,
                "error": out["files"][0]["error"],
                "questions": [],
            }
        ]
    }
    assert "no_questions.txt" in out["files"][0]["error"]
    assert "no questions" in out["files"][0]["error"]


def test_other_files_are_imported_when_one_is_rejected(reports: Path, content: Path) -> None:
    code, out = run_json(content, reports / "no_questions.txt", reports / SEED_000)
    assert code == 1
    assert [f["rejected"] for f in out["files"]] == [True, False]
    assert len(read_bank(content).questions) == 4


def test_json_shape_is_exactly_as_documented(reports: Path, content: Path) -> None:
    code, out = run_json(content, reports / SEED_000)
    assert code == 0
    assert list(out) == ["files"]
    (file,) = out["files"]
    assert set(file) == {"path", "rejected", "error", "questions"}
    assert (file["path"], file["rejected"], file["error"]) == (str(reports / SEED_000), False, None)
    keys = {"title", "kind", "id", "duplicate_of", "reworded"}
    assert [set(q) for q in file["questions"]] == [keys] * 4
    assert [q["kind"] for q in file["questions"]] == ["qa", "qa", "qa", "coding"]


def test_non_utf8_and_missing_files_are_rejected(tmp_path: Path, content: Path) -> None:
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("蔚来 一面\nQ: 什么是GIL？\n".encode("gbk"))
    code, out = run_json(content, latin, tmp_path / "missing.txt")
    assert code == 1
    errors = [f["error"] for f in out["files"]]
    assert "not UTF-8 text" in errors[0] and "latin1.txt" in errors[0]
    assert "cannot read" in errors[1] and "missing.txt" in errors[1]
    assert snapshot(content) == {}


def test_dry_run_writes_nothing_but_reports_the_same_plan(reports: Path, content: Path) -> None:
    code, dry = run_json(content, "--dry-run", reports / SEED_000, reports / SEED_002)
    assert code == 0
    assert snapshot(content) == {}
    code, real = run_json(content, reports / SEED_000, reports / SEED_002)
    assert dry == real
    assert "dry run" in run(content, "--dry-run", reports / SEED_000).output


def test_out_option_overrides_the_content_dir(reports: Path, content: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    assert run(content, "--out", other, reports / SEED_000).exit_code == 0
    assert len(read_bank(other).questions) == 4
    assert snapshot(content) == {}


def test_plan_import_matches_the_cli(reports: Path, content: Path) -> None:
    plan = plan_import(content, [reports / SEED_000])
    assert [q.duplicate_of for q in plan.files[0].questions] == [None] * 4
    assert {w.path.name for w in plan.writes} >= {"problem.md", "explanation.md"}
    assert len(plan.writes) == 5  # three questions, one problem with its explanation


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Q: Python全局解释器锁（GIL）是什么？", "python全局解释器锁(gil)"),
        ("手撕：旋转矩阵", "旋转矩阵"),
        ("tensor.view 和 tensor.contiguous 的区别?", "tensorview和tensorcontiguous区别"),
        ("讲一下Python的GIL？", "pythongil"),
        ("Python的GIL是什么？", "pythongil"),
        ("请简单介绍一下 NCCL", "nccl"),
    ],
)
def test_normalise_title(a: str, b: str) -> None:
    assert normalise_title(a) == b


def test_similarity_threshold_separates_rewording_from_other_questions() -> None:
    gil = normalise_title("Python全局解释器锁（GIL）是什么？")
    assert similarity(gil, normalise_title("Python的全局解释器锁GIL是什么")) >= 0.85
    assert similarity(gil, normalise_title("Python不同进程之间如何通信（IPC）？")) < 0.85
    power = normalise_title("数值的整数次方（快速幂）")
    assert similarity(power, normalise_title("数值的整数次方")) == 1.0


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Python全局解释器锁（GIL）是什么？", "python-gil"),
        ("tensor.view和tensor.contiguous的区别？", "tensor-view-contiguous"),
        ("实现Graph Fusion？", "graph-fusion"),
    ],
)
def test_slug_from_english_words(title: str, slug: str) -> None:
    assert slug_for(title) == slug


def test_slug_without_telling_english_is_a_stable_hash() -> None:
    assert slug_for("数值的整数次方（快速幂）？") == slug_for("数值的整数次方（快速幂）？")
    assert slug_for("数值的整数次方（快速幂）？").startswith("q-")
    assert len(slug_for("数值的整数次方（快速幂）？")) == len("q-") + 8
    assert slug_for("旋转矩阵（Python实现）？").startswith("python-")


REPORT_IN_SEED_STYLE = """某大厂 AI Infra 实习 一面
Q1：讲一下Python的GIL？
GIL 是 CPython 的全局解释器锁。

Q2：介绍一下 KV cache
推理时缓存每层的 K 和 V。

手撕：实现一个LRU缓存
手写：快速排序
代码题：二叉树层序遍历

反问
问了团队做什么，面试官说做训练框架。

总结
整体偏基础，八股为主。

感受：面试官人很好。
"""


def test_a_report_in_the_seeds_style_imports_as_a_new_user_expects(
    tmp_path: Path, content: Path
) -> None:
    """Coding lines of their own are problems; the closing sections are nobody's answer; a
    reworded question of the bank is its likely duplicate, not `python-gil-2`."""
    shutil.copytree(REPORTS.parent.parent.parent / "content", content)
    report = tmp_path / "report.txt"
    report.write_text(REPORT_IN_SEED_STYLE, encoding="utf-8")
    code, out = run_json(content, report)
    assert code == 0
    found = {q["title"]: q for q in out["files"][0]["questions"]}
    assert list(found) == ["讲一下Python的GIL？", "介绍一下 KV cache", "实现一个LRU缓存",
                           "快速排序", "二叉树层序遍历"]  # fmt: skip
    gil = found["讲一下Python的GIL？"]
    assert (gil["duplicate_of"], gil["reworded"]) == ("python-gil", True)
    assert [found[t]["kind"] for t in list(found)[2:]] == ["coding"] * 3
    bank = {q.id: q for q in read_bank(content).questions}
    kv = bank[found["介绍一下 KV cache"]["id"]]
    assert kv.answer == "推理时缓存每层的 K 和 V。"  # not the 反问/总结/感受 sections
    assert kv.topics == ("inference",)
    assert found["实现一个LRU缓存"]["duplicate_of"] == "lru-cache"  # the bank's own problem
    for title in list(found)[3:]:
        problem = bank[found[title]["id"]]
        assert problem.status.value == "draft" and problem.topics == ("algorithms",)
    assert any("reworded" in line and "python-gil" in line
               for line in run(content, "--dry-run", report).stdout.splitlines())


@pytest.mark.parametrize(
    "line",
    ["反问", "反问：团队做什么", "【反问】", "## 总结", "总结", "总结：", "感受：还行", "面试感受",
     "整体感受：偏基础"],
)
def test_closing_sections_end_the_last_answer(line: str) -> None:
    from bot.content.report import parse_report

    (q,) = parse_report(f"标题\nQ: 什么是 NCCL？\nNCCL 是通信库。\n{line}\n感想一二\n", "x").questions
    assert q.answer == "NCCL 是通信库。"


def test_a_summary_line_with_text_stays_in_its_answer() -> None:
    from bot.content.report import parse_report

    text = "标题\nQ: ring 还是 tree？\n各有优劣。\n总结：大消息用 ring。\n"
    (q,) = parse_report(text, "x").questions
    assert q.answer.endswith("总结：大消息用 ring。")


def test_a_question_no_keyword_places_borrows_the_nearest_items_topic(content: Path) -> None:
    """Items written for the bank (`source: original`) count as the bank too."""
    from bot.content.importer import guess_topics, scan_bank

    shutil.copytree(REPORTS.parent.parent.parent / "content", content)
    entries, _ = scan_bank(content)
    # No keyword names a topic: the bank's items whose titles share the rarest words lend theirs.
    assert guess_topics("慢节点怎么发现？", Kind.QA, entries) == ["reliability"]
    assert guess_topics("SwiGLU是什么？", Kind.QA, entries) == ["transformers"]
    assert guess_topics("讲讲你的项目", Kind.QA, entries) == ["uncategorized"]
    assert guess_topics("随便问问", Kind.QA, ()) == ["uncategorized"]
    assert guess_topics("实现一个跳表", Kind.CODING, entries) == ["algorithms"]


def test_an_item_written_for_the_bank_is_matched_and_keeps_its_attribution(
    tmp_path: Path, content: Path
) -> None:
    shutil.copytree(REPORTS.parent.parent.parent / "content", content)
    report = tmp_path / "report.txt"
    report.write_text("某司 一面\nQ: 讲一下 SwiGLU 是什么？为什么 LLaMA 的 FFN 中间维是 2/3 × 4h？\n"
                      "门控。\n", encoding="utf-8")  # fmt: skip
    before = snapshot(content)
    code, out = run_json(content, report)
    (q,) = out["files"][0]["questions"]
    assert code == 0 and q["duplicate_of"] == "swiglu-ffn" and q["reworded"]
    assert snapshot(content) == before  # nothing new, and `source: original` untouched


@pytest.mark.parametrize(("title", "shape"), [
    ("Q: " + "x" * 100_000 + "?", r"x{24}-[0-9a-f]{8}"),
    ("Q: NaN?", r"nan-[0-9a-f]{8}"),
    ("Q: True or false?", r"true-or-false"),
])  # fmt: skip
def test_an_id_is_a_short_file_name_yaml_reads_as_text(
    tmp_path: Path, content: Path, monkeypatch: pytest.MonkeyPatch, title: str, shape: str
) -> None:
    """A title that is one endless token, or a word YAML would read as a number."""
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "odd.txt"
    report.write_text(f"某公司 一面\n{title}\n一些回答。\n", encoding="utf-8")
    result = run(content, report)
    assert result.exit_code == 0, result.output
    (question,) = read_bank(content).questions
    assert re.fullmatch(shape, question.id), question.id
    assert (content / "questions" / f"{question.id}.md").is_file()


def test_a_duplicate_gains_its_source_and_not_a_byte_more(tmp_path: Path, content: Path) -> None:
    """The file of an item a report asks again changes by the new source's lines only: its
    flow lists and quoting stay as written, so the diff says what happened."""
    shutil.copytree(REPO / "content" / "questions", content / "questions")
    path = content / "questions" / "allreduce-communication-cost.md"
    before = path.read_text(encoding="utf-8")
    report = tmp_path / "r.md"
    report.write_text("# 某公司 AI Infra 一面\n\nQ1: AllReduce通信开销具体是怎么计算的？\n",
                      encoding="utf-8")  # fmt: skip
    assert run(content, report).exit_code == 0
    after = path.read_text(encoding="utf-8")
    added = [line for line in after.split("\n") if line not in before.split("\n")]
    assert added == ["  - document: r.md", "    title: 某公司 AI Infra 一面", "    round: 一面"]
    assert len(after.split("\n")) == len(before.split("\n")) + 3


def test_an_unmarked_coding_question_links_to_the_banks_problem(
    tmp_path: Path, content: Path
) -> None:
    shutil.copytree(REPO / "content" / "problems" / "lru-cache", content / "problems" / "lru-cache")
    report = tmp_path / "r.md"
    report.write_text("某厂 二面\nQ1: 实现一个 LRU 缓存\n", encoding="utf-8")
    code, out = run_json(content, report)
    assert code == 0
    [planned] = out["files"][0]["questions"]
    assert planned["duplicate_of"] == "lru-cache"
    assert not (content / "questions").exists()  # nothing new written


def test_a_title_of_invisible_characters_is_no_question(tmp_path: Path, content: Path) -> None:
    report = tmp_path / "r.md"
    report.write_text("某厂 一面\nQ1: \u200b\u200b\u2060\nQ2: 讲讲\u200b GIL\n", encoding="utf-8")
    code, out = run_json(content, report)
    assert code == 0
    assert [q["title"] for q in out["files"][0]["questions"]] == ["讲讲 GIL"]
    only = tmp_path / "blank.md"
    only.write_text("某厂 一面\nQ1: \u200b\n", encoding="utf-8")
    code, out = run_json(content, only)
    assert code == 1 and "no questions found" in out["files"][0]["error"]


def test_utf16_is_named_and_the_summary_names_what_was_rejected(
    tmp_path: Path, content: Path
) -> None:
    report = tmp_path / "u16.md"
    report.write_bytes("某厂 一面\nQ1: 什么是 GIL？\n".encode("utf-16"))
    result = run(content, report)
    assert result.exit_code == 1
    assert "u16.md:1: the file is UTF-16 text; save it as UTF-8" in result.stdout
    assert result.stdout.rstrip().endswith(
        f"0 new, 0 duplicate(s) imported into {content}; 1 report file(s) rejected"
    )
