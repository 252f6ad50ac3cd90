"""Core `Reply`s as Discord messages: embeds within Discord's limits, buttons, forms.

Pure translation, no I/O. A reply becomes one or more `Page`s (one message each):

- The body (Markdown; tables turned into aligned monospace blocks, code fenced) is cut into
  embed descriptions of at most 4096 characters, fences closed and reopened across cuts.
- Embeds are packed into messages of at most 10 embeds and 6000 characters of embed text;
  a longer answer continues in follow-up messages, each part numbered.
- Fields (25 at most, names 256, values 1024) and the footer go on the last embed; buttons
  (5 a row, 25 at most) on the last message.

A core `Form` becomes a modal (`form_modal`): a text input per field, named by the field.

Buttons are routed statelessly: a button's custom_id is `<action kind>:<value>`
(`reveal:python-gil`), all a click needs, so buttons on last week's post still work after a
restart. Every click and form submit is routed by its custom_id in `InteractionRouter`, so
`RoutedView` and `RoutedForm` tell discord.py not to keep them: no per-message state, nothing
to rebuild at start-up.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.text.split import split_markdown
from bot.text.tables import tables_to_monospace
from bot.types import Action, ActionKind, Form, Reply, Tone

DESCRIPTION_LIMIT = 4096
MESSAGE_EMBED_LIMIT = 6000
EMBEDS_PER_MESSAGE = 10
TITLE_LIMIT, FIELD_NAME_LIMIT, FIELD_VALUE_LIMIT, FOOTER_LIMIT = 256, 256, 1024, 2048
MAX_FIELDS, MAX_BUTTONS, BUTTON_LABEL_LIMIT, CUSTOM_ID_LIMIT = 25, 25, 80, 100
MODAL_TITLE_LIMIT, MODAL_INPUT_LIMIT, MODAL_INPUTS = 45, 4000, 5
INPUT_LABEL_LIMIT, PLACEHOLDER_LIMIT = 45, 100
FORM_PREFIX = "code"

COLOURS = {Tone.INFO: 0x5865F2, Tone.USER_ERROR: 0xFEE75C, Tone.FAILURE: 0xED4245}
STYLES = {
    ActionKind.REVEAL_ANSWER: discord.ButtonStyle.primary,
    ActionKind.SHOW_QUESTION: discord.ButtonStyle.secondary,
    ActionKind.SUBMIT_SOLUTION: discord.ButtonStyle.success,
    ActionKind.ANSWER_IN: discord.ButtonStyle.secondary,
    ActionKind.QUESTION_IN: discord.ButtonStyle.secondary,
    ActionKind.BROWSE: discord.ButtonStyle.secondary,
    ActionKind.QUIZ: discord.ButtonStyle.primary,
    ActionKind.HINT: discord.ButtonStyle.secondary,
    ActionKind.FORGET: discord.ButtonStyle.danger,
    ActionKind.RATE: discord.ButtonStyle.secondary,
    ActionKind.REVIEW_CHECK: discord.ButtonStyle.primary,
    ActionKind.REVIEW_EXPLAIN: discord.ButtonStyle.primary,
    ActionKind.REVIEW_NEXT: discord.ButtonStyle.success,
    ActionKind.REPORT_MISTAKE: discord.ButtonStyle.secondary,
    ActionKind.REPORTS_PAGE: discord.ButtonStyle.secondary,
    ActionKind.RESOLVE_REPORT: discord.ButtonStyle.success,
    ActionKind.ANSWER_THIS: discord.ButtonStyle.primary,
    ActionKind.ADOPT_ANSWER: discord.ButtonStyle.success,
    ActionKind.DRAFT_APPROVE: discord.ButtonStyle.success,
    ActionKind.DRAFT_REJECT: discord.ButtonStyle.danger,
    ActionKind.DRAFT_EDIT: discord.ButtonStyle.secondary,
    ActionKind.DRAFT_PAGE: discord.ButtonStyle.secondary,
}


@dataclass(frozen=True, slots=True)
class Page:
    """One Discord message: its embeds, and the buttons if it is the reply's last message."""

    embeds: tuple[discord.Embed, ...]
    actions: tuple[Action, ...] = ()


def render(reply: Reply) -> list[Page]:
    embeds = _embeds(reply)
    _show_picture(reply, embeds[0])
    pages: list[list[discord.Embed]] = [[]]
    for embed in embeds:
        size = sum(len(e) for e in pages[-1])
        if pages[-1] and (size + len(embed) > MESSAGE_EMBED_LIMIT
                          or len(pages[-1]) == EMBEDS_PER_MESSAGE):  # fmt: skip
            pages.append([])
        pages[-1].append(embed)
    last = len(pages) - 1
    return [Page(tuple(p), reply.actions if i == last else ()) for i, p in enumerate(pages)]


