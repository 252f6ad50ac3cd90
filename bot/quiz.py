"""The quick check of a daily post: which one it asks, in which order it shows the options,
how its buttons name an answer, and the channel's tally.

A daily post of an explained question carries one of the question's quick checks (its
`quiz:` front matter). Which one is decided by the post's slot, and the order its options
are shown in by the post (schedule and slot), so every rendering of the post (the first
send, each tally edit, the reveal in the answer, the private replies) agrees without
storing either, and a restart changes neither. A review's quick check is ordered the same
way, from what its buttons carry (question, reviews so far, check, member).

The order is drawn per post because files may list the right option first (the bundled bank
always did): shown in file order, "always press A" would score every time. Letters are
positions shown, and so is what a button sends (`<schedule>:<slot>:<position>`, 0 for the
option shown as A): a button's value, which every platform hands to the client (Discord's
custom id, Slack's action id, the console's printed command), must not name the option in
the file, or it would give the right one away. A press is mapped back through the same
order (`ShownCheck.at`), and what is stored is the option's index in the file, so tallies,
scores and old rows keep their meaning. The slot may itself contain colons
(`now-2026-01-05T09:00:00+00:00`), so a value is read from both ends.

Messages posted before options were shown in a drawn order listed them in file order, their
buttons sending the file index (then also the position); so did review prompts dealt then.
A press on one is read as a position in the order drawn now, which may name another option
than the member saw. That is accepted: a daily quiz stays open only until its answer is
posted, and a review prompt is private and answered at once, so only presses in the hours
around the change can be misread; a value the check has no option for is refused as any bad
value is, never an error.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.types import Question, QuickCheck, QuizOption

LETTERS = "ABCDEFGH"


@dataclass(frozen=True, slots=True)
class QuizPost:
    schedule_id: int
    slot: str

    def value(self, position: int) -> str:
        """A button's value: the option shown at `position` (0 for A) of this post."""
        return f"{self.schedule_id}:{self.slot}:{position}"

    def key(self) -> str:
        return f"{self.schedule_id}:{self.slot}"

    @classmethod
    def parse(cls, post: str) -> QuizPost | None:
        schedule, _, slot = post.partition(":")
        return cls(int(schedule), slot) if schedule.isdigit() and slot else None


@dataclass(frozen=True, slots=True)
class ShownOption:
    """An option where it is shown: its `position` (0 for A) and `letter`, which buttons
    carry, and `choice`, its index in the file, which answers are stored by."""

    position: int
    choice: int
    option: QuizOption

    @property
    def letter(self) -> str:
        return LETTERS[self.position]


@dataclass(frozen=True, slots=True)
class ShownCheck:
    """A quick check as one post or review prompt shows it: `order[p]` is the index in the
    file of the option shown at position `p` (lettered A, B, ...)."""

    check: QuickCheck
    order: tuple[int, ...]

    def options(self) -> tuple[ShownOption, ...]:
        return tuple(ShownOption(p, i, self.check.options[i])
                     for p, i in enumerate(self.order))  # fmt: skip

    def at(self, position: int) -> ShownOption | None:
        """The option shown at `position` (what a button carries; None: there is none)."""
        return self.options()[position] if 0 <= position < len(self.order) else None

    def has(self, choice: int) -> bool:
        """Whether this check has an option of index `choice` in the file."""
        return 0 <= choice < len(self.order)

    def is_right(self, choice: int) -> bool:
        return choice == self.check.correct_index()

    def of(self, choice: int) -> ShownOption:
        """The option `choice` (its index in the file), where it is shown."""
        return self.options()[self.order.index(choice)]

    def letter_of(self, choice: int) -> str:
        """The letter option `choice` is shown under ("?": this check has no such option)."""
        return self.of(choice).letter if self.has(choice) else "?"

    def right(self) -> ShownOption:
        return self.of(self.check.correct_index())


@dataclass(frozen=True, slots=True)
class Tally:
    answered: int = 0
    right: int = 0


@dataclass(frozen=True, slots=True)
class QuizView:
    """What a post shows of its quiz: the check as shown, and the channel's tally so far."""

    post: QuizPost
    shown: ShownCheck
    tally: Tally = Tally()


def check_for(question: Question, slot: str) -> QuickCheck | None:
    """The quick check a post of `question` in `slot` asks (None: the item has none)."""
    if not question.quiz:
        return None
    return question.quiz[_draw(f"{question.id}/{slot}") % len(question.quiz)]


def shown_for(question: Question, post: QuizPost) -> ShownCheck | None:
    """The quick check `post` (of `question`) asks, in the order it shows the options: the
    order its buttons' positions are read in, so it must not change (see `shown`)."""
    check = check_for(question, post.slot)
    if check is None:
        return None
    return shown(check, f"post/{question.id}/{post.schedule_id}/{post.slot}")


def shown_in_review(question: Question, index: int, seen: int, owner: str) -> ShownCheck:
    """Quick check `index` of `question` as a review prompt shows it to member `owner`
    whose card had `seen` reviews: its buttons carry all four and a position, so a click is
    read in the order the prompt showed (which must not change: see `shown`)."""
    check = question.quiz[index]
    return shown(check, f"review/{question.id}/{index}/{seen}/{owner}")


def shown(check: QuickCheck, seed: str) -> ShownCheck:
    """`check` with its options in an order drawn from `seed`: the same seed, the same order,
    in any process; over seeds, each option as often in each place.

    The order must stay stable: buttons already posted carry positions in it and are mapped
    back through it when pressed, so changing how it is drawn (here, in `_draw`, or the seeds
    `shown_for` and `shown_in_review` build) makes every earlier button name another option."""
    order = sorted(range(len(check.options)), key=lambda i: _draw(f"{seed}/{i}"))
    return ShownCheck(check, tuple(order))


def _draw(seed: str) -> int:
    """A number from `seed` that no process, restart or Python version changes (not hash())."""
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:4], "big")
