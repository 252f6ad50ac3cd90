"""Reporting a mistake from the terminal, through the real `studybot console` in a subprocess:
the console has no forms, so the button says the command to type; typing it files the report,
and the local user, who moderates the terminal, pages and resolves it, the note printed as
the direct message it would be."""

from __future__ import annotations

import re
from pathlib import Path

from tests.adapters.console.test_console import studybot


def test_the_button_shows_the_command_and_typing_it_files_a_report(tmp_path: Path) -> None:
    first = studybot(["console"], "/answer python-gil\n", tmp_path)
    assert first.returncode == 0, first.stderr
    found = re.search(r"\[(\d+)\] Report a mistake  → /report python-gil <text>", first.stdout)
    assert found is not None, first.stdout
    script = "\n".join((
        "/answer python-gil", found.group(1),  # pressed: no form here, the command to type
        "/report python-gil The GIL is released during I/O, the text says it is not",
        "/reports", "/resolve 1 Fixed in the explanation, thanks.", "/reports", "",
    ))  # fmt: skip
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "There are no forms here: type /report python-gil <text>" in out
    assert "Thanks! Your report on `python-gil` is with the moderators" in out
    assert "Reported mistake 1 of 1" in out and "released during I/O" in out
    assert "→ /resolve 1 <note>" in out  # the Resolve button, typed
    assert "✉ to you" in out and "Fixed in the explanation, thanks." in out
    assert "Report #1 resolved; the reporter has your note." in out
    assert out.rstrip().endswith("│ No open reports in this server.\n└".rstrip())
