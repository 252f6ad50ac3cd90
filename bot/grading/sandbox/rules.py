"""Checks on a solution's syntax tree, made before the restricted compiler sees it.

- A top-level `if __name__ == "__main__":` block is dropped (with a note): solutions pasted
  from an editor often carry one, and RestrictedPython would refuse its underscore name.
- `from __future__ import annotations` is dropped too, and annotated assignments
  (`seen: set[int] = set()`, which RestrictedPython refuses) become plain ones: annotations
  never change what a solution computes.
- A problem's banned constructs are found on the tree, never in the text, so a comment or a
  string mentioning `pow` is fine, and `import math as m; m.pow(...)` is still caught.
  Rules: `**` (the operator, `**=` included), a builtin name such as `pow`, or a dotted
  name such as `math.pow` or `numpy.linalg.matrix_power` (however the module or the name was
  imported). A ban covers its whole family (bans.py), which is also absent at run time.
- A keyword argument named with a leading underscore (`f(__array_interface__=d)`) is
  refused, as an attribute of that name is: a library class may store keywords as
  attributes. RestrictedPython checks the names a solution binds, not the ones it passes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from bot.grading.sandbox.bans import expand


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    line: int


def drop_main_block(tree: ast.Module) -> list[str]:
    """Remove `if __name__ == "__main__":` and `from __future__` at top level; say what went."""
    notes, kept = [], []
    for node in tree.body:
        if _is_main_guard(node):
            notes.append(f'line {node.lineno}: the `if __name__ == "__main__":` block was '
                         "not run (only the function is graded)")  # fmt: skip
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        else:
            kept.append(node)
    tree.body = kept
    return notes


class _PlainAssignments(ast.NodeTransformer):
    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt:
        if node.value is None:  # a bare declaration: `count: int`
            return ast.copy_location(ast.Pass(), node)
        plain = ast.Assign(targets=[node.target], value=node.value)
        return ast.copy_location(plain, node)


def strip_annotations(tree: ast.Module) -> None:
    _PlainAssignments().visit(tree)
    ast.fix_missing_locations(tree)


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    sides = [node.test.left, *node.test.comparators]
    names = {s.id for s in sides if isinstance(s, ast.Name)}
    texts = {s.value for s in sides if isinstance(s, ast.Constant)}
    return names == {"__name__"} and texts == {"__main__"}


def underscore_keyword(tree: ast.Module) -> tuple[str, int] | None:
    """The first keyword argument whose name starts with `_`, and its line."""
    found = [(n.arg, n.lineno) for n in ast.walk(tree)
             if isinstance(n, ast.keyword) and n.arg is not None and n.arg[:1] == "_"]  # fmt: skip
    return min(found, key=lambda f: f[1]) if found else None


def find_banned(tree: ast.Module, banned: tuple[str, ...]) -> Violation | None:
    """The first use of a banned construct or its equivalents (bans.py), in source order."""
    if not banned:
        return None
    banned = tuple(expand(banned))
    aliases = _import_aliases(tree)
    for node in sorted(_walk(tree), key=lambda n: (n.lineno, n.col_offset)):
        for rule in _rules_of(node, aliases):
            if rule in banned:
                return Violation(rule, node.lineno)
    return None


def _walk(tree: ast.Module) -> list[ast.expr | ast.stmt]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.expr | ast.stmt)]


def _import_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> dotted origin: `import math as m` gives m -> math;
    `from math import pow as p` gives p -> math.pow."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    return aliases


def _rules_of(node: ast.AST, aliases: dict[str, str]) -> list[str]:
    if isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Pow):
        return ["**"]
    if isinstance(node, ast.Name):
        return [aliases.get(node.id, node.id)]
    if isinstance(node, ast.Attribute):
        dotted = _dotted(node)
        if dotted is not None:
            head, _, rest = dotted.partition(".")
            return [f"{aliases.get(head, head)}.{rest}"]
    if isinstance(node, ast.ImportFrom) and node.module:
        return [f"{node.module}.{a.name}" for a in node.names]
    return []


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` as text, or None when the chain does not start at a name (`f().b`)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])
