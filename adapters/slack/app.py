"""The slack-bolt AsyncApp and its listeners: Slack payloads in, core calls, Block Kit out.

    /study <command> [args]   -> Studybot.handle_line("/<command> [args]")
    button `reveal:<id>`      -> Invocation("answer", {"id"}), answered ephemerally
    button `question:<id>`    -> Invocation("question", {"id"}), answered ephemerally
    button `submit:<id>`      -> the code modal for problem <id>
    button `report:<id>`      -> the modal reporting a mistake in item <id> (any `Form`)
    button `draft-edit:<id>`  -> `/drafts edit` run first, then its modal filled with the
                                 draft's values (`bot.routes.PREFILLED`), or the refusal
    /study import             -> the report's modal: a plain_text_input of Slack's 3,000
                                 characters, or a .txt/.md file_input (files.py); `/study
                                 import <text>` imports the text as typed
    modal submission          -> Invocation(<the form's command>, <its fields>)
    @studybot in a thread     -> the code of a problem posted with a Submit button
    @studybot <command>       -> the same as /study <command>
    App Home opened           -> views.publish of the personal view (home.py)

Acknowledging: Slack wants an answer within 3 seconds. A command's work starts at once; if it
finishes within its budget (`bot.routes.budget`) the reply *is* the ack (one round trip, no
extra API call); otherwise, and always for `CommandSpec.slow` commands, the ack says "working
on it" and the
reply follows through the response_url. Every listener returns as soon as it has acked, and
whatever follows runs in `Background`, named and tracked, so a slow grade never delays an ack
and nothing is fired and forgotten. That is why the app runs with `process_before_response`:
bolt sends the ack the moment the listener returns, instead of polling for it every 10 ms.
A submission that must wait behind others tells its sender so first, in a private message
(`_notice_to`), before the verdict.

Every listener only translates: who (people.py), where (`ChannelRef` with the team as the
workspace), what (an `Invocation` or a command line); the core decides everything else.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.background import Background
from adapters.slack.deliver import Asker, answer, send_all, send_files
from adapters.slack.files import SharedFile, attached, download
from adapters.slack.home import home_for
from adapters.slack.mrkdwn import from_message
from adapters.slack.people import PLATFORM, People, Person
from adapters.slack.render import (
    CODE_INPUT_LIMIT,
    MODAL_CALLBACK,
    as_study,
    form_modal,
    parse_action_id,
    render,
)
from bot.community.forms import IMPORT
from bot.community.imports import check_file
from bot.community.untrusted import MAX_BYTES
from bot.core import Studybot
from bot.errors import BadArgument
from bot.i18n import t
from bot.routes import (
    PREFILLED,
    budget,
    filled,
    form_of,
    form_options,
    input_form,
    problem_of,
    takes_report,
    within,
)
from bot.types import (
    Action,
    ActionKind,
    ChannelRef,
    Form,
    Invocation,
    Locale,
    Notice,
    Reply,
    Tone,
)

log = logging.getLogger(__name__)

SLASH_COMMAND = "/study"
MODAL_COMMANDS = frozenset({"submit", "run", "import"})
ACTIONS = re.compile(r"^(" + "|".join(k.value for k in ActionKind) + r"):")
EVENTS = ("app_home_opened", "app_mention")
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")


def build_app(
    core: Studybot,
    client: AsyncWebClient,
    people: People,
    background: Background,
    *,
    signing_secret: str | None,
) -> AsyncApp:
    """The bolt app with every listener registered. Without a signing secret (Socket Mode)
    requests arrive over the app's own websocket and are not signed."""
    app = AsyncApp(client=client, signing_secret=signing_secret or "",
                   request_verification_enabled=signing_secret is not None,
                   process_before_response=True)  # fmt: skip
    listeners = Listeners(core, client, people, background)
    app.command(SLASH_COMMAND)(listeners.study)
    app.action(ACTIONS)(listeners.click)
    app.view(MODAL_CALLBACK)(listeners.form_submitted)
    app.event("app_home_opened")(listeners.home_opened)
    app.event("app_mention")(listeners.mentioned)
    return app


