"""Leaderboards kept warm, so asking for one is not a pass over a server's week of acts.

Grouping a busy server's week in SQL reads every act of it (at 10,000 members, 70,000 rows
and about 200 ms). Instead each board asked for recently (`SIZE` of them, least recently
used dropped) keeps its members' totals in memory with the ledger's last row id folded in,
and their ranking as a sorted list. Asking again reads only the rows written since (a range
of the primary key) and folds those in the board's scope: each moves one member in the
list (out, then back in by bisection). Ties go to whoever reached their score first.

The ledger only grows, except when a member is forgotten: `forget` drops them from every
board at once, so nothing about them outlives `/forget me` here either; and since another
process may have done the forgetting, each ask also reads the ledger's count of forgets
(one statement with the last row id) and starts every board again when it moved.

On PostgreSQL, with many processes writing, a row id is taken at INSERT but seen at COMMIT,
so a row can appear below ids already folded. A board therefore keeps a floor (every row at
or below it is counted) no higher than `late_rows` below the last id, remembers the ids it
folded above the floor, and reads from the floor each time, folding each row once. On
SQLite (one writer, rows visible in id order) `late_rows` is 0 and the floor is the last id.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.store.boards import BoardStore, LedgerRow, Scope, Standing
from bot.types import User

SIZE = 256

Key = tuple[int, str, str]  # (-points, reached, user_id): smaller ranks higher


@dataclass
class _Member:
    name: str
    points: int = 0
    reached: str = ""  # UTC ISO time of their last act that scored

    def key(self, user_id: str) -> Key:
        return (-self.points, self.reached, user_id)


@dataclass
class _Board:
    floor: int  # every ledger row up to this id is counted
    topic_questions: frozenset[str] | None
    members: dict[str, _Member] = field(default_factory=dict)
    order: list[Key] | None = None  # the scored members' keys, sorted (None: not yet)
    folded: set[int] = field(default_factory=set)  # ids above the floor already counted

    def fold(self, scope: Scope, acts: Iterable[LedgerRow], floor: int) -> None:
        """Count the acts not counted yet, then raise the floor to `floor`."""
        for act in acts:
            if act.id in self.folded:
                continue
            self.folded.add(act.id)
            if _in_scope(scope, self.topic_questions, act):
                member = self.members.setdefault(act.user_id, _Member(act.name))
                self._unrank(act.user_id, member)
                member.name, member.points = act.name, member.points + act.points
                if act.points > 0 and act.at > member.reached:
                    member.reached = act.at
                if self.order is not None and member.points > 0:
                    bisect.insort(self.order, member.key(act.user_id))
        if floor > self.floor:
            self.floor = floor
            self.folded = {i for i in self.folded if i > floor}

    def forget(self, user_id: str) -> None:
        if (member := self.members.pop(user_id, None)) is not None:
            self._unrank(user_id, member)

    def _unrank(self, user_id: str, member: _Member) -> None:
        """Take a member's key out of the sorted order (a change moves it: out, then in)."""
        if self.order is not None and member.points > 0:
            at = bisect.bisect_left(self.order, member.key(user_id))
            if at < len(self.order) and self.order[at] == member.key(user_id):
                del self.order[at]

    def ranked(self, asker: str, top: int) -> list[Standing]:
        if self.order is None:  # sorted once, then kept in order as acts are folded in
            self.order = sorted(m.key(uid) for uid, m in self.members.items() if m.points > 0)
        rows = [self._standing(i, key[2]) for i, key in enumerate(self.order[:top], 1)]
        mine = self.members.get(asker)
        if mine is not None and mine.points > 0 and all(r.user_id != asker for r in rows):
            rows.append(self._standing(bisect.bisect_left(self.order, mine.key(asker)) + 1, asker))
        return rows

    def _standing(self, rank: int, user_id: str) -> Standing:
        member = self.members[user_id]
        return Standing(rank, user_id, member.name, member.points)


class Leaderboards:
    def __init__(self, store: BoardStore, size: int = SIZE) -> None:
        self._store, self._size = store, size
        self._boards: OrderedDict[Scope, _Board] = OrderedDict()
        self._lock = asyncio.Lock()  # one fold at a time: a row is never counted twice
        self._forgets = 0  # the ledger's count of forgets the boards kept reflect

    async def standings(self, scope: Scope, asker: str, top: int = 10) -> list[Standing]:
        """The `top` members of `scope` by points, and the asker's row wherever it ranks."""
        async with self._lock:
            board = await self._current(scope)
        return board.ranked(asker, top)

    def forget(self, user: User) -> None:
        """Drop `user` from every board kept (after `/forget me`)."""
        for scope, board in self._boards.items():
            if scope.platform == user.platform:
                board.forget(user.id)

    async def _current(self, scope: Scope) -> _Board:
        mark = await self._store.mark()
        if mark.forgets != self._forgets:  # someone was forgotten, maybe in another process
            self._boards.clear()
            self._forgets = mark.forgets
        floor = max(0, mark.last_id - self._store.late_rows)
        board = self._boards.get(scope) or await self._cold(scope, floor)
        if board.floor < mark.last_id:
            board.fold(scope, await self._store.rows_between(board.floor, mark.last_id), floor)
        self._boards.move_to_end(scope)
        return board

    async def _cold(self, scope: Scope, floor: int) -> _Board:
        """A board grouped in SQL up to `floor`; what lies above it is folded by the caller."""
        questions = await self._store.topic_questions(scope.topic) if scope.topic else None
        board = _Board(floor, questions)
        for user_id, name, points, reached in await self._store.grouped(scope, upto=floor):
            board.members[user_id] = _Member(name, points, reached)
        self._boards[scope] = board
        while len(self._boards) > self._size:
            self._boards.popitem(last=False)
        return board


def _in_scope(scope: Scope, questions: frozenset[str] | None, act: LedgerRow) -> bool:
    return (act.platform == scope.platform and act.workspace == scope.workspace
            and (scope.channel is None or act.channel == scope.channel)
            and (scope.start is None or act.at >= scope.start_iso)
            and (scope.end is None or act.at < scope.end_iso)
            and (questions is None or act.question_id in questions))  # fmt: skip
