from __future__ import annotations

import string

from bot.i18n import CATALOG


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_languages_have_every_entry_with_the_same_fields() -> None:
    for key, (english, chinese) in CATALOG.items():
        assert english.strip() and chinese.strip(), key
        assert fields(english) == fields(chinese), key
