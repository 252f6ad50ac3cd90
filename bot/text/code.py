"""Code in chat: finding it in a message, and echoing text back without side effects.

`extract_code` takes the first fenced block (```python, ```py or a bare ```), or the whole
text when there is no fence, so a pasted function works either way; a byte order mark
(U+FEFF) before the code is dropped, as `decode_source` drops a file's.
`neutralize` makes echoed text (a solution's output, an error message) inert: it cannot
close our code block and start Markdown of its own, and it cannot ping @everyone or a user.
`decode_source` reads a solution file as people save them: UTF-8, with or without a BOM;
anything else is refused with what it looks like, never read as mojibake.
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
    code = (match.group(1) if match else text).removeprefix("\ufeff")
    return code.strip("\n").rstrip()


def neutralize(text: str) -> str:
    text = text.replace("```", f"`{ZERO_WIDTH}`{ZERO_WIDTH}`")
    text = re.sub(r"@(everyone|here|channel)", f"@{ZERO_WIDTH}\\1", text, flags=re.I)
    return re.sub(r"<([@#!])", f"<{ZERO_WIDTH}\\1", text)


def valid_unicode(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)


class NotUtf8(ValueError):
    """A file that is not UTF-8 text; the message says what it seems to be instead."""


_BOMS = ((b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def decode_source(data: bytes) -> str:
    """`data` as text: UTF-8, a leading BOM dropped; `NotUtf8` otherwise."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise NotUtf8(f"the file is {name} text; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotUtf8(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                      f"{exc.start}); save it as UTF-8") from None  # fmt: skip
