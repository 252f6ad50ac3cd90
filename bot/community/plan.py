"""Sorting a report's questions into new drafts and links to what a server already has.

Pure and CPU-bound (parsing, then a title match against every item the server is served),
so `bot.community.imports` runs `prepare` in a thread. The parser is the one `studybot
content import` uses (`bot.content.report`) and the matching its too (`bot.content.matching`):
a question the shared bank or the server already has (a draft, published, or rejected by
its moderators) is linked rather than drafted again, and so is one an earlier question of
the same report drafted.
A new question gets the id `s.<slug>` (`bot.store.community.PREFIX`), "-2", "-3"... when
that is taken, and the topics its title names (`guess_topics`; `uncategorized` when none
does, for a moderator to set before approving).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from bot.community import untrusted
from bot.content.importer import guess_topics, slug_for
from bot.content.matching import best_match, normalise_title
from bot.content.report import Report, ReportQuestion, parse_report
from bot.store.community import PREFIX, NewItem
from bot.types import Kind, Source

# Stored as the explanation of an item whose report said nothing about it.
NO_ANSWER = "（面经没有给出答案。The report gave no answer.）"


@dataclass(frozen=True, slots=True)
class Candidate:
    """An item a question may repeat (`bot.content.matching.Titled`)."""

    id: str
    kind: Kind
    key: str


@dataclass(frozen=True, slots=True)
class Linked:
    """A question of the report that an item already asks: `id` is that item."""

    id: str
    title: str


@dataclass(frozen=True, slots=True)
class Plan:
    source: Source
    digest: str
    questions: int  # how many the report had (none planned past `untrusted.MAX_QUESTIONS`)
    items: tuple[NewItem, ...] = ()
    linked: tuple[Linked, ...] = ()


def digest_of(text: str) -> str:
    """One report, one digest: the same text pasted twice (or with other line ends) counts once."""
    lines = (" ".join(line.split()) for line in text.splitlines())
    return hashlib.sha256("\n".join(filter(None, lines)).encode()).hexdigest()


def prepare(text: str, document: str, known: Sequence[tuple[str, Kind, str]],
            taken: set[str]) -> Plan:  # fmt: skip
    """Parse `text` and plan each of its questions against `known` (id, kind, title)."""
    report = parse_report(text, document)
    source = _source(report.source)
    count = len(report.questions)
    if not count or count > untrusted.MAX_QUESTIONS:
        return Plan(source, digest_of(text), count)
    candidates = [Candidate(i, kind, normalise_title(title)) for i, kind, title in known]
    return _planned(report, source, digest_of(text), candidates, set(taken))


def _planned(report: Report, source: Source, digest: str, candidates: list[Candidate],
             taken: set[str]) -> Plan:  # fmt: skip
    items: list[NewItem] = []
    linked: list[Linked] = []
    for question in report.questions:
        title = untrusted.title(question.title)
        key = normalise_title(title)
        match = best_match(key, question.kind, candidates)
        if match is not None:
            linked.append(Linked(match.id, title))
            continue
        item = _new(question, title, _unique(PREFIX + slug_for(title), taken))
        taken.add(item.id)
        items.append(item)
        candidates.append(Candidate(item.id, item.kind, key))
    return Plan(source, digest, len(report.questions), tuple(items), tuple(linked))


def _new(question: ReportQuestion, title: str, qid: str) -> NewItem:
    text = untrusted.neutralised(question.answer)
    topics = tuple(guess_topics(title, question.kind))
    return NewItem(qid, title, question.kind, topics, text, text or NO_ANSWER)


def _source(source: Source) -> Source:
    """The report's source with its member-written parts neutralised and capped."""

    def clean(text: str | None) -> str | None:
        return untrusted.source_title(text) if text else text

    return Source(source.document, untrusted.source_title(source.title), clean(source.company),
                  clean(source.role), clean(source.round))  # fmt: skip


def _unique(base: str, taken: set[str]) -> str:
    qid, n = base, 1
    while qid in taken:
        n += 1
        qid = f"{base}-{n}"
    return qid
