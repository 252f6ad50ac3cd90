"""How answers from the group look: the post of a new answer (its author named, with "Use as
explanation"), the line an open item shows, the "Answer by" line under an adopted one
(`credited`, for every reply that shows it: `Answers.credit` finds the answer), and a
moderator's list (`/answers`).

An answer is an explanation, so its Markdown is kept; its mentions were neutralised when it
was given (`bot.community.untrusted.neutralised`). An author's name is shown in a code span
(`bot.mistakes.views.inert_span`): a name formats nothing and pings no one.
"""

from __future__ import annotations

import dataclasses

from bot.i18n import t
from bot.mistakes.views import inert_span
from bot.store.answers import GroupAnswer
from bot.types import Action, ActionKind, Locale, Question, Reply


def answer_this(item: str, locale: Locale) -> Action:
    return Action(ActionKind.ANSWER_THIS, t(locale, "action.answer_this"), item)


def adopt_action(answer: GroupAnswer, locale: Locale, numbered: bool = False) -> Action:
    label = t(locale, "action.adopt") + (f" #{answer.id}" if numbered else "")
    return Action(ActionKind.ADOPT_ANSWER, label, str(answer.id))


def author(answer: GroupAnswer, locale: Locale) -> str:
    """Who wrote `answer`, as shown: their name, or a former member once forgotten."""
    if answer.author_id is None or not answer.author_name:
        return t(locale, "answers.former_member")
    return inert_span(answer.author_name)


def answer_post(answer: GroupAnswer, q: Question, locale: Locale) -> Reply:
    """A new answer, for the group: its author, the answer, and "Use as explanation"."""
    body = t(locale, "answers.by", name=author(answer, locale)) + "\n\n" + answer.text
    return Reply(body, title=t(locale, "answers.post_title", title=q.display_title(locale)),
                 actions=(adopt_action(answer, locale),),
                 footer=t(locale, "answers.post_footer", id=answer.id, item=q.id))  # fmt: skip


def by_line(answer: GroupAnswer, locale: Locale) -> str:
    """The line under an adopted explanation."""
    return t(locale, "answers.adopted_by", name=author(answer, locale))


def credited(reply: Reply, answer: GroupAnswer, locale: Locale) -> Reply:
    """`reply`, an explanation adopted from `answer`, ending with who wrote it."""
    return dataclasses.replace(reply, body=f"{reply.body}\n\n{by_line(answer, locale)}")


def listing(item: Question, answers: list[GroupAnswer], total: int, locale: Locale) -> Reply:
    """A moderator's view of an item's answers not yet adopted, each with its button."""
    title = t(locale, "answers.list_title", title=item.display_title(locale), count=total)
    if not answers:
        return Reply(t(locale, "answers.none", id=item.id), title=title, ephemeral=True)
    parts = [f"**#{a.id}** · {author(a, locale)}\n{a.text}" for a in answers]
    more = total - len(answers)
    footer = t(locale, "answers.more", count=more) if more > 0 else None
    adopt = tuple(adopt_action(a, locale, numbered=True) for a in answers)
    return Reply("\n\n".join(parts), title=title, ephemeral=True, footer=footer, actions=adopt)
