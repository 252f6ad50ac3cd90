"""A local Slack on 127.0.0.1 (aiohttp, port 0): the Web API, response_urls, Socket Mode.

The real slack-bolt app and slack_sdk clients talk to it as they would to Slack:

- `POST|GET /api/<method>`: every call is recorded (`calls`) with its parameters, whatever the
  encoding (query, form, JSON) and its Authorization header. Answers are Slack-shaped:
  auth.test, users.info (from `users`), chat.postMessage (a fresh `ts`, the message kept for
  conversations.replies), views.open/publish, apps.connections.open (a ws:// URL to this stub).
  `refuse(method, error, status=..., retry_after=...)` queues a refusal for the next call.
- `POST /respond/<id>`: a response_url; posts are recorded in `responses`.
- files_upload_v2's three steps: files.getUploadURLExternal (an upload URL on this stub),
  `POST /upload/<file id>` (the bytes, kept in `uploads`), files.completeUploadExternal
  (recorded like any call); conversations.open answers a direct message channel `D<user>`.
- `GET /files/<name>`: a file members shared (`share_file`), served as Slack serves
  `url_private_download`: to a bot token only; each download is recorded (`downloads`).
- `GET /ws`: the Socket Mode websocket. `envelope(...)` pushes a request and returns the
  client's ack; `disconnect()` asks the client to reconnect, as Slack does.

Tests wait for what they expect (`wait_call`, `wait_response`) instead of sleeping.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from tests.waiting import PATIENCE

BOT_USER, BOT_ID, TEAM = "UBOT", "BBOT", "T1"
T = TypeVar("T")
WAIT = PATIENCE  # seconds a test waits for the app before failing (returns when done)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    authorization: str
    at: float = field(default_factory=time.perf_counter)  # when it arrived (benchmarks)


@dataclass
class Refusal:
    error: str
    status: int = 200
    retry_after: int | None = None


@dataclass
class SlackStub:
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    responses: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    messages: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    uploads: dict[str, bytes] = field(default_factory=dict)
    shared: dict[str, bytes] = field(default_factory=dict)
    downloads: list[Call] = field(default_factory=list)
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    base_url: str = ""
    _refusals: dict[str, list[Refusal]] = field(default_factory=dict)
    _acks: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _runner: web.AppRunner | None = None

    # --- life ------------------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/respond/{id}", self._respond)
        app.router.add_post("/upload/{id}", self._upload)
        app.router.add_get("/files/{name}", self._file)
        app.router.add_get("/ws", self._ws)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}"
        return self.base_url

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    def response_url(self) -> str:
        return f"{self.base_url}/respond/{uuid.uuid4().hex[:8]}"

    # --- what tests set up and wait for -------------------------------------------------

    def add_user(self, user_id: str, *, admin: bool = False, locale: str = "en-US") -> None:
        self.users[user_id] = {"id": user_id, "name": user_id.lower(), "is_admin": admin,
                               "is_owner": False, "locale": locale,
                               "profile": {"display_name": f"name-{user_id}"}}  # fmt: skip

    def share_file(self, name: str, content: bytes, mime: str) -> dict[str, Any]:
        """A file a member shared; returns its file object as a view's state carries it."""
        self.shared[name] = content
        return {"id": f"F{next(self._ts)}", "name": name, "mimetype": mime, "size": len(content),
                "url_private_download": f"{self.base_url}/files/{name}"}  # fmt: skip

    def refuse(self, method: str, error: str, *, status: int = 200, retry_after: int | None = None
               ) -> None:  # fmt: skip
        self._refusals.setdefault(method, []).append(Refusal(error, status, retry_after))

    def called(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    async def wait_call(self, method: str, count: int = 1) -> Call:
        """The `count`-th call of `method`, once it has arrived."""
        async with asyncio.timeout(WAIT), self._changed:
            await self._changed.wait_for(lambda: len(self.called(method)) >= count)
        return self.called(method)[count - 1]

    async def wait_response(self, count: int = 1) -> dict[str, Any]:
        async with asyncio.timeout(WAIT), self._changed:
            await self._changed.wait_for(lambda: len(self.responses) >= count)
        return self.responses[count - 1][1]

    async def wait_until(self, found: Callable[[], T | None]) -> T:
        """What `found` returns once it returns something."""
        async with asyncio.timeout(WAIT), self._changed:
            await self._changed.wait_for(lambda: found() is not None)
        result = found()
        assert result is not None
        return result

    async def wait_socket(self, count: int = 1) -> web.WebSocketResponse:
        async with asyncio.timeout(WAIT), self._changed:
            await self._changed.wait_for(lambda: len(self.sockets) >= count)
        return self.sockets[count - 1]

    async def envelope(self, kind: str, payload: dict[str, Any]
                       ) -> dict[str, Any]:  # fmt: skip
        """Push a Socket Mode request on the newest connection; return the client's ack."""
        envelope_id = uuid.uuid4().hex
        ack = asyncio.get_running_loop().create_future()
        self._acks[envelope_id] = ack
        message = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": kind != "events_api",
            "retry_attempt": 0,
        }
        await self.sockets[-1].send_str(json.dumps(message))  # fmt: skip
        async with asyncio.timeout(WAIT):
            return await ack

    async def disconnect(self) -> None:
        """Slack's request to reconnect: the client opens a new connection, then this one
        is closed."""
        old = self.sockets[-1]
        await old.send_str(json.dumps({"type": "disconnect", "reason": "refresh_requested"}))

    # --- HTTP handlers -----------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await _params(request)
        await self._record(Call(method, params, request.headers.get("Authorization", "")))
        queued = self._refusals.get(method)
        if queued:
            refusal = queued.pop(0)
            headers = (
                {"Retry-After": str(refusal.retry_after)} if refusal.retry_after is not None else {}
            )
            return _json({"ok": False, "error": refusal.error}, refusal.status, headers)
        return _json({"ok": True, **self._answer(method, params)})

    def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "auth.test":
            return {"user_id": BOT_USER, "bot_id": BOT_ID, "team_id": TEAM, "user": "studybot",
                    "team": "Test", "url": "https://test.slack.com/"}  # fmt: skip
        if method == "users.info":
            user = self.users.get(str(params.get("user")))
            return {"user": user} if user else {"ok": False, "error": "user_not_found"}
        if method == "chat.postMessage":
            ts = f"1700000000.{next(self._ts):06d}"
            message = {**params, "ts": ts, "blocks": _blocks(params.get("blocks"))}
            channel = _dm_of(str(params["channel"]))
            self.messages[(channel, ts)] = message
            return {"channel": channel, "ts": ts, "message": message}
        if method == "chat.update":
            key = (str(params["channel"]), str(params["ts"]))
            if key not in self.messages:
                return {"ok": False, "error": "message_not_found"}
            self.messages[key] |= {**params, "blocks": _blocks(params.get("blocks"))}
            return {"channel": params["channel"], "ts": params["ts"]}
        if method == "conversations.replies":
            parent = self.messages.get((str(params.get("channel")), str(params.get("ts"))))
            return {"messages": [parent] if parent else []}
        if method == "conversations.open":
            return {"channel": {"id": f"D{params.get('users')}"}}
        if method == "files.getUploadURLExternal":
            file_id = f"F{next(self._ts)}"
            return {"upload_url": f"{self.base_url}/upload/{file_id}", "file_id": file_id}
        if method == "files.completeUploadExternal":
            return {"files": json.loads(str(params.get("files", "[]")))}
        if method == "apps.connections.open":
            return {"url": f"ws{self.base_url.removeprefix('http')}/ws?n={len(self.sockets) + 1}"}
        return {}

    async def _respond(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.responses.append((request.match_info["id"], body))
        async with self._changed:
            self._changed.notify_all()
        return web.Response(text="ok")

    async def _upload(self, request: web.Request) -> web.Response:
        self.uploads[request.match_info["id"]] = await request.read()
        async with self._changed:
            self._changed.notify_all()
        return web.Response(text=f"OK - {len(self.uploads[request.match_info['id']])}")

    async def _file(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        self.downloads.append(Call("download", {"name": request.match_info["name"]},
                                   authorization))  # fmt: skip
        if not authorization.startswith("Bearer xoxb-"):
            return web.Response(status=403)
        return web.Response(body=self.shared[request.match_info["name"]])

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.sockets.append(ws)
        await ws.send_str(json.dumps({"type": "hello", "num_connections": len(self.sockets)}))
        async with self._changed:
            self._changed.notify_all()
        async for message in ws:
            if message.type is WSMsgType.TEXT:
                ack = json.loads(message.data)
                waiting = self._acks.pop(ack.get("envelope_id", ""), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(ack)
        return ws

    async def _record(self, call: Call) -> None:
        self.calls.append(call)
        async with self._changed:
            self._changed.notify_all()


async def _params(request: web.Request) -> dict[str, Any]:
    params: dict[str, Any] = dict(request.query)
    if request.can_read_body:
        if request.content_type == "application/json":
            params.update(await request.json())
        else:
            params.update(dict(await request.post()))
    return params


def _blocks(raw: Any) -> list[Any]:
    if isinstance(raw, str):  # form-encoded calls send blocks as a JSON string
        return list(json.loads(raw))
    return list(raw or [])


def _json(body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
          ) -> web.Response:  # fmt: skip
    # Exactly application/json; slack_sdk reads the body as JSON either way.
    return web.Response(text=json.dumps(body), status=status, headers=headers,
                        content_type="application/json")  # fmt: skip


def _dm_of(channel: str) -> str:
    """A post to a member's id lands in their direct messages with the app, as on Slack."""
    return "D" + channel[1:] if channel.startswith(("U", "W")) else channel
