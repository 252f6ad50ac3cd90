"""Scoring what members do: each quiz answer and accepted solution becomes one act on the
ledger, with its points (`bot/learning/points.py`) and a dedupe key that names the act, so
nothing scores twice however often it is replayed or resubmitted:

    quiz:<schedule>:<slot>:<platform>:<member>    a daily post's quick check, answered
    daily:<schedule>:<slot>:<platform>:<member>   its coding problem, solved while open
    solve:<platform>:<member>:<problem>           a problem solved at any other time

A solution counts for a daily post when it is sent in the post's channel or thread before
the answer is posted; it then scores as that day's right answer, and the answer post counts
those solvers. Outside a daily post only a member's first accepted solution of a problem
counts. A solve is marked `hinted` when the member took a hint of the problem first.
"""

from __future__ import annotations

from datetime import datetime

from bot.learning import points
from bot.learning.leaderboards import Leaderboards
from bot.learning.ledger import Ledger
from bot.schedule.model import Schedule
from bot.store.activity import ActKind
from bot.store.boards import BoardStore
from bot.store.schedules import Post
from bot.store.scores import ScoreStore
from bot.types import ChannelRef, User


class Scores:
    def __init__(self, ledger: Ledger, store: ScoreStore, boards: BoardStore) -> None:
        self.ledger, self.store, self.boards = ledger, store, boards
        self.leaderboards = Leaderboards(boards)

    async def quiz_answered(self, schedule: Schedule, asked: Post, user: User, correct: bool,
                            at: datetime) -> bool:  # fmt: skip
        """Score a member's first answer to a daily post's quick check."""
        return await self.ledger.record(
            ActKind.QUIZ, user, schedule.channel, asked.question_id, correct=correct,
            points=points.quiz(correct, asked.sent_at or asked.due_at, at), at=at,
            dedupe=f"quiz:{asked.schedule_id}:{asked.slot}:{user.platform}:{user.id}",
        )  # fmt: skip

    async def solved(self, user: User, where: ChannelRef | None, problem_id: str,
                     at: datetime) -> bool:  # fmt: skip
        """Score an accepted solution of `problem_id` sent `where` (None: not known, a
        submission stored before submissions recorded it); False if it scored nothing new
        (a resubmission)."""
        where = where or ChannelRef(user.platform, "")
        hinted = await self.store.hinted(user, problem_id)
        post = await self.store.open_post(where, problem_id)
        if post is not None:
            return await self.ledger.record(
                ActKind.SOLVE, user, post.channel, problem_id, correct=True,
                points=points.daily_solve(post.posted, at), at=at, hinted=hinted,
                dedupe=f"{daily_prefix(post.schedule_id, post.slot)}{user.platform}:{user.id}",
            )  # fmt: skip
        if await self.store.solved_before(user, problem_id):
            return False
        return await self.ledger.record(
            ActKind.SOLVE, user, where, problem_id, correct=True, points=points.solve(True),
            at=at, hinted=hinted, dedupe=f"solve:{user.platform}:{user.id}:{problem_id}",
        )  # fmt: skip

    async def daily_solvers(self, schedule_id: int, slot: str) -> int:
        """How many solved a daily post's problem before its answer."""
        return await self.store.daily_solvers(daily_prefix(schedule_id, slot))


def daily_prefix(schedule_id: int, slot: str) -> str:
    return f"daily:{schedule_id}:{slot}:"
