"""The bundled question bank in `content/`: complete, attributed, cleaned and corrected.

These tests read the real bank (not a fixture), so they guard the files an editor changes:
the ids, the attribution to the two interview reports, the scraping clean-up (line-number
gutters, flattened tables, noise), the corrections of wrong figures, and the coding
problems' signatures and reference solutions.
"""

from __future__ import annotations

import ast
import itertools
import math
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.content.bank import Bank, read_bank
from bot.errors import ContentError
from bot.content import topics as topic_table
from bot.grading.checkers import fusion_faults
from bot.grades import Reason
from bot.grading.generators import ELEMENTWISE
from bot.types import Kind, Question

REPO = Path(__file__).resolve().parents[2]
CONTENT = REPO / "content"
SEEDS = REPO.parent / "shared" / "seeds"

DOC_NIO = "000_7025d64c92ab19c8.txt"
DOC_BANK = "002_65862a52e5c59db9.txt"
SEED_TITLES = {
    DOC_NIO: "蔚来 AI Infra 实习 一面 (1)",
    DOC_BANK: "AI Infra 综合面经题库 (5)",
}
QA = {
    "cpp-threads-vs-processes": DOC_NIO,
    "attention-problems-and-limits": DOC_NIO,
    "gpu-vs-cpu": DOC_NIO,
    "python-gil": DOC_BANK,
    "python-ipc": DOC_BANK,
    "allreduce-communication-cost": DOC_BANK,
    "tensor-view-vs-contiguous": DOC_BANK,
    "tensor-parallel-column-vs-row": DOC_BANK,
}
CODING = {
    "rotate-matrix": (DOC_NIO, "def rotate(matrix: list[list[int]]) -> None"),
    "fast-power": (DOC_BANK, "def my_pow(x: float, n: int) -> float"),
    "graph-fusion": (DOC_BANK, "def fuse(graph: dict) -> list[list[str]]"),
}
# Written for the bank (no interview report asked it): attributed to the bank itself.
BANK_WRITTEN = {"stable-softmax"}
CORRECTIONS = "## 勘误 (Corrections)"


@pytest.fixture(scope="module")
def bank() -> Bank:
    try:
        return read_bank(CONTENT)
    except ContentError as exc:
        pytest.fail("the bank does not load:\n" + "\n".join(str(f) for f in exc.faults))


@pytest.fixture(scope="module")
def by_id(bank: Bank) -> dict[str, Question]:
    return {q.id: q for q in bank.questions}


def texts(q: Question) -> Iterator[str]:
    """Everything of a question shown to users: the answer, and a problem's statement."""
    yield q.answer
    if q.prompt is not None:
        yield q.prompt


def split_corrections(answer: str) -> tuple[str, str]:
    """The answer before its corrections section, and the section ('' if there is none)."""
    body, _, corrections = answer.partition(CORRECTIONS)
    return body, corrections


def table_row(answer: str, first_cell: str) -> str:
    rows = [line for line in answer.splitlines() if line.startswith(f"| {first_cell} |")]
    assert len(rows) == 1, f"expected one table row starting with {first_cell!r}"
    return rows[0]


def code_block(markdown: str, language: str = "python") -> str:
    match = re.search(rf"^```{language}\n(.*?)^```", markdown, re.M | re.S)
    assert match, f"no ```{language} block"
    return match.group(1)


