from __future__ import annotations

import pytest

from bot.text.split import split_markdown


def test_short_text_is_one_chunk() -> None:
    assert split_markdown("短文本", 100) == ["短文本"]


@pytest.mark.parametrize("limit", [80, 200, 2000])
def test_chunks_fit_the_limit_and_keep_every_line(limit: int) -> None:
    lines = [f"第{i}行：Ring AllReduce 的通信量是 2(N-1)/N·M" for i in range(120)]
    chunks = split_markdown("\n".join(lines), limit)
    assert all(len(c) <= limit for c in chunks)
    assert "\n".join(chunks).split("\n") == lines


def test_a_cut_inside_a_code_block_closes_and_reopens_the_fence() -> None:
    code = "\n".join(f"x{i} = {i}" for i in range(60))
    chunks = split_markdown(f"intro\n```python\n{code}\n```\noutro", 200)
    assert len(chunks) > 2
    for chunk in chunks:
        assert chunk.count("```") % 2 == 0
        assert len(chunk) <= 200
    assert chunks[1].startswith("```python\n")
    body = [line for c in chunks for line in c.split("\n") if not line.startswith("```")]
    assert body == ["intro", *code.split("\n"), "outro"]


def test_an_overlong_line_is_broken() -> None:
    chunks = split_markdown("word " * 200, 100)
    assert all(len(c) <= 100 for c in chunks)
    assert " ".join(" ".join(chunks).split()) == " ".join(["word"] * 200)


def test_a_cut_just_after_a_fence_opens_moves_the_opening_and_its_label_on() -> None:
    text = "a" * 60 + "\nOutput:\n```\n" + "y" * 70 + "\n```"
    chunks = split_markdown(text, 100)
    assert chunks == ["a" * 60, "Output:\n```\n" + "y" * 70 + "\n```"]
