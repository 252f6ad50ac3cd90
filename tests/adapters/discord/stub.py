"""A local Discord: the REST API and the gateway, on 127.0.0.1 and a free port.

The real discord.py client runs against it unchanged (`Route.BASE` and `DEFAULT_GATEWAY` point
here). It speaks just enough of Discord for the adapter: login, command registration, the
gateway handshake (HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, op 7) on one
connection or on several shards (each server's events on shard `(guild_id >> 22) % count`),
interaction callbacks and webhooks, channel messages with nonce deduplication, threads, and
a CDN for attachments. With `global_limit` set, it refuses as Discord does a bot that sends
more than that many requests in any second (interactions and webhooks are exempt): a 429
with `retry_after`, `global: true` and Discord's headers, which discord.py honours.
Everything the bot sends is recorded, and tests wait for it with `wait_for`, never with
sleeps.
"""

from __future__ import annotations

import asyncio
import collections
import email.parser
import email.policy
import itertools
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.waiting import PATIENCE

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
APP_ID, BOT_ID, GUILD_ID, CHANNEL_ID = "1100", "1100", "2200", "3300"
BOT_USER = {
    "id": BOT_ID,
    "username": "studybot",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
    "flags": 0,
}
TIMESTAMP = "2026-01-05T09:00:00+00:00"
Json = dict[str, Any]


def user(uid: str, name: str) -> Json:
    return {"id": uid, "username": name, "discriminator": "0", "global_name": name, "avatar": None}


@dataclass
class Request:
    method: str
    path: str
    body: Any
    query: dict[str, str]
    at: float = field(default_factory=time.perf_counter)  # when it arrived (benchmarks)
    files: dict[str, bytes] = field(default_factory=dict)  # a multipart body's, by filename


@dataclass
class Gateway:
    """What the bot sent on the gateway, and the socket to push events into."""

    ops: list[Json] = field(default_factory=list)
    socket: web.WebSocketResponse | None = None  # the latest connection
    connections: int = 0
    shards: dict[int, web.WebSocketResponse] = field(default_factory=dict)  # by shard id
    shard_count: int = 1  # as the clients identified

    def socket_for(self, guild_id: str | None) -> web.WebSocketResponse | None:
        """The connection Discord would use: the guild's shard; DMs go to shard 0."""
        shard = (int(guild_id) >> 22) % self.shard_count if guild_id else 0
        return self.shards.get(shard, self.socket if not self.shards else None)


