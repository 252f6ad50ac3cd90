"""Code posted in chat, graded in place: the text-message way into `/submit`.

A message is graded when it holds a code fence and either mentions the bot
(`@studybot fast-power` + a ```python block; Discord delivers the text of a mention without
the privileged intent) or is posted in the thread of a coding problem's post (which needs the
Message Content intent, `DISCORD_MESSAGE_CONTENT=true`). The problem is the word after the
mention, or else the one the thread's starter post names in its "Submit solution" button:
stateless again, so threads from before a restart work. The core extracts the code from the
fence; the reply answers the message, with typing shown while grading runs.
"""

from __future__ import annotations

import logging
import re
import secrets
from typing import Any

import discord

from adapters.discord.interactions import PLATFORM
from adapters.discord.render import Page, buttons, parse_custom_id, render
from bot.core import Studybot
from bot.i18n import t
from bot.routes import problem_of
from bot.types import ChannelRef, Invocation, Locale, Reply, Tone, User

log = logging.getLogger(__name__)
FENCE = "```"
_MENTION = re.compile(r"<@!?\d+>")


class ChatGrader:
    def __init__(self, core: Studybot, client: discord.Client) -> None:
        self._core, self._client = core, client

    async def on_message(self, message: discord.Message) -> None:
        try:
            await self._grade(message)
        except Exception:
            ref = secrets.token_hex(4)
            log.exception("grading message %s failed (ref %s)", message.id, ref)

    async def _grade(self, message: discord.Message) -> None:
        me = self._client.user
        if message.author.bot or me is None or FENCE not in message.content:
            return
        mentioned = me in message.mentions
        thread_problem = await self._thread_problem(message.channel)
        if not mentioned and thread_problem is None:
            return
        text = _MENTION.sub("", message.content).strip()
        problem = _leading_word(text) or thread_problem
        locale = Locale.parse(str(message.guild.preferred_locale) if message.guild else None)
        if problem is None:
            reply = Reply(t(locale, "error.no_problem_here"), tone=Tone.USER_ERROR)
            await _reply(message, reply)
            return
        shown = Shown(message)
        async with message.channel.typing():
            reply = await self._core.handle(_invocation(message, problem, text, locale, shown))
        await shown.reply(reply)

    async def _thread_problem(self, channel: Any) -> str | None:
        """The problem a thread is about: read from its starter post's submit button."""
        if not isinstance(channel, discord.Thread) or channel.parent_id is None:
            return None
        try:
            starter: dict[str, Any] = dict(
                await self._client.http.get_message(channel.parent_id, channel.id)
            )
        except discord.HTTPException:
            return None  # not started on a message, or the post is gone
        buttons = (
            parse_custom_id(str(item.get("custom_id", "")))
            for row in starter.get("components", [])
            for item in row.get("components", [])
        )
        return problem_of(b for b in buttons if b is not None)


def _leading_word(text: str) -> str | None:
    word = text.split(maxsplit=1)[0] if text.split() else ""
    return word if word and not word.startswith(FENCE) else None


def _invocation(message: discord.Message, problem: str, text: str, locale: Locale,
                shown: Shown) -> Invocation:  # fmt: skip
    guild = str(message.guild.id) if message.guild else None
    user = User(PLATFORM, str(message.author.id), message.author.display_name)
    code = text.removeprefix(problem).strip() if text.startswith(problem) else text
    return Invocation("submit", {"problem": problem, "code": code}, user=user,
                      channel=ChannelRef(PLATFORM, str(message.channel.id), guild),
                      locale=locale, notice=shown.notice)  # fmt: skip


class Shown:
    """The bot's answer to a message: a notice first, if one comes (a place in the grading
    queue), replied to the message, then the reply itself in that same message."""

    def __init__(self, message: discord.Message) -> None:
        self._message = message
        self._answer: discord.Message | None = None

    async def notice(self, reply: Reply) -> None:
        page = _kwargs(render(reply)[0])
        if self._answer is None:
            self._answer = await self._message.reply(mention_author=False, **page)
        else:
            await self._answer.edit(**page)

    async def reply(self, reply: Reply) -> None:
        if self._answer is None:
            await _reply(self._message, reply)
            return
        first, *rest = render(reply)
        await self._answer.edit(**_kwargs(first))
        for page in rest:
            await self._message.channel.send(**_kwargs(page))


async def _reply(message: discord.Message, reply: Reply) -> None:
    pages = render(reply)
    await message.reply(mention_author=False, **_kwargs(pages[0]))
    for page in pages[1:]:
        await message.channel.send(**_kwargs(page))


def _kwargs(page: Page) -> dict[str, Any]:
    view = buttons(page.actions)
    return {"embeds": list(page.embeds), **({"view": view} if view else {})}
