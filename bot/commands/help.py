"""`/help`: the commands, in the asker's language."""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.spec import COMMANDS
from bot.i18n import t
from bot.types import Invocation, Reply


async def help_(ctx: Context, inv: Invocation) -> Reply:
    lines = [t(inv.locale, "help.intro"), ""]
    lines += [f"`{spec.usage()}`: {spec.summary(inv.locale)}" for spec in COMMANDS]
    lines += ["", t(inv.locale, "help.examples")]
    return Reply(title=t(inv.locale, "help.title"), body="\n".join(lines), ephemeral=True)