class DiscordStub:
    def __init__(self, token: str = TOKEN) -> None:
        self.latency = 0.0  # seconds each REST call takes
        self.token = token
        self.requests: list[Request] = []
        self.messages: dict[str, Json] = {}  # message id -> message, every channel
        self.threads: dict[str, Json] = {}
        self.files: dict[str, bytes] = {}
        self.forbidden: set[str] = set()  # channels the bot may not post in
        self.dms: dict[str, str] = {}  # member id -> their DM channel with the bot
        self.closed_dms: set[str] = set()  # members who accept no DMs from the bot
        self.guilds: dict[str, str] = {GUILD_ID: CHANNEL_ID}  # server id -> its channel
        self.gateway = Gateway()
        self.resume_url = ""  # the gateway READY names for resuming (default: this stub's)
        self.global_limit: int | None = None  # requests a second the bot may make, if any
        self.refused: list[Request] = []  # requests refused with a 429 for the global limit
        self._window: collections.deque[float] = collections.deque()  # accepted, last second
        self._nonces: dict[tuple[str, str], Json] = {}  # (channel, nonce) -> its message
        self.url = ""
        self._ids = itertools.count(5000)
        self._seq = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None

    # lifecycle

    async def __aenter__(self) -> DiscordStub:
        app = web.Application(middlewares=[self._record])
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/cdn/{name}", self._cdn)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        for socket in {self.gateway.socket, *self.gateway.shards.values()} - {None}:
            assert socket is not None
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api(self) -> str:
        return f"{self.url}/api/v10"

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/"

    def reset(self) -> None:
        """Forget every message and request, as a new Discord would (between bench rounds)."""
        for kept in (self.messages, self._nonces, self.requests, self.refused, self._window):
            kept.clear()

    def next_id(self) -> str:
        return str(next(self._ids))

    # waiting

    async def wait_for(self, found: Callable[[], Any], within: float = PATIENCE) -> Any:
        """Wait until `found()` returns something truthy (it is re-checked on every change);
        fail after `within` seconds, generous so that only a missing result fails."""
        async with asyncio.timeout(within), self._changed:
            while not (result := found()):
                await self._changed.wait()
            return result

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def calls(self, method: str, prefix: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and r.path.startswith(prefix)]

    # gateway

    async def dispatch(self, event: str, data: Json) -> None:
        """Send an event on the connection of the shard its server belongs to."""
        socket = self.gateway.socket_for(data.get("guild_id"))
        assert socket is not None, "the bot (or the guild's shard) is not connected"
        await self._send(socket, event, data)

    async def _send(self, socket: web.WebSocketResponse, event: str, data: Json) -> None:
        await socket.send_json({"op": 0, "t": event, "s": next(self._seq), "d": data})

    def add_guild(self, guild_id: str, channel_id: str) -> None:
        """Another server with one channel (its shard follows from its id)."""
        self.guilds[guild_id] = channel_id

    async def ask_to_reconnect(self) -> None:
        """Op 7: Discord asks the client to reconnect and resume."""
        assert self.gateway.socket is not None
        await self.gateway.socket.send_json({"op": 7, "d": None})

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.gateway.socket = ws
        self.gateway.connections += 1
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for frame in ws:
            if frame.type is not WSMsgType.TEXT:
                break
            await self._on_gateway(ws, json.loads(frame.data))
        return ws

    async def _on_gateway(self, ws: web.WebSocketResponse, payload: Json) -> None:
        self.gateway.ops.append(payload)
        op = payload["op"]
        if op == 1:
            await ws.send_json({"op": 11, "d": None})
        elif op == 2:
            shard, count = payload["d"].get("shard") or (0, 1)
            self.gateway.shards[shard], self.gateway.shard_count = ws, count
            mine = [g for g in self.guilds if (int(g) >> 22) % count == shard]
            ready = {
                "v": 10,
                "user": BOT_USER,
                "guilds": [{"id": g, "unavailable": True} for g in mine],
                "session_id": f"session-{shard + 1}",
                "resume_gateway_url": self.resume_url or self.ws_url,
                "application": {"id": APP_ID, "flags": 0},
                "shard": [shard, count],
            }
            await self._send(ws, "READY", ready)
            for guild_id in mine:
                await self._send(ws, "GUILD_CREATE", guild(guild_id, self.guilds[guild_id]))
        elif op == 6 and not str(payload["d"].get("session_id")).startswith("session-"):
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})  # invalid session
        elif op == 6:
            shard = int(payload["d"]["session_id"].removeprefix("session-")) - 1
            self.gateway.shards[shard] = ws
            await self._send(ws, "RESUMED", {})
        await self._notify()

    # REST

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path.startswith("/api/"):
            raw = await request.read()
            body = json.loads(raw) if raw and request.content_type == "application/json" else None
            files: dict[str, bytes] = {}
            if raw and request.content_type == "multipart/form-data":
                body, files = multipart(request.headers["Content-Type"], raw)
            path = request.path.removeprefix("/api/v10")
            self.requests.append(
                Request(request.method, path, body, dict(request.query), files=files)
            )
        response = await handler(request)
        await self._notify()
        return response

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body = self.requests[-1].body or {}
        # Interaction callbacks and webhooks authenticate by their own token, not the bot's.
        by_token = path.startswith(("/interactions/", "/webhooks/"))
        if not by_token and request.headers.get("Authorization") != f"Bot {self.token}":
            return reply({"message": "401: Unauthorized", "code": 0}, 401)
        if not by_token and (limited := self._over_global_limit()) is not None:
            self.refused.append(self.requests[-1])
            return limited
        if self.latency:  # the platform's round trip, for tests about work in flight
            await asyncio.sleep(self.latency)
        for method, pattern, handler in self._routes():
            if method == request.method and (parts := _match(pattern, path)) is not None:
                return handler(body, *parts)
        return reply({"message": f"stub: no route {request.method} {path}", "code": 0}, 404)

    def _routes(self) -> list[tuple[str, str, Callable[..., web.Response]]]:
        return [
            ("GET", "/users/@me", lambda b: reply(BOT_USER)),
            ("GET", "/oauth2/applications/@me", lambda b: reply(application())),
            ("GET", "/gateway/bot", lambda b: reply(self._gateway_bot())),
            ("PUT", "/applications/*/commands", lambda b, app: reply(self._commands(b))),
            ("PUT", "/applications/*/guilds/*/commands", lambda b, a, g: reply(self._commands(b))),
            ("POST", "/interactions/*/*/callback", self._callback),
            ("PATCH", "/webhooks/*/*/messages/@original", self._edit_original),
            (
                "DELETE",
                "/webhooks/*/*/messages/@original",
                lambda b, a, t: web.Response(status=204),
            ),
            ("POST", "/webhooks/*/*", lambda b, a, t: reply(self._message(CHANNEL_ID, b))),
            ("POST", "/users/@me/channels", self._dm_channel),
            ("POST", "/channels/*/messages", self._channel_message),
            ("POST", "/channels/*/typing", lambda b, c: web.Response(status=204)),
            ("GET", "/channels/*/messages/*", self._get_message),
            ("PATCH", "/channels/*/messages/*", self._edit_message),
            ("POST", "/channels/*/messages/*/threads", self._thread),
        ]

    def _over_global_limit(self) -> web.Response | None:
        """A 429 if this request would be more than `global_limit` in the last second (a
        sliding window), as Discord answers one; else None, and the request is counted."""
        if self.global_limit is None:
            return None
        now = time.monotonic()
        while self._window and self._window[0] <= now - 1.0:
            self._window.popleft()
        if len(self._window) < self.global_limit:
            self._window.append(now)
            return None
        wait = self._window[0] + 1.0 - now
        body = {"message": "You are being rate limited.", "retry_after": round(wait, 3),
                "global": True, "code": 0}  # fmt: skip
        headers = {"Retry-After": str(math.ceil(wait)), "X-RateLimit-Global": "true",
                   "X-RateLimit-Scope": "global", "Via": "1.1 google"}  # fmt: skip
        return reply(body, 429, headers)

    def _gateway_bot(self) -> Json:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return {"url": self.ws_url, "shards": 1, "session_start_limit": limit}

    def _commands(self, body: list[Json]) -> list[Json]:
        return [{**c, "id": self.next_id(), "application_id": APP_ID, "version": "1"} for c in body]

    def _message(self, channel_id: str, body: Json) -> Json:
        message = message_json(channel_id, self.next_id(), body)
        self.messages[message["id"]] = message
        return message

    def _callback(self, body: Json, interaction_id: str, token: str) -> web.Response:
        kind = body["type"]
        answer: Json = {"interaction": {"id": interaction_id, "type": 2}}
        if kind in (4, 5, 7):
            message = self._message(CHANNEL_ID, body.get("data") or {})
            answer["interaction"] |= {
                "response_message_id": message["id"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message["flags"] & 64),
            }
            answer["resource"] = {"type": kind, "message": message}
        return reply(answer)

    def _edit_original(self, body: Json, app: str, token: str) -> web.Response:
        return reply(self._message(CHANNEL_ID, body))

    def _dm_channel(self, body: Json) -> web.Response:
        """Open (or find) the DM channel with `recipient_id`, as Discord does."""
        recipient = str(body["recipient_id"])
        channel = self.dms.setdefault(recipient, self.next_id())
        if recipient in self.closed_dms:
            self.forbidden.add(channel)
        return reply({"id": channel, "type": 1, "last_message_id": None,
                      "recipients": [user(recipient, "member")]})  # fmt: skip

    def _channel_message(self, body: Json, channel_id: str) -> web.Response:
        if channel_id in self.forbidden and channel_id in self.dms.values():
            return reply({"message": "Cannot send messages to this user", "code": 50007}, 403)
        if channel_id in self.forbidden:
            return reply({"message": "Missing Access", "code": 50001}, 403)
        key = (channel_id, str(body.get("nonce")))
        earlier = self._nonces.get(key) if body.get("enforce_nonce") else None
        if earlier is None and body.get("nonce") is not None:
            earlier = self._nonces[key] = self._message(channel_id, body)
        return reply(earlier or self._message(channel_id, body))

    def _get_message(self, body: Json, channel_id: str, message_id: str) -> web.Response:
        found = self.messages.get(message_id)
        return reply(found) if found else reply({"message": "Unknown Message", "code": 10008}, 404)

    def _edit_message(self, body: Json, channel_id: str, message_id: str) -> web.Response:
        found = self.messages.get(message_id)
        if found is None:
            return reply({"message": "Unknown Message", "code": 10008}, 404)
        found |= {k: v for k, v in body.items() if k in ("embeds", "components", "content")}
        return reply(found)

    def _thread(self, body: Json, channel_id: str, message_id: str) -> web.Response:
        if message_id not in self.messages:
            return reply({"message": "Unknown Message", "code": 10008}, 404)
        if message_id in self.threads:
            return reply(
                {"message": "A thread has already been created for this message", "code": 160004},
                400,
            )
        meta = {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": TIMESTAMP,
            "locked": False,
        }
        thread = {
            "id": message_id,
            "type": 11,
            "guild_id": GUILD_ID,
            "parent_id": channel_id,
            "name": body["name"],
            "owner_id": BOT_ID,
            "thread_metadata": meta,
            "message_count": 0,
            "member_count": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        self.threads[message_id] = thread
        return reply(thread, 201)

    async def _cdn(self, request: web.Request) -> web.Response:
        return web.Response(body=self.files[request.match_info["name"]])

    def upload(self, name: str, content: bytes) -> Json:
        """Put a file on the CDN; returns its attachment object for an interaction."""
        self.files[name] = content
        return {
            "id": self.next_id(),
            "filename": name,
            "size": len(content),
            "url": f"{self.url}/cdn/{name}",
            "proxy_url": f"{self.url}/cdn/{name}",
        }

    # interactions, as Discord would deliver them

    async def interact(
        self,
        kind: int,
        data: Json,
        *,
        admin: bool = False,
        moderator: bool = False,
        locale: str = "en-US",
        guild_locale: str = "en-US",
        message: Json | None = None,
        channel_id: str = CHANNEL_ID,
        member: tuple[str, str] = ("7001", "alice"),
        guild_id: str = GUILD_ID,
        roles: tuple[str, ...] = (),
    ) -> str:
        """Deliver an INTERACTION_CREATE from a member (id, name: alice unless told), with
        Manage Server if `admin`, Manage Messages if `moderator`, holding the role ids `roles`
        (roles the stub's guild never announced, as a server whose roles are not cached);
        returns the interaction id."""
        iid = self.next_id()
        member = {
            "user": user(*member),
            "roles": list(roles),
            "joined_at": TIMESTAMP,
            "permissions": str((1 << 5 if admin else 1 << 10) | (1 << 13 if moderator else 0)),
            "deaf": False,
            "mute": False,
            "flags": 0,
        }
        payload = {
            "id": iid,
            "application_id": APP_ID,
            "type": kind,
            "token": f"tok-{iid}",
            "version": 1,
            "attachment_size_limit": 8 << 20,
            "data": data,
            "guild_id": guild_id,
            "channel_id": channel_id,
            "member": member,
            "channel": {"id": channel_id, "type": 0, "guild_id": guild_id, "name": "study"},
            "locale": locale,
            "guild_locale": guild_locale,
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message
        await self.dispatch("INTERACTION_CREATE", payload)
        return iid

    def callback(self, iid: str) -> Json | None:
        found = self.calls("POST", f"/interactions/{iid}/")
        return found[0].body if found else None

    def replies(self, iid: str) -> list[Json]:
        """The messages that answer interaction `iid`: its callback data, then edits and
        follow-ups through its webhook, in order."""
        token = f"tok-{iid}"
        found = [
            r.body
            for r in self.requests
            if r.body is not None
            and (
                (r.path.startswith(f"/interactions/{iid}/") and r.body.get("data"))
                or r.path.startswith(f"/webhooks/{APP_ID}/{token}")
            )
        ]
        return [b.get("data", b) if "type" in b and "data" in b else b for b in found]


def guild(guild_id: str = GUILD_ID, channel_id: str = CHANNEL_ID) -> Json:
    everyone = {
        "id": guild_id,
        "name": "@everyone",
        "permissions": "0",
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
    }
    channel = {
        "id": channel_id,
        "type": 0,
        "guild_id": guild_id,
        "name": "study",
        "position": 0,
        "permission_overwrites": [],
    }
    return {
        "id": guild_id,
        "name": "Study group",
        "owner_id": "7000",
        "roles": [everyone],
        "channels": [channel],
        "threads": [],
        "members": [],
        "member_count": 2,
        "emojis": [],
        "stickers": [],
        "features": [],
        "preferred_locale": "en-US",
        "unavailable": False,
        "large": False,
        "voice_states": [],
        "presences": [],
    }


def application() -> Json:
    return {
        "id": APP_ID,
        "name": "studybot",
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "00",
        "owner": user("7000", "owner"),
        "flags": 0,
    }


def message_json(channel_id: str, message_id: str, body: Json) -> Json:
    return {
        "id": message_id,
        "channel_id": channel_id,
        "author": BOT_USER,
        "content": body.get("content") or "",
        "timestamp": TIMESTAMP,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "flags": body.get("flags") or 0,
        "components": body.get("components") or [],
        "nonce": body.get("nonce"),
    }


def multipart(content_type: str, raw: bytes) -> tuple[Any, dict[str, bytes]]:
    """A message sent with files, as Discord reads it: the JSON of its `payload_json` part,
    and each file part's bytes by filename."""
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + raw)
    body: Any = None
    files: dict[str, bytes] = {}
    for part in message.iter_parts():
        content = part.get_payload(decode=True)
        assert isinstance(content, bytes)
        if part.get_param("name", header="content-disposition") == "payload_json":
            body = json.loads(content)
        elif (filename := part.get_filename()) is not None:
            files[filename] = content
    return body, files


def reply(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly `application/json`: discord.py parses a body as JSON only with that type.
    return web.Response(
        body=json.dumps(payload).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def _match(pattern: str, path: str) -> list[str] | None:
    want, have = pattern.strip("/").split("/"), path.strip("/").split("/")
    if len(want) != len(have):
        return None
    parts = []
    for w, h in zip(want, have, strict=True):
        if w == "*":
            parts.append(h)
        elif w != h:
            return None
    return parts
