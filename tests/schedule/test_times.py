"""Local post times to UTC instants across zones and both directions of a DST change."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from bot.schedule.times import DailySlot, occurrence, parse_local_time, parse_zone


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "local", "expected"),
    [
        ("Asia/Shanghai", time(9, 0), utc(2026, 3, 2, 1, 0)),
        ("America/New_York", time(9, 0), utc(2026, 3, 2, 14, 0)),
        ("Europe/Berlin", time(9, 0), utc(2026, 3, 2, 8, 0)),
        ("Asia/Kolkata", time(9, 0), utc(2026, 3, 2, 3, 30)),
        ("Pacific/Auckland", time(9, 0), utc(2026, 3, 1, 20, 0)),
    ],
)
def test_local_time_in_several_zones(zone: str, local: time, expected: datetime) -> None:
    assert occurrence(date(2026, 3, 2), local, parse_zone(zone)) == expected


def test_a_time_in_the_spring_forward_gap_posts_when_the_clocks_jump() -> None:
    # New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00 UTC); 02:30 does not exist.
    ny = parse_zone("America/New_York")
    assert occurrence(date(2026, 3, 8), time(2, 30), ny) == utc(2026, 3, 8, 7, 0)
    assert occurrence(date(2026, 3, 8), time(3, 0), ny) == utc(2026, 3, 8, 7, 0)
    assert occurrence(date(2026, 3, 8), time(1, 59), ny) == utc(2026, 3, 8, 6, 59)


def test_a_half_hour_gap_is_handled_too() -> None:
    # Lord Howe Island springs forward by 30 minutes: 02:00 -> 02:30 local on 2026-10-04.
    lord_howe = parse_zone("Australia/Lord_Howe")
    at_jump = occurrence(date(2026, 10, 4), time(2, 0), lord_howe)
    assert occurrence(date(2026, 10, 4), time(2, 15), lord_howe) == at_jump
    assert at_jump.astimezone(lord_howe).time() == time(2, 30)


def test_a_repeated_time_at_fall_back_posts_once_at_its_first_occurrence() -> None:
    # New York, 2026-11-01: 01:30 happens at 05:30 UTC (EDT) and again at 06:30 UTC (EST).
    ny = parse_zone("America/New_York")
    slot = DailySlot(time(1, 30), ny)
    instants = slot.next_after(utc(2026, 10, 31, 12, 0), 3)
    assert instants == [utc(2026, 11, 1, 5, 30), utc(2026, 11, 2, 6, 30), utc(2026, 11, 3, 6, 30)]


def test_daily_posts_keep_their_local_time_across_a_dst_change() -> None:
    slot = DailySlot(time(9, 0), parse_zone("Europe/London"))
    instants = slot.next_after(utc(2026, 3, 28, 12, 0), 3)
    assert [i.astimezone(slot.zone).time() for i in instants] == [time(9, 0)] * 3
    assert instants[0] == utc(2026, 3, 29, 8, 0)  # BST began that morning
    assert instants[-1] == utc(2026, 3, 31, 8, 0)


def test_weekdays_filter_and_strictly_after() -> None:
    weekdays = frozenset(range(5))
    slot = DailySlot(time(9, 0), parse_zone("Asia/Shanghai"), weekdays)
    friday_nine = utc(2026, 3, 6, 1, 0)
    assert slot.next_after(friday_nine, 2) == [utc(2026, 3, 9, 1, 0), utc(2026, 3, 10, 1, 0)]
    assert DailySlot(time(9, 0), slot.zone, frozenset()).next_after(friday_nine, 5) == []


@pytest.mark.parametrize("text", ["24:00", "9", "09:60", "nine", "", "12:5"])
def test_impossible_times_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="HH:MM"):
        parse_local_time(text)


def test_times_and_zones_parse() -> None:
    assert parse_local_time(" 7:05 ") == time(7, 5)
    with pytest.raises(ValueError, match="IANA"):
        parse_zone("Mars/Olympus")
    with pytest.raises(ValueError, match="IANA"):
        parse_zone("../etc/passwd")


def test_a_naive_start_is_refused_rather_than_read_as_host_time() -> None:
    slot = DailySlot(time(9, 0), parse_zone("Asia/Shanghai"))
    with pytest.raises(ValueError, match="timezone-aware"):
        slot.next_after(datetime(2026, 3, 2, 9, 0))  # deliberately naive


@pytest.mark.parametrize(
    "name", ["Asia", "A" * 300, "posixrules", "Factory", "right/UTC", "posix/UTC", "localtime",
             "../../etc/passwd", "Asia/Shanghai\x00", ""],
)  # fmt: skip
def test_what_is_no_iana_zone_says_so(name: str) -> None:
    with pytest.raises(ValueError, match=r"is not an IANA time zone \(e.g. Asia/Shanghai\)") as e:
        parse_zone(name)
    assert len(str(e.value)) < 120  # a 300-character name is not repeated whole


def test_real_zones_and_their_aliases_parse() -> None:
    for name in ("Asia/Shanghai", "UTC", "Etc/GMT-8", "America/Argentina/Buenos_Aires", "PRC"):
        assert parse_zone(name).key == name
