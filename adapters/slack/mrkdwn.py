"""Markdown (what the core writes) to Slack mrkdwn (what Slack shows). Pure; no Slack calls.

Slack's mrkdwn is not Markdown: bold is `*x*`, italic `_x_`, strike `~x~`, links are
`<url|text>`, there are no headings or tables, and `&`, `<`, `>` must be escaped everywhere,
code included, or Slack reads them as its own markup. So, line by line:

- inside a ``` fence: only escaping (the language tag is dropped: Slack would print it);
- outside: inline code spans are cut out first and kept verbatim (escaped), then headings
  become bold lines, `**x**`/`__x__` bold, `*x*` italic, `~~x~~` strike, `[t](u)` links,
  and `-`/`*` list markers bullets.

Channel and user tokens (`<#C123>`, `<@U123>`) pass through unescaped, so a caller may place
channel mentions in the Markdown it renders. Special mentions (`<!here>`, `<!channel>`,
`<!everyone>`, `<!subteam^S1>`) never do: the core has no reason to notify a whole channel or
group, so whatever text reaches this module cannot either. Text echoed from a solution is made
inert before that, in the core (`bot.text.code.neutralize`).
"""

from __future__ import annotations

import re

FENCE = "```"
_SLACK_TOKEN = re.compile(r"<[#@][A-Za-z0-9|_.\-]+>")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_BULLET = re.compile(r"^(\s*)[-*+]\s+")
# Placeholders from the Private Use Area: never in content, never touched by the rules.
_HOLD_OPEN, _HOLD_CLOSE, _BOLD_MARK = "\ue000", "\ue001", "\ue002"


def escape(text: str) -> str:
    """Escape `&`, `<`, `>` for Slack, keeping Slack's own mention tokens intact."""
    parts, last = [], 0
    for match in _SLACK_TOKEN.finditer(text):
        parts += [_escape_plain(text[last : match.start()]), match.group()]
        last = match.end()
    return "".join([*parts, _escape_plain(text[last:])])


def _escape_plain(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


_SLACK_FENCE = re.compile(r"```(.*?)```", re.S)
_LANGUAGE_LINE = re.compile(r"^[A-Za-z0-9_+-]*\n")


def from_message(text: str) -> str:
    """A Slack message's text as Markdown, for code: entities unescaped, and Slack's inline
    fences (```x = 1```, as Slack sends a code block) put on lines of their own."""
    return _SLACK_FENCE.sub(_fence, unescape(text))


def _fence(match: re.Match[str]) -> str:
    inner = match.group(1)
    if not _LANGUAGE_LINE.match(inner):
        inner = "\n" + inner
    return f"```{inner.rstrip(' ')}{'' if inner.endswith(chr(10)) else chr(10)}```"


def unescape(text: str) -> str:
    """Slack escapes `&`, `<`, `>` in message text; code needs them back."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def to_mrkdwn(markdown: str) -> str:
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(FENCE):
            fenced = not fenced
            out.append(FENCE if fenced else escape(line))  # an opening fence loses its language
        else:
            out.append(escape(line) if fenced else _line(line))
    return "\n".join(out)


def _line(line: str) -> str:
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(escape(match.group()))
        return f"{_HOLD_OPEN}{len(held) - 1}{_HOLD_CLOSE}"

    text = _CODE_SPAN.sub(hold, line)
    heading = _HEADING.match(text)
    text = escape(heading.group(1) if heading else text)
    text = _LINK.sub(lambda m: f"<{m.group(2)}|{m.group(1)}>", text)
    text = _BOLD.sub(lambda m: f"{_BOLD_MARK}{m.group(1) or m.group(2)}{_BOLD_MARK}", text)
    text = _ITALIC.sub(r"_\1_", text)
    text = _STRIKE.sub(r"~\1~", text).replace(_BOLD_MARK, "*")
    text = _BULLET.sub(lambda m: f"{m.group(1)}• ", text)
    if heading and text:
        text = text if text.startswith("*") and text.endswith("*") else f"*{text}*"
    return re.sub(f"{_HOLD_OPEN}(\\d+){_HOLD_CLOSE}", lambda m: held[int(m.group(1))], text)
