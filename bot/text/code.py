"""Code in chat: finding it in a message, and echoing text back without side effects.

`extract_code` takes the first fenced block (```python, ```py or a bare ```), or the whole
text when there is no fence, so a pasted function works either way.
`neutralize` makes echoed text (a solution's output, an error message) inert: it cannot
close our code block and start Markdown of its own, and it cannot ping @everyone or a user.
`valid_unicode` replaces lone surrogates (which JSON escapes such as "\\ud800" decode to),
so text from outside encodes as UTF-8 wherever it goes: SQLite, JSON, HTTP.
"""

from __future__ import annotations

import re

# An opening fence, then everything up to a closing fence at the start of a line (or the end).
FENCE = re.compile(r"```[ \t]*(?:python3?|py)?[ \t]*\n(.*?)(?:^[ \t]*```|\Z)", re.S | re.I | re.M)
ZERO_WIDTH = "\u200b"
_SURROGATE = re.compile("[\ud800-\udfff]")


def extract_code(text: str) -> str:
    match = FENCE.search(text)
    code = match.group(1) if match else text
    return code.strip("\n").rstrip()


def neutralize(text: str) -> str:
    text = text.replace("```", f"`{ZERO_WIDTH}`{ZERO_WIDTH}`")
    text = re.sub(r"@(everyone|here|channel)", f"@{ZERO_WIDTH}\\1", text, flags=re.I)
    return re.sub(r"<([@#!])", f"<{ZERO_WIDTH}\\1", text)


def valid_unicode(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)
