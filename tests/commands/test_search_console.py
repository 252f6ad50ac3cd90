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
