"""Splitting long Markdown into chunks that fit a platform's message limit.

Cuts fall on line breaks; a line longer than a chunk is broken at a space. A cut inside
a code fence closes the fence at the end of the chunk and reopens it (with its language) at
the start of the next, so every chunk renders on its own. A cut that would fall just after a
fence opens moves the opening (and the label line before it, "Printed output:") to the next
chunk, so no chunk ends in an empty block.
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
            held = _opening(current, fence)
            current = current[: len(current) - len(held)]
            if fence is not None and not held:
                current.append(FENCE)
            chunks.append("\n".join(current).strip("\n"))
            current = held or ([fence] if fence is not None else [])
            size = sum(len(kept) + 1 for kept in current)
        current.append(line)
        size += len(line) + 1
        if line.lstrip().startswith(FENCE):
            fence = None if fence is not None else line.strip()
    if current and "\n".join(current).strip():
        chunks.append("\n".join(current).strip("\n"))
    return chunks or [""]


def _opening(current: list[str], fence: str | None) -> list[str]:
    """The lines at the end of `current` that open the code block and hold none of it yet:
    its fence, and the label before it; none if they are all the chunk has."""
    if fence is None or len(current) < 2 or current[-1].strip() != fence:
        return []
    labelled = len(current) >= 3 and current[-2].rstrip().endswith((":", "："))
    held = current[-2:] if labelled else current[-1:]
    return held if "\n".join(current[: -len(held)]).strip() else []


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
