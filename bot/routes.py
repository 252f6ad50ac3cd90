"""What every chat adapter asks the same way, decided here once.

Discord and Slack differ in how they ask (interactions, slash commands, block actions,
modals) but not in what they ask, so these answers live in the core and adapters only
translate:

- how long a command may work before the platform must be answered (`budget`): a `slow`
  command (grading) not at all; anything else `ACK_BUDGET`;
- whether a reply is ready within that budget, the work going on either way (`within`);
- which option of a command takes code (`code_option`), whether an invocation still lacks
  it, so the platform opens the form that takes it (`needs_code`, `input_form`: the code
  form, or for `/import` the report's), and whether a file for it is a report for
  `Studybot.import_file` rather than code (`takes_report`);
- what a button does: open a form (`form_of`: the code form of its problem, the report of a
  mistake in its item, the resolution of a report, the edit of a draft), or run a command
  (`Action.invocation`). A form of `PREFILLED` opens with stored values: the platform runs
  the button's command first, which answers with them as fields, and opens the form
  `filled` with them (or shows the answer, a refusal, if it refused);
  and what a submitted form runs (`form_options`). A form is a `bot.types.Form`: declared
  here once, rendered by each platform (a Discord modal, a Slack modal view), and, where
  there are no forms (the console), typed as a command (`typed`). A new kind of form is a
  builder in `FORMS`;
- the problem a thread is about: the one named by the Submit button of the post that started
  it (`problem_of`), read back from the platform, so no mapping is stored.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from bot.answers.forms import answer_form
from bot.commands.spec import BY_NAME, OptionSpec
from bot.community.forms import IMPORT, draft_form, import_form
from bot.i18n import t
from bot.mistakes.forms import report_form, resolve_form
from bot.types import Action, ActionKind, Form, FormField, Locale, Reply, Tone

T = TypeVar("T")

ACK_BUDGET = 2.0  # seconds; Discord and Slack both drop what is not answered within 3
SUBMIT = "submit"  # the command a problem's Submit button opens the code form of
CODE_LIMIT = 4000  # characters of code a form takes (a platform may allow fewer)


def budget(command: str) -> float:
    """Seconds of work before the platform must be answered (0: answer "working" at once)."""
    spec = BY_NAME.get(command)
    return 0.0 if spec is not None and spec.slow else ACK_BUDGET


async def within(work: asyncio.Future[T], seconds: float) -> bool:
    """Whether `work` is done within `seconds` (not waiting at all for 0); it runs on after."""
    if seconds > 0 and not work.done():
        await asyncio.wait({work}, timeout=seconds)
    return work.done()


def code_option(command: str) -> OptionSpec | None:
    """The option of `command` that takes code (a multiline text), if it has one."""
    spec = BY_NAME.get(command)
    return next((o for o in spec.options if o.multiline), None) if spec else None


def needs_code(command: str, options: dict[str, str]) -> bool:
    """Whether the invocation still lacks its code: the platform then asks for it in a form."""
    code = code_option(command)
    return code is not None and not options.get(code.name, "").strip()


def takes_report(command: str) -> bool:
    """Whether a file sent for `command`'s multiline option is a report to import (handed
    to `Studybot.import_file` whole) rather than code."""
    return command == IMPORT


def form_options(command: str, subject: str, values: Mapping[str, str]) -> dict[str, str]:
    """A submitted form's inputs as the command's options: each input fills the option of
    its name (anything else a payload carries is dropped), and the subject the command's
    first option no input fills (`submit`'s problem, `report`'s item id); a subject of two
    words fills the first two, as typed (`edit s.nccl-tree` for `/drafts`)."""
    spec = BY_NAME.get(command)
    if spec is None:
        return {}
    names = [o.name for o in spec.options]
    options = {name: str(value) for name, value in values.items() if name in names}
    free = [name for name in names if name not in options]
    words = subject.split(maxsplit=1)
    if len(words) == 2 and len(free) >= 2 and (spec.positional or 1) >= 2:
        options |= dict(zip(free, words, strict=False))
    elif free and subject.strip():
        options[free[0]] = subject.strip()
    return options


def input_form(command: str, subject: str, locale: Locale, limit: int = CODE_LIMIT) -> Form:
    """The form a command lacking its multiline input opens, for a platform whose text
    inputs hold `limit` characters: the report's for `/import`, else the code form."""
    if command == IMPORT:
        return import_form(locale, limit)
    return code_form(command, subject, locale)


