"""Getting a reply back to the person who asked, after the request was acknowledged.

Slack gives three ways, tried in this order: the request's `response_url` (slash commands,
button clicks in messages; up to 5 uses in 30 minutes, ephemeral or in the channel), the Web
API in the channel (chat.postEphemeral / chat.postMessage, in a thread if there is one), or a
direct message (App Home clicks and modals opened there have no channel).

A reply's attachments (an admin's CSV export) are uploaded after it with files_upload_v2.
Slack has no file only one member of a channel sees, so a private reply's files go to the
asker's direct messages with the app (conversations.open); others to the channel.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from adapters.slack.adapter import post
from adapters.slack.render import SlackMessage, render
from bot.errors import DeliveryError
from bot.types import Attachment, Reply

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Asker:
    """Where the person asked from: enough to answer them later, statelessly."""

    user_id: str
    channel_id: str | None = None
    response_url: str | None = None
    thread_ts: str | None = None


async def answer(
    client: AsyncWebClient, asker: Asker, reply: Reply, *, ephemeral: bool = False
) -> None:
    """Deliver every message of `reply` to `asker`; `ephemeral` forces a private answer."""
    private = ephemeral or reply.ephemeral
    await send_all(client, asker, render(reply), private=private)
    await send_files(client, asker, reply.attachments, private=private)


async def send_files(client: AsyncWebClient, asker: Asker, files: Sequence[Attachment], *,
                     private: bool) -> None:  # fmt: skip
    """Upload `files` for `asker` (see the module docstring); a refusal is logged."""
    if not files:
        return
    try:
        if private or not asker.channel_id:
            opened = await client.conversations_open(users=asker.user_id)
            channel, thread = str(opened["channel"]["id"]), None
        else:
            channel, thread = asker.channel_id, asker.thread_ts
        for file in files:
            await client.files_upload_v2(channel=channel, thread_ts=thread, filename=file.name,
                                         title=file.name, content=file.data)  # fmt: skip
    except SlackApiError as exc:
        log.warning("slack: could not upload a file for %s: %s", asker.user_id, _code(exc))


async def send_all(
    client: AsyncWebClient, asker: Asker, messages: Sequence[SlackMessage], *, private: bool
) -> None:
    for message in messages:
        try:
            await _one(client, asker, message, private)
        except (SlackApiError, DeliveryError) as exc:
            log.warning("slack: could not answer %s: %s", asker.user_id, _code(exc))
            return


async def _one(client: AsyncWebClient, asker: Asker, message: SlackMessage, private: bool) -> None:
    if asker.response_url:
        await respond(asker.response_url, message, private)
    elif asker.channel_id and private:
        extra: dict[str, Any] = {"thread_ts": asker.thread_ts} if asker.thread_ts else {}
        await client.chat_postEphemeral(channel=asker.channel_id, user=asker.user_id,
                                        **message.payload(), **extra)  # fmt: skip
    else:
        channel = asker.channel_id or asker.user_id  # a user id posts to the app's DM
        await post(client, channel, message, thread_ts=asker.thread_ts)


async def respond(response_url: str, message: SlackMessage, private: bool) -> None:
    webhook = AsyncWebhookClient(response_url)
    kind = "ephemeral" if private else "in_channel"
    sent = await webhook.send(response_type=kind, replace_original=False, text=message.text,
                              blocks=list(message.blocks))  # fmt: skip
    if sent.status_code != 200:
        log.warning("slack: response_url refused a reply: HTTP %s %s", sent.status_code, sent.body)


def _code(exc: Exception) -> str:
    if isinstance(exc, SlackApiError):
        return str(exc.response.get("error"))
    return str(exc)
