"""`ChatAdapter` for Discord: the scheduler's posts, and a member's direct messages (the
morning digest), sent through REST.

A post is sent with its nonce and `enforce_nonce`, so a resend after a crash (same nonce)
returns the message Discord already has instead of posting it twice. `thread_of` starts a
thread on the question's post and posts there; a thread started from a message has the
message's id, so if the thread already exists (a retry) the post goes to it directly.
Discord's refusals become `DeliveryError`s: missing access or a deleted channel are
permanent (the schedule pauses with the reason), server errors and timeouts are retried.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from adapters.discord.render import Page, attached_files, buttons, render
from bot.errors import DeliveryError
from bot.types import ChannelRef, MessageRef, Reply, User

THREAD_EXISTS = 160004  # Discord's code for "a thread has already been created for this message"
THREAD_NAME_LIMIT = 100


class DiscordAdapter:
    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def send(
        self,
        channel: ChannelRef,
        reply: Reply,
        *,
        thread_of: MessageRef | None = None,
        nonce: str | None = None,
    ) -> MessageRef:
        try:
            target = int(channel.channel)
            if thread_of is not None:
                target = await self._thread(thread_of, reply.title or "answer")
            first = await self._post(target, render(reply), nonce, attached_files(reply))
        except discord.HTTPException as exc:
            raise DeliveryError(_describe(exc), permanent=_permanent(exc)) from exc
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DeliveryError(f"Discord unreachable: {type(exc).__name__}") from exc
        return MessageRef(channel, str(first))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        """Replace the message's embeds and buttons with `reply`'s first page."""
        page = render(reply)[0]
        view = buttons(page.actions)
        target = self._client.get_partial_messageable(int(message.channel.channel))
        try:
            await target.get_partial_message(int(message.message_id)).edit(
                embeds=list(page.embeds), view=view
            )
        except discord.HTTPException as exc:
            raise DeliveryError(_describe(exc), permanent=_permanent(exc)) from exc
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DeliveryError(f"Discord unreachable: {type(exc).__name__}") from exc

    async def send_direct(self, user: User, reply: Reply) -> None:
        """Open (or find) the DM channel with the member over REST, then post there. A
        member who accepts no DMs from server members makes Discord refuse: permanent."""
        try:
            channel = await self._client.http.start_private_message(int(user.id))
            await self._post(int(channel["id"]), render(reply), None)
        except discord.HTTPException as exc:
            raise DeliveryError(_describe(exc), permanent=_permanent(exc)) from exc
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise DeliveryError(f"Discord unreachable: {type(exc).__name__}") from exc

    async def _post(self, target: int, pages: list[Page], nonce: str | None,
                    attached: list[discord.File] | None = None) -> int:  # fmt: skip
        """Post the pages in order; `attached` files go with the first."""
        destination = self._client.get_partial_messageable(target)
        ids: list[int] = []
        for n, page in enumerate(pages):
            extra: dict[str, Any] = {"files": attached} if attached and not n else {}
            if (view := buttons(page.actions)) is not None:
                extra["view"] = view
            if (page_nonce := _nonce(nonce, n)) is not None:
                extra["nonce"] = page_nonce
            sent = await destination.send(embeds=list(page.embeds), **extra)
            ids.append(sent.id)
        return ids[0]

    async def _thread(self, starter: MessageRef, title: str) -> int:
        channel, message = int(starter.channel.channel), int(starter.message_id)
        try:
            thread = await self._client.http.start_thread_with_message(
                channel, message, name=title[:THREAD_NAME_LIMIT], auto_archive_duration=1440
            )
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:
                return message
            raise
        return int(thread["id"])


def _nonce(nonce: str | None, page: int) -> str | None:
    """The post's nonce for its first message; derived ones (at most 25 chars) for the rest."""
    if nonce is None or page == 0:
        return nonce
    return f"{nonce[:21]}:{page}"


def _permanent(exc: discord.HTTPException) -> bool:
    return isinstance(exc, discord.Forbidden | discord.NotFound) or 400 <= exc.status < 500


def _describe(exc: discord.HTTPException) -> str:
    return f"Discord refused ({exc.status}, code {exc.code}): {exc.text or exc.response.reason}"
