"""The schedules of a whole workspace, for a personal dashboard (Slack's App Home).

Platform-free: the caller says how a channel is named in its markup (`mention`), so Slack can
show `<#C123>` as a link while the core never learns that syntax.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.commands.context import Context
from bot.i18n import t
from bot.schedule.model import Schedule, format_days
from bot.types import ChannelRef, Invocation, Reply

Mention = Callable[[ChannelRef], str]


async def workspace_schedules(ctx: Context, inv: Invocation, mention: Mention) -> Reply:
    """One line per scheduled channel of the asker's workspace, in the asker's language."""
    found = await ctx.schedules.in_workspace(inv.channel.platform, inv.channel.workspace)
    title = t(inv.locale, "overview.title")
    if not found:
        return Reply(title=title, body=t(inv.locale, "overview.none"))
    return Reply(title=title, body="\n".join(f"- {_line(s, inv, mention)}" for s in found))


def _line(s: Schedule, inv: Invocation, mention: Mention) -> str:
    paused = t(inv.locale, "overview.paused") if s.paused else ""
    return t(inv.locale, "overview.line", channel=mention(s.channel), time=f"{s.post_at:%H:%M}",
             zone=s.zone.key, days=format_days(s.days | s.coding_days), paused=paused)  # fmt: skip
