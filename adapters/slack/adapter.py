"""The `ChatAdapter` port on Slack: posts the core makes on its own (daily questions, answers,
a member's morning digest in their direct messages with the app).

A reply is rendered to one or more messages and posted with chat.postMessage; the answer goes
in the question's thread (`thread_ts` = the question's `ts`, which is the `MessageRef`'s id).
Slack has no idempotency key for posts, so `nonce` is not used: a resend after a crash can show
twice (the README says so).

A reply's files (the weekly summary's chart) are uploaded after its messages with
files_upload_v2, in the same channel or thread.

Posts are paced per channel (bot/pacing.py `ChannelPacer`: Slack allows chat.postMessage
about once a second in each channel, with short bursts), so a long reply's several messages,
or a digest and a post to one member, are spaced rather than refused. Refusals are sorted
here. A rate limit is retried by the web client itself (adapters/slack/pacing.py: slack_sdk's
handler, honouring Retry-After, each 429 counted); what is still refused becomes a
`DeliveryError`, permanent when retrying cannot help (the channel is gone, the bot is not in
it, the token was revoked), so the scheduler pauses the schedule and says why. Only Slack's
error code is kept: never the request, which carries the token.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.render import SlackMessage, render
from bot.errors import DeliveryError
from bot.pacing import ChannelPacer
from bot.types import ChannelRef, MessageRef, Reply, User

log = logging.getLogger(__name__)

PERMANENT = frozenset({
    "channel_not_found", "not_in_channel", "is_archived", "channel_is_archived",
    "account_inactive", "invalid_auth", "not_authed", "token_revoked", "token_expired",
    "missing_scope", "no_permission", "restricted_action", "restricted_action_read_only_channel",
    "restricted_action_thread_only_channel", "restricted_action_non_threadable_channel",
    "team_access_not_granted", "ekm_access_denied", "org_login_required",
    "cannot_reply_to_message", "invalid_blocks", "msg_too_long",
})  # fmt: skip


class SlackAdapter:
    def __init__(self, client: AsyncWebClient, pacer: ChannelPacer | None = None) -> None:
        self._client, self._pacer = client, pacer

    async def _post(self, channel: str, message: SlackMessage, thread_ts: str | None) -> str:
        if self._pacer is not None:
            await self._pacer.turn(channel)
        return await post(self._client, channel, message, thread_ts=thread_ts)

    async def send(
        self,
        channel: ChannelRef,
        reply: Reply,
        *,
        thread_of: MessageRef | None = None,
        nonce: str | None = None,
    ) -> MessageRef:
        thread_ts = thread_of.message_id if thread_of is not None else None
        first: str | None = None
        for message in render(reply):
            ts = await self._post(channel.channel, message, thread_ts)
            first = first or ts
        assert first is not None  # render always yields at least one message
        await self._upload(channel.channel, reply, thread_ts)
        return MessageRef(channel, first)

    async def _upload(self, channel: str, reply: Reply, thread_ts: str | None) -> None:
        """The reply's files (a weekly summary's chart) after its messages, in the same place.
        The message is out already: a refused upload is logged, not retried."""
        for file in reply.attachments:
            try:
                await self._client.files_upload_v2(channel=channel, thread_ts=thread_ts,
                                                   filename=file.name, title=file.name,
                                                   content=file.data)  # fmt: skip
            except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
                log.warning("slack: could not upload %s to %s: %s", file.name, channel,
                            type(exc).__name__)  # fmt: skip

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        await update(self._client, message, reply)

    async def send_direct(self, user: User, reply: Reply) -> None:
        """chat.postMessage to the member's id: Slack delivers it in their direct messages
        with the app (its Messages tab), opening that conversation if needed."""
        for message in render(reply):
            await self._post(user.id, message, None)


async def update(client: AsyncWebClient, message: MessageRef, reply: Reply) -> None:
    """chat.update of a message the bot posted, with `reply`'s first message."""
    first = render(reply)[0]
    try:
        await client.chat_update(channel=message.channel.channel, ts=message.message_id,
                                 **first.payload())  # fmt: skip
    except SlackApiError as exc:
        raise delivery_error(exc) from exc
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise DeliveryError(f"Slack could not be reached: {type(exc).__name__}") from exc


async def post(
    client: AsyncWebClient, channel: str, message: SlackMessage, *, thread_ts: str | None = None
) -> str:
    """chat.postMessage, its refusals as `DeliveryError`; returns the message's `ts`."""
    extra: dict[str, Any] = {"thread_ts": thread_ts} if thread_ts else {}
    try:
        response = await client.chat_postMessage(channel=channel, unfurl_links=False,
                                                 **message.payload(), **extra)  # fmt: skip
    except SlackApiError as exc:
        raise delivery_error(exc) from exc
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise DeliveryError(f"Slack could not be reached: {type(exc).__name__}") from exc
    return str(response["ts"])


def delivery_error(exc: SlackApiError) -> DeliveryError:
    code = str(exc.response.get("error") or f"HTTP {exc.response.status_code}")
    return DeliveryError(f"Slack refused the post: {code}", permanent=code in PERMANENT)
