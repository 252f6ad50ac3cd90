"""Every interaction routed to the core: slash commands, autocomplete, button clicks, forms.

Stateless by design: a command is read from its payload, a click from its button's
custom_id (`reveal:python-gil`), a form from its custom_id (`code:submit:fast-power`), so
nothing needs rebuilding after a restart and old posts keep working. The router decides
nothing the core decides; it picks the Discord way to ask and to answer:

- a command with a `multiline` option (code) takes a `.py` attachment or opens a form;
- the "Submit solution" button opens that form for its problem;
- a failure of the adapter itself is logged in full with a short reference, and the user
  gets an ephemeral apology naming it.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord import interactions as inbound
from adapters.discord.render import CODE_INPUT, code_form, parse_custom_id, parse_form_id
from adapters.discord.respond import answer_in_time, apologise, send_reply
from bot.commands.spec import BY_NAME, CommandSpec
from bot.core import Studybot
from bot.errors import BadArgument
from bot.i18n import t
from bot.text.code import NotUtf8, decode_source
from bot.types import ActionKind, Invocation, Reply, Tone

log = logging.getLogger(__name__)

Fetch = Callable[[str], Awaitable[bytes]]
MAX_UPLOAD = 64 * 1024  # bytes: a solution, not a data set


class InteractionRouter:
    def __init__(self, core: Studybot, fetch: Fetch, *, defer_after: float = 2.0) -> None:
        self._core, self._fetch, self._defer_after = core, fetch, defer_after

    async def route(self, interaction: discord.Interaction[Any]) -> None:
        kind = interaction.type
        if kind is discord.InteractionType.autocomplete:
            await self._guarded(interaction, self._complete(interaction))
        elif kind is discord.InteractionType.application_command:
            await self._guarded(interaction, self._command(interaction))
        elif kind is discord.InteractionType.component:
            await self._guarded(interaction, self._click(interaction))
        elif kind is discord.InteractionType.modal_submit:
            await self._guarded(interaction, self._form(interaction))

    async def _command(self, interaction: discord.Interaction[Any]) -> None:
        name, options, uploads = inbound.command_options(interaction)
        spec = BY_NAME.get(name)
        code = next((o for o in spec.options if o.multiline), None) if spec else None
        if spec is not None and code is not None and code.name not in options:
            upload = next((u for u in uploads if u.option == code.name), None)
            if upload is None:
                subject = next(iter(options.values()), "")
                await interaction.response.send_modal(
                    code_form(name, subject, inbound.locale_of(interaction))
                )
                return
            options[code.name] = await self._read(upload, interaction)
        inv = inbound.invocation(interaction, name, options)
        await self._answer(interaction, inv, spec)

    async def _click(self, interaction: discord.Interaction[Any]) -> None:
        action = parse_custom_id(str(dict(interaction.data or {}).get("custom_id", "")))
        if action is None:
            return  # not one of ours (or a retired kind of button): Discord shows it failed
        if action.kind is ActionKind.SUBMIT_SOLUTION:
            form = code_form("submit", action.value, inbound.locale_of(interaction))
            await interaction.response.send_modal(form)
            return
        inv = inbound.action_invocation(interaction, action)
        if inv is not None:
            await self._answer(interaction, inv, BY_NAME.get(inv.command))

    async def _form(self, interaction: discord.Interaction[Any]) -> None:
        parsed = parse_form_id(str(dict(interaction.data or {}).get("custom_id", "")))
        if parsed is None:
            return
        command, subject = parsed
        spec = BY_NAME.get(command)
        code = inbound.form_values(interaction).get(CODE_INPUT, "")
        options = _code_options(spec, subject, code)
        await self._answer(interaction, inbound.invocation(interaction, command, options), spec)

    async def _complete(self, interaction: discord.Interaction[Any]) -> None:
        command, option, typed = inbound.focused(interaction)
        found = await self._core.complete(command, option, typed, inbound.locale_of(interaction))
        choices = [discord.app_commands.Choice(name=c.name, value=c.value) for c in found]
        await interaction.response.autocomplete(choices)

    async def _answer(self, interaction: discord.Interaction[Any], inv: Invocation,
                      spec: CommandSpec | None) -> None:  # fmt: skip
        slow = spec is not None and spec.slow
        await answer_in_time(interaction, self._core.handle(inv), slow=slow,
                             defer_after=self._defer_after)  # fmt: skip

    async def _read(self, upload: inbound.Upload, interaction: discord.Interaction[Any]) -> str:
        locale = inbound.locale_of(interaction)
        if not upload.filename.endswith(".py") or upload.size > MAX_UPLOAD:
            raise BadArgument(t(locale, "error.not_python_file", limit=MAX_UPLOAD // 1024))
        try:
            return decode_source(await self._fetch(upload.url))
        except NotUtf8 as exc:
            raise BadArgument(t(locale, "error.not_utf8", why=str(exc))) from None

    async def _guarded(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        """Run one route; a user's mistake is explained, a failure apologised for, privately."""
        try:
            await work
        except BadArgument as exc:
            await send_reply(interaction, Reply(str(exc), ephemeral=True, tone=Tone.USER_ERROR))
        except Exception:
            ref = secrets.token_hex(4)
            log.exception("discord %s interaction failed (ref %s)", interaction.type.name, ref)
            if interaction.type is not discord.InteractionType.autocomplete:
                try:
                    await apologise(interaction, t(inbound.locale_of(interaction),
                                                   "error.failure", ref=ref))  # fmt: skip
                except discord.HTTPException:
                    log.warning("could not deliver the apology for ref %s", ref)


def _code_options(spec: CommandSpec | None, subject: str, code: str) -> dict[str, str]:
    """A code form's fields as the command's options: the subject fills the first plain
    option (`problem`), the text the multiline one (`code`)."""
    if spec is None:
        return {"code": code}
    plain = next((o.name for o in spec.options if not o.multiline), None)
    multiline = next((o.name for o in spec.options if o.multiline), "code")
    return {**({plain: subject} if plain and subject else {}), multiline: code}
