"""Rendering core `Reply`s as chat-like blocks of terminal text.

Like a chat platform, the console shows no Markdown tables, so tables become aligned
monospace blocks; long bodies are split as Discord would split them (2,000 characters a
message); buttons become numbered lines that say which command does the same. Inline fields
share a line, as they share a row in an embed; a field that is not inline gets a line of its
own, and its value lines of their own when it is a list, so a long one never runs past the
block.
"""

from __future__ import annotations

from bot.i18n import t
from bot.routes import typed
from bot.text.split import split_markdown
from bot.text.tables import tables_to_monospace
from bot.types import Action, Field, Locale, Reply, Tone

MESSAGE_LIMIT = 2000
_MARKS = {Tone.INFO: "", Tone.USER_ERROR: "⚠", Tone.FAILURE: "✖"}


def render(reply: Reply, locale: Locale = Locale.EN) -> str:
    """The reply as one or more message blocks, its buttons numbered from 1; the console's
    own words (the private mark) in `locale`."""
    chunks = split_markdown(tables_to_monospace(reply.body), MESSAGE_LIMIT)
    blocks = []
    for n, chunk in enumerate(chunks, 1):
        head = _heading(reply, n, len(chunks), locale)
        lines = [head, *(f"│ {line}".rstrip() for line in chunk.split("\n"))]
        if n == len(chunks):
            lines += _tail(reply)
        blocks.append("\n".join([*lines, "└"]))
    return "\n".join(blocks)


def _heading(reply: Reply, n: int, total: int, locale: Locale) -> str:
    title = reply.title or ("studybot" if reply.tone is Tone.INFO else "")
    part = f"({n}/{total})" if total > 1 else ""
    private = t(locale, "console.private") if reply.ephemeral else ""
    return " ".join(filter(None, ["┌", _MARKS[reply.tone] + title, part, private]))


def _tail(reply: Reply) -> list[str]:
    lines: list[str] = []
    row: list[Field] = []
    for f in (*reply.fields, None):  # None ends the last row
        if f is not None and f.inline:
            row.append(f)
            continue
        if row:
            lines.append("│ " + " · ".join(f"{g.name}: {g.value}" for g in row))
            row = []
        if f is not None and "\n" not in f.value:
            lines.append(f"│ {f.name}: {f.value}")
        elif f is not None:
            lines += [f"│ {f.name}:", *(f"│   {line}".rstrip() for line in f.value.split("\n"))]
    if reply.footer:
        lines.append(f"│ {reply.footer}")
    lines += [_action_line(a, i) for i, a in enumerate(reply.actions, 1)]
    return lines


def _action_line(action: Action, number: int) -> str:
    return f"│ [{number}] {action.label}  → {typed(action)}"
