"""Autocomplete over the mini bank: ids and titles, topics, coding problems."""

from __future__ import annotations

from bot.core import Studybot
from bot.types import Choice, Locale


async def test_ids_that_start_with_the_prefix_come_first(core: Studybot) -> None:
    choices = await core.complete("question", "id", "py", Locale.EN)
    assert choices[0] == Choice("What is the GIL? · python-gil", "python-gil")


async def test_titles_match_in_chinese_and_labels_follow_the_locale(core: Studybot) -> None:
    choices = await core.complete("answer", "id", "显存", Locale.ZH)
    assert choices == (Choice("显存不够怎么办？ · gpu-memory", "gpu-memory"),)
    chinese = await core.complete("answer", "id", "gil", Locale.ZH)
    assert chinese[0].name.startswith("Python全局解释器锁")


async def test_empty_prefix_lists_everything_and_unknown_text_nothing(core: Studybot) -> None:
    everything = await core.complete("question", "id", "", Locale.EN)
    assert [c.value for c in everything] == ["fast-power", "gpu-memory", "python-gil",
                                             "ring-allreduce"]  # fmt: skip
    assert await core.complete("question", "id", "zzz-nothing", Locale.EN) == ()


async def test_topics_come_with_their_counts(core: Studybot) -> None:
    choices = await core.complete("question", "topic", "dis", Locale.EN)
    assert choices == (Choice("distributed (2)", "distributed"),)
    assert await core.complete("schedule", "topic", "", Locale.EN)


async def test_options_without_suggestions_and_unknown_commands_get_none(core: Studybot) -> None:
    assert await core.complete("search", "query", "gil", Locale.EN) == ()
    assert await core.complete("nope", "id", "gil", Locale.EN) == ()


async def test_choices_respect_the_platform_limits(core: Studybot) -> None:
    for choice in await core.complete("question", "id", "", Locale.ZH):
        assert 1 <= len(choice.name) <= 100 and len(choice.value) <= 100


async def test_time_zones_complete_by_region_or_city(core: Studybot) -> None:
    shanghai = await core.complete("schedule", "timezone", "shang", Locale.EN)
    assert shanghai[0] == Choice("Asia/Shanghai", "Asia/Shanghai")
    new_york = await core.complete("schedule", "timezone", "new y", Locale.ZH)
    assert new_york[0].value == "America/New_York"
    europe = await core.complete("schedule", "timezone", "Europe/", Locale.EN)
    assert len(europe) == 25 and all(c.value.startswith("Europe/") for c in europe)
    assert all(not c.value.startswith(("Etc/", "US/")) for c in
               await core.complete("schedule", "timezone", "", Locale.EN))  # fmt: skip
