"""The core: one entry point, `Studybot.handle`, from an `Invocation` to a `Reply`.

Adapters call `handle` for every command, button click and console line. Errors are sorted
here, once: a `UserError` becomes a friendly ephemeral reply; anything else is logged in full
with a short reference id and answered with an apology carrying that id.

Every answer is counted here too (`Metrics.interaction`): the command, by its spec's name or
"unknown" for any other (so a typed `/anything` cannot grow the label set), its outcome
("ok", "user_error", "failure") and the seconds the reply took on the monotonic clock.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from bot.commands.answers import adopt, answers, contribute
from bot.commands.browse import questions
from bot.commands.community import drafts, import_file, import_report
from bot.commands.complete import complete
from bot.commands.context import Context
from bot.commands.export import export
from bot.commands.find import search
from bot.commands.forget import confirm, forget
from bot.commands.grading import run, submit
from bot.commands.help import help_
from bot.commands.hints import hint
from bot.commands.leaderboard import leaderboard
from bot.commands.lookup import answer, question, topics
from bot.commands.mistakes import report, reports, resolve
from bot.commands.overview import Mention, workspace_schedules
from bot.commands.parse import folded, parse_line, unknown_command
from bot.commands.progress import me
from bot.commands.quiz import quiz
from bot.commands.rating import check, explain, rate
from bot.commands.review import review
from bot.commands.schedule import daily, schedule
from bot.commands.spec import BY_NAME, CommandSpec, OptionSpec
from bot.errors import BadArgument, NotFound, UserError
from bot.i18n import t
from bot.logs import interaction
from bot.ports import Metrics, NoMetrics
from bot.types import (
    Action,
    ActionKind,
    ChannelRef,
    Choice,
    Invocation,
    Locale,
    Notice,
    Reply,
    Tone,
    User,
)

log = logging.getLogger(__name__)

Handler = Callable[[Context, Invocation], Awaitable[Reply]]

HANDLERS: dict[str, Handler] = {
    "question": question,
    "questions": questions,
    "quiz": quiz,
    "answer": answer,
    "search": search,
    "topics": topics,
    "help": help_,
    "schedule": schedule,
    "daily": daily,
    "submit": submit,
    "run": run,
    "hint": hint,
    "export": export,
    "forget": forget,
    "forget-confirm": confirm,
    "me": me,
    "review": review,
    "rate": rate,
    "review-check": check,
    "review-explain": explain,
    "leaderboard": leaderboard,
    "import": import_report,
    "drafts": drafts,
    "report": report,
    "reports": reports,
    "resolve": resolve,
    "contribute": contribute,
    "adopt": adopt,
    "answers": answers,
}


class Studybot:
    def __init__(self, context: Context, metrics: Metrics | None = None) -> None:
        self._context = context
        self._metrics: Metrics = metrics or NoMetrics()

    async def handle(self, inv: Invocation) -> Reply:
        return await self._guarded(inv, self._dispatch(inv))

    async def handle_line(
        self, line: str, *, user: User, channel: ChannelRef, locale: Locale,
        notice: Notice | None = None,
    ) -> Reply:  # fmt: skip
        """Parse a typed `/command args` line (console, Slack's `/study`), then handle it."""
        try:
            name, options = parse_line(line, locale)
        except UserError as exc:
            first = (line.split(maxsplit=1) or [""])[0][:MAX_OPTION]
            with interaction():  # only the first word: what follows may be code
                log.info("line not understood: %s", first)
            self._metrics.interaction(UNKNOWN, "user_error", 0.0)
            return _user_error(exc, locale)
        inv = Invocation(name, options, user=user, channel=channel, locale=locale, notice=notice)
        return await self.handle(inv)

    async def complete(
        self, command: str, option: str, prefix: str, locale: Locale, server: str | None = None
    ) -> tuple[Choice, ...]:
        """Suggestions for `option` of `command` given what was typed (autocomplete), among
        what is served in `server` (`ChannelRef.server` of where it is typed).

        Never raises: a failure is logged and yields no suggestions, as typing goes on."""
        with interaction():
            try:
                return await complete(self._context.store, command, option, prefix, locale,
                                      server)  # fmt: skip
            except Exception:
                log.exception("completing /%s %s failed", command, option)
                return ()

    async def workspace_schedules(self, inv: Invocation, mention: Mention) -> Reply:
        """The schedules of `inv.channel`'s workspace; `mention` names a channel for display."""
        return await self._guarded(inv, workspace_schedules(self._context, inv, mention))

    async def import_file(self, inv: Invocation, data: bytes, filename: str) -> Reply:
        """`/import` of a report sent as a file: its bytes and name (an attachment on a chat
        platform, `/import FILE` in the console), `inv` saying who sent it where."""
        work = import_file(self._context, inv, data, filename)
        return await self._guarded(dataclasses.replace(inv, command="import"), work)

    async def _guarded(self, inv: Invocation, work: Awaitable[Reply]) -> Reply:
        """Handle one interaction; its log lines share an id (`bot.logs.interaction`). The
        options are never logged: they may hold submitted code."""
        with interaction():
            log.info("/%s by %s in %s", inv.command, inv.user.id, inv.channel.platform)
            started = time.perf_counter()
            reply = await self._sorted(inv, work)
            log.info("/%s answered (%s) in %.0f ms", inv.command, reply.tone.name.lower(),
                     (time.perf_counter() - started) * 1000)  # fmt: skip
            return reply

    async def _sorted(self, inv: Invocation, work: Awaitable[Reply]) -> Reply:
        """The reply, errors sorted; counted (`Metrics.interaction`) whatever it was."""
        started, outcome = time.perf_counter(), "failure"
        try:
            reply = await work
            outcome = "ok"
            return reply
        except UserError as exc:
            outcome = "user_error"
            return _user_error(exc, inv.locale)
        except Exception:
            ref = secrets.token_hex(4)
            log.exception("command /%s failed (ref %s)", inv.command, ref)
            return Reply(body=t(inv.locale, "error.failure", ref=ref), ephemeral=True,
                         tone=Tone.FAILURE)  # fmt: skip
        finally:
            command = inv.command if inv.command in BY_NAME else UNKNOWN
            self._metrics.interaction(command, outcome, time.perf_counter() - started)

    async def _dispatch(self, inv: Invocation) -> Reply:
        handler = HANDLERS.get(inv.command)
        if handler is None:
            raise unknown_command(inv.command, inv.locale)
        return await handler(self._context, _checked(BY_NAME[inv.command], inv))


UNKNOWN = "unknown"  # the command label of anything the spec does not declare

MAX_OPTION = 100  # characters of an id, topic, time ...; longer is a paste, not a value


def _checked(spec: CommandSpec, inv: Invocation) -> Invocation:
    """Required options present, choices respected (aliases made canonical), values folded
    (full-width digits and letters as ASCII, so `page:２` and `level:２` read as 2): once
    here, for every command and platform."""
    options = dict(inv.options)
    for option in spec.options:
        value = options.get(option.name, "").strip()
        free = option.rest or option.multiline or option.max_length > 0
        limit = option.max_length or MAX_OPTION
        if len(value) > limit and (option.max_length or not free):
            raise BadArgument(t(inv.locale, "error.option_too_long", option=option.name,
                                limit=limit))  # fmt: skip  # (the value is not echoed)
        if value and not free:
            value = options[option.name] = folded(value)
        if option.required and not value:
            raise _missing(spec, option, inv.locale)
        if value and option.choices:
            value = option.canonical(value)
            if value not in option.choices:
                raise BadArgument(t(inv.locale, "error.bad_choice", option=option.name,
                                    choices=", ".join(option.choices)))  # fmt: skip
            options[option.name] = value
    return dataclasses.replace(inv, options=options)


def _missing(spec: CommandSpec, option: OptionSpec, locale: Locale) -> BadArgument:
    """A required option left out; one with choices says what they are (`/export scores`)."""
    if option.choices:
        return BadArgument(t(locale, "error.missing_choice", name=spec.name,
                             choices=", ".join(f"`{c}`" for c in option.choices),
                             example=f"/{spec.name} {option.choices[0]}"))  # fmt: skip
    return BadArgument(t(locale, "error.missing", name=spec.name, option=option.name,
                         usage=spec.usage()))  # fmt: skip


def _user_error(exc: UserError, locale: Locale) -> Reply:
    body, actions = str(exc), tuple[Action, ...]()
    if isinstance(exc, NotFound) and exc.suggestions:
        ids = ", ".join(f"`{s}`" for s in exc.suggestions)
        body += " " + t(locale, "error.did_you_mean", ids=ids)
        actions = tuple(Action(ActionKind.SHOW_QUESTION, s, s) for s in exc.suggestions)
    return Reply(body=body, actions=actions, ephemeral=True, tone=Tone.USER_ERROR)
