"""Running the Slack app: Socket Mode or HTTP mode, chosen by the settings.

- Socket Mode (`SLACK_APP_TOKEN`): the app opens a websocket to Slack (apps.connections.open)
  and receives every request over it; no public URL, good for self-hosting. Slack may ask the
  app to reconnect (a `disconnect` envelope); slack_sdk's client does so by itself, and each
  new connection after the first attaches the adapter again, which the core counts as a
  reconnect (`studybot_platform_reconnects_total{platform="slack"}`).
- HTTP mode (`SLACK_SIGNING_SECRET`, `SLACK_HTTP_PORT`): an aiohttp server serves
  `/slack/events`; bolt checks each request's signature and timestamp (a bad or stale one
  gets 401).

`running_slack` is what `studybot run` enters: it starts the chosen mode, then attaches the
`SlackAdapter` to the core's `Platforms` (the socket is connected, or the server listens, so
scheduled posts may flow); on leaving it detaches it, stops the mode, cancels follow-up work
and closes the HTTP session, in that order.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import aiohttp
from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.adapter import SlackAdapter
from adapters.slack.app import build_app
from adapters.slack.background import Background
from adapters.slack.pacing import BURST, POSTS_PER_SECOND, retry_handlers
from adapters.slack.people import PLATFORM, People
from bot.app import App
from bot.ports import Metrics
from bot.settings import SlackSettings

log = logging.getLogger(__name__)
EVENTS_PATH = "/slack/events"


@dataclass(frozen=True, slots=True)
class RunningSlack:
    bolt: AsyncApp
    background: Background
    port: int | None  # HTTP mode: the port actually bound (0 in settings picks a free one)


def web_client(
    settings: SlackSettings,
    session: aiohttp.ClientSession | None = None,
    metrics: Metrics | None = None,
) -> AsyncWebClient:
    """The Web API client: rate limits retried after Retry-After (each counted in
    `metrics`), dropped connections once."""
    return AsyncWebClient(token=settings.bot_token.reveal(), base_url=settings.api_base_url,
                          session=session, retry_handlers=retry_handlers(metrics))  # fmt: skip


@asynccontextmanager
async def running_slack(
    app: App, settings: SlackSettings, *, host: str = "0.0.0.0"
) -> AsyncIterator[RunningSlack]:
    async with AsyncExitStack() as stack:
        session = await stack.enter_async_context(aiohttp.ClientSession())
        client = web_client(settings, session, app.pacers.metrics)
        background = Background()
        stack.push_async_callback(background.aclose)
        secret = settings.signing_secret.reveal() if settings.signing_secret else None
        people = People(client, settings.admin_user_ids, moderators=settings.moderator_user_ids)
        bolt = build_app(app.core, client, people, background,
                         signing_secret=None if settings.socket_mode else secret)  # fmt: skip
        port: int | None = None
        adapter = SlackAdapter(client, app.pacers.per_channel(PLATFORM, POSTS_PER_SECOND, BURST))

        async def reconnected() -> None:
            await app.platforms.attach(PLATFORM, adapter)

        if settings.app_token is not None:
            await stack.enter_async_context(
                socket_mode(bolt, settings.app_token.reveal(), reconnected)
            )
            log.info("slack: connected in Socket Mode")
        else:
            port = await stack.enter_async_context(http_mode(bolt, host, settings.http_port))
            log.info("slack: serving %s on port %s", EVENTS_PATH, port)
        stack.callback(app.platforms.detach, PLATFORM)
        await app.platforms.attach(PLATFORM, adapter)
        yield RunningSlack(bolt, background, port)


@asynccontextmanager
async def socket_mode(
    bolt: AsyncApp, app_token: str, reconnected: Callable[[], Awaitable[None]] | None = None
) -> AsyncIterator[AsyncSocketModeHandler]:
    """Bolt's Socket Mode handler, connected for the duration of the block. `reconnected`
    is awaited after each connection the client makes after the first: slack_sdk offers
    no listener for that, so its `connect` (which every reconnection goes through) is
    wrapped on this one client."""
    handler = AsyncSocketModeHandler(bolt, app_token)
    if reconnected is not None:
        _on_reconnect(handler, reconnected)
    try:
        await handler.connect_async()  # type: ignore[no-untyped-call]
        yield handler
    finally:
        await handler.close_async()  # type: ignore[no-untyped-call]


def _on_reconnect(handler: AsyncSocketModeHandler, then: Callable[[], Awaitable[None]]) -> None:
    client = handler.client
    connect = client.connect
    connections = 0

    async def counted() -> None:
        nonlocal connections
        await connect()  # type: ignore[no-untyped-call]
        connections += 1
        if connections > 1:
            await then()

    setattr(client, "connect", counted)  # noqa: B010  (mypy refuses assigning a method)


@asynccontextmanager
async def http_mode(bolt: AsyncApp, host: str, port: int) -> AsyncIterator[int]:
    """Serve bolt's aiohttp application; yields the bound port."""
    runner = web.AppRunner(bolt.web_app(path=EVENTS_PATH), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        yield int(runner.addresses[0][1])
    finally:
        await runner.cleanup()


async def probe(settings: SlackSettings) -> tuple[list[str], bool]:
    """`studybot doctor`: the mode, and whether Slack accepts the bot token (auth.test)."""
    mode = "Socket Mode" if settings.socket_mode else f"HTTP mode, port {settings.http_port}"
    async with aiohttp.ClientSession() as session:
        try:
            found = await web_client(settings, session).auth_test()
        except SlackApiError as exc:
            return [f"slack: {mode}; auth.test refused: {exc.response.get('error')}"], False
        except (aiohttp.ClientError, TimeoutError) as exc:
            return [f"slack: {mode}; {settings.api_base_url} unreachable: {exc!r}"], False
    return [f"slack: {mode}; ok, workspace {found.get('team')} as @{found.get('user')}"], True
