"""A report attached to the Slack import form (a `file_input` block), downloaded for the core.

Slack puts the file objects in the submitted view's state; each names its
`url_private_download`, which Slack serves to the bot's token only. Nothing is downloaded
unless the core takes the file by what Slack says of it (`bot.community.imports.check_file`:
name, type, size); the token is sent only to Slack's file host (or the host of the configured
API, a local Slack in tests), never across a redirect; the download is cut at `limit` bytes
plus one (the core then says it is too big) and dropped after `FETCH_TIMEOUT`. The bytes go to
`Studybot.import_file`, which reads them as UTF-8 as any report file.
"""

from __future__ import annotations

import logging
import urllib.parse
from dataclasses import dataclass
from typing import Any

import aiohttp
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.render import FILE_BLOCK
from bot.errors import BadArgument
from bot.i18n import t
from bot.types import Locale

log = logging.getLogger(__name__)

FILE_HOST = "files.slack.com"
FETCH_TIMEOUT = 10.0  # seconds


@dataclass(frozen=True, slots=True)
class SharedFile:
    name: str
    url: str
    size: int
    mime: str | None


def attached(values: dict[str, Any]) -> SharedFile | None:
    """The first file of a submitted view's file_input block, if it has one."""
    files = ((values.get(FILE_BLOCK) or {}).get(FILE_BLOCK) or {}).get("files") or []
    first = files[0] if files and isinstance(files[0], dict) else None
    if first is None:
        return None
    return SharedFile(str(first.get("name") or ""), str(first.get("url_private_download") or ""),
                      int(first.get("size") or 0), first.get("mimetype") or None)  # fmt: skip


async def download(client: AsyncWebClient, file: SharedFile, limit: int, locale: Locale) -> bytes:
    """The file's bytes (at most `limit` + 1), or a BadArgument saying it could not be had."""
    hosts = {FILE_HOST, urllib.parse.urlsplit(client.base_url).hostname}
    if urllib.parse.urlsplit(file.url).hostname not in hosts:
        raise BadArgument(t(locale, "import.fetch_failed"))
    headers = {"Authorization": f"Bearer {client.token}"}
    timeout = aiohttp.ClientTimeout(total=FETCH_TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(file.url, headers=headers, allow_redirects=False) as response,
        ):
            if response.status != 200:
                raise BadArgument(t(locale, "import.fetch_failed"))
            data = bytearray()
            async for chunk in response.content.iter_chunked(64 * 1024):
                data += chunk
                if len(data) > limit:
                    break
            return bytes(data[: limit + 1])
    except (aiohttp.ClientError, TimeoutError) as exc:
        log.warning("slack: a shared file could not be downloaded: %r", exc)
        raise BadArgument(t(locale, "import.fetch_failed")) from None
