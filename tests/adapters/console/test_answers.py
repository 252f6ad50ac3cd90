"""Answering an open question from the terminal, through the real `studybot console` in a
subprocess: the console has no forms, so "Answer this" says the command to type; typing it
thanks the member and posts the answer to the terminal with "Use as explanation" (typed as
`/adopt`); the local user, who moderates the terminal, adopts it and `/answer` shows it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.adapters.console.test_console import studybot

REPORT = "字节 AI Infra 实习 一面\nQ: 手撕：环形缓冲区\n"


def test_answer_this_is_typed_posted_and_adopted(tmp_path: Path) -> None:
    drafted = studybot(["console"], f"/import\n{REPORT}/end\n", tmp_path)
    found = re.search(r"`(s\.[a-z0-9.-]+)`", drafted.stdout)
    assert drafted.returncode == 0 and found is not None, drafted.stdout
    item = found.group(1)
    script = "\n".join((
        f"/drafts approve {item}", f"/question {item}", "2",
        f"/contribute {item} Keep a **head** and a tail index, modulo the size.",
        "/adopt 1", f"/answer {item}", "/questions", "",
    ))  # fmt: skip
    result = studybot(["console"], script, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Open question" in out, out
    assert f"Answer this  → /contribute {item} <text>" in out
    assert f"There are no forms here: type /contribute {item} <text>" in out
    assert f"Thanks! Your answer to `{item}` is posted for the group" in out
    assert "Use as explanation  → /adopt 1" in out  # the post, with its button typed
    assert f"Done: the answer is now the explanation of `{item}`" in out
    explained = out.split("Done: the answer", 1)[1]
    assert "Keep a **head** and a tail index" in explained and "Answer by `you`" in explained
