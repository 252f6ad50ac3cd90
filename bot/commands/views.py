"""How questions look as `Reply`s. Shared by commands and, later, the daily schedule."""

from __future__ import annotations

from bot.i18n import t
from bot.types import Action, ActionKind, Field, Kind, Locale, Question, Reply


def question_reply(q: Question, locale: Locale) -> Reply:
    """A question, without its answer, with a button that reveals it."""
    if q.kind is Kind.CODING:
        body = q.prompt or ""
        if q.signature and q.signature not in body:
            body += f"\n\n```python\n{q.signature}\n```"
    else:
        body = t(locale, "question.think")
    return Reply(
        title=q.display_title(locale),
        body=body,
        fields=_fields(q, locale),
        actions=_actions(q, locale),
        footer=sources_line(q, locale),
    )


def answer_reply(q: Question, locale: Locale, solvers: int | None = None) -> Reply:
    """The explanation; for a coding problem, how many have solved it (when known)."""
    footer = sources_line(q, locale)
    if solvers:
        footer += " · " + t(locale, "grade.solved_by", count=solvers)
    return Reply(
        title=t(locale, "answer.title", title=q.title),
        body=q.answer,
        footer=footer,
        in_thread=True,
    )


def _actions(q: Question, locale: Locale) -> tuple[Action, ...]:
    reveal = Action(ActionKind.REVEAL_ANSWER, t(locale, "action.reveal"), q.id)
    if q.kind is Kind.CODING:
        return (Action(ActionKind.SUBMIT_SOLUTION, t(locale, "action.submit"), q.id), reveal)
    return (reveal,)


def sources_line(q: Question, locale: Locale) -> str:
    labels = dict.fromkeys(f"{s.title}" for s in q.sources)
    return f"{t(locale, 'label.source')}: " + "; ".join(labels)


def _fields(q: Question, locale: Locale) -> tuple[Field, ...]:
    return (
        Field(t(locale, "label.id"), f"`{q.id}`"),
        Field(t(locale, "label.kind"), t(locale, f"kind.{q.kind.value}")),
        Field(t(locale, "label.difficulty"), t(locale, f"difficulty.{q.difficulty.value}")),
        Field(t(locale, "label.topics"), ", ".join(q.topics)),
    )