def solution(q: Question, name: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(compile(code_block(q.answer), f"{q.id}/explanation.md", "exec"), namespace)
    return namespace[name]  # type: ignore[no-any-return]


# --- the bank as a whole ------------------------------------------------------------------


def test_the_bank_has_exactly_the_expected_imported_questions(bank: Bank) -> None:
    """What the reports gave is all there; everything else says it was written for the bank."""
    imported = {q.id: q.kind for q in bank.questions if q.sources}
    assert {i for i, k in imported.items() if k is Kind.QA} == set(QA)
    assert {i for i, k in imported.items() if k is Kind.CODING} == set(CODING)
    written = {q.id for q in bank.questions if not q.sources}
    assert BANK_WRITTEN <= written
    assert len(bank.questions) == len(imported) + len(written) > 12


def test_every_question_is_attributed_to_its_report(by_id: dict[str, Question]) -> None:
    expected = QA | {qid: doc for qid, (doc, _) in CODING.items()}
    for qid, document in expected.items():
        sources = by_id[qid].sources
        assert [s.document for s in sources] == [document], qid
        assert sources[0].title == SEED_TITLES[document], qid
        if document == DOC_NIO:
            assert (sources[0].company, sources[0].role, sources[0].round) == (
                "蔚来", "AI Infra 实习", "一面",
            ), qid  # fmt: skip
        else:
            assert (sources[0].company, sources[0].role, sources[0].round) == (None,) * 3, qid


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed reports are not beside the repo")
def test_source_titles_are_the_first_lines_of_the_reports() -> None:
    for document, title in SEED_TITLES.items():
        first = (SEEDS / document).read_text(encoding="utf-8").splitlines()[0].strip()
        assert first == title


def test_titles_are_the_questions_as_asked(by_id: dict[str, Question]) -> None:
    assert by_id["python-gil"].title == "Python全局解释器锁（GIL）是什么？"
    assert by_id["rotate-matrix"].title == "旋转矩阵（Python实现）"
    for q in by_id.values():
        assert not q.title.startswith(("Q:", "手撕")), q.id
        assert q.title_en, q.id


def test_topics_come_from_the_shared_list(by_id: dict[str, Question]) -> None:
    for q in by_id.values():
        assert set(q.topics) <= topic_table.SLUGS, (q.id, q.topics)


# --- clean-up of the scraped text -----------------------------------------------------------


def test_no_line_number_gutters(by_id: dict[str, Question]) -> None:
    for q in by_id.values():
        for text in texts(q):
            for line in text.splitlines():
                assert not re.fullmatch(r"\s*\d+\s*", line), (q.id, line)
                assert not line.lstrip().startswith("1 |"), (q.id, line)


@pytest.mark.parametrize("path", sorted(CONTENT.rglob("*.md")), ids=lambda p: p.name)
def test_no_scraping_noise(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for noise in ("（编程题）", "发表于", "更新于", "分类于", "•"):
        assert noise not in text, (path, noise)


@pytest.mark.parametrize(
    ("qid", "tables"),
    [
        ("cpp-threads-vs-processes", 1),
        ("attention-problems-and-limits", 1),
        ("gpu-vs-cpu", 1),
        ("python-gil", 1),
        ("python-ipc", 1),
        ("allreduce-communication-cost", 1),
        ("tensor-parallel-column-vs-row", 1),
    ],
)
def test_tables_are_real_markdown_tables(by_id: dict[str, Question], qid: str, tables: int) -> None:
    blocks = [
        list(group)
        for is_row, group in itertools.groupby(
            by_id[qid].answer.splitlines(), key=lambda line: line.startswith("|")
        )
        if is_row
    ]
    assert len(blocks) == tables, qid
    for rows in blocks:
        assert len(rows) >= 3, rows
        assert re.fullmatch(r"\|(?:-{3,}\|)+", rows[1]), rows[1]
        widths = {row.count("|") for row in rows}
        assert len(widths) == 1, rows


def test_flattened_table_headers_were_rebuilt(by_id: dict[str, Question]) -> None:
    assert "| 任务类型 | GIL影响 | 原因 |\n|---|---|---|" in by_id["python-gil"].answer
    assert "| 场景 | 推荐方式 |\n|---|---|" in by_id["python-ipc"].answer
    assert "| 算法 | 通信量（每GPU） | 延迟步数 | 适用场景 |" in (
        by_id["allreduce-communication-cost"].answer
    )
    assert "| 特性 | 列切分 | 行切分 |" in by_id["tensor-parallel-column-vs-row"].answer
    for qid in ("python-gil", "python-ipc", "allreduce-communication-cost"):
        assert "任务类型 GIL影响 原因" not in by_id[qid].answer


def test_scraped_code_is_fenced(by_id: dict[str, Question]) -> None:
    snippet = code_block(by_id["tensor-view-vs-contiguous"].answer)
    assert snippet.startswith("x = torch.randn(3, 4)")
    assert "w = x[:, ::2]" in snippet
    assert "T_ring = 2*(N-1) * α" in code_block(by_id["allreduce-communication-cost"].answer, "")
    diagram = code_block(by_id["tensor-parallel-column-vs-row"].answer, "")
    assert diagram.startswith("MLP: Input → [Column Parallel]")


def test_editorial_completions_are_marked(by_id: dict[str, Question]) -> None:
    gpu = by_id["gpu-vs-cpu"].answer
    assert "CPU: 针对延迟优化(Latency-Optimized)\nGPU: 针对吞吐优化" in gpu
    attention = by_id["attention-problems-and-limits"].answer
    assert "RNN/LSTM: 信息必须逐步传递 → 距离远的信息衰减/遗忘\n   Attention:" in attention
    for answer in (gpu, attention):
        assert "编辑补全" in answer


# --- corrections ----------------------------------------------------------------------------


def test_every_correction_says_what_the_report_said(by_id: dict[str, Question]) -> None:
    corrected = set()
    for q in by_id.values():
        _, corrections = split_corrections(q.answer)
        if not corrections:
            continue
        corrected.add(q.id)
        assert q.answer.count(CORRECTIONS) == 1, q.id
        bullets = [line for line in corrections.splitlines() if line.startswith("- ")]
        assert bullets, q.id
        for bullet in bullets:
            assert bullet.startswith("- 原文：") and "→ 更正" in bullet, (q.id, bullet)
    assert corrected >= {
        "gpu-vs-cpu", "tensor-parallel-column-vs-row", "python-gil", "tensor-view-vs-contiguous",
        "allreduce-communication-cost", "attention-problems-and-limits",
        "cpp-threads-vs-processes",
    }  # fmt: skip


def test_gpu_vs_cpu_figures_are_corrected(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["gpu-vs-cpu"].answer)
    assert "204.8 GB/s" in table_row(body, "内存带宽")
    assert "51 GB/s" not in body
    assert "5.9 TFLOPS" in table_row(body, "单精度算力")
    assert "100倍" not in body and "50 倍" in body
    assert "51 GB/s" in corrections and "204.8 GB/s" in corrections
    assert "~3 TFLOPS" in corrections and "FP64" in corrections
    assert "100倍" in corrections


def test_tensor_parallel_backward_communication_is_corrected(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["tensor-parallel-column-vs-row"].answer)
    backward = table_row(body, "反向通信")
    assert "All-Reduce" in backward and "无需通信" in backward
    assert "reduce-scatter" not in backward and "all-gather" not in backward
    assert "gather_output" in corrections
    column = next(line for line in corrections.splitlines() if "梯度需reduce-scatter" in line)
    assert "All-Reduce" in column
    assert "序列并行" in corrections


def test_gil_switching_is_corrected(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["python-gil"].answer)
    assert "Python 3.2+ 默认每5ms" not in body
    assert "getswitchinterval" in body and "PEP 779" in body
    assert "Python 3.2+ 默认每5ms" in corrections
    assert "100" in corrections and "PEP 779" in corrections


def test_view_precondition_is_corrected(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["tensor-view-vs-contiguous"].answer)
    assert "x.t().view(4, 3)" in body and "stride" in body
    assert "tensor在内存中必须是连续的" in corrections and "stride" in corrections


def test_allreduce_table_and_bandwidths_are_corrected(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["allreduce-communication-cost"].answer)
    assert "2*(N-1)/N * M" in table_row(body, "Recursive Halving-Doubling（Rabenseifner）")
    assert "2*log2(N)" in table_row(body, "Tree AllReduce")
    assert "单向300 GB/s" in body and "900 GB/s" in body
    assert "Rabenseifner" in corrections and "600 GB/s" in corrections


def test_attention_hybrid_example_is_corrected(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["attention-problems-and-limits"].answer)
    row = table_row(body, "局部模式效率低")
    assert "ConvNeXt" not in row and "CoAtNet" in row
    assert "ConvNeXt" in corrections and "纯卷积" in corrections


def test_process_switch_tlb_note(by_id: dict[str, Question]) -> None:
    body, corrections = split_corrections(by_id["cpp-threads-vs-processes"].answer)
    assert "| 上下文切换 | 快（不需刷新TLB） | 慢（需要刷新TLB、切换页表） |" in body
    assert "PCID" in corrections


def test_report_content_is_kept_where_it_was_right(by_id: dict[str, Question]) -> None:
    assert "Py_BEGIN_ALLOW_THREADS" in by_id["python-gil"].answer
    assert "hidden_size=8192, seq_len=2048, batch=1, FP16：每次All-Reduce约32MB" in (
        by_id["tensor-parallel-column-vs-row"].answer
    )
    assert "T_ring = 2*(N-1) * α + 2*(N-1)/N * M / β" in (
        by_id["allreduce-communication-cost"].answer
    )
    assert "multiprocessing.shared_memory（Python 3.8+）" in by_id["python-ipc"].answer
    assert "| 时钟频率 | 2.3-3.4 GHz | 1.4 GHz |" in by_id["gpu-vs-cpu"].answer


# --- coding problems --------------------------------------------------------------------------


@pytest.mark.parametrize("qid", sorted(CODING))
def test_coding_problem_shape(by_id: dict[str, Question], qid: str) -> None:
    q = by_id[qid]
    signature = CODING[qid][1]
    assert q.signature == signature
    assert q.prompt is not None and q.prompt_en is not None
    assert code_block(q.prompt).startswith(signature + ":")
    assert code_block(q.prompt_en).startswith(signature + ":")  # the English statement too
    assert "written for the bank" in q.answer
    assert code_block(q.answer).count(signature + ":") == 1


def test_rotate_reference_rotates_in_place(by_id: dict[str, Question]) -> None:
    rotate = solution(by_id["rotate-matrix"], "rotate")
    matrix = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert rotate(matrix) is None
    assert matrix == [[7, 4, 1], [8, 5, 2], [9, 6, 3]]
    rng = random.Random(0)
    for n in (1, 2, 5, 200):
        matrix = [[rng.randint(-99, 99) for _ in range(n)] for _ in range(n)]
        expected = [list(row) for row in zip(*matrix[::-1], strict=True)]
        rows = list(matrix)
        rotate(matrix)
        assert matrix == expected
        assert all(a is b for a, b in zip(matrix, rows, strict=True))  # same row objects


def test_fast_power_reference_is_exact_and_uses_no_pow(by_id: dict[str, Question]) -> None:
    q = by_id["fast-power"]
    tree = ast.parse(code_block(q.answer))
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Pow))
        assert not (isinstance(node, ast.Name | ast.Attribute) and "pow" in ast.unparse(node))
    my_pow = solution(q, "my_pow")
    cases = [
        (2.0, 10, 1024.0), (2.1, 3, 9.261), (2.0, -2, 0.25), (1.0, -(2**31), 1.0),
        (-1.0, 2**31 - 1, -1.0), (0.5, 2**31 - 1, 0.0), (2.0, -(2**31), 0.0),
        (0.0, 7, 0.0), (-3.0, 0, 1.0), (-2.0, 13, -8192.0), (99.9, 2, 99.9 * 99.9),
        (1.0000001, 2**31 - 1, math.exp((2**31 - 1) * math.log1p(1e-7))),
    ]  # fmt: skip
    for x, n, expected in cases:
        assert math.isclose(my_pow(x, n), expected, rel_tol=1e-6, abs_tol=1e-9), (x, n)


