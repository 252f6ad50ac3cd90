"""What every chat adapter asks the same way, decided here once.

Discord and Slack differ in how they ask (interactions, slash commands, block actions,
modals) but not in what they ask, so these answers live in the core and adapters only
translate:

- how long a command may work before the platform must be answered (`budget`): a `slow`
  command (grading) not at all; anything else `ACK_BUDGET`;
- whether a reply is ready within that budget, the work going on either way (`within`);
- which option of a command takes code (`code_option`), whether an invocation still lacks
  it, so the platform opens a code form (`needs_code`), and a form's fields as the command's
  options (`form_options`);
- what a button does: the code form of its problem (`form_of`), or a command
  (`Action.invocation`);
- the problem a thread is about: the one named by the Submit button of the post that started
  it (`problem_of`), read back from the platform, so no mapping is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TypeVar

from bot.commands.spec import BY_NAME, OptionSpec
from bot.types import Action, ActionKind

T = TypeVar("T")

ACK_BUDGET = 2.0  # seconds; Discord and Slack both drop what is not answered within 3
SUBMIT = "submit"  # the command a problem's Submit button opens the code form of


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


def form_options(command: str, subject: str, code: str) -> dict[str, str]:
    """A code form's fields as the command's options: the subject (a problem id) fills the
    first option that takes no code, the code its own."""
    spec = BY_NAME.get(command)
    plain = next((o.name for o in spec.options if not o.multiline), None) if spec else None
    taking = code_option(command)
    named = {plain: subject} if plain and subject.strip() else {}
    return {**named, (taking.name if taking else "code"): code}


def form_of(action: Action) -> tuple[str, str] | None:
    """(command, subject) of the code form a button opens, or None if it runs a command."""
    return (SUBMIT, action.value) if action.kind is ActionKind.SUBMIT_SOLUTION else None


def problem_of(actions: Iterable[Action]) -> str | None:
    """The problem a post's buttons offer to submit a solution to, if any."""
    return next((a.value for a in actions if a.kind is ActionKind.SUBMIT_SOLUTION), None)
