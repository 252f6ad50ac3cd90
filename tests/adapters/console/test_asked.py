"""How often a question was asked, in the console as `studybot console` runs it (a
subprocess over a small bank with known reports): the card's asked line in English and
Chinese, and `/questions sort:asked` turning pages in the most-asked order."""

from __future__ import annotations

from pathlib import Path

from tests.adapters.console.test_console import studybot
from tests.asked import write_asked_bank


def test_the_card_and_the_pages_show_how_often_asked(tmp_path: Path, content_dir: Path) -> None:
    write_asked_bank(content_dir)
    script = "/question kv-cache-size\n/question written-here\n/questions sort:asked\n1\n"
    english = studybot(["console", "--locale", "en"], script, tmp_path, content_dir)
    assert english.returncode == 0, english.stderr
    out = english.stdout
    assert ("│ Frequency: Asked in 3 reports · ByteDance (first round, second round), "
            "Alibaba (second round)\n") in out  # fmt: skip
    assert out.count("│ Frequency:") == 1  # written for the bank: no line
    first, second = out.split("┌ Questions: most asked first\n")[1:]
    assert first.splitlines()[0] == "│ `many-companies` 张量并行怎么切？ · medium · asked ×6"
    assert second.splitlines()[0] == "│ `often-01` 常见题 01 · easy · asked ×1"
    chinese = studybot(["console", "--locale", "zh"], script, tmp_path, content_dir).stdout
    assert "│ 考频: 被 3 篇面经问到 · 字节跳动（一面、二面）、阿里（二面）\n" in chinese
