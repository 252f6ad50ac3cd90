from __future__ import annotations

from wcwidth import wcswidth

from bot.text.tables import tables_to_monospace

TABLE = """前言
| 维度 | 多线程 | 多进程 |
|---|---|---|
| 地址空间 | 共享 | 独立（各进程独立） |
| IPC | shm | pipe/socket |
结尾"""


def test_tables_become_code_blocks_aligned_by_display_width() -> None:
    out = tables_to_monospace(TABLE).split("\n")
    assert out[0] == "前言" and out[-1] == "结尾"
    assert out[1] == "```" and out[-2] == "```"
    rows = out[2:-2]
    assert rows[0].split() == ["维度", "多线程", "多进程"]
    assert set(rows[1]) <= {"-", " "}
    # every column starts at the same display column on every row
    starts = {tuple(wcswidth(row[: row.index(cell)]) for cell in row.split()) for row in
              [rows[0], rows[2], rows[3]]}  # fmt: skip
    assert len(starts) == 1


def test_tables_inside_code_fences_are_left_alone() -> None:
    text = "```\n| a | b |\n|---|---|\n| 1 | 2 |\n```"
    assert tables_to_monospace(text) == text


def test_text_without_tables_is_unchanged() -> None:
    text = "a | b\n- item | pipe"
    assert tables_to_monospace(text) == text
