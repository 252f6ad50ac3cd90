"""How questions look as `Reply`s. Shared by the commands and the daily posts.

Two languages are at play: the reader's (`locale`: labels, buttons, hints) and the content's
(`lang`: title, statement, explanation), which is the reader's unless they pressed the
language button. That button shows the same reply in the other language, and appears only
when the item has an English version to switch to or from.

A bilingual channel's posts add a third (`also`, the other language): their titles and quick
checks are short, so they are shown in both; long texts (a statement, an explanation) stay in
`lang`, and the language button shows the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.answers import is_open
from bot.answers.views import answer_this
from bot.content.topics import chinese_name
from bot.i18n import in_english, t
from bot.quiz import QuizView, Tally
from bot.types import (
    Action,
    ActionKind,
    Asked,
    Bilingual,
    Field,
    Kind,
    Locale,
    Question,
    Reply,
)

NEW_LINE = "\n"  # between a bilingual post's two versions of a longer text
SHOWN_COMPANIES, SHOWN_ROUNDS = 3, 3  # the asked line names so many, then says how many more
NAME_LIMIT = 24  # characters of a company or round name shown (a report's words, unchecked)
ROUNDS = ("一面", "二面", "三面", "四面", "终面", "HR面")  # in interview order; others after


def question_reply(q: Question, locale: Locale, lang: Locale | None = None,
                   quiz: QuizView | None = None, also: Locale | None = None,
                   asked: Asked | None = None) -> Reply:  # fmt: skip
    """A question, without its answer, with a button that reveals it; a daily post with a
    `quiz` asks its quick check instead, with a button per option (the answer follows in
    the thread, so there is nothing to reveal early). With `asked` (`bot.store.asked`), a
    field says how many reports asked it and where, when any did."""
    lang = lang or locale
    if q.kind is Kind.CODING:
        body = q.prompt_in(lang) or ""
        if q.signature and q.signature not in body:
            body += f"\n\n```python\n{q.signature}\n```"
    else:
        body = t(locale, "question.think")
    switch = _switch(ActionKind.QUESTION_IN, q, locale, lang, bool(q.title_en or q.prompt_en))
    actions = _actions(q, locale)
    if is_open(q):  # nothing to reveal yet: the group is asked to answer it instead
        body += "\n\n" + t(locale, "answers.open")
        actions = (*(a for a in actions if a.kind is not ActionKind.REVEAL_ANSWER),
                   answer_this(q.id, locale))  # fmt: skip
    if quiz is not None:
        body += "\n\n" + _quiz_text(quiz, locale, _Langs(lang, also))
        kept = tuple(a for a in actions if a.kind is not ActionKind.REVEAL_ANSWER)
        actions = _quiz_buttons(quiz) + kept
    return Reply(
        title=_Langs(lang, also).title(q),
        body=body,
        fields=(*_fields(q, locale), *asked_fields(asked, locale)),
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
    also: Locale | None = None,
) -> Reply:
    """The explanation, with a button to report a mistake in it; for a coding problem, how
    many have solved it (when known); after a
    daily post's quiz, its right option, why, and how the channel did; after a daily coding
    post, how many in the channel solved it before the answer (`early`)."""
    lang = lang or locale
    footer = sources_line(q, locale)
    if solvers:
        footer += " · " + t(locale, "grade.solved_by", count=solvers)
    switch = _switch(ActionKind.ANSWER_IN, q, locale, lang, q.answer_en is not None)
    revealed = (*((_quiz_field(quiz, locale, _Langs(lang, also)),) if quiz is not None else ()),
                *((_early_field(early, locale),) if early is not None else ()))  # fmt: skip
    # An open item has nothing to report a mistake in: it asks for an answer instead.
    last = answer_this(q.id, locale) if is_open(q) else _report(q, locale)
    return Reply(
        title=t(locale, "answer.title", title=_Langs(lang, also).title(q)),
        body=t(locale, "answers.open") if is_open(q) else q.answer_in(lang),
        fields=(*revealed, *_related_fields(q, locale)),
        actions=(*switch, *_related(q, locale), last),
        footer=footer,
        in_thread=True,
    )


@dataclass(frozen=True, slots=True)
class _Langs:
    """The content's language, and the other one a bilingual post adds to short texts."""

    lang: Locale
    also: Locale | None = None

    def title(self, q: Question) -> str:
        first = q.display_title(self.lang)
        second = q.display_title(self.also) if self.also else first
        return first if second == first else f"{first} / {second}"

    def text(self, text: Bilingual, sep: str = " / ") -> str:
        first = text.in_(self.lang)
        second = text.in_(self.also) if self.also else first
        return first if second == first else f"{first}{sep}{second}"


