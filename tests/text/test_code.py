from __future__ import annotations

import pytest

from bot.text.code import extract_code, neutralize


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("```python\ndef f():\n    return 1\n```", "def f():\n    return 1"),
        ("look:\n```py\nx = 1\n```\nthanks", "x = 1"),
        ("```\nprint(2)\n```", "print(2)"),
        ("```python\nx = 1\n", "x = 1"),  # never closed: the rest is the code
        ("```python\n```", ""),
        ("def f():\n    pass", "def f():\n    pass"),  # no fence: all of it
        ("```python\ns = '``'\n```\n```python\nsecond\n```", "s = '``'"),
    ],
)
def test_extract_code(text: str, code: str) -> None:
    assert extract_code(text) == code


def test_neutralize_keeps_text_readable_but_inert() -> None:
    out = neutralize("```\n@everyone @here <@123> <#9> <!channel>")
    assert "```" not in out
    assert "@everyone" not in out and "@here" not in out
    assert "<@" not in out and "<#" not in out and "<!" not in out
    assert out.replace("\u200b", "") == "```\n@everyone @here <@123> <#9> <!channel>"
