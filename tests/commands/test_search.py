"""`/search` over a bank where a word is in more questions than one page shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import Studybot
from bot.types import Invocation
from tests.fakes import write_question

PAGE = 5


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    for i in range(PAGE + 2):
        write_question(root, f"memory-{i}", f"显存问题 {i}", f"第 {i} 种节省显存的办法。")
    return root


def search(query: str) -> Invocation:
    return Invocation("search", {"query": query})


async def test_search_says_when_more_match_than_it_shows(core: Studybot) -> None:
    many = await core.handle(search("显存"))
    assert len(many.actions) == PAGE
    assert many.body.endswith("More questions match than the 5 shown: add a word to narrow it.")


async def test_a_page_that_shows_every_match_says_nothing_more(core: Studybot) -> None:
    one = await core.handle(search("显存 3"))
    assert len(one.actions) == 1
    assert "More questions match" not in one.body