class Listeners:
    def __init__(
        self, core: Studybot, client: AsyncWebClient, people: People, background: Background
    ) -> None:
        self._core, self._client, self._people = core, client, people
        self._background = background

    # --- /study ------------------------------------------------------------------------

    async def study(self, ack: AsyncAck, command: dict[str, Any]) -> None:
        text = from_message(command.get("text") or "").strip() or "help"
        name, _, rest = text.partition(" ")
        user_id, channel_id = command["user_id"], command["channel_id"]
        asker = Asker(user_id, channel_id, command.get("response_url"))
        if name.lower() in MODAL_COMMANDS and _wants_modal(name.lower(), rest):
            await ack()
            meta = {"channel": channel_id, "team": command.get("team_id") or "",
                    "response_url": command.get("response_url") or ""}  # fmt: skip
            command_name, subject = name.lower(), rest.strip()
            self._background.spawn(
                self._open_modal(command["trigger_id"],
                                 lambda locale: input_form(command_name, subject, locale,
                                                           CODE_INPUT_LIMIT),
                                 user_id, meta),
                name=f"slack modal /{name}",
            )  # fmt: skip
            return
        channel = ChannelRef(PLATFORM, channel_id, command.get("team_id"))
        work = asyncio.create_task(self._line(text, asker, command.get("user_name", ""), channel),
                                   name=f"slack /study {name}")  # fmt: skip
        await self._ack_with(ack, work, asker, budget(name.lower()))

    async def _line(self, text: str, asker: Asker, name: str, channel: ChannelRef) -> Reply:
        person = await self._people.get(asker.user_id, name)
        reply = await self._core.handle_line("/" + text, user=person.user, channel=channel,
                                             locale=person.locale,
                                             notice=self._notice_to(asker))  # fmt: skip
        return as_study(reply)

    def _notice_to(self, asker: Asker) -> Notice:
        """A notice while a reply is made (a place in the grading queue), shown to the asker
        alone, before the reply: Slack cannot replace one message with another here."""

        async def notice(reply: Reply) -> None:
            await answer(self._client, asker, reply, ephemeral=True)

        return notice

    async def _ack_with(
        self, ack: AsyncAck, work: asyncio.Task[Reply], asker: Asker, seconds: float
    ) -> None:
        """Ack with the reply if it is ready within `seconds`, else ack now and follow up."""
        if not await within(work, seconds):
            locale = self._people.peek_locale(asker.user_id)
            await ack(response_type="ephemeral", text=t(locale, "slack.working"))
            self._background.spawn(self._follow_up(work, asker), name=f"{work.get_name()} reply")
            return
        reply = work.result()
        first, *more = render(reply)
        await ack(response_type="ephemeral" if reply.ephemeral else "in_channel",
                  text=first.text, blocks=list(first.blocks))  # fmt: skip
        if more:  # a long answer: the first message was the ack, the rest follow it
            self._background.spawn(send_all(self._client, asker, more, private=reply.ephemeral),
                                   name=f"{work.get_name()} continued")  # fmt: skip
        if reply.attachments:
            self._background.spawn(send_files(self._client, asker, reply.attachments,
                                              private=reply.ephemeral),
                                   name=f"{work.get_name()} files")  # fmt: skip

    async def _follow_up(self, work: asyncio.Task[Reply], asker: Asker) -> None:
        await answer(self._client, asker, await work)

    # --- buttons -----------------------------------------------------------------------

    async def click(self, ack: AsyncAck, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        parsed = parse_action_id(action.get("action_id", ""), action.get("value"))
        if parsed is None:
            return
        clicked = Action(parsed[0], "", parsed[1])
        user_id = body["user"]["id"]
        channel_id = (body.get("channel") or {}).get("id")
        team = (body.get("team") or {}).get("id")
        asker = Asker(user_id, channel_id, body.get("response_url"))
        where = ChannelRef(PLATFORM, channel_id or user_id, team)
        if form_of(clicked, Locale.EN) is not None:
            meta = {"channel": channel_id or "", "team": team or "",
                    "response_url": body.get("response_url") or ""}  # fmt: skip
            if clicked.kind in PREFILLED:
                self._background.spawn(self._open_filled(body["trigger_id"], clicked, asker,
                                                         where, meta),
                                       name=f"slack modal {clicked.kind.value}")  # fmt: skip
                return
            self._background.spawn(
                self._open_modal(body["trigger_id"], lambda locale: form_of(clicked, locale),
                                 user_id, meta),
                name=f"slack modal {clicked.kind.value}",
            )  # fmt: skip
            return
        command, options = clicked.invocation()
        self._background.spawn(self._invoke(command, options, asker, where, True),
                               name=f"slack click {clicked.kind.value}")  # fmt: skip

    async def _invoke(
        self, command: str, options: dict[str, str], asker: Asker, where: ChannelRef, private: bool
    ) -> None:
        person = await self._people.get(asker.user_id)
        inv = Invocation(command, options, user=person.user, channel=where, locale=person.locale,
                         notice=self._notice_to(asker))  # fmt: skip
        reply = as_study(await self._core.handle(inv))
        await answer(self._client, asker, reply, ephemeral=private)

    # --- forms ------------------------------------------------------------------------

    async def _open_modal(
        self, trigger_id: str, make: Callable[[Locale], Form | None], user_id: str,
        meta: dict[str, str],
    ) -> None:  # fmt: skip
        """Open the form `make` builds in the person's language."""
        person = await self._people.get(user_id)
        form = make(person.locale)
        if form is None:
            return
        try:
            view = form_modal(form, person.locale, meta)
            await self._client.views_open(trigger_id=trigger_id, view=view)
        except SlackApiError as exc:  # an expired trigger: the person can simply try again
            log.warning("slack: views.open failed: %s", exc.response.get("error"))

    async def _open_filled(self, trigger_id: str, clicked: Action, asker: Asker,
                           where: ChannelRef, meta: dict[str, str]) -> None:  # fmt: skip
        """Open the form of `clicked` with the values its command answers with (the core
        checks the clicker as on any click), well within the trigger's 3 seconds; a refusal
        is shown instead."""
        person = await self._people.get(asker.user_id)
        command, options = clicked.invocation()
        inv = Invocation(command, options, user=person.user, channel=where, locale=person.locale)
        reply = await self._core.handle(inv)
        blank = form_of(clicked, person.locale)
        form = filled(blank, reply) if blank is not None else None
        if form is None:
            await answer(self._client, asker, as_study(reply), ephemeral=True)
            return
        try:
            await self._client.views_open(trigger_id=trigger_id,
                                          view=form_modal(form, person.locale, meta))  # fmt: skip
        except SlackApiError as exc:  # an expired trigger: the person can simply try again
            log.warning("slack: views.open failed: %s", exc.response.get("error"))

    async def form_submitted(
        self, ack: AsyncAck, body: dict[str, Any], view: dict[str, Any]
    ) -> None:
        """A form's inputs, read back by field name; an empty required one is pointed out in
        the modal, which stays open. The answer goes where the form was opened from."""
        state = view.get("state", {}).get("values", {})
        values = _inputs(state)
        meta: dict[str, Any] = json.loads(view.get("private_metadata") or "{}")
        user_id = body["user"]["id"]
        empty = [name for name in meta.get("required", []) if not values.get(name, "").strip()]
        if empty:
            locale = self._people.peek_locale(user_id)
            await ack(response_action="errors",
                      errors={name: t(locale, "form.required") for name in empty})  # fmt: skip
            return
        await ack()
        command = str(meta.get("command") or "submit")
        subject = str(meta.get("subject", meta.get("problem", "")))  # `problem`: before forms
        options = form_options(command, subject, values)
        channel_id = meta.get("channel") or None
        asker = Asker(user_id, channel_id, meta.get("response_url") or None)
        team = meta.get("team") or (body.get("team") or {}).get("id")
        where = ChannelRef(PLATFORM, channel_id or user_id, team)
        shared = attached(state) if takes_report(command) else None
        if shared is not None:
            self._background.spawn(self._import_file(shared, asker, where),
                                   name="slack modal import file")  # fmt: skip
            return
        self._background.spawn(self._invoke(command, options, asker, where, False),
                               name=f"slack modal {command}")  # fmt: skip

    async def _import_file(self, shared: SharedFile, asker: Asker, where: ChannelRef) -> None:
        """A report sent as a file through the import form: checked by what Slack says of
        it, downloaded with the bot token, handed to the core's file entry point."""
        person = await self._people.get(asker.user_id)
        inv = Invocation(IMPORT, {}, user=person.user, channel=where, locale=person.locale)
        try:
            check_file(shared.name, shared.mime, shared.size, person.locale)
            data = await download(self._client, shared, MAX_BYTES, person.locale)
        except BadArgument as exc:
            reply = Reply(str(exc), ephemeral=True, tone=Tone.USER_ERROR)
        else:
            reply = await self._core.import_file(inv, data, shared.name)
        await answer(self._client, asker, as_study(reply), ephemeral=True)

    # --- events ------------------------------------------------------------------------

    async def home_opened(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        if event.get("tab", "home") == "home":
            self._background.spawn(self._publish_home(event, body), name="slack home")

    async def _publish_home(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        person = await self._people.get(event["user"])
        view = await home_for(self._core, person, body.get("team_id"))
        try:
            await self._client.views_publish(user_id=event["user"], view=view)
        except SlackApiError as exc:
            log.warning("slack: views.publish failed: %s", exc.response.get("error"))

    async def mentioned(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        self._background.spawn(self._mentioned(event, body), name="slack mention")

    async def _mentioned(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        """Code for a problem in its thread, or a command; the answer goes in the thread."""
        text = from_message(_MENTION.sub("", event.get("text") or "")).strip()
        channel_id, thread = event["channel"], event.get("thread_ts")
        asker = Asker(event["user"], channel_id, None, thread or event.get("ts"))
        where = ChannelRef(PLATFORM, channel_id, body.get("team_id") or event.get("team"))
        problem = await self._problem_of(channel_id, thread) if thread else None
        if problem is not None and text:
            await self._invoke("submit", {"problem": problem, "code": text}, asker, where, False)
            return
        person = await self._people.get(event["user"])
        reply = await self._mention_reply(text, person, where)
        await answer(self._client, asker, as_study(reply))

    async def _mention_reply(self, text: str, person: Person, where: ChannelRef) -> Reply:
        if not text:
            return Reply(body=t(person.locale, "slack.mention.help"), ephemeral=True)
        return await self._core.handle_line("/" + text.removeprefix("/"), user=person.user,
                                            channel=where, locale=person.locale)  # fmt: skip

    async def _problem_of(self, channel_id: str, thread_ts: str) -> str | None:
        """The problem a thread is about: its parent message's Submit button, read back from
        Slack, so no mapping of threads to problems has to be kept."""
        try:
            found = await self._client.conversations_replies(channel=channel_id, ts=thread_ts,
                                                             limit=1)  # fmt: skip
        except SlackApiError as exc:
            log.warning("slack: conversations.replies failed: %s", exc.response.get("error"))
            return None
        messages: list[dict[str, Any]] = found.get("messages") or []
        return submit_target(messages[0]) if messages else None


def submit_target(message: dict[str, Any]) -> str | None:
    """The problem id of a message's Submit button, if it has one."""
    parsed = (
        parse_action_id(str(element.get("action_id", "")), element.get("value"))
        for block in message.get("blocks") or []
        for element in block.get("elements") or []
    )
    return problem_of(Action(kind, "", value) for kind, value in filter(None, parsed))


def _wants_modal(command: str, rest: str) -> bool:
    """`/study run`, `/study submit <problem>` and `/study import` bring no code (or report):
    it comes through a modal."""
    words = rest.split()
    return len(words) <= 1 if command == "submit" else not words


def _inputs(values: dict[str, Any]) -> dict[str, str]:
    """A view's inputs by block (each block holds one input, named as its block)."""
    return {block: str((inputs.get(block) or {}).get("value") or "")
            for block, inputs in values.items() if isinstance(inputs, dict)}  # fmt: skip
