"""Splitting long Markdown into chunks that fit a platform's message limit.

Cuts fall on line breaks; a line longer than a chunk is broken at a space. A cut inside
a code fence closes the fence at the end of the chunk and reopens it (with its language) at
the start of the next, so every chunk renders on its own.
"""

from __future__ import annotations

FENCE = "```"


def split_markdown(text: str, limit: int) -> list[str]:
    if limit < 40:
        raise ValueError("limit too small to split Markdown sensibly")
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    fence: str | None = None  # the opening fence line while inside a code block
    for line in _pieces(text, limit - 2 * len(FENCE) - 20):
        reserve = len(FENCE) + 1 if fence is not None else 0
        if current and size + len(line) + 1 + reserve > limit:
            if fence is not None:
                current.append(FENCE)
            chunks.append("\n".join(current).strip("\n"))
            current, size = ([fence], len(fence) + 1) if fence is not None else ([], 0)
        current.append(line)
        size += len(line) + 1
        if line.lstrip().startswith(FENCE):
            fence = None if fence is not None else line.strip()
    if current and "\n".join(current).strip():
        chunks.append("\n".join(current).strip("\n"))
    return chunks or [""]


def _pieces(text: str, max_line: int) -> list[str]:
    """Lines of `text`, with any line longer than `max_line` broken into pieces."""
    pieces: list[str] = []
    for line in text.split("\n"):
        while len(line) > max_line:
            cut = line.rfind(" ", 0, max_line)
            cut = cut if cut > max_line // 2 else max_line
            pieces.append(line[:cut])
            line = line[cut:].lstrip(" ")
        pieces.append(line)
    return pieces
