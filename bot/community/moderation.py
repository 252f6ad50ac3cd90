"""`/drafts`: a server's moderators review what its members imported.

Moderators are whom the platform says (`User.is_moderator`: Manage Messages on Discord,
workspace admins on Slack, the console's one user); the command checks it on every call and
every click, and looks drafts up in the asking channel's server only, so an old button or a
typed id never reaches another server's drafts.

Drafts are paged one at a time, oldest first. Approving publishes a draft in its server
(served and searched there; its topics must be the bank's, `bot.content.topics`); rejecting
retires it (kept, never served). An edit changes the title, English title, topics,
difficulty or kind of a draft, each checked here with a reply that says what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.community import untrusted
from bot.content import topics as topic_table
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.ports import Clock
from bot.store.community import Changes, CommunityStore, DraftInfo
from bot.store.questions import QuestionStore
from bot.types import Difficulty, Kind, Locale, Question, User

MAX_TOPICS = 4


@dataclass(frozen=True, slots=True)
class Draft:
    question: Question
    info: DraftInfo


@dataclass(frozen=True, slots=True)
class DraftPage:
    draft: Draft
    page: int  # from 1
    pages: int


class Moderation:
    def __init__(self, store: CommunityStore, questions: QuestionStore, clock: Clock) -> None:
        self._store, self._questions, self._clock = store, questions, clock

    async def page(self, server: str, page: int, locale: Locale) -> DraftPage | None:
        """The `page`th of `server`'s drafts (the last if past it); None if there are none."""
        ids = await self._store.drafts(server)
        if not ids:
            return None
        at = min(max(page, 1), len(ids))
        found = await self.draft(server, ids[at - 1], locale)
        return DraftPage(found, at, len(ids))

    async def draft(self, server: str, qid: str, locale: Locale) -> Draft:
        """`server`'s draft `qid`, or a NotFound that says what it is instead."""
        info = await self._store.info(server, qid)
        question = await self._questions.get(qid, drafts=True, server=server)
        if info is None or question is None:
            raise NotFound(t(locale, "drafts.no_such", id=qid[:60]))
        if info.state != "draft":
            raise BadArgument(t(locale, f"drafts.already_{info.state}", id=qid))
        return Draft(question, info)

    async def approve(self, server: str, qid: str, moderator: User, locale: Locale) -> Question:
        draft = await self.draft(server, qid, locale)
        unknown = [tp for tp in draft.question.topics if tp not in topic_table.SLUGS]
        if unknown:
            raise BadArgument(t(locale, "drafts.set_topics", id=qid, topics=", ".join(unknown)))
        if not await self._store.publish(draft.question, moderator, self._clock.now()):
            raise BadArgument(t(locale, "drafts.decided", id=qid))
        return draft.question

    async def reject(self, server: str, qid: str, moderator: User, locale: Locale) -> Question:
        draft = await self.draft(server, qid, locale)
        if not await self._store.reject(qid, moderator, self._clock.now()):
            raise BadArgument(t(locale, "drafts.decided", id=qid))
        return draft.question

    async def edit(self, server: str, qid: str, options: dict[str, str],
                   locale: Locale) -> Draft:  # fmt: skip
        """Apply the edit `options` name (title, title_en, topics, difficulty, kind)."""
        await self.draft(server, qid, locale)
        await self._store.edit(qid, changes(options, locale))
        return await self.draft(server, qid, locale)


def changes(options: dict[str, str], locale: Locale) -> Changes:
    """The edit the options ask for, each value checked; BadArgument says what is wrong."""
    title = _title(options.get("title"), locale)
    title_en = _title(options.get("title_en"), locale)
    raw_topics = options.get("topics")
    topics = _topics(raw_topics, locale) if raw_topics is not None else None
    difficulty = options.get("difficulty")
    kind = options.get("kind")
    return Changes(title, title_en, topics, Difficulty(difficulty) if difficulty else None,
                   Kind(kind) if kind else None)  # fmt: skip  # choices: the core checked them


def _title(raw: str | None, locale: Locale) -> str | None:
    if raw is None:
        return None
    cleaned = untrusted.title(raw)
    if not cleaned:
        raise BadArgument(t(locale, "drafts.empty_title"))
    return cleaned


def _topics(raw: str, locale: Locale) -> tuple[str, ...]:
    """Topics by slug, Chinese name or alias, separated by commas (or spaces)."""
    names = raw.replace("，", ",").replace(",", " ").split()
    slugs = tuple(dict.fromkeys(topic_table.slug_for(n) for n in names))
    bad = [n for n in names if topic_table.slug_for(n) not in topic_table.SLUGS]
    if not slugs or bad or len(slugs) > MAX_TOPICS:
        given = untrusted.escaped(untrusted.neutralised(", ".join(bad[:3])[:80]))
        shown = ", ".join(f"`{s}`" for s in sorted(topic_table.SLUGS))
        raise BadArgument(t(locale, "drafts.bad_topics", topics=shown, limit=MAX_TOPICS,
                            given=given or "-"))  # fmt: skip
    return slugs
