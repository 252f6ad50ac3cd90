"""Rendering core `Reply`s as chat-like blocks of terminal text.

Like a chat platform, the console shows no Markdown tables, so tables become aligned
monospace blocks; long bodies are split as Discord would split them (2,000 characters a
message); buttons become numbered lines that say which command does the same.
"""

from __future__ import annotations

from bot.text.split import split_markdown
from bot.text.tables import tables_to_monospace
from bot.types import Action, Reply, Tone

MESSAGE_LIMIT = 2000
_MARKS = {Tone.INFO: "", Tone.USER_ERROR: "⚠", Tone.FAILURE: "✖"}


def render(reply: Reply) -> str:
    """The reply as one or more message blocks, its buttons numbered from 1."""
    chunks = split_markdown(tables_to_monospace(reply.body), MESSAGE_LIMIT)
    blocks = []
    for n, chunk in enumerate(chunks, 1):
        head = _heading(reply, n, len(chunks))
        lines = [head, *(f"│ {line}".rstrip() for line in chunk.split("\n"))]
        if n == len(chunks):
            lines += _tail(reply)
        blocks.append("\n".join([*lines, "└"]))
    return "\n".join(blocks)


def _heading(reply: Reply, n: int, total: int) -> str:
    title = reply.title or ("studybot" if reply.tone is Tone.INFO else "")
    part = f"({n}/{total})" if total > 1 else ""
    private = "(only you can see this)" if reply.ephemeral else ""
    return " ".join(filter(None, ["┌", _MARKS[reply.tone] + title, part, private]))


def _tail(reply: Reply) -> list[str]:
    lines = []
    if reply.fields:
        lines.append("│ " + " · ".join(f"{f.name}: {f.value}" for f in reply.fields))
    if reply.footer:
        lines.append(f"│ {reply.footer}")
    lines += [_action_line(a, i) for i, a in enumerate(reply.actions, 1)]
    return lines


def _action_line(action: Action, number: int) -> str:
    return f"│ [{number}] {action.label}  → {action.as_command()}"