def code_form(command: str, subject: str, locale: Locale) -> Form:
    """The form that takes code: `submit` (for `subject`, or asking which problem) and `run`."""
    code = FormField("code", t(locale, "form.solution.label"), multiline=True,
                     max_length=CODE_LIMIT, hint=t(locale, "form.code.hint"))  # fmt: skip
    fields: tuple[FormField, ...] = (code,)
    if command == SUBMIT and not subject:
        fields = (FormField("problem", t(locale, "form.problem.label")), code)
    title = t(locale, "form.solution.title", problem=subject) if subject else \
        t(locale, f"form.{'solution.any' if command == SUBMIT else 'run.title'}")  # fmt: skip
    intro = t(locale, "form.problem", id=subject) if subject else None
    return Form(command, subject, title, fields, intro)


# What each kind of button that opens a form opens, from its value and the reader's
# language. A button of any other kind runs its command (`Action.invocation`).
FORMS: dict[ActionKind, Callable[[str, Locale], Form]] = {
    ActionKind.SUBMIT_SOLUTION: lambda subject, locale: code_form(SUBMIT, subject, locale),
    ActionKind.REPORT_MISTAKE: report_form,
    ActionKind.RESOLVE_REPORT: resolve_form,
    ActionKind.ANSWER_THIS: answer_form,
    ActionKind.DRAFT_EDIT: draft_form,
}
# Forms that open with stored values: what the button's command answers with (its fields,
# each named by the input it fills), so the values are read when the button is clicked.
PREFILLED = frozenset({ActionKind.DRAFT_EDIT})


def form_of(action: Action, locale: Locale) -> Form | None:
    """The form a button opens, or None if it runs a command."""
    make = FORMS.get(action.kind)
    return make(action.value, locale) if make is not None else None


def filled(form: Form, reply: Reply) -> Form | None:
    """`form` with each input set to the reply's field of its name; None if the reply is
    a refusal (not a moderator, no such draft), which the platform then shows instead."""
    if reply.tone is not Tone.INFO:
        return None
    values = {f.name: f.value for f in reply.fields}
    if not any(f.name in values for f in form.fields):
        return None
    fields = tuple(dataclasses.replace(f, value=values.get(f.name, f.value)[: f.max_length])
                   for f in form.fields)  # fmt: skip
    return dataclasses.replace(form, fields=fields)


def typed(action: Action) -> str:
    """What to type for a button where there are no buttons (the console): its command; for a
    form, its command with the inputs to write, as far as a typed line can hold them (the
    console asks for code itself, so a code form is typed as its command; a prefilled form
    too, as its command answers with the values to type)."""
    form = form_of(action, Locale.EN) if action.kind not in PREFILLED else None
    spec = BY_NAME.get(form.command) if form is not None else None
    if form is None or spec is None or code_option(form.command) is not None:
        return action.as_command()
    words, inputs = [f"/{form.command}", form.subject], {f.name for f in form.fields}
    for option in (o for o in spec.options if o.name in inputs):
        words.append(f"<{option.name}>" if option.rest else f"{option.name}:…")
        if option.rest:
            break  # what follows the rest of the line cannot be typed
    return " ".join(filter(None, words))


def problem_of(actions: Iterable[Action]) -> str | None:
    """The problem a post's buttons offer to submit a solution to, if any."""
    return next((a.value for a in actions if a.kind is ActionKind.SUBMIT_SOLUTION), None)
