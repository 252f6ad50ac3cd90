"""Matching a question's title against titles the bank already has: one rule for files and rows.

`studybot content import` matches a report's questions against the files of the bank
(`bot.content.importer`); a member's `/import` matches them against the database's rows, the
shared bank's and the server's own (`bot.community`). Both call `best_match` over anything
that has a `kind` and a normalised title `key` (`Titled`), so a question is a duplicate by
the same rule wherever it is found.

Titles are compared by a normalised key: "Q:" and "手撕：" prefixes, punctuation (half and full
width, via NFKC), whitespace, case and the words that only frame a question ("讲一下", "是什么",
"的") removed, so "讲一下Python的GIL？" and "Python的GIL是什么？" have one key. A question matches
an entry whose key is equal, or similar by `difflib.SequenceMatcher` ratio >= `SIMILARITY`:
as is, with bracketed asides dropped ("数值的整数次方（快速幂）" is "数值的整数次方"), or with a
phrase replaced by the abbreviation in brackets after it ("Python全局解释器锁（GIL）" is
"PythonGIL"). Of the same kind first, else of the other kind.

Pure functions over text: CPU work that grows with the bank, so an async caller runs
`best_match` in a thread.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import Protocol, TypeVar

from bot.content.report import CODING_MARK
from bot.types import Kind

SIMILARITY = 0.85

_PREFIX = re.compile(rf"^(?:Q\d*\s*[:：]\s*)?(?:{CODING_MARK}\s*[:：]?\s*)?")
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|【[^【】]*】")
# "全局解释器锁(gil)" -> "gil": a Chinese phrase followed by its abbreviation.
_ABBREVIATED = re.compile(r"[\u4e00-\u9fff]+\(([a-z0-9]+)\)")
# Words that frame a question without saying what it asks, longest first.
FRAMING = ("请简单介绍一下", "简单介绍一下", "介绍一下", "简单介绍", "讲一讲", "讲一下", "讲讲",
           "说一说", "说一下", "说说", "谈一谈", "谈一下", "谈谈", "聊一聊", "聊一下", "聊聊",
           "解释一下", "简述一下", "简述", "请问", "你了解", "了解吗", "知道吗", "什么是", "是什么",
           "是啥", "怎么理解", "如何理解", "你对", "的理解", "一个", "的")  # fmt: skip
FRAMING_WORDS = re.compile("|".join(map(re.escape, FRAMING)))


class Titled(Protocol):
    """Something a title can match: its kind and its title's `normalise_title` key."""

    @property
    def kind(self) -> Kind: ...

    @property
    def key(self) -> str: ...


T = TypeVar("T", bound=Titled)


def normalise_title(title: str) -> str:
    """The comparable core of a title: no Q:/手撕 prefix, punctuation, whitespace, case or
    framing words."""
    text = unicodedata.normalize("NFKC", title).strip()
    text = FRAMING_WORDS.sub("", _PREFIX.sub("", text))
    return "".join(c for c in text.casefold() if c.isalnum() or c in "()[]【】")


def plain(key: str) -> str:
    """A key with its brackets removed (they are kept in keys only to find asides)."""
    return re.sub(r"[()\[\]【】]", "", key)


def _without_asides(key: str) -> str:
    return plain(_ASIDE.sub("", key))


def _abbreviated(key: str) -> str:
    return plain(_ABBREVIATED.sub(r"\1", key))


def _variants(key: str) -> tuple[str, ...]:
    return plain(key), _without_asides(key), _abbreviated(key)


def similarity(a: str, b: str, floor: float = 0.0) -> float:
    """How alike two normalised titles are (0..1): as is, without bracketed asides, or with
    abbreviations in brackets standing for the phrase before them.

    Pairs whose cheap upper bounds fall below `floor` are not scored (they count as 0), so
    scanning a large bank for matches above the threshold stays cheap.
    """
    best = 0.0
    for x, y in zip(_variants(a), _variants(b), strict=True):
        if not x or not y:
            continue
        matcher = SequenceMatcher(None, x, y, autojunk=False)
        if matcher.real_quick_ratio() >= floor and matcher.quick_ratio() >= floor:
            best = max(best, matcher.ratio())
    return best


def best_match(key: str, kind: Kind, entries: Sequence[T]) -> T | None:
    """The entry with the same or the most similar key (>= SIMILARITY): of the same kind
    first, else of the other kind (a report often asks for a coding problem without marking
    it 手撕: "实现一个 LRU 缓存" is the bank's problem, not a new question)."""
    if not plain(key):
        return None
    same = [e for e in entries if e.kind is kind]
    return _most_similar(key, same) or _most_similar(key, [e for e in entries if e not in same])


def _most_similar(key: str, entries: Sequence[T]) -> T | None:
    exact = next((e for e in entries if plain(e.key) == plain(key)), None)
    if exact is not None:
        return exact
    scored = [(similarity(key, e.key, SIMILARITY), i) for i, e in enumerate(entries)]
    score, index = max(scored, key=lambda pair: (pair[0], -pair[1]), default=(0.0, -1))
    return entries[index] if score >= SIMILARITY else None
