"""`/me timezone:<IANA zone>` and `/me timezone:clear`: the zone a member's days are counted
in, for streaks. Without one, a member's day is the zone of the channel schedule they
answered in, else UTC (`bot/learning/ledger.py`). A new zone counts from the next act: days
already recorded keep the date they had."""

from __future__ import annotations

from bot.commands.context import Context
from bot.errors import BadArgument
from bot.i18n import t
from bot.schedule.times import parse_zone
from bot.types import Invocation, Reply

CLEAR = frozenset({"clear", "none", "off", "清除"})


async def my_timezone(ctx: Context, inv: Invocation) -> Reply:
    raw = inv.options["timezone"].strip()
    if raw.lower() in CLEAR:
        await ctx.prefs.set_timezone(inv.user, None)
        return Reply(t(inv.locale, "me.timezone_cleared"), ephemeral=True)
    try:
        zone = parse_zone(raw)
    except ValueError:
        value = raw if len(raw) <= 60 else raw[:57] + "..."
        raise BadArgument(t(inv.locale, "me.bad_timezone", value=value)) from None
    await ctx.prefs.set_timezone(inv.user, zone.key)
    there = ctx.clock.now().astimezone(zone)
    local = f"{t(inv.locale, 'weekdays').split()[there.weekday()]} {there:%H:%M}"
    return Reply(t(inv.locale, "me.timezone_set", zone=zone.key, local=local), ephemeral=True)
