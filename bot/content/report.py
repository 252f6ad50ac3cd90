"""Parsing a scraped interview report (面经) into questions: pure functions over text.

A report is plain text copied from a blog, so it arrives with the blog's debris::

    蔚来 AI Infra 实习 一面 (1)          title line: company, role, round (when it can tell)
    发表于 更新于 分类于 ，               the blog's meta line: noise
    Q: C++多线程和多进程有什么区别？      a question; its answer runs until the next Q
    | a | b |                              a table, with or without its |---| rule
    任务类型 GIL影响 原因                  a table flattened to space-separated cells
    1                                      a code block's line-number gutter: n numbers,
    2                                      then n lines of code
    1 | RNN/LSTM: ... |                    a one-line code block, gutter and frame fused
      • item                               a bullet
    Q: 手撕：旋转矩阵？                    a coding problem; its answer is "（编程题）"
    手撕：实现 LRU 缓存                    a coding problem on a line of its own (also 手写,
                                           代码题, 编程题, coding)
    反问 / 总结 / 感受：...                the interview's closing sections: they end the
                                           last answer and are not questions

The answer is rebuilt in three passes. The gutters go first, because they say exactly which
lines are code and nothing else in a code block may be touched. The text between code blocks
is then cleaned line by line (remnants, bullets, indentation) and scanned for tables. Last,
the blocks are rendered as Markdown with a blank line between them, since a table or a fence
glued to a paragraph is not a table or a fence to most renderers.

Table restoration is conservative. A pipe table is certain. A space-separated one is guessed
only from a run of at least two consecutive lines that split into the same number (at least
two) of cells: Chinese prose has no spaces, so its lines are one cell and never a table. A few
joins keep a cell whole when it has spaces of its own ("shared_memory / mmap", "torch.distributed
(NCCL)"), and adjacent English words ("Ring AllReduce") are joined only when that is the one
way to reach the header's width. Anything else stays text: a table left flat is a nuisance, a
paragraph turned into a table is a lie.

Nothing here does I/O, so an async caller can run `parse_report` in a thread.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from bot.types import Kind, Source

CODING_MARK = "手撕"
ROLE_MARKERS = ("实习", "校招", "社招")
NOISE_WORDS = ("发表于", "更新于", "分类于", "阅读次数", "阅读量", "字数统计", "阅读时长")
# Words that make a title a collection, not one company's interview.
NOT_A_COMPANY = ("面经", "题库", "汇总", "合集", "总结", "整理", "综合")

_Q_LINE = re.compile(r"^Q\d*\s*[:：]\s*(.*)$")
_CODING_LINE = re.compile(r"^(?:手撕|手写|代码题|编程题|coding)\s*(?:代码|题)?\s*[:：]\s*(\S.*)$",
                          re.IGNORECASE)  # fmt: skip
# The interview's closing sections. "反问：…" and "感受：…" with text are sections too; "总结：…"
# with text may be the last line of an answer, so only a heading (总结 alone) ends one.
_SECTION = re.compile(r"^(?:#+\s*)?[【\[]?(?:(?:反问|感受|面试感受|整体感受|个人感受|面后感|面试体验)"
                      r"(?:环节)?[】\]]?\s*(?:[:：].*)?|(?:总结|面试总结|心得)[】\]]?\s*[:：]?)$")  # fmt: skip
_CODING_PREFIX = re.compile(rf"^{CODING_MARK}\s*[:：]?\s*")
_CODING_PLACEHOLDER = re.compile(r"^[（(]\s*编程题\s*[)）]$")
_ROUND = re.compile(r"^(?:[一二三四五六七八九]|HR|hr|终|加|交叉|主管|技术)面$")
_SEQUENCE_SUFFIX = re.compile(r"\s*[(（]\d+[)）]$")
_NOISE = re.compile("|".join(NOISE_WORDS))
_REMNANT = re.compile(r"^(\d+)\s*\| ?([^|]*?)\s*\|$")
_BULLET = re.compile(r"^[•●▪◦·]\s*")
_LIST_ITEM = re.compile(r"^(?:[-*+]\s|\d+[.)、](?!\d)|#)")
_PIPE_ROW = re.compile(r"^\|.*\|$")
_PIPE_RULE = re.compile(r"^\|[\s:|-]*-[\s:|-]*\|$")
_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9.\-]*$")
# A token that is only an operator binds its neighbours into one cell; so does a token that
# ends with one (binds the next) or starts with one or with an opening bracket (binds the last).
_OPERATORS = frozenset({"/", "*", "+", "-", "=", "≈", "→", "->", "×", "~", "&"})
_BINDS_NEXT = tuple("/*+=≈→×,，、&")
_BINDS_LAST = tuple("/*+=≈→×,，、&)）(（")

BlockKind = Literal["text", "code", "table"]
_Finder = Callable[[list[str], int], "tuple[list[str], int] | None"]


@dataclass(frozen=True, slots=True)
class ReportQuestion:
    """One question of a report. `answer` is Markdown, "" when the report gives none."""

    title: str
    kind: Kind
    answer: str


@dataclass(frozen=True, slots=True)
class Report:
    source: Source
    questions: tuple[ReportQuestion, ...]


@dataclass(frozen=True, slots=True)
class _Block:
    kind: BlockKind
    lines: tuple[str, ...]


def parse_report(text: str, document: str) -> Report:
    """Split a report's text into its source and questions (none if it has no Q: lines)."""
    lines = [line for line in _lines(text) if not is_noise(line)]
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if start < len(lines) and not _Q_LINE.match(lines[start].strip()):
        # a Markdown report's title is a heading: its marks are not part of the name
        title, start = lines[start].strip().lstrip("#").strip() or document, start + 1
    else:  # no title line: the file's name is the best title there is
        title = document
    questions = tuple(_question(t, body) for t, body in _split(lines[start:]))
    return Report(parse_source(title, document), questions)


