"""The community bank in the console, as a member at a terminal meets it (a subprocess of
`studybot console` over the bundled bank): a pasted report becomes drafts, the console's
moderator approves one with its button, it is served and searched; the same report read
from a file drafts nothing new; `studybot content load` afterwards keeps the item."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.adapters.console.test_console import studybot

REPORT = Path(__file__).parent / "reports" / "new_questions.txt"
NEW = ("s.nccl-tree-ring", "s.vllm-continuous-batching")


def test_a_pasted_report_becomes_drafts_and_an_approved_one_is_served(tmp_path: Path) -> None:
    text = REPORT.read_text("utf-8")
    script = f"/import\n{text}/end\n/drafts\n1\n/question {NEW[0]}\n/search Tree 算法\n"
    out = studybot(["console"], script, tmp_path)
    assert out.returncode == 0, out.stderr
    assert "2 new draft(s):" in out.stdout and "linked to: `cpp-threads-vs-processes`" in out.stdout
    assert "┌ Draft 1/2: NCCL 的 Tree 算法" in out.stdout
    assert "@\u200beveryone <\u200b@123> <\u200b!here>" in out.stdout  # nobody is pinged
    assert f"Approved `{NEW[0]}`" in out.stdout
    question = out.stdout.split("┌ NCCL 的 Tree 算法和 Ring 算法在延迟上有什么差别？\n", 1)[1]
    assert f"`{NEW[0]}`" in question.split("└", 1)[0]
    assert f"→ /question {NEW[0]}" in out.stdout.split("┌ Search: Tree 算法", 1)[1]

    shutil.copy(REPORT, tmp_path / "report.txt")
    again = studybot(["console"], f"/import report.txt\n/drafts\n/question {NEW[1]}\n", tmp_path)
    assert "new draft" not in again.stdout, again.stdout
    assert f"3 already asked, linked to: `{NEW[0]}`, `{NEW[1]}`" in again.stdout
    assert "┌ Draft 1/1: " in again.stdout and "is a draft" in again.stdout

    loaded = studybot(["content", "load"], "", tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    after = studybot(["console"], f"/question {NEW[0]}\n", tmp_path)
    assert "┌ NCCL 的 Tree 算法和 Ring 算法在延迟上有什么差别？" in after.stdout, after.stdout


def test_a_dropped_form_or_a_report_without_questions_imports_nothing(tmp_path: Path) -> None:
    script = "/import\n随便写写\n/cancel\n/import\n随便写写\n/end\n"
    out = studybot(["console", "--locale", "zh"], script, tmp_path)
    assert "没有导入任何内容。" in out.stdout
    assert "没有找到题目。" in out.stdout
