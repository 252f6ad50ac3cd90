"""The App Home tab: a personal view built from core replies, published with views.publish.

The person's progress (the core's `/me`: streak, points, reviews due, topics, problems
solved), the daily questions of the workspace's channels, and the help. Each part is an
ordinary `Reply` of the core; only the layout (dividers, 100 blocks at most) is Slack's.
The Home tab is text only: `/me`'s card would have to be uploaded somewhere public to be shown
in it, so the progress is the reply's text, and the card comes with `/study me`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adapters.slack.people import PLATFORM, Person
from adapters.slack.render import as_study, home_view
from bot.commands.spec import BY_NAME
from bot.core import Studybot
from bot.types import ChannelRef, Invocation, Reply

PERSONAL_COMMAND = "me"


async def home_for(core: Studybot, person: Person, team: str | None) -> dict[str, Any]:
    where = ChannelRef(PLATFORM, person.user.id, team)

    def ask(command: str) -> Invocation:
        return Invocation(command, {}, user=person.user, channel=where, locale=person.locale)

    replies: list[Reply] = []
    if PERSONAL_COMMAND in BY_NAME:
        progress = await core.handle(ask(PERSONAL_COMMAND))
        replies.append(replace(progress, attachments=()))
    replies.append(await core.workspace_schedules(ask("schedule"), mention=channel_mention))
    replies.append(await core.handle(ask("help")))
    return home_view(as_study(reply) for reply in replies)


def channel_mention(channel: ChannelRef) -> str:
    return f"<#{channel.channel}>"