def attached_files(reply: Reply) -> list[discord.File]:
    """The reply's attachments as files, for its first message."""
    return [discord.File(io.BytesIO(a.data), filename=a.name) for a in reply.attachments]


def _show_picture(reply: Reply, embed: discord.Embed) -> None:
    """A picture the reply carries (the `/me` card) is shown inside its first embed: the
    file goes with the first message, which names it as `attachment://<name>`."""
    picture = next((a for a in reply.attachments if a.image), None)
    if picture is not None:
        embed.set_image(url=f"attachment://{picture.name}")


def _embeds(reply: Reply) -> list[discord.Embed]:
    """The body's chunks as embeds, then fields and footer, each embed within one message."""
    body = tables_to_monospace(reply.body)
    chunks = split_markdown(body, DESCRIPTION_LIMIT) if body.strip() else [""]
    colour = COLOURS[reply.tone]
    embeds = [discord.Embed(description=chunk or None, colour=colour) for chunk in chunks]
    if reply.title:
        embeds[0].title = _cut(reply.title, TITLE_LIMIT)
    for field in reply.fields[:MAX_FIELDS]:
        name = _cut(field.name, FIELD_NAME_LIMIT) or "-"
        value = _cut(field.value, FIELD_VALUE_LIMIT) or "-"
        if len(embeds[-1]) + len(name) + len(value) > MESSAGE_EMBED_LIMIT:
            embeds.append(discord.Embed(colour=colour))  # a full embed: fields go on
        embeds[-1].add_field(name=name, value=value, inline=field.inline)
    if reply.footer:
        footer = _cut(reply.footer, FOOTER_LIMIT)
        if len(embeds[-1]) + len(footer) > MESSAGE_EMBED_LIMIT:
            embeds.append(discord.Embed(colour=colour))
        embeds[-1].set_footer(text=footer)
    return embeds


def custom_id(action: Action) -> str | None:
    """The button's stateless route, or None if the value cannot fit in a custom_id."""
    route = f"{action.kind.value}:{action.value}"
    return route if len(route) <= CUSTOM_ID_LIMIT else None


def parse_custom_id(raw: str) -> Action | None:
    kind, sep, value = raw.partition(":")
    if not sep or not value or kind not in ActionKind._value2member_map_:
        return None
    return Action(ActionKind(kind), "", value)


def parse_form_id(raw: str) -> tuple[str, str] | None:
    """(command, subject) of a form's custom_id, or None if it is not one."""
    prefix, _, rest = raw.partition(":")
    command, sep, subject = rest.partition(":")
    return (command, subject) if prefix == FORM_PREFIX and sep and command else None


class RoutedView(discord.ui.View):
    """Buttons whose clicks are routed by custom_id, not by discord.py's view store.

    discord.py keeps a sent view in its store while it is "dispatchable" and not finished,
    and an interaction's `send_message` checks only the latter: a routed view that never
    finishes stayed there for good, one per reply with buttons. Declaring it finished from
    the start keeps every send path from storing it (nothing would ever be dispatched to it)."""

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


class RoutedForm(discord.ui.Modal):
    """A form whose submit is routed by custom_id, not by discord.py's modal store."""

    def is_finished(self) -> bool:
        return True  # discord.py stores only unfinished modals


def buttons(actions: tuple[Action, ...]) -> discord.ui.View | None:
    """The actions as buttons (see the module docstring), or None if there are none."""
    routed = [(a, route) for a in actions[:MAX_BUTTONS] if (route := custom_id(a))]
    if not routed:
        return None
    view = RoutedView(timeout=None)
    for action, route in routed:
        label = _cut(action.label, BUTTON_LABEL_LIMIT) or action.value[:BUTTON_LABEL_LIMIT]
        view.add_item(discord.ui.Button(label=label, style=STYLES[action.kind], custom_id=route))
    return view


def form_modal(form: Form) -> discord.ui.Modal:
    """A core `Form` as a modal: one text input per field (5 at most), routed as
    `code:<command>:<subject>` (`code:submit:fast-power`, `code:run:`, `code:report:python-gil`;
    the prefix is the first form's, kept so a form open across an upgrade still routes)."""
    route = f"{FORM_PREFIX}:{form.command}:{form.subject}"[:CUSTOM_ID_LIMIT]
    modal = RoutedForm(title=_cut(form.title, MODAL_TITLE_LIMIT), custom_id=route)
    for field in form.fields[:MODAL_INPUTS]:
        modal.add_item(discord.ui.TextInput(
            label=_cut(field.label, INPUT_LABEL_LIMIT), custom_id=field.name,
            style=discord.TextStyle.paragraph if field.multiline else discord.TextStyle.short,
            max_length=min(field.max_length, MODAL_INPUT_LIMIT), required=field.required,
            default=field.value or None,
            placeholder=_cut(field.hint, PLACEHOLDER_LIMIT) if field.hint else None,
        ))  # fmt: skip
    return modal


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