def _partitions(items: list[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    for rest in _partitions(items[1:]):
        for i in range(len(rest)):
            yield [*rest[:i], [items[0], *rest[i]], *rest[i + 1 :]]
        yield [[items[0]], *rest]


def _random_graph(rng: random.Random) -> dict[str, Any]:
    names = ["x0", "x1"]
    nodes = []
    for i in range(rng.randint(1, 7)):
        op = rng.choice([*sorted(ELEMENTWISE), "relu", "add", "matmul", "softmax", "transpose"])
        nodes.append({"name": f"n{i}", "op": op, "inputs": rng.sample(names, rng.randint(1, 2))})
        names.append(f"n{i}")
    used = {src for n in nodes for src in n["inputs"]}
    outputs = [n["name"] for n in nodes if n["name"] not in used or rng.random() < 0.15]
    return {"inputs": ["x0", "x1"], "nodes": nodes, "outputs": outputs}


EXAMPLE_1 = {
    "inputs": ["x", "w", "b"],
    "nodes": [
        {"name": "mm", "op": "matmul", "inputs": ["x", "w"]},
        {"name": "a", "op": "add", "inputs": ["mm", "b"]},
        {"name": "g", "op": "gelu", "inputs": ["a"]},
        {"name": "s", "op": "sigmoid", "inputs": ["a"]},
        {"name": "m", "op": "mul", "inputs": ["g", "s"]},
        {"name": "sm", "op": "softmax", "inputs": ["m"]},
        {"name": "r", "op": "relu", "inputs": ["m"]},
        {"name": "out", "op": "add", "inputs": ["sm", "r"]},
    ],
    "outputs": ["out"],
}
EXAMPLE_2 = {
    "inputs": ["x"],
    "nodes": [
        {"name": "e", "op": "exp", "inputs": ["x"]},
        {"name": "y1", "op": "relu", "inputs": ["e"]},
        {"name": "y2", "op": "tanh", "inputs": ["e"]},
    ],
    "outputs": ["y1", "y2"],
}


def canonical(groups: list[list[str]]) -> list[list[str]]:
    return sorted(sorted(group) for group in groups)


def test_graph_fusion_reference_solves_the_examples(by_id: dict[str, Question]) -> None:
    q = by_id["graph-fusion"]
    fuse = solution(q, "fuse")
    assert canonical(fuse(EXAMPLE_1)) == canonical([["a", "g", "s", "m"], ["r", "out"]])
    assert canonical(fuse(EXAMPLE_2)) == [["e"], ["y1"], ["y2"]]
    assert q.prompt is not None
    assert '[["a", "g", "s", "m"], ["r", "out"]]' in q.prompt
    assert '[["e"], ["y1"], ["y2"]]' in q.prompt


def test_fusion_checker_rejects_bad_groupings() -> None:
    assert fusion_faults(EXAMPLE_2, [["e", "y1"], ["y2"]])  # two members used outside
    assert fusion_faults(EXAMPLE_2, [["e", "y1", "y2"]])
    assert fusion_faults(EXAMPLE_1, [["a", "g", "s", "m", "r", "out"]])  # 'sm' inside
    cyclic = {
        "inputs": ["x"],
        "nodes": [
            {"name": "a", "op": "relu", "inputs": ["x"]},
            {"name": "t", "op": "transpose", "inputs": ["a"]},
            {"name": "b", "op": "add", "inputs": ["a", "t"]},
        ],
        "outputs": ["b"],
    }
    assert Reason.of("reason.groups_cycle") in fusion_faults(cyclic, [["a", "b"]])
    assert fusion_faults(cyclic, [["a"], ["b"]]) == []


def test_graph_fusion_reference_is_valid_and_minimal(by_id: dict[str, Question]) -> None:
    fuse = solution(by_id["graph-fusion"], "fuse")
    rng = random.Random(2024)
    for _ in range(300):
        graph = _random_graph(rng)
        groups = fuse(graph)
        assert fusion_faults(graph, groups) == [], (graph, groups)
        elementwise = [n["name"] for n in graph["nodes"] if n["op"] in ELEMENTWISE]
        valid = [p for p in _partitions(elementwise) if not fusion_faults(graph, p)]
        assert len(groups) == min(len(p) for p in valid), (graph, groups)
