"""Caps and cleaning for what a member sends to the community bank.

A report is anyone's text and ends up in front of a whole server: it is capped in size and
in questions, titles are cut to a length a list can show, and mentions are neutralised
before anything is stored (a zero-width space after `@` or `<`, so `@everyone`, `<@123>`,
`<#123>` and Slack's `<!here>` show as text and ping no one). Markdown is escaped where a
title is shown inside a reply's own formatting (`escaped`).
"""

from __future__ import annotations

import re

MAX_BYTES = 64 * 1024  # of UTF-8 text: a long report is 10-20 KB
MAX_QUESTIONS = 30  # a report with more is a collection: split it
MAX_TITLE = 100  # characters of a question's title (an option's limit: it can be edited)
MAX_SOURCE = 120  # characters of a report's title line
MAX_IMPORTS = 3  # imports per member per `WINDOW`
WINDOW_HOURS = 1

ZWSP = "\u200b"
_MENTION = re.compile(r"@(?=everyone|here|channel)|<(?=[@#!])", re.IGNORECASE)
_MARKDOWN = re.compile(r"([\\`*_~|>\[\]()#])")


def neutralised(text: str) -> str:
    """`text` with every mention broken by a zero-width space."""
    return _MENTION.sub(lambda m: m.group(0) + ZWSP, text)


def title(text: str) -> str:
    """A question's title as stored: one line, neutralised, at most `MAX_TITLE` characters."""
    return _cut(neutralised(" ".join(text.split())), MAX_TITLE)


def source_title(text: str) -> str:
    return _cut(neutralised(" ".join(text.split())), MAX_SOURCE)


def escaped(text: str) -> str:
    """`text` shown as itself inside Markdown: its marks escaped."""
    return _MARKDOWN.sub(r"\\\1", text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
