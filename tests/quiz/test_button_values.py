"""What a quick check's buttons carry: the position the option is shown at (0 for A), never
its index in the file. A button's value reaches the client (Discord's custom id, Slack's
action id, the command the console prints for it), and the bank lists every right option
first, so a value naming the option in the file would give the right one away: it would
always be 0. Over many posts of the bundled bank, the right option's button carries where it
is shown, which varies as the letter does, and a press is read back to the right option."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta

from adapters.console.render import render
from bot.content.bank import read_bank
from bot.quiz import LETTERS, QuizPost, Tally, check_for, shown_for
from bot.schedule.model import AnswerTiming, Schedule, parse_days
from bot.schedule.times import parse_local_time, parse_zone
from bot.scheduler.poster import question_post_reply
from bot.types import ActionKind, ChannelRef, Kind, Question, Reply, Status
from tests.fakes import REPO
from tests.quiz.shown import carried, right_position

FIRST = date(2026, 1, 1)
SCHEDULE = Schedule(id=1, channel=ChannelRef("test", "c1", "guild"),
                    post_at=parse_local_time("09:00"), zone=parse_zone("UTC"),
                    days=parse_days("daily"), coding_days=parse_days("none"),
                    answer=AnswerTiming.parse("+8h"))  # fmt: skip
_PRINTED = re.compile(r"│ \[(\d+)\] ([A-H])  → /quiz post:(\S+) choice:(\S+)")


def bank() -> list[Question]:
    items = [q for q in read_bank(REPO / "content").questions
             if q.kind is Kind.QA and q.status is Status.PUBLISHED and q.quiz]  # fmt: skip
    assert len(items) >= 100
    return items


def posts(days: int) -> list[tuple[Question, str, Reply]]:
    """Each bundled explained question's daily post on each of `days` days."""
    slots = [(FIRST + timedelta(days=d)).isoformat() for d in range(days)]
    return [(q, slot, question_post_reply(q, SCHEDULE, slot, Tally()))
            for q in bank() for slot in slots]  # fmt: skip


def test_a_posts_buttons_carry_the_position_shown_never_the_index_in_the_file() -> None:
    rights: Counter[int] = Counter()
    not_the_index = 0
    for q, slot, reply in posts(10):
        check = check_for(q, slot)
        assert check is not None
        buttons = [a for a in reply.actions if a.kind is ActionKind.QUIZ]
        assert [b.label for b in buttons] == list(LETTERS[: len(check.options)])
        positions = [carried(b) for b in buttons]
        assert positions == list(range(len(buttons)))  # each the place it is shown at
        right = right_position(reply.body, check)  # where the post's text shows it
        rights[positions[right]] += 1
        not_the_index += positions[right] != check.correct_index()
        post = QuizPost.parse(buttons[right].invocation()[1]["post"])
        drawn = shown_for(q, post) if post is not None else None
        picked = drawn.at(positions[right]) if drawn is not None else None
        assert picked is not None and picked.option.correct  # read back: the right option
        assert picked.letter == LETTERS[right] == buttons[right].label
    total = sum(rights.values())
    assert set(rights) == {0, 1, 2, 3}, rights  # not the file's 0 every time
    assert all(0.2 <= n / total <= 0.3 for n in rights.values()), rights  # no safe bet
    assert not_the_index > 0.6 * total  # most often another number than the file's index


def test_the_console_never_prints_the_right_options_index_in_the_file() -> None:
    """What the console prints for each button (`[2] C → /quiz … choice:2`) carries the
    position shown: for the right option, its letter's place, which varies over posts."""
    printed_right: Counter[str] = Counter()
    for q, slot, reply in posts(5):
        check = check_for(q, slot)
        assert check is not None
        screen = render(reply)
        lines = _PRINTED.findall(screen)
        assert len(lines) == len(check.options), screen
        assert all(int(n) - 1 == LETTERS.index(letter) == int(choice)
                   for n, letter, _, choice in lines), screen  # fmt: skip
        right = LETTERS[right_position(screen, check)]  # the letter the console shows
        (choice,) = [choice for _, letter, _, choice in lines if letter == right]
        assert choice == str(LETTERS.index(right))
        printed_right[choice] += 1
    assert set(printed_right) == {"0", "1", "2", "3"}, printed_right  # never a constant
    assert max(printed_right.values()) < 0.3 * sum(printed_right.values()), printed_right