def parse_source(title: str, document: str) -> Source:
    """Read company, role and round from a title such as "蔚来 AI Infra 实习 一面 (1)".

    Only a whole token is a round; a role ends with 实习/校招/社招; a company is a Chinese
    first token before either. Whatever the title does not plainly say stays None.
    """
    tokens = _SEQUENCE_SUFFIX.sub("", title.strip()).split()
    at = next((i for i, t in enumerate(tokens) if _ROUND.match(t)), None)
    head = tokens if at is None else tokens[:at]
    role_end = max((i for i, t in enumerate(head) if t.endswith(ROLE_MARKERS)), default=None)
    company = _company(head, role_end, at is not None)
    role = None if role_end is None else " ".join(head[1 if company else 0 : role_end + 1])
    return Source(document, title, company, role or None, None if at is None else tokens[at])


def _company(head: list[str], role_end: int | None, has_round: bool) -> str | None:
    """The first token, if it is Chinese and plainly not part of the role, or stands alone
    before a round ("蔚来 一面"). "后端开发 社招" may be a company or a role: None."""
    if not head or not _looks_like_company(head[0]):
        return None
    if role_end is None:
        return head[0] if has_round and len(head) == 1 else None
    # "蔚来 AI Infra 实习", "字节 后端实习": the role has a word of its own. "后端开发 社招": no.
    role_has_words = role_end >= 2 or (role_end == 1 and head[1] not in ROLE_MARKERS)
    return head[0] if role_has_words else None


def _looks_like_company(token: str) -> bool:
    generic = any(word in token for word in NOT_A_COMPANY)
    return _has_han(token) and not generic and not token.endswith(ROLE_MARKERS)


def is_noise(line: str) -> bool:
    """The blog's meta line ("发表于 更新于 分类于 ，"), with or without dates in it."""
    stripped = line.strip()
    if not _NOISE.search(stripped):
        return False
    rest = _NOISE.sub("", stripped)
    return stripped.startswith(NOISE_WORDS) or all(_is_filler(c) for c in rest)


def _is_filler(char: str) -> bool:
    return char.isspace() or unicodedata.category(char)[0] in "PNZ"


def _lines(text: str) -> list[str]:
    """Lines without line endings (CRLF, CR or LF), trailing spaces or a BOM."""
    return [line.rstrip() for line in text.lstrip("\ufeff").splitlines()]