def _quiz_text(quiz: QuizView, locale: Locale, langs: _Langs) -> str:
    lines = [f"**{t(locale, 'quiz.label')}** {langs.text(quiz.shown.check.question, NEW_LINE)}"]
    lines += [f"**{o.letter}.** {langs.text(o.option.text)}" for o in quiz.shown.options()]
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


def _quiz_field(quiz: QuizView, locale: Locale, langs: _Langs) -> Field:
    right = quiz.shown.right()  # lettered as the post shows it
    option = right.option
    value = "\n".join((langs.text(quiz.shown.check.question, NEW_LINE),
                       f"✅ **{right.letter}.** {langs.text(option.text)}: "
                       f"{langs.text(option.why, NEW_LINE)}",
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


def _report(q: Question, locale: Locale) -> Action:
    """Under every explanation: its form asks what is wrong (bot/mistakes/forms.py)."""
    return Action(ActionKind.REPORT_MISTAKE, t(locale, "action.report"), q.id)


def _related(q: Question, locale: Locale) -> tuple[Action, ...]:
    return tuple(Action(ActionKind.SHOW_QUESTION, t(locale, "action.related", id=rid), rid)
                 for rid in q.related)  # fmt: skip


def _related_fields(q: Question, locale: Locale) -> tuple[Field, ...]:
    if not q.related:
        return ()
    return (Field(t(locale, "label.related"), ", ".join(f"`{r}`" for r in q.related), False),)


def topic_names(slugs: tuple[str, ...], locale: Locale) -> str:
    """Topics as the reader names them: Chinese names in Chinese (slugs are for typing)."""
    if locale is Locale.ZH:
        return "、".join(chinese_name(s) or s for s in slugs)
    return ", ".join(slugs)


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
        Field(t(locale, "label.topics"), topic_names(q.topics, locale)),
    )


def asked_fields(asked: Asked | None, locale: Locale) -> tuple[Field, ...]:
    """The card's "asked in N reports" field, or none when no report asked it."""
    if asked is None or asked.reports < 1:
        return ()
    return (Field(t(locale, "label.asked"), asked_line(asked, locale), False),)


def asked_line(asked: Asked, locale: Locale) -> str:
    """The count, then the companies most reports name (a bounded list), each with its
    rounds: `Asked in 6 reports · ByteDance (first round), Alibaba, NIO +2 more`."""
    key = "asked.one" if asked.reports == 1 else "asked.many"
    line = t(locale, key, count=asked.reports)
    if not asked.companies:
        return line
    comma = "、" if locale is Locale.ZH else ", "
    shown = [_company(c.company, c.rounds, locale) for c in asked.companies[:SHOWN_COMPANIES]]
    more = len(asked.companies) - SHOWN_COMPANIES
    rest = f" {t(locale, 'asked.more', count=more)}" if more > 0 else ""
    return f"{line} · {comma.join(shown)}{rest}"


def _company(company: str, rounds: tuple[str, ...], locale: Locale) -> str:
    ordered = sorted(rounds, key=lambda r: (ROUNDS.index(r) if r in ROUNDS else len(ROUNDS), r))
    names = [_name(r, locale) for r in ordered[:SHOWN_ROUNDS]]
    names += ["…"] if len(ordered) > SHOWN_ROUNDS else []
    if not names:
        return _name(company, locale)
    if locale is Locale.ZH:
        return f"{_name(company, locale)}（{'、'.join(names)}）"
    return f"{_name(company, locale)} ({', '.join(names)})"


def _name(name: str, locale: Locale) -> str:
    """A company or round as the reader names it, never longer than `NAME_LIMIT`."""
    shown = in_english(name) if locale is Locale.EN else name
    return shown if len(shown) <= NAME_LIMIT else shown[: NAME_LIMIT - 1] + "…"
