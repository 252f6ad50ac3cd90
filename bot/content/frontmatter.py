"""Markdown files with a YAML front matter block, parsed with line numbers kept.

A content file looks like::

    ---
    id: gil
    title: Python全局解释器锁（GIL）是什么？
    ...
    ---
    Markdown body

Faults must name the line they are on, so the YAML is composed into nodes (which carry
marks) before it is turned into Python values; `FrontMatter.line_of` answers for any key,
and `FrontMatter.line_at` for any nested value by its path (`"quiz", 0, "options", 2`): the
line of a mapping key or of a list item's dash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

try:  # libyaml is ~10x faster; the bench loads 10,000 files.
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

FENCE = "---"
KeyPath = tuple[str | int, ...]


class FrontMatterError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True, slots=True)
class FrontMatter:
    data: dict[str, Any]
    key_lines: dict[str, int]
    item_lines: dict[str, tuple[int, ...]]
    body: str
    body_line: int  # the line the body's first line is on
    nested_lines: dict[KeyPath, int]

    def line_of(self, key: str, index: int | None = None) -> int:
        if index is not None and index < len(self.item_lines.get(key, ())):
            return self.item_lines[key][index]
        return self.key_lines.get(key, 1)

    def line_at(self, *path: str | int) -> int:
        """The line of the value at `path`, or of its nearest recorded ancestor."""
        for end in range(len(path), 0, -1):
            if path[:end] in self.nested_lines:
                return self.nested_lines[path[:end]]
        return 1


def parse(text: str) -> FrontMatter:
    """Split `text` into front matter and body; raise `FrontMatterError` with a line."""
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise FrontMatterError(1, "file must start with a '---' front matter block")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == FENCE), None)
    if end is None:
        raise FrontMatterError(1, "front matter is not closed by a '---' line")
    node = _compose("\n".join(lines[1:end]))
    if not isinstance(node, yaml.MappingNode):
        raise FrontMatterError(2, "front matter must be a mapping of keys to values")
    data, key_lines, item_lines = _mapping(node)
    raw_body = "\n".join(lines[end + 1 :])
    body = raw_body.strip("\n")
    leading = raw_body.count("\n", 0, len(raw_body) - len(raw_body.lstrip("\n"))) if body else 0
    nested: dict[KeyPath, int] = {}
    _record_lines(node, (), nested)
    return FrontMatter(data, key_lines, item_lines, body, end + 2 + leading, nested)


def _compose(source: str) -> yaml.Node | None:
    try:
        return yaml.compose(source, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark else 2
        raise FrontMatterError(line, f"invalid YAML: {exc.problem or exc}") from exc


def _mapping(
    node: yaml.MappingNode,
) -> tuple[dict[str, Any], dict[str, int], dict[str, tuple[int, ...]]]:
    constructor = _Loader("")
    data: dict[str, Any] = {}
    key_lines: dict[str, int] = {}
    item_lines: dict[str, tuple[int, ...]] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value)
        line = key_node.start_mark.line + 2  # +1 for the opening fence, +1 for 1-based
        if key in data:
            raise FrontMatterError(line, f"duplicate key '{key}'")
        data[key] = constructor.construct_object(value_node, deep=True)
        key_lines[key] = line
        if isinstance(value_node, yaml.SequenceNode):
            item_lines[key] = tuple(item.start_mark.line + 2 for item in value_node.value)
    return data, key_lines, item_lines


def _record_lines(node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int]) -> None:
    """Every mapping key's and list item's line, by its path from the top."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            here = (*path, str(key_node.value))
            lines[here] = key_node.start_mark.line + 2
            _record_lines(value_node, here, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[(*path, i)] = item.start_mark.line + 2
            _record_lines(item, (*path, i), lines)


def append_to_list(text: str, key: str, items: list[Any]) -> str | None:
    """`text` (a content file) with `items` appended to the block list under the top-level
    `key` of its front matter, every other byte as it was: an import that adds a source
    must not reformat the whole file (the diff is the new source). None where the list is not
    a block list this can extend (a flow list `[a, b]`, or no such key)."""
    lines = text.split("\n")
    if not lines or lines[0] != FENCE or FENCE not in lines[1:]:
        return None
    close = lines.index(FENCE, 1)
    start = next((i for i in range(1, close) if lines[i] == f"{key}:"), None)
    if start is None:
        return None
    end = start + 1
    while end < close and (lines[end].startswith((" ", "-")) or not lines[end].strip()):
        end += 1
    first = lines[start + 1] if start + 1 < end else "  - "
    indent = " " * (len(first) - len(first.lstrip(" ")))
    dumped = yaml.safe_dump(items, allow_unicode=True, sort_keys=False, width=1000)
    added = [indent + line for line in dumped.rstrip("\n").split("\n")]
    return "\n".join([*lines[:end], *added, *lines[end:]])


def dump(data: dict[str, Any], body: str) -> str:
    """Render front matter and body back into a content file, keys in the given order."""
    head = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    return f"{FENCE}\n{head}{FENCE}\n\n{body.strip()}\n"