def _split(lines: list[str]) -> list[tuple[str, list[str]]]:
    """(title, answer lines) for each Q: line or coding line; text before the first one, and
    in a closing section (反问, 总结, 感受), belongs to no question and is dropped."""
    found: list[tuple[str, list[str]]] = []
    open_ = False  # whether lines now belong to the last question found
    for line in lines:
        stripped = line.strip()
        match = _Q_LINE.match(stripped) or _CODING_LINE.match(stripped)
        if match:
            title = " ".join(_visible(match.group(1)).split())
            coding = match.re is _CODING_LINE
            found.append((f"{CODING_MARK}：{title}" if coding else title, []))
            open_ = True
        elif _SECTION.match(stripped):
            open_ = False
        elif open_:
            found[-1][1].append(line)
    return [(title, body) for title, body in found if title]


def _visible(text: str) -> str:
    """`text` without invisible format characters (zero-width spaces and joiners, which
    scraped pages leave about): a title of nothing else is no title."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def _question(title: str, lines: list[str]) -> ReportQuestion:
    """A 手撕 title or a "（编程题）" placeholder makes a coding problem; the rest is notes."""
    body = [line for line in lines if not _CODING_PLACEHOLDER.match(line.strip())]
    answer = clean_answer(body)
    if CODING_MARK in title or len(body) < len(lines):
        return ReportQuestion(_CODING_PREFIX.sub("", title) or title, Kind.CODING, answer)
    return ReportQuestion(title, Kind.QA, answer)


def clean_answer(lines: list[str]) -> str:
    """An answer's raw lines as Markdown: code fenced, tables restored, debris removed."""
    blocks: list[_Block] = []
    for block in _code_blocks([line.rstrip() for line in lines]):
        blocks += [block] if block.kind == "code" else _tables(_clean_text(block.lines))
    rendered = (_render(block) for block in blocks)
    return "\n\n".join(text for text in rendered if text)


# --- code blocks -----------------------------------------------------------------------------


def _code_blocks(lines: list[str]) -> list[_Block]:
    """Cut the lines into text and the code blocks that line numbers announce."""
    return _cut(lines, "code", (_gutter_block, _remnant_block))


def _cut(lines: list[str], kind: BlockKind, finders: tuple[_Finder, ...]) -> list[_Block]:
    """Split `lines` into text and blocks of `kind`, each found by the first finder that
    recognises one starting at a line (it returns the block's lines and where it ends)."""
    blocks: list[_Block] = []
    text: list[str] = []
    i = 0
    while i < len(lines):
        found = next((f for f in (finder(lines, i) for finder in finders) if f and f[0]), None)
        if found:
            blocks += [_Block("text", tuple(text)), _Block(kind, tuple(found[0]))]
            text, i = [], found[1]
        else:
            text.append(lines[i])
            i += 1
    return [*blocks, _Block("text", tuple(text))]


def _gutter_block(lines: list[str], start: int) -> tuple[list[str], int] | None:
    """If a gutter "1", "2", ... "n" starts here, its n code lines and where they end."""
    count, i, spaced = 0, start, False
    while i < len(lines):
        if lines[i].strip() == str(count + 1):
            count, i = count + 1, i + 1
        elif count and not lines[i].strip() and _at(lines, i + 1) == str(count + 1):
            spaced, i = True, i + 1  # a double-spaced copy: blank lines between numbers
        else:
            break
    if not count:
        return None
    while i < len(lines) and not lines[i].strip():
        i += 1
    code, end = _take_code(lines, i, count, spaced)
    if not code:
        return None
    return textwrap.dedent("\n".join(code)).strip("\n").split("\n"), end


def _take_code(lines: list[str], start: int, count: int, spaced: bool) -> tuple[list[str], int]:
    """`count` lines from `start`; in a double-spaced copy, `count` non-blank lines."""
    if not spaced:
        return lines[start : start + count], min(start + count, len(lines))
    taken, i = 0, start
    while i < len(lines) and taken < count:
        taken += bool(lines[i].strip())
        i += 1
    return [line for line in lines[start:i] if line.strip()], i


def _remnant_block(lines: list[str], start: int) -> tuple[list[str], int] | None:
    """Lines "1 | a |", "2 | b |" ...: a code block whose gutter and frame were fused into it.

    A single such line is left to `_clean_text`, which unwraps it into plain text.
    """
    code: list[str] = []
    while start + len(code) < len(lines):
        match = _REMNANT.match(lines[start + len(code)].strip())
        if not match or match.group(1) != str(len(code) + 1):
            break
        code.append(match.group(2))
    return (code, start + len(code)) if len(code) >= 2 else None


