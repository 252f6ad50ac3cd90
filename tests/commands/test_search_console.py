"""`/search` in the console on the bundled bank: an id or a hyphenated part of one finds its
item first, Traditional Chinese finds the Simplified text, and English readers see English."""

from __future__ import annotations

from pathlib import Path

from tests.adapters.console.test_console import studybot


def hits(output: str, query: str) -> list[str]:
    """The ids a search listed, in order."""
    block = output.split(f"┌ Search: {query}\n", 1)[1].split("\n└", 1)[0]
    return [line.split("`")[1] for line in block.splitlines() if line[2:3].isdigit()]


def test_an_id_or_a_hyphenated_part_of_one_is_found_first(tmp_path: Path) -> None:
    queries = ["fast-power", "python-gil", "Python-GIL", "communication-cost", "顯存", "顯存碎片"]
    result = studybot(["console"], "".join(f"/search {q}\n" for q in queries), tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert hits(out, "fast-power")[:1] == ["fast-power"], out
    assert hits(out, "python-gil")[:1] == hits(out, "Python-GIL")[:1] == ["python-gil"]
    assert hits(out, "communication-cost")[:1] == ["allreduce-communication-cost"]
    assert len(hits(out, "顯存")) == 5  # Traditional 顯 folds to 显: the 显存 items
    assert hits(out, "顯存碎片") == ["pytorch-caching-allocator"]


def test_an_english_reader_sees_english_hits_and_sources(tmp_path: Path) -> None:
    script = "/search 显存碎片\n/search GIL\n/question cpp-threads-vs-processes\n"
    english = studybot(["console", "--locale", "en"], script, tmp_path).stdout
    hit = english.split("┌ Search: 显存碎片\n", 1)[1].split("\n└", 1)[0]
    assert "**How does PyTorch's CUDA caching allocator work" in hit, hit
    assert not any("\u4e00" <= c <= "\u9fff" for c in hit), hit  # title and snippet English
    gil = english.split("┌ Search: GIL\n", 1)[1].split("\n└", 1)[0]
    assert "What is Python's Global Interpreter Lock (GIL)?" in gil
    assert "From: an interview report in Chinese: NIO AI Infra intern first round (1)" in english
    chinese = studybot(["console", "--locale", "zh"], script, tmp_path).stdout
    assert "**PyTorch 的 CUDA 缓存分配器是怎么工作的" in chinese
    assert "出处: 蔚来 AI Infra 实习 一面 (1)" in chinese
