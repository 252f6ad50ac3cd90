"""Every interaction routed to the core: slash commands, autocomplete, button clicks, forms.

Stateless by design: a command is read from its payload, a click from its button's
custom_id (`reveal:python-gil`), a form from its custom_id (`code:submit:fast-power`), so
nothing needs rebuilding after a restart and old posts keep working. Each interaction is read
once (`interactions.parse`) and routed on that value. The router decides nothing the core
decides (`bot.routes`); it picks the Discord way to ask and to answer:

- a command that still needs its code takes a `.py` attachment or opens a form; `/import`
  takes a `.txt` or `.md` report instead (checked by what Discord says of it before it is
  downloaded, within `FETCH_TIMEOUT`, then handed to `Studybot.import_file`) or opens the
  report's form (`bot.routes.input_form`, a text input of Discord's 4,000 characters);
- a button that opens a form (Submit solution, Report a mistake, Resolve, Edit a draft)
  opens it as a modal (`bot.routes.form_of`), and its submission runs the form's command. A
  modal can only be an interaction's first response, so a form that opens with stored
  values (`bot.routes.PREFILLED`: a draft's) runs its button's command first and opens if
  the values come within the budget; a refusal, or values too late, is shown instead;
- a command answers within `bot.routes.budget`, or is deferred ("thinking") and answered
  when done;
- a failure of the adapter itself is logged in full with a short reference, and the user
  gets an ephemeral apology naming it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord.interactions import Asks, Inbound, Upload, parse
from adapters.discord.render import MODAL_INPUT_LIMIT, form_modal
from adapters.discord.respond import answer_in_time, apologise, send_reply
from bot.community.imports import check_file
from bot.core import Studybot
from bot.errors import BadArgument
from bot.i18n import t
from bot.routes import (
    PREFILLED,
    budget,
    code_option,
    filled,
    form_of,
    input_form,
    needs_code,
    takes_report,
    within,
)
from bot.text.code import NotUtf8, decode_source
from bot.types import Form, Invocation, Locale, Notice, Reply, Tone

log = logging.getLogger(__name__)

Fetch = Callable[[str], Awaitable[bytes]]
Route = Callable[[discord.Interaction[Any], Inbound], Awaitable[None]]
MAX_UPLOAD = 64 * 1024  # bytes: a solution, not a data set
FETCH_TIMEOUT = 10.0  # seconds to download an attachment from Discord's CDN


class InteractionRouter:
    def __init__(self, core: Studybot, fetch: Fetch, *, defer_after: float | None = None,
                 moderator_roles: frozenset[int] = frozenset()) -> None:  # fmt: skip
        """`defer_after` overrides the core's budget for commands that are not slow;
        members holding one of `moderator_roles` moderate (`DISCORD_MODERATOR_ROLE_IDS`)."""
        self._core, self._fetch, self._defer_after = core, fetch, defer_after
        self._moderator_roles = moderator_roles
        self._routes: dict[Asks, Route] = {
            Asks.COMMAND: self._command, Asks.CLICK: self._click,
            Asks.FORM: self._form, Asks.COMPLETE: self._complete,
        }  # fmt: skip

    async def route(self, interaction: discord.Interaction[Any]) -> None:
        try:
            inbound = parse(interaction, self._moderator_roles)
        except Exception:
            log.exception("discord %s interaction could not be read", interaction.type.name)
            return
        route = self._routes.get(inbound.asks)
        if route is not None:
            await self._guarded(interaction, inbound, route(interaction, inbound))

    async def _command(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        options = dict(inbound.options)
        if needs_code(inbound.command, options):
            taking = code_option(inbound.command)
            assert taking is not None  # needs_code says there is one
            upload = next((u for u in inbound.uploads if u.option == taking.name), None)
            if upload is None:
                subject = next(iter(options.values()), "")
                form = input_form(inbound.command, subject, inbound.locale, MODAL_INPUT_LIMIT)
                await interaction.response.send_modal(form_modal(form))
                return
            if takes_report(inbound.command):
                await self._import(interaction, inbound, upload)
                return
            options[taking.name] = await self._read(upload, inbound)
        await self._answer(interaction, inbound.invocation(options=options))

    async def _import(self, interaction: discord.Interaction[Any], inbound: Inbound,
                      upload: Upload) -> None:  # fmt: skip
        """A report attached to `/import`: nothing is downloaded unless Discord says it is a
        text file within the size the core takes; the core reads and checks the bytes again."""
        check_file(upload.filename, upload.content_type, upload.size, inbound.locale)
        inv = inbound.invocation()

        async def work(notice: Notice) -> Reply:
            data = await self._download(upload.url, inbound.locale)
            return await self._core.import_file(inv, data, upload.filename)

        await answer_in_time(interaction, work, budget=self._budget(inv.command))

    async def _download(self, url: str, locale: Locale) -> bytes:
        try:
            return await asyncio.wait_for(self._fetch(url), FETCH_TIMEOUT)
        except (TimeoutError, discord.HTTPException) as exc:
            log.warning("discord: an attachment could not be downloaded: %r", exc)
            raise BadArgument(t(locale, "import.fetch_failed")) from None

    async def _click(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        assert inbound.action is not None  # a CLICK has its action
        form = form_of(inbound.action, inbound.locale)
        if form is None:
            await self._answer(interaction, inbound.invocation(*inbound.action.invocation()))
        elif inbound.action.kind in PREFILLED:
            await self._prefilled(interaction, inbound, form)
        else:
            await interaction.response.send_modal(form_modal(form))

    async def _prefilled(self, interaction: discord.Interaction[Any], inbound: Inbound,
                         form: Form) -> None:  # fmt: skip
        """Open `form` with the values its button's command answers with (checked by the core
        as any click: a moderator of this server), or show that answer if it is a refusal
        or comes too late to be the first response."""
        assert inbound.action is not None
        inv = inbound.invocation(*inbound.action.invocation())
        work = asyncio.ensure_future(self._core.handle(inv))
        if await within(work, self._budget(inv.command)):
            ready = filled(form, work.result())
            if ready is not None:
                await interaction.response.send_modal(form_modal(ready))
                return
        else:
            await interaction.response.defer(thinking=True)
        await send_reply(interaction, await work)

    async def _form(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        await self._answer(interaction, inbound.invocation())

    async def _complete(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        option, typed = inbound.typing
        found = await self._core.complete(inbound.command, option, typed, inbound.locale)
        choices = [discord.app_commands.Choice(name=c.name, value=c.value) for c in found]
        await interaction.response.autocomplete(choices)

    async def _answer(self, interaction: discord.Interaction[Any], inv: Invocation) -> None:
        await answer_in_time(interaction, lambda notice: self._core.handle(
            dataclasses.replace(inv, notice=notice)), budget=self._budget(inv.command))  # fmt: skip

    def _budget(self, command: str) -> float:
        seconds = budget(command)
        return self._defer_after if seconds > 0 and self._defer_after is not None else seconds

    async def _read(self, upload: Upload, inbound: Inbound) -> str:
        if not upload.filename.endswith(".py") or upload.size > MAX_UPLOAD:
            raise BadArgument(t(inbound.locale, "error.not_python_file",
                                limit=MAX_UPLOAD // 1024))  # fmt: skip
        try:
            return decode_source(await self._fetch(upload.url))
        except NotUtf8 as exc:
            raise BadArgument(t(inbound.locale, "error.not_utf8", why=str(exc))) from None

    async def _guarded(self, interaction: discord.Interaction[Any], inbound: Inbound,
                       work: Awaitable[None]) -> None:  # fmt: skip
        """Run one route; a user's mistake is explained, a failure apologised for, privately."""
        try:
            await work
        except BadArgument as exc:
            await send_reply(interaction, Reply(str(exc), ephemeral=True, tone=Tone.USER_ERROR))
        except Exception:
            ref = secrets.token_hex(4)
            log.exception("discord %s interaction failed (ref %s)", interaction.type.name, ref)
            if inbound.asks is not Asks.COMPLETE:
                try:
                    await apologise(interaction, t(inbound.locale, "error.failure", ref=ref))
                except discord.HTTPException:
                    log.warning("could not deliver the apology for ref %s", ref)
