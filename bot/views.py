"""How questions look as `Reply`s. Shared by the commands and the daily posts.

Two languages are at play: the reader's (`locale`: labels, buttons, hints) and the content's
(`lang`: title, statement, explanation), which is the reader's unless they pressed the
language button. That button shows the same reply in the other language, and appears only
when the item has an English version to switch to or from.
"""

from __future__ import annotations

from bot.i18n import in_english, t
from bot.quiz import QuizView, Tally
from bot.types import Action, ActionKind, Field, Kind, Locale, Question, Reply


def question_reply(q: Question, locale: Locale, lang: Locale | None = None,
                   quiz: QuizView | None = None) -> Reply:  # fmt: skip
    """A question, without its answer, with a button that reveals it; a daily post with a
    `quiz` asks its quick check instead, with a button per option (the answer follows in
    the thread, so there is nothing to reveal early)."""
    lang = lang or locale
    if q.kind is Kind.CODING:
        body = q.prompt_in(lang) or ""
        if q.signature and q.signature not in body:
            body += f"\n\n```python\n{q.signature}\n```"
    else:
        body = t(locale, "question.think")
    switch = _switch(ActionKind.QUESTION_IN, q, locale, lang, bool(q.title_en or q.prompt_en))
    actions = _actions(q, locale)
    if quiz is not None:
        body += "\n\n" + _quiz_text(quiz, locale, lang)
        kept = tuple(a for a in actions if a.kind is not ActionKind.REVEAL_ANSWER)
        actions = _quiz_buttons(quiz) + kept
    return Reply(
        title=q.display_title(lang),
        body=body,
        fields=_fields(q, locale),
        actions=(*actions, *switch),
        footer=sources_line(q, locale),
    )


def answer_reply(
    q: Question,
    locale: Locale,
    solvers: int | None = None,
    lang: Locale | None = None,
    quiz: QuizView | None = None,
    early: int | None = None,
) -> Reply:
    """The explanation; for a coding problem, how many have solved it (when known); after a
    daily post's quiz, its right option, why, and how the channel did; after a daily coding
    post, how many in the channel solved it before the answer (`early`)."""
    lang = lang or locale
    footer = sources_line(q, locale)
    if solvers:
        footer += " · " + t(locale, "grade.solved_by", count=solvers)
    switch = _switch(ActionKind.ANSWER_IN, q, locale, lang, q.answer_en is not None)
    revealed = (*((_quiz_field(quiz, locale, lang),) if quiz is not None else ()),
                *((_early_field(early, locale),) if early is not None else ()))  # fmt: skip
    return Reply(
        title=t(locale, "answer.title", title=q.display_title(lang)),
        body=q.answer_in(lang),
        fields=(*revealed, *_related_fields(q, locale)),
        actions=(*switch, *_related(q, locale)),
        footer=footer,
        in_thread=True,
    )


def _quiz_text(quiz: QuizView, locale: Locale, lang: Locale) -> str:
    lines = [f"**{t(locale, 'quiz.label')}** {quiz.shown.check.question.in_(lang)}"]
    lines += [f"**{o.letter}.** {o.option.text.in_(lang)}" for o in quiz.shown.options()]
    lines.append(_tally_line(quiz.tally, locale))
    return "\n".join(lines)


def _tally_line(tally: Tally, locale: Locale) -> str:
    if not tally.answered:
        return t(locale, "quiz.first")
    return t(locale, "quiz.tally", answered=tally.answered, right=tally.right)


def _quiz_buttons(quiz: QuizView) -> tuple[Action, ...]:
    """One button per option, in the order shown: its letter, and the position it is shown
    at (never its index in the file: the value reaches the client and would give it away)."""
    return tuple(Action(ActionKind.QUIZ, o.letter, quiz.post.value(o.position))
                 for o in quiz.shown.options())  # fmt: skip


def _quiz_field(quiz: QuizView, locale: Locale, lang: Locale) -> Field:
    right = quiz.shown.right()  # lettered as the post shows it
    option = right.option
    value = "\n".join((quiz.shown.check.question.in_(lang),
                       f"✅ **{right.letter}.** {option.text.in_(lang)}: {option.why.in_(lang)}",
                       _result_line(quiz.tally, locale)))  # fmt: skip
    return Field(t(locale, "quiz.label"), value, False)


def _early_field(early: int, locale: Locale) -> Field:
    """The channel's result of a coding day: its problem's solvers before the answer."""
    line = t(locale, "solve.early", count=early) if early else t(locale, "solve.nobody")
    return Field(t(locale, "solve.label"), line, False)


def _result_line(tally: Tally, locale: Locale) -> str:
    """The channel's result under the answer: the tally, or that nobody answered."""
    return _tally_line(tally, locale) if tally.answered else t(locale, "quiz.nobody")


def _actions(q: Question, locale: Locale) -> tuple[Action, ...]:
    reveal = Action(ActionKind.REVEAL_ANSWER, t(locale, "action.reveal"), q.id)
    if q.kind is Kind.CODING:
        submit = Action(ActionKind.SUBMIT_SOLUTION, t(locale, "action.submit"), q.id)
        hint = (Action(ActionKind.HINT, t(locale, "action.hint"), f"{q.id}:1"),) if q.hints else ()
        return (submit, *hint, reveal)
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
    """Where a question came from. The reports are Chinese: an English reader gets their
    names with the words a glossary knows put in English (company, role, round)."""
    if not q.sources:
        return f"{t(locale, 'label.source')}: {t(locale, 'source.original')}"
    if locale is Locale.ZH:
        names = dict.fromkeys(s.title for s in q.sources)
    else:
        names = dict.fromkeys(in_english(s.title) for s in q.sources)
    key = "source.report" if len(names) == 1 else "source.reports"
    return f"{t(locale, 'label.source')}: " + t(locale, key, names="; ".join(names))


def _fields(q: Question, locale: Locale) -> tuple[Field, ...]:
    return (
        Field(t(locale, "label.id"), f"`{q.id}`"),
        Field(t(locale, "label.kind"), t(locale, f"kind.{q.kind.value}")),
        Field(t(locale, "label.difficulty"), t(locale, f"difficulty.{q.difficulty.value}")),
        Field(t(locale, "label.topics"), ", ".join(q.topics)),
    )
