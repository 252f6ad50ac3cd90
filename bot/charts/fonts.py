"""Which font files the pictures use. Chinese needs a font with CJK glyphs: the Debian
package fonts-wqy-microhei (installed by .ci/run and the Dockerfile) or one of its usual
alternatives. Without any, a Chinese card is drawn with English labels (boxes for every
character would say nothing), and the member's Chinese reply text around it still says all.
Finding a font touches the disk only: Pillow is not imported here."""

from __future__ import annotations

from pathlib import Path

CJK_FONTS = (
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
)
LATIN_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
)


def cjk_font() -> Path | None:
    """The first font installed that has Chinese glyphs."""
    return next((p for p in CJK_FONTS if p.is_file()), None)


def latin_font() -> Path | None:
    """A font for Latin text: a Latin one, else a CJK one (they have Latin glyphs too)."""
    return next((p for p in LATIN_FONTS if p.is_file()), None) or cjk_font()