def _at(lines: list[str], i: int) -> str:
    return lines[i].strip() if i < len(lines) else ""


# --- text ------------------------------------------------------------------------------------


def _clean_text(lines: tuple[str, ...]) -> list[str]:
    """Scraped indentation dropped, one-line code remnants unwrapped, bullets made "- "."""
    cleaned = []
    for line in lines:
        line = line.strip()
        remnant = _REMNANT.match(line)
        if remnant:
            line = remnant.group(2).strip()
        cleaned.append(_BULLET.sub("- ", line))
    return cleaned


def _tables(lines: list[str]) -> list[_Block]:
    """Cut cleaned text into text blocks and restored tables."""
    return _cut(lines, "table", (_pipe_table, _space_table))


def _pipe_table(lines: list[str], start: int) -> tuple[list[str], int] | None:
    """A run of "| a | b |" rows, with or without its rule; at least two rows of cells.

    Blank lines between pipe rows are skipped: in a double-spaced copy they mean nothing.
    """
    end = start
    while end < len(lines) and _PIPE_ROW.match(lines[end]):
        end += 1
        if _at(lines, end) == "" and _PIPE_ROW.match(_at(lines, end + 1)):
            end += 1
    rows = [_pipe_cells(row) for row in lines[start:end] if row and not _PIPE_RULE.match(row)]
    return (_markdown_table(rows), end) if len(rows) >= 2 else None


def _pipe_cells(line: str) -> list[str]:
    return [cell.strip() for cell in line[1:-1].split("|")]


def _space_table(lines: list[str], start: int) -> tuple[list[str], int] | None:
    """A run of at least two lines of space-separated cells, as wide as the first line."""
    header = _space_cells(lines[start])
    if header is None:
        return None
    rows, end = [header], start + 1
    while end < len(lines):
        row = _fit(_space_cells(lines[end]), len(header))
        if row is None:
            break
        rows.append(row)
        end += 1
    return (_markdown_table(rows), end) if len(rows) >= 2 else None


def _space_cells(line: str) -> list[str] | None:
    """The cells of a line that could be a flattened table row, or None if it cannot."""
    if not line or "  " in line or "|" in line or _LIST_ITEM.match(line):
        return None
    tokens = line.split(" ")
    # A lead-in ("选择建议：") or a "label: value" line is prose, not a row.
    if line.endswith((":", "：")) or tokens[0].endswith((":", "：")):
        return None
    cells = _join_bound(tokens)
    return cells if len(cells) >= 2 else None


def _join_bound(tokens: list[str]) -> list[str]:
    cells: list[str] = []
    binds_next = False
    for token in tokens:
        if cells and (binds_next or token in _OPERATORS or token.startswith(_BINDS_LAST)):
            cells[-1] += " " + token
        else:
            cells.append(token)
        binds_next = token in _OPERATORS or token.endswith(_BINDS_NEXT)
    return cells


def _fit(cells: list[str] | None, width: int) -> list[str] | None:
    """`cells` as exactly `width` cells, joining adjacent English words if that is the one way."""
    if cells is None or len(cells) < width:
        return None
    pairs = [i for i, (a, b) in enumerate(pairwise(cells)) if _WORD.match(a) and _WORD.match(b)]
    if len(cells) - width not in (0, len(pairs)):
        return None
    for i in reversed(pairs if len(cells) > width else []):
        cells = [*cells[:i], f"{cells[i]} {cells[i + 1]}", *cells[i + 2 :]]
    return cells


def _markdown_table(rows: list[list[str]]) -> list[str]:
    width = max(len(row) for row in rows)
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(row) + " |" for row in padded]
    return [lines[0], "|" + "---|" * width, *lines[1:]]


def _render(block: _Block) -> str:
    if block.kind == "code":
        fence = "~~~" if any("```" in line for line in block.lines) else "```"
        return "\n".join([fence, *block.lines, fence])
    if block.kind == "table":
        return "\n".join(block.lines)
    return _collapse_blank_lines(block.lines)


def _collapse_blank_lines(lines: tuple[str, ...]) -> str:
    kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
    return "\n".join(kept).strip("\n")


def _has_han(text: str) -> bool:
    return any("\u4e00" <= char <= "\u9fff" for char in text)
