"""Core `Reply`s as Slack messages (Block Kit), and the modal and App Home views. Pure.

A reply becomes one or more `SlackMessage`s: a header (the title), the body as mrkdwn
sections of at most 3,000 characters (tables already arrive as monospace code blocks; a cut
inside a code block closes and reopens it), the fields as one section, the footer as
context, the actions as buttons. A message holds at most 50 blocks; a long answer continues
in further messages, each with its own plain-text `text`, which Slack shows in notifications
and where blocks cannot be shown.

Buttons carry everything a click needs: `action_id` is `<kind>:<value>` (e.g.
`reveal:python-gil`) and `value` is the question id, so a click on yesterday's post is routed
statelessly after a restart (see `parse_action_id`). A core `Form` becomes a modal view
(`form_modal`); the report's form (`/import`) also takes the report as a file (a `file_input`
block), so its text input may be left empty.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from adapters.slack.mrkdwn import to_mrkdwn
from bot.commands.spec import COMMANDS
from bot.i18n import t
from bot.routes import takes_report
from bot.text.split import split_markdown
from bot.text.tables import tables_to_monospace
from bot.types import Action, ActionKind, Field, Form, FormField, Locale, Reply, Tone

Block = dict[str, Any]

SECTION_LIMIT = 3000
HEADER_LIMIT = 150
BLOCKS_PER_MESSAGE = 50
BLOCKS_PER_VIEW = 100
FIELDS_PER_SECTION = 10
BUTTON_TEXT_LIMIT = 75
BUTTONS_PER_BLOCK = 25
TEXT_FALLBACK_LIMIT = 300
CODE_INPUT_LIMIT = 3000  # characters of a plain_text_input: Slack allows no more
MODAL_TITLE_LIMIT = 24
MODAL_CALLBACK = "studybot_code"  # every form's (the first was for code; kept for open ones)
CODE_BLOCK = "code"  # the code form's blocks, named by its fields
PROBLEM_BLOCK = "problem"
FILE_BLOCK = "file"  # the import form's file_input block and action (`adapters.slack.files`)
_COMMAND_SPAN = re.compile(r"`/(" + "|".join(spec.name for spec in COMMANDS) + r")\b")
_MARKS = {Tone.INFO: "", Tone.USER_ERROR: ":warning: ", Tone.FAILURE: ":x: "}


@dataclass(frozen=True, slots=True)
class SlackMessage:
    """One message as chat.postMessage, a response_url or an ack takes it."""

    text: str
    blocks: tuple[Block, ...]

    def payload(self) -> dict[str, Any]:
        return {"text": self.text, "blocks": list(self.blocks)}


def as_study(reply: Reply, command: str = "/study") -> Reply:
    """The core names its commands `/question`, `/search`...; on Slack they are `/study question`.

    Rewrites command names the core wrote in code spans (`` `/search 显存` ``), in the body,
    the fields and the footer."""

    def rewrite(text: str) -> str:
        return _COMMAND_SPAN.sub(lambda m: f"`{command} {m.group(1)}", text)

    fields = tuple(replace(f, value=rewrite(f.value)) for f in reply.fields)
    footer = rewrite(reply.footer) if reply.footer else None
    return replace(reply, body=rewrite(reply.body), fields=fields, footer=footer)


def render(reply: Reply) -> list[SlackMessage]:
    """The reply as one message, or several when its blocks do not fit in one."""
    blocks = list(reply_blocks(reply)) or [section(fallback_text(reply))]
    pages = [blocks[i : i + BLOCKS_PER_MESSAGE] for i in range(0, len(blocks), BLOCKS_PER_MESSAGE)]
    fallback = fallback_text(reply)
    total = len(pages)
    return [
        SlackMessage(fallback if n == 1 else f"{fallback} ({n}/{total})", tuple(page))
        for n, page in enumerate(pages, 1)
    ]


def reply_blocks(reply: Reply) -> Iterator[Block]:
    if reply.title:
        yield header(reply.title)
    for n, text in enumerate(sections(reply.body)):
        yield section(_MARKS[reply.tone] + text if n == 0 else text)
    if reply.fields:
        yield from field_sections(reply.fields)
    if reply.footer:
        yield {"type": "context", "elements": [mrkdwn(_cut(to_mrkdwn(reply.footer), 2000))]}
    if reply.attachments:  # the files follow as uploads (deliver.send_files); named here
        names = " ".join(f"📎 `{a.name}`" for a in reply.attachments)
        yield {"type": "context", "elements": [mrkdwn(_cut(names, 2000))]}
    for start in range(0, len(reply.actions), BUTTONS_PER_BLOCK):
        yield {"type": "actions", "elements": [
            button(a) for a in reply.actions[start : start + BUTTONS_PER_BLOCK]]}  # fmt: skip


def sections(markdown: str, limit: int = SECTION_LIMIT) -> list[str]:
    """The body as mrkdwn pieces of at most `limit` characters each (escaping may lengthen a
    piece, so a piece that grew past the limit is cut again, smaller)."""
    text = tables_to_monospace(markdown).strip()
    if not text:
        return []
    pieces: list[str] = []
    for chunk in split_markdown(text, limit):
        converted = to_mrkdwn(chunk)
        pieces += [converted] if len(converted) <= limit else sections(chunk, limit * 2 // 3)
    return [p for p in pieces if p.strip()]


def field_sections(fields: Iterable[Field]) -> Iterator[Block]:
    items = [mrkdwn(_cut(f"*{to_mrkdwn(f.name)}*\n{to_mrkdwn(f.value)}", 2000)) for f in fields]
    for start in range(0, len(items), FIELDS_PER_SECTION):
        yield {"type": "section", "fields": items[start : start + FIELDS_PER_SECTION]}


def header(title: str) -> Block:
    return {"type": "header", "text": plain(_cut(title, HEADER_LIMIT))}


def section(text: str) -> Block:
    return {"type": "section", "text": mrkdwn(_cut(text, SECTION_LIMIT))}


def button(action: Action) -> Block:
    element: Block = {
        "type": "button",
        "text": plain(_cut(action.label, BUTTON_TEXT_LIMIT)),
        "action_id": action_id(action),
        "value": action.value[:2000],
    }
    if action.kind is ActionKind.REVEAL_ANSWER:
        element["style"] = "primary"
    return element


def action_id(action: Action) -> str:
    return f"{action.kind.value}:{action.value}"[:255]


def parse_action_id(raw: str, value: str | None) -> tuple[ActionKind, str] | None:
    """(kind, value) of a clicked button, or None for a button this app did not make."""
    kind, sep, rest = raw.partition(":")
    if not sep or kind not in {k.value for k in ActionKind}:
        return None
    return ActionKind(kind), value or rest


def fallback_text(reply: Reply) -> str:
    """Plain text for notifications: the title, else the start of the body."""
    if reply.title:
        return _cut(reply.title, TEXT_FALLBACK_LIMIT)
    first = next((line for line in reply.body.split("\n") if line.strip()), "studybot")
    return _cut(to_mrkdwn(first.strip("`# ")), TEXT_FALLBACK_LIMIT)


def form_modal(form: Form, locale: Locale, metadata: dict[str, str]) -> Block:
    """A core `Form` as a modal view: `intro` as a section, then an input block per field,
    each block and its input named by the field. `private_metadata` carries `metadata` (where
    the answer goes), the form's command and subject, and which fields must not be empty,
    so a submission is read back with no state kept (`Listeners.form_submitted`)."""
    blocks: list[Block] = [section(to_mrkdwn(form.intro))] if form.intro else []
    fields = form.fields
    if takes_report(form.command):  # the report's text, or its file instead
        fields = tuple(replace(f, required=False) for f in fields)
    blocks += [_input_block(field, first=i == 0) for i, field in enumerate(fields)]
    if takes_report(form.command):
        blocks.append(_file_block(locale))
    required = [field.name for field in fields if field.required]
    return {
        "type": "modal",
        "callback_id": MODAL_CALLBACK,
        "title": plain(_cut(form.title, MODAL_TITLE_LIMIT)),
        "submit": plain(_cut(t(locale, "slack.modal.send"), MODAL_TITLE_LIMIT)),
        "close": plain(_cut(t(locale, "slack.modal.cancel"), MODAL_TITLE_LIMIT)),
        "private_metadata": json.dumps({**metadata, "command": form.command,
                                        "subject": form.subject, "required": required}),
        "blocks": blocks,
    }  # fmt: skip


def _input_block(field: FormField, *, first: bool) -> Block:
    element: Block = {"type": "plain_text_input", "action_id": field.name,
                      "multiline": field.multiline,
                      "max_length": min(field.max_length, CODE_INPUT_LIMIT)}  # fmt: skip
    if field.value:
        element["initial_value"] = field.value
    if first:
        element["focus_on_load"] = True
    block: Block = {"type": "input", "block_id": field.name, "label": plain(field.label),
                    "optional": not field.required, "element": element}  # fmt: skip
    if field.hint:
        block["hint"] = plain(field.hint)
    return block


def _file_block(locale: Locale) -> Block:
    """A file_input for a report too long for the text input (`adapters.slack.files`)."""
    element = {"type": "file_input", "action_id": FILE_BLOCK, "filetypes": ["txt", "md"],
               "max_files": 1}  # fmt: skip
    return {"type": "input", "block_id": FILE_BLOCK, "optional": True,
            "label": plain(t(locale, "import.form.file")), "element": element,
            "hint": plain(t(locale, "import.form.file_hint"))}  # fmt: skip


def home_view(replies: Iterable[Reply]) -> Block:
    """The App Home tab: the replies one after another, dividers between, 100 blocks at most."""
    blocks: list[Block] = []
    for reply in replies:
        if blocks:
            blocks.append({"type": "divider"})
        blocks += reply_blocks(reply)
    return {"type": "home", "blocks": blocks[:BLOCKS_PER_VIEW]}


def plain(text: str) -> Block:
    return {"type": "plain_text", "text": text or " ", "emoji": True}


def mrkdwn(text: str) -> Block:
    return {"type": "mrkdwn", "text": text or " "}


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
