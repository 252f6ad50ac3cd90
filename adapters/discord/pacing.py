"""Discord's global rate limit, kept by every process of the bot together.

discord.py already does the rest (discord/http.py): it paces each route's bucket from the
`X-RateLimit-*` headers, and on a 429 waits the body's `retry_after` and tries again, holding
every request of its process while the limit was the global one. What it cannot know is
what the bot's other processes send: Discord's global limit (about 50 requests a second)
is the bot's, not a process's. So each request first takes a turn from the bot's `Pacer`
(bot/pacing.py; on PostgreSQL one budget for every process), through the hook discord.py
offers on its HTTP session, `http_trace` (an aiohttp `TraceConfig`): its request-start
callback is awaited before the request goes on the wire, retries included. Its request-end
callback reports each 429: one whose scope is global (`X-RateLimit-Global`,
`X-RateLimit-Scope: global`) holds the budget in every process for the body's
`retry_after` (to the millisecond; the `Retry-After` header is rounded up to whole seconds,
and is the fallback). Reading the body there leaves it cached for discord.py.

Not counted against the global limit, as Discord documents: interaction responses and
follow-ups (`/interactions/...`, `/webhooks/...`, authenticated by their own token), and
what is not the REST API at all (the gateway, the CDN).
"""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
from multidict import CIMultiDictProxy

from bot.pacing import Pacer

EXEMPT = ("/interactions/", "/webhooks/")
DEFAULT_RETRY = 1.0  # seconds, for a 429 that names no delay


def paced(pacer: Pacer, api_base: str) -> aiohttp.TraceConfig:
    """A trace for discord.py's session (`Client(http_trace=...)`): REST requests under
    `api_base` take turns from `pacer`, and refusals are told to it."""
    base = api_base.rstrip("/") + "/"

    def counted(url: str) -> bool:
        return url.startswith(base) and not any(part in url for part in EXEMPT)

    async def start(session: object, ctx: SimpleNamespace,
                    params: aiohttp.TraceRequestStartParams) -> None:  # fmt: skip
        if counted(str(params.url)):
            await pacer.turn()

    async def end(session: object, ctx: SimpleNamespace,
                  params: aiohttp.TraceRequestEndParams) -> None:  # fmt: skip
        if params.response.status == 429 and counted(str(params.url)):
            response = params.response
            wait = await retry_after(response)
            await pacer.refused(wait, everyone=is_global(response.headers))

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    return trace


async def retry_after(response: aiohttp.ClientResponse) -> float:
    """The seconds a 429 asks to wait: the body's `retry_after`, else the headers'."""
    try:
        body = await response.json(content_type=None)
        return float(body["retry_after"])
    except (ValueError, TypeError, KeyError, aiohttp.ClientError):
        pass  # not Discord's JSON (a proxy's page): the headers, then a default
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        try:
            return float(response.headers[name])
        except (KeyError, ValueError):
            continue
    return DEFAULT_RETRY


def is_global(headers: CIMultiDictProxy[str]) -> bool:
    """Whether a 429 concerns the whole bot rather than one route or resource."""
    return (
        headers.get("X-RateLimit-Global", "").lower() == "true"
        or headers.get("X-RateLimit-Scope", "").lower() == "global"
    )
