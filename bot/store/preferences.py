"""What members and workspaces chose: a member's time zone and due-review digest, a
workspace's desired retention for spaced review.

A member without a time zone of their own is counted in the zone of the channel schedule
they were answering (the caller decides); a workspace without a retention uses fsrs's
default. Both are rows only once someone sets them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.db import Database
from bot.types import User

DEFAULT_RETENTION = 0.9


@dataclass(frozen=True, slots=True)
class MemberPrefs:
    timezone: str | None = None  # an IANA name, checked when set
    due_digest: bool = False  # a daily private list of the reviews due (opt-in)
    digest_day: str | None = None  # the member's local date the last digest went out


class Preferences:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def member(self, user: User) -> MemberPrefs:
        row = await self._db.fetch_one(
            "SELECT timezone, due_digest, digest_day FROM member_settings "
            "WHERE platform = ? AND user_id = ?",
            (user.platform, user.id),
        )
        return MemberPrefs(row[0], bool(row[1]), row[2]) if row else MemberPrefs()

    async def set_timezone(self, user: User, timezone: str | None) -> None:
        await self._upsert(user, "timezone", timezone)

    async def set_due_digest(self, user: User, on: bool) -> None:
        await self._upsert(user, "due_digest", int(on))

    async def set_digest_day(self, user: User, day: str) -> None:
        await self._upsert(user, "digest_day", day)

    async def digest_members(self, platform: str) -> list[tuple[str, MemberPrefs]]:
        """The members of `platform` who asked for the daily digest, with their settings."""
        rows = await self._db.fetch_all(
            "SELECT user_id, timezone, digest_day FROM member_settings "
            "WHERE platform = ? AND due_digest = 1 ORDER BY user_id",
            (platform,),
        )
        return [(str(r[0]), MemberPrefs(r[1], True, r[2])) for r in rows]

    async def retention(self, platform: str, workspace: str | None) -> float:
        row = await self._db.fetch_one(
            "SELECT retention FROM workspace_settings WHERE platform = ? AND workspace = ?",
            (platform, workspace or ""),
        )
        return float(row[0]) if row else DEFAULT_RETENTION

    async def set_retention(self, platform: str, workspace: str | None, retention: float) -> None:
        await self._db.execute(
            """INSERT INTO workspace_settings (platform, workspace, retention) VALUES (?, ?, ?)
               ON CONFLICT (platform, workspace) DO UPDATE SET retention = excluded.retention""",
            (platform, workspace or "", retention),
        )

    async def _upsert(self, user: User, column: str, value: object) -> None:
        # `column` is one of this module's literals, never input.
        await self._db.execute(
            f"""INSERT INTO member_settings (platform, user_id, {column}) VALUES (?, ?, ?)
                ON CONFLICT (platform, user_id) DO UPDATE SET {column} = excluded.{column}""",
            (user.platform, user.id, value),
        )
