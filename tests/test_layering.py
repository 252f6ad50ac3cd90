"""The core never speaks a platform's language: outside its composition root (`bot/cli`),
no module of `bot/` imports an adapter or a chat library, at the top or inside a function.
And its packages form layers: no two of them import each other, however indirectly."""

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


def package(module: str) -> str:
    """`bot.store.questions` -> `bot.store`; a top-level module is its own package."""
    return ".".join(module.split(".")[:2])


def package_graph(root: Path) -> dict[str, set[str]]:
    """Which package of `bot` imports which other, from every import statement (the
    composition root `bot.cli` and the `bot` package's own entry points included)."""
    graph: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        for name in imported(path):
            if name.split(".")[0] == "bot" and package(name) != package(module) != "bot":
                graph.setdefault(package(module), set()).add(package(name))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while (top := stack.pop()) != node:
                component.append(top)
            if component:
                found.append(sorted([node, *component]))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_packages_of_the_core_have_no_cycles() -> None:
    graph = package_graph(REPO / "bot")
    assert "bot.scheduler" in graph["bot.commands"] and "bot.store" in graph["bot.scheduler"]
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_of_three() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_walk_sees_imports_inside_functions() -> None:
    assert "adapters.console.adapter" in imported(ROOT / "serve.py")
    assert "adapters.discord.invite" in imported(ROOT / "doctor.py")  # inside a function
