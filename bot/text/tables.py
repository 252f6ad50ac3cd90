"""Markdown tables as aligned monospace blocks, for platforms that render no tables.

Chat platforms show a Markdown table as its raw pipes. In a code block, columns line up only
if they are padded by display width: a Han character takes two columns, so padding by
`len()` would misalign every Chinese table. `wcwidth` measures the width.
"""

from __future__ import annotations

import re

from wcwidth import wcswidth

_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def width(text: str) -> int:
    measured = wcswidth(text)
    return measured if measured >= 0 else len(text)  # non-printables: fall back to length


def tables_to_monospace(markdown: str) -> str:
    """Replace every pipe table in `markdown` (outside code fences) with an aligned code block."""
    lines = markdown.split("\n")
    out: list[str] = []
    i, fenced = 0, False
    while i < len(lines):
        if lines[i].lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and _is_table_start(lines, i):
            end = i + 2
            while end < len(lines) and _is_row(lines[end]):
                end += 1
            rows = [_cells(lines[i])] + [_cells(row) for row in lines[i + 2 : end]]
            out += ["```", *render_table(rows), "```"]
            i = end
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def render_table(rows: list[list[str]]) -> list[str]:
    """Rows of cells as lines padded to each column's display width; a rule under the header."""
    columns = max(len(r) for r in rows)
    rows = [r + [""] * (columns - len(r)) for r in rows]
    widths = [max(width(r[c]) for r in rows) for c in range(columns)]
    lines = [_line(r, widths) for r in rows]
    rule = "  ".join("-" * w for w in widths)
    return [lines[0], rule, *lines[1:]]


def _line(cells: list[str], widths: list[int]) -> str:
    padded = (cell + " " * (w - width(cell)) for cell, w in zip(cells, widths, strict=True))
    return "  ".join(padded).rstrip()


def _is_row(line: str) -> bool:
    return line.strip().startswith("|") and line.strip().endswith("|") and len(line.strip()) > 1


def _is_table_start(lines: list[str], i: int) -> bool:
    return i + 1 < len(lines) and _is_row(lines[i]) and bool(_SEPARATOR.match(lines[i + 1]))


def _cells(line: str) -> list[str]:
    inner = line.strip().removeprefix("|").removesuffix("|")
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", inner)]
