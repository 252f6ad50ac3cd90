"""The order a quick check's options are shown in: drawn per post (and per review prompt),
the same wherever and whenever it is drawn again, and fair over many posts, so no letter is
a safe bet. The bank lists each right option first, which is what this order hides."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from datetime import date, timedelta

from bot.content.bank import read_bank
from bot.quiz import LETTERS, QuizPost, check_for, shown, shown_for, shown_in_review
from bot.types import Bilingual, Difficulty, Kind, Question, QuickCheck, QuizOption, Status
from tests.fakes import REPO

DAYS = 400
FIRST = date(2026, 1, 1)


def check(right: int = 0, options: int = 4) -> QuickCheck:
    def option(i: int) -> QuizOption:
        return QuizOption(Bilingual(f"选项 {i}", f"option {i}"), Bilingual("因为", "because"),
                          i == right)  # fmt: skip

    return QuickCheck(Bilingual("哪个？", "Which?"), tuple(option(i) for i in range(options)))


def question(qid: str, *checks: QuickCheck) -> Question:
    return Question(qid, qid, Kind.QA, Difficulty.MEDIUM, ("inference",), (), "答案", quiz=checks)


def slots(days: int = DAYS) -> list[str]:
    return [(FIRST + timedelta(days=d)).isoformat() for d in range(days)]


def right_shown(q: Question, slot: str) -> str:
    """The letter the post of `q` in `slot` (schedule 1) shows its right option under."""
    drawn = shown_for(q, QuizPost(1, slot))
    assert drawn is not None
    return drawn.right().letter


def test_each_letter_holds_the_right_answer_a_fair_share_of_posts() -> None:
    q = question("kv-cache-size", check(), check())  # both list the right option first
    letters = Counter(right_shown(q, slot) for slot in slots())
    assert set(letters) == set("ABCD") and sum(letters.values()) == DAYS
    assert all(DAYS * 0.18 <= n <= DAYS * 0.32 for n in letters.values()), letters  # ~25% each


def test_one_check_is_not_always_answered_by_the_same_letter() -> None:
    first, second = check(right=0), check(right=2)
    q = question("kv-cache-size", first, second)
    for asked in (first, second):
        letters = {right_shown(q, slot) for slot in slots(60) if check_for(q, slot) is asked}
        assert letters == set("ABCD")


def test_over_the_bundled_bank_no_letter_is_a_safe_bet() -> None:
    """A month of posts of every published explained question of the bank, as it ships
    (whichever option its files list first)."""
    items = [q for q in read_bank(REPO / "content").questions
             if q.kind is Kind.QA and q.status is Status.PUBLISHED and q.quiz]  # fmt: skip
    assert len(items) >= 100
    letters = Counter(right_shown(q, slot) for q in items for slot in slots(30))
    total = sum(letters.values())
    assert all(0.22 <= letters[c] / total <= 0.28 for c in "ABCD"), letters


def test_every_rendering_of_a_post_draws_the_same_order_and_posts_differ() -> None:
    q = question("kv-cache-size", check(), check())
    post = QuizPost(3, "2026-03-02")
    assert shown_for(q, post) == shown_for(q, QuizPost.parse(post.key()) or post)
    orders = {shown.order for s in range(1, 40) if (shown := shown_for(q, QuizPost(s, post.slot)))}
    assert len(orders) > 10  # each channel's post of the day is drawn apart


def test_a_restart_draws_the_same_order() -> None:
    """No hash() salt nor process state: another interpreter, another hash seed, the same."""
    code = ("from bot.quiz import shown; from tests.quiz.test_shown_order import check; "
            "print(shown(check(), 'post/kv-cache-size/1/2026-03-02').order)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, env={"PYTHONHASHSEED": "12345"}, check=True)  # fmt: skip
    assert out.stdout.strip() == str(shown(check(), "post/kv-cache-size/1/2026-03-02").order)


def test_a_shown_check_letters_options_by_position_and_names_them_by_file_index() -> None:
    drawn = shown(check(right=1), "any seed")
    assert sorted(drawn.order) == [0, 1, 2, 3]
    options = drawn.options()
    assert [o.letter for o in options] == list(LETTERS[:4])
    assert [o.position for o in options] == [0, 1, 2, 3]
    assert [o.choice for o in options] == list(drawn.order)
    assert [drawn.at(p) for p in range(4)] == list(options)  # a button's position, read back
    assert all(drawn.at(p) is None for p in (-1, 4, 9))  # no option there: nothing, no error
    assert all(drawn.letter_of(o.choice) == o.letter for o in options)
    assert drawn.right().choice == 1 and drawn.right().option.correct
    assert drawn.is_right(1) and not drawn.is_right(0)
    assert not drawn.has(4) and drawn.letter_of(4) == "?"


def test_a_review_prompt_draws_its_order_from_what_its_buttons_carry() -> None:
    q = question("kv-cache-size", check(), check())
    assert shown_in_review(q, 1, 3, "u1") == shown_in_review(q, 1, 3, "u1")
    letters = Counter(shown_in_review(q, seen % 2, seen, "u1").right().letter
                      for seen in range(200))  # fmt: skip
    assert set(letters) == set("ABCD") and min(letters.values()) >= 30
