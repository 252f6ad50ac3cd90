"""The topic table of content/README.md is canonical; `bot.content.topics` is that table."""

from __future__ import annotations

import re

from bot.content.topics import TOPICS, chinese_name, resolve
from tests.fakes import REPO

ROW = re.compile(r"^\| ([a-z0-9-]+) \| ([^|]+?) \| [^|]+ \|$")


def readme_table() -> list[tuple[str, str]]:
    text = (REPO / "content" / "README.md").read_text(encoding="utf-8")
    rows = [(m[1], m[2]) for line in text.splitlines() if (m := ROW.match(line))]
    return [row for row in rows if row[0] != "slug"]  # the header


def test_the_code_lists_the_readme_table_in_order() -> None:
    assert [(t.slug, t.zh) for t in TOPICS] == readme_table()


def test_a_topic_is_asked_for_by_slug_chinese_name_or_alias() -> None:
    assert {resolve(n).slug for n in ("distributed", "分布式", "分布式训练", "DDP") if resolve(n)} \
        == {"distributed"}  # fmt: skip
    transformer = resolve("Transformer")
    assert transformer is not None and transformer.slug == "transformers"
    assert resolve("no such thing") is None
    assert chinese_name("gpu") == "GPU 架构与 CUDA" and chinese_name("cpp") is None


def test_no_name_asks_for_two_topics() -> None:
    names = [n for t in TOPICS for n in t.names()]
    assert len(names) == len(set(names))
