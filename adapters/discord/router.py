"""Every interaction routed to the core: slash commands, autocomplete, button clicks, forms.

Stateless by design: a command is read from its payload, a click from its button's
custom_id (`reveal:python-gil`), a form from its custom_id (`code:submit:fast-power`), so
nothing needs rebuilding after a restart and old posts keep working. Each interaction is read
once (`interactions.parse`) and routed on that value. The router decides nothing the core
decides (`bot.routes`); it picks the Discord way to ask and to answer:

- a command that still needs its code takes a `.py` attachment or opens a form;
- a button that opens a form (Submit solution, Report a mistake, Resolve) opens it as a
  modal (`bot.routes.form_of`), and its submission runs the form's command;
- a command answers within `bot.routes.budget`, or is deferred ("thinking") and answered
  when done;
- a failure of the adapter itself is logged in full with a short reference, and the user
  gets an ephemeral apology naming it.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord.interactions import Asks, Inbound, Upload, parse
from adapters.discord.render import form_modal
from adapters.discord.respond import answer_in_time, apologise, send_reply
from bot.core import Studybot
from bot.errors import BadArgument
from bot.i18n import t
from bot.routes import budget, code_form, code_option, form_of, needs_code
from bot.text.code import NotUtf8, decode_source
from bot.types import Invocation, Reply, Tone

log = logging.getLogger(__name__)

Fetch = Callable[[str], Awaitable[bytes]]
Route = Callable[[discord.Interaction[Any], Inbound], Awaitable[None]]
MAX_UPLOAD = 64 * 1024  # bytes: a solution, not a data set


class InteractionRouter:
    def __init__(self, core: Studybot, fetch: Fetch, *, defer_after: float | None = None) -> None:
        """`defer_after` overrides the core's budget for commands that are not slow."""
        self._core, self._fetch, self._defer_after = core, fetch, defer_after
        self._routes: dict[Asks, Route] = {
            Asks.COMMAND: self._command, Asks.CLICK: self._click,
            Asks.FORM: self._form, Asks.COMPLETE: self._complete,
        }  # fmt: skip

    async def route(self, interaction: discord.Interaction[Any]) -> None:
        try:
            inbound = parse(interaction)
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
                form = code_form(inbound.command, subject, inbound.locale)
                await interaction.response.send_modal(form_modal(form))
                return
            options[taking.name] = await self._read(upload, inbound)
        await self._answer(interaction, inbound.invocation(options=options))

    async def _click(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        assert inbound.action is not None  # a CLICK has its action
        form = form_of(inbound.action, inbound.locale)
        if form is not None:
            await interaction.response.send_modal(form_modal(form))
            return
        await self._answer(interaction, inbound.invocation(*inbound.action.invocation()))

    async def _form(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        await self._answer(interaction, inbound.invocation())

    async def _complete(self, interaction: discord.Interaction[Any], inbound: Inbound) -> None:
        option, typed = inbound.typing
        found = await self._core.complete(inbound.command, option, typed, inbound.locale)
        choices = [discord.app_commands.Choice(name=c.name, value=c.value) for c in found]
        await interaction.response.autocomplete(choices)

    async def _answer(self, interaction: discord.Interaction[Any], inv: Invocation) -> None:
        seconds = budget(inv.command)
        if seconds > 0 and self._defer_after is not None:
            seconds = self._defer_after
        await answer_in_time(interaction, lambda notice: self._core.handle(
            dataclasses.replace(inv, notice=notice)), budget=seconds)  # fmt: skip

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
