"""How questions look as `Reply`s. Shared by commands and, later, the daily schedule.

Two languages are at play: the reader's (`locale`: labels, buttons, hints) and the content's
(`lang`: title, statement, explanation), which is the reader's unless they pressed the
language button. That button shows the same reply in the other language, and appears only
when the item has an English version to switch to or from.
"""

from __future__ import annotations

from bot.i18n import t
from bot.types import Action, ActionKind, Field, Kind, Locale, Question, Reply


def question_reply(q: Question, locale: Locale, lang: Locale | None = None) -> Reply:
    """A question, without its answer, with a button that reveals it."""
    lang = lang or locale
    if q.kind is Kind.CODING:
        body = q.prompt_in(lang) or ""
        if q.signature and q.signature not in body:
            body += f"\n\n```python\n{q.signature}\n```"
    else:
        body = t(locale, "question.think")
    switch = _switch(ActionKind.QUESTION_IN, q, locale, lang, bool(q.title_en or q.prompt_en))
    return Reply(
        title=q.display_title(lang),
        body=body,
        fields=_fields(q, locale),
        actions=(*_actions(q, locale), *switch),
        footer=sources_line(q, locale),
    )


def answer_reply(
    q: Question, locale: Locale, solvers: int | None = None, lang: Locale | None = None
) -> Reply:
    """The explanation; for a coding problem, how many have solved it (when known)."""
    lang = lang or locale
    footer = sources_line(q, locale)
    if solvers:
        footer += " · " + t(locale, "grade.solved_by", count=solvers)
    switch = _switch(ActionKind.ANSWER_IN, q, locale, lang, q.answer_en is not None)
    return Reply(
        title=t(locale, "answer.title", title=q.display_title(lang)),
        body=q.answer_in(lang),
        fields=_related_fields(q, locale),
        actions=(*switch, *_related(q, locale)),
        footer=footer,
        in_thread=True,
    )


def _actions(q: Question, locale: Locale) -> tuple[Action, ...]:
    reveal = Action(ActionKind.REVEAL_ANSWER, t(locale, "action.reveal"), q.id)
    if q.kind is Kind.CODING:
        return (Action(ActionKind.SUBMIT_SOLUTION, t(locale, "action.submit"), q.id), reveal)
    return (reveal,)


def _switch(
    kind: ActionKind, q: Question, locale: Locale, lang: Locale, has_english: bool
) -> tuple[Action, ...]:
    """The button that shows this reply in the other language, if there is one to show."""
    if not has_english:
        return ()
    other = lang.other()
    return (Action.in_language(kind, t(locale, f"action.lang.{other.value}"), q.id, other),)


def _related(q: Question, locale: Locale) -> tuple[Action, ...]:
    return tuple(Action(ActionKind.SHOW_QUESTION, t(locale, "action.related", id=rid), rid)
                 for rid in q.related)  # fmt: skip


def _related_fields(q: Question, locale: Locale) -> tuple[Field, ...]:
    if not q.related:
        return ()
    return (Field(t(locale, "label.related"), ", ".join(f"`{r}`" for r in q.related), False),)


def sources_line(q: Question, locale: Locale) -> str:
    if not q.sources:
        return f"{t(locale, 'label.source')}: {t(locale, 'source.original')}"
    labels = dict.fromkeys(f"{s.title}" for s in q.sources)
    return f"{t(locale, 'label.source')}: " + "; ".join(labels)


def _fields(q: Question, locale: Locale) -> tuple[Field, ...]:
    return (
        Field(t(locale, "label.id"), f"`{q.id}`"),
        Field(t(locale, "label.kind"), t(locale, f"kind.{q.kind.value}")),
        Field(t(locale, "label.difficulty"), t(locale, f"difficulty.{q.difficulty.value}")),
        Field(t(locale, "label.topics"), ", ".join(q.topics)),
    )
