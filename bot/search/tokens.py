"""Tokenising Chinese and English for SQLite FTS5, on our side of the boundary.

FTS5's unicode61 tokenizer keeps a run of Han characters as one token, and the trigram
tokenizer cannot match the 2-character words most Chinese queries are made of (显存, 通信).
So text is tokenised here, the way Lucene's CJK analyzer does it, and FTS5 only sees
space-separated tokens:

- a run of CJK characters becomes its overlapping bigrams plus its single characters
  ("显存带宽" -> 显存 存带 带宽 显 存 带 宽), so 2+ character queries match bigrams and
  1-character queries still match;
- Latin words are case-folded; a hyphenated or underscored compound is indexed both as its
  parts and joined ("All-Reduce" -> all reduce allreduce), so `allreduce` finds it.

Text is folded first (`fold`): NFKC, so full-width letters and digits (ＧＩＬ, ３２ＧＢ),
common in Chinese input methods, match their ASCII forms; and Traditional characters to
Simplified with OpenCC's `t2s` table, character by character, so 顯存 finds 显存 and an item
written in Traditional is found by a Simplified query. (Phrase tables such as Taiwan's
記憶體 -> 内存 are left out: they rewrite words, not characters, and could change a query's
meaning.)

A query is tokenised the same way and every token (or phrase of bigrams) becomes a quoted
FTS5 string joined by AND, so no user text can reach the FTS5 query syntax.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import opencc

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"[{_CJK}]+|[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*")
_PART = re.compile(r"[A-Za-z0-9]+")


def fold(text: str) -> str:
    """`text` as the index holds it: NFKC (full-width as ASCII), Traditional as Simplified."""
    return str(_t2s().convert(unicodedata.normalize("NFKC", text)))


@functools.cache
def _t2s() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")  # loads its tables once, on first use (a few milliseconds)


def _is_cjk(run: str) -> bool:
    return not run[0].isascii()


def index_tokens(text: str) -> list[str]:
    """Every token a document is found by."""
    tokens: list[str] = []
    for run in _RUN.findall(fold(text)):
        if _is_cjk(run):
            tokens += _bigrams(run)
            tokens += run
        else:
            tokens += _latin(run)
    return tokens


def query_tokens(text: str) -> list[str]:
    """The tokens a query must all match: bigrams for CJK (unigram if alone), words for Latin."""
    tokens: list[str] = []
    for run in _RUN.findall(fold(text)):
        if _is_cjk(run):
            tokens += _bigrams(run) or [run]
        else:
            parts = _PART.findall(run.lower())
            tokens.append("".join(parts))
    return list(dict.fromkeys(tokens))


def index_text(text: str) -> str:
    return " ".join(index_tokens(text))


def match_expression(query: str) -> str | None:
    """An FTS5 MATCH expression for `query`, or None if it has nothing searchable."""
    terms = [" ".join(phrase) for phrase in query_terms(query)]
    return " AND ".join(f'"{term}"' for term in terms) or None


def query_terms(query: str) -> list[list[str]]:
    """What a document must hold to match `query`: every term, each a phrase of tokens.

    A CJK run of three or more characters is a phrase of its bigrams, which stand side by
    side in the index only where the run does: 引用计数 finds 引用计数, not a text that says
    引用 here and 计数 there. Every other term is a phrase of one token. Each backend
    spells this in its own syntax (FTS5 MATCH, PostgreSQL tsquery)."""
    terms: list[str] = []
    for run in _RUN.findall(fold(query)):
        if _is_cjk(run):
            terms.append(" ".join(_bigrams(run)) or run)
        else:
            terms.append("".join(_PART.findall(run.lower())))
    return [term.split(" ") for term in dict.fromkeys(terms) if term]


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _latin(run: str) -> list[str]:
    parts = _PART.findall(run.lower())
    return parts if len(parts) == 1 else [*parts, "".join(parts)]
