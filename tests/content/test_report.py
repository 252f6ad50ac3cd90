"""Parsing interview reports: the two real seeds and each scraping quirk on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.content.report import Report, clean_answer, is_noise, parse_report, parse_source
from bot.types import Kind, Source

REPORTS = Path(__file__).parent / "reports"
SEED_000 = "000_7025d64c92ab19c8.txt"
SEED_002 = "002_65862a52e5c59db9.txt"


def parse(name: str) -> Report:
    return parse_report((REPORTS / name).read_text(encoding="utf-8"), name)


def answer_of(report: Report, title_part: str) -> str:
    return next(q.answer for q in report.questions if title_part in q.title)


def markdown_tables(text: str) -> list[list[str]]:
    """Each Markdown table in `text` as its lines (a header, a |---| rule, then rows)."""
    lines = text.split("\n")
    starts = [i for i in range(1, len(lines)) if re.fullmatch(r"\|(---\|)+", lines[i])]
    tables = []
    for rule in starts:
        end = rule + 1
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        tables.append(lines[rule - 1 : end])
    return tables


def test_seed_000_has_three_questions_and_one_coding_problem() -> None:
    report = parse(SEED_000)
    assert [(q.kind, q.title) for q in report.questions] == [
        (Kind.QA, "C++多线程和多进程有什么区别？"),
        (Kind.QA, "Attention解决了什么问题？还存在什么缺点？"),
        (Kind.QA, "GPU和CPU的区别？"),
        (Kind.CODING, "旋转矩阵（Python实现）？"),
    ]
    assert report.questions[3].answer == ""  # "（编程题）" is a placeholder, not an answer
    assert all(q.answer for q in report.questions[:3])


def test_seed_000_source_names_company_role_and_round() -> None:
    assert parse(SEED_000).source == Source(
        document=SEED_000, title="蔚来 AI Infra 实习 一面 (1)",
        company="蔚来", role="AI Infra 实习", round="一面",
    )  # fmt: skip


def test_seed_002_has_five_questions_and_two_coding_problems() -> None:
    report = parse(SEED_002)
    assert [(q.kind, q.title) for q in report.questions] == [
        (Kind.QA, "Python全局解释器锁（GIL）是什么？"),
        (Kind.QA, "Python不同进程之间如何通信（IPC）？"),
        (Kind.QA, "AllReduce通信开销具体是怎么计算的？"),
        (Kind.QA, "tensor.view和tensor.contiguous的区别？"),
        (Kind.QA, "张量并行（Tensor Parallelism）中先列切和先行切有什么区别？"),
        (Kind.CODING, "数值的整数次方（快速幂）？"),
        (Kind.CODING, "实现Graph Fusion？"),
    ]
    assert report.source == Source(SEED_002, "AI Infra 综合面经题库 (5)")


def test_scraping_noise_is_dropped() -> None:
    for name in (SEED_002, "fullwidth.txt"):
        report = parse(name)
        assert not any("发表于" in q.answer or "分类于" in q.answer for q in report.questions)


def test_noise_before_the_title_and_inside_an_answer_is_dropped() -> None:
    text = "发表于 更新于 分类于 ，\n蔚来 一面\nQ: 什么是GIL？\n一把锁。\n发表于 2024-01-01\n"
    report = parse_report(text, "r.txt")
    assert report.source.title == "蔚来 一面"
    assert [q.answer for q in report.questions] == ["一把锁。"]


def test_answer_runs_until_the_next_question() -> None:
    gil = answer_of(parse(SEED_002), "GIL")
    assert gil.startswith("GIL（Global Interpreter Lock）是CPython")
    assert gil.endswith("不是Python语言规范的一部分。")
    assert "IPC" not in gil


def test_full_width_q_starts_a_question() -> None:
    report = parse("fullwidth.txt")
    assert [(q.kind, q.title) for q in report.questions] == [
        (Kind.QA, "进程和线程的区别？"),
        (Kind.QA, "什么是零拷贝？"),
        (Kind.CODING, "LRU缓存"),
    ]
    assert report.source == Source(
        "fullwidth.txt", "字节跳动 后端开发 校招 二面 (3)", "字节跳动", "后端开发 校招", "二面"
    )


def test_crlf_trailing_spaces_and_blank_lines_parse_like_the_clean_text(tmp_path: Path) -> None:
    clean = (REPORTS / SEED_000).read_text(encoding="utf-8")
    messy = "\r\n\r\n" + "  \r\n\r\n".join(line + "   " for line in clean.split("\n")) + "\r\n"
    (tmp_path / SEED_000).write_bytes(messy.encode("utf-8"))
    text = (tmp_path / SEED_000).read_bytes().decode("utf-8")
    assert "\r\n" in text
    reparsed = parse_report(text, SEED_000)
    assert reparsed.source == parse(SEED_000).source
    assert [q.title for q in reparsed.questions] == [q.title for q in parse(SEED_000).questions]
    for q in reparsed.questions:
        assert "\r" not in q.answer
        assert not any(line != line.rstrip() for line in q.answer.split("\n"))
        assert "\n\n\n" not in q.answer
    assert markdown_tables(reparsed.questions[0].answer) == markdown_tables(
        parse(SEED_000).questions[0].answer
    )


def test_gutters_become_fenced_code_without_line_numbers() -> None:
    report = parse(SEED_002)
    view = answer_of(report, "tensor.view")
    assert (
        "```\nx = torch.randn(3, 4)        # 连续的\ny = x.t()" in view
        and "w = x[:, ::2]                # 切片后可能不连续\n```" in view
    )
    allreduce = answer_of(report, "AllReduce")
    assert "```\nT_ring = 2*(N-1) * α + 2*(N-1)/N * M / β\n```" in allreduce
    megatron = answer_of(report, "张量并行")
    # Five gutter numbers, five code lines: the blank one between the two diagrams included.
    assert "All-Reduce(f=identity, g=all-reduce)\n\nAttention: Input" in megatron
    assert "```\n\n关键优化" in megatron
    for q in report.questions:
        assert not any(re.fullmatch(r"\d+", line.strip()) for line in q.answer.split("\n"))


def test_one_line_code_remnant_is_unwrapped() -> None:
    report = parse(SEED_000)
    attention = answer_of(report, "Attention")
    assert "\nRNN/LSTM: 信息必须逐步传递 → 距离远的信息衰减/遗忘\n" in attention
    assert "CPU: 针对延迟优化(Latency-Optimized)" in answer_of(report, "GPU和CPU")
    for q in report.questions:
        assert not re.search(r"^\d+ \|", q.answer, re.MULTILINE)
    assert "sendfile(out_fd, in_fd, offset, count)\n" in answer_of(parse("fullwidth.txt"), "零拷贝")


def test_numbered_remnant_lines_become_one_code_block() -> None:
    answer = clean_answer(["代码：", "1 | def f(): |", "2 |     return 1 |"])
    assert answer == "代码：\n\n```\ndef f():\n    return 1\n```"


def test_pipe_table_with_its_rule_is_kept() -> None:
    tables = markdown_tables(answer_of(parse(SEED_000), "C++"))
    assert len(tables) == 1
    assert tables[0][:3] == [
        "| 维度 | 多线程 | 多进程 |",
        "|---|---|---|",
        "| 地址空间 | 共享（同一进程内） | 独立（各进程独立） |",
    ]
    assert len(tables[0]) == 9


def test_pipe_table_without_its_rule_gets_one() -> None:
    answer = answer_of(parse("fullwidth.txt"), "进程和线程")
    assert "| 维度 | 进程 | 线程 |\n|---|---|---|\n| 地址空间 | 独立 | 共享 |\n" in answer


def test_pipe_table_survives_blank_lines_between_its_rows() -> None:
    answer = clean_answer(["| a | b |", "", "|---|---|", "", "| 1 | 2 |", "", "正文"])
    assert answer == "| a | b |\n|---|---|\n| 1 | 2 |\n\n正文"


def test_space_separated_table_is_restored() -> None:
    gil = answer_of(parse(SEED_002), "GIL")
    assert markdown_tables(gil) == [
        [
            "| 任务类型 | GIL影响 | 原因 |",
            "|---|---|---|",
            "| CPU密集型多线程 | 严重，无法利用多核 | 同一时刻只有一个线程执行字节码 |",
            "| IO密集型多线程 | 影响小 | 线程等待IO时释放GIL |",
            "| 单线程 | 无影响 | 不存在锁竞争 |",
        ]
    ]


def test_space_separated_cells_with_spaces_of_their_own_stay_whole() -> None:
    report = parse(SEED_002)
    ipc = markdown_tables(answer_of(report, "IPC"))
    assert ipc[0][3] == "| 大numpy数组共享 | shared_memory / mmap |"
    assert ipc[0][4] == "| 分布式训练 | torch.distributed (NCCL) |"
    assert ipc[0][-1] == "| 简单状态共享 | Manager（低频）/ Value（高频） |"
    allreduce = markdown_tables(answer_of(report, "AllReduce"))
    assert allreduce[0][2] == "| Ring AllReduce | 2*(N-1)/N * M ≈ 2M | 2*(N-1) | N较小，消息大 |"
    assert allreduce[0][4] == "| Recursive Halving-Doubling | 2*M | 2*log(N) | N为2的幂 |"
    tp = markdown_tables(answer_of(report, "张量并行"))
    assert tp[0][0] == "| 特性 | 列切分 | 行切分 |" and len(tp[0]) == 7


def test_chinese_paragraph_without_spaces_is_not_a_table() -> None:
    lines = [
        "第一行是一段没有空格的中文说明文字。",
        "第二行也是一段中文，没有任何空格。",
        "第三行。",
    ]
    assert clean_answer(lines) == "\n".join(lines)


def test_lead_in_and_label_lines_are_not_table_rows() -> None:
    lines = ["对比 如下：", "CPU: 针对延迟优化", "GPU: 针对吞吐优化"]
    assert "|" not in clean_answer(lines)


def test_lines_of_different_widths_are_not_a_table() -> None:
    lines = ["一 二", "三 四 五"]
    assert clean_answer(lines) == "一 二\n三 四 五"


def test_bullets_are_normalised() -> None:
    answer = answer_of(parse("fullwidth.txt"), "进程和线程")
    assert answer.startswith("- 进程是资源分配的单位\n- 线程是调度的单位")
    assert "•" not in answer_of(parse(SEED_002), "IPC")


def test_coding_placeholder_makes_a_coding_problem_without_answer() -> None:
    lru = parse("fullwidth.txt").questions[2]
    assert (lru.kind, lru.answer) == (Kind.CODING, "")


def test_report_without_questions_parses_to_none() -> None:
    assert parse("no_questions.txt").questions == ()


@pytest.mark.parametrize(
    ("title", "company", "role", "round_"),
    [
        ("蔚来 AI Infra 实习 一面 (1)", "蔚来", "AI Infra 实习", "一面"),
        ("AI Infra 综合面经题库 (5)", None, None, None),
        ("腾讯 HR面", "腾讯", None, "HR面"),
        ("阿里 终面（2）", "阿里", None, "终面"),
        ("NVIDIA AI Infra 实习 二面", None, "NVIDIA AI Infra 实习", "二面"),
        ("后端开发 社招", None, "后端开发 社招", None),
        ("字节 后端实习 一面", "字节", "后端实习", "一面"),
        ("面经汇总 一面", None, None, "一面"),
        ("一些随便写的标题", None, None, None),
    ],
)
def test_source_fields_are_read_only_when_the_title_says_them(
    title: str, company: str | None, role: str | None, round_: str | None
) -> None:
    assert parse_source(title, "r.txt") == Source("r.txt", title, company, role, round_)


def test_document_without_title_line_is_titled_by_its_name() -> None:
    report = parse_report("Q: 什么是GIL？\n一把锁。\n", "gil.txt")
    assert report.source.title == "gil.txt"
    assert [q.title for q in report.questions] == ["什么是GIL？"]


@pytest.mark.parametrize(
    ("line", "noise"),
    [
        ("发表于 更新于 分类于 ，", True),
        ("发表于 2024-03-01 更新于 2024-03-02 分类于 面经", True),
        ("GIL在IO时释放", False),
        ("这篇文章发表于去年，内容仍然有用", False),
    ],
)
def test_noise_lines(line: str, noise: bool) -> None:
    assert is_noise(line) is noise
