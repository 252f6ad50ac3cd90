"""The core never speaks a platform's language: outside its composition root (`bot/cli`),
no module of `bot/` imports an adapter or a chat library, at the top or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.fakes import REPO

PLATFORM = ("adapters", "discord", "slack_bolt", "slack_sdk", "aiohttp")
ROOT = REPO / "bot" / "cli"


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_core_imports_no_adapter_and_no_chat_library() -> None:
    offenders = {
        str(path.relative_to(REPO)): sorted(n for n in imported(path)
                                            if n.split(".")[0] in PLATFORM)
        for path in (REPO / "bot").rglob("*.py")
        if ROOT not in path.parents
    }  # fmt: skip
    assert {p: names for p, names in offenders.items() if names} == {}


def test_the_walk_sees_imports_inside_functions() -> None:
    assert "adapters.console.adapter" in imported(ROOT / "serve.py")
    assert "adapters.discord.invite" in imported(ROOT / "doctor.py")  # inside a function
