"""The Database boundary itself, the same on both engines: rows by position, row counts,
many rows at once, and one transaction committed whole or rolled back whole."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.db import Database
from bot.store.postgres.db import to_pyformat

INSERT = "INSERT INTO member_settings (platform, user_id, timezone) VALUES (?, ?, ?)"


class Boom(Exception):
    pass


async def _users(db: Database) -> list[str]:
    rows = await db.fetch_all("SELECT user_id FROM member_settings ORDER BY user_id")
    return [str(r[0]) for r in rows]


async def test_rows_come_back_by_position(backend: Database) -> None:
    assert await backend.execute(INSERT, ("test", "u1", "UTC")) == 1
    row = await backend.fetch_one(
        "SELECT user_id, timezone, due_digest FROM member_settings WHERE user_id = ?", ("u1",)
    )
    assert row is not None
    assert (row[0], row[1], row[2]) == ("u1", "UTC", 0)
    assert await backend.fetch_one("SELECT user_id FROM member_settings WHERE 1 = 0") is None


async def test_execute_counts_the_rows_it_changed(backend: Database) -> None:
    await backend.executemany(INSERT, [("test", f"u{i}", None) for i in range(5)])
    assert await _users(backend) == [f"u{i}" for i in range(5)]
    changed = await backend.execute(
        "UPDATE member_settings SET timezone = ? WHERE user_id IN (?, ?)", ("UTC", "u1", "u3")
    )
    assert changed == 2


async def test_a_transaction_commits_all_of_its_statements(backend: Database) -> None:
    async with backend.transaction():
        await backend.execute(INSERT, ("test", "a", None))
        await backend.execute(INSERT, ("test", "b", None))
    assert await _users(backend) == ["a", "b"]


async def test_a_failed_transaction_leaves_nothing_behind(backend: Database) -> None:
    await backend.execute(INSERT, ("test", "kept", None))
    with pytest.raises(Boom):
        async with backend.transaction():
            await backend.execute(INSERT, ("test", "gone", None))
            await backend.execute("DELETE FROM member_settings WHERE user_id = ?", ("kept",))
            assert await _users(backend) == ["gone"]  # seen inside the transaction
            raise Boom
    assert await _users(backend) == ["kept"]


async def test_a_failed_statement_rolls_back_the_transaction(backend: Database) -> None:
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        async with backend.transaction():
            await backend.execute(INSERT, ("test", "twice", None))
            await backend.execute(INSERT, ("test", "twice", None))
    assert await _users(backend) == []


async def test_concurrent_transactions_both_commit(backend: Database) -> None:
    async def write(user: str) -> None:
        async with backend.transaction():
            await backend.execute(INSERT, ("test", user, None))
            await asyncio.sleep(0)  # let the other writer try to start meanwhile
            await backend.execute(
                "UPDATE member_settings SET timezone = ? WHERE user_id = ?", ("UTC", user)
            )

    await asyncio.gather(*(write(f"w{i}") for i in range(4)))
    rows = await backend.fetch_all("SELECT user_id, timezone FROM member_settings ORDER BY 1")
    assert [(r[0], r[1]) for r in rows] == [(f"w{i}", "UTC") for i in range(4)]


async def test_question_marks_and_percent_signs_inside_literals_are_text(
    backend: Database,
) -> None:
    await backend.execute(INSERT, ("test", "100%?", None))
    rows = await backend.fetch_all(
        "SELECT user_id, '?' || '%' FROM member_settings WHERE user_id LIKE '%\\%?' ESCAPE '\\'"
        " AND platform = ? -- a comment's ? is no placeholder",
        ("test",),
    )
    assert [(r[0], r[1]) for r in rows] == [("100%?", "?%")]


def test_placeholders_are_rewritten_outside_quotes_and_comments_only() -> None:
    sql = """SELECT '?', "a?b", x FROM t /* ? */ WHERE y = ? AND z LIKE '%' -- ?\nAND w = ?"""
    assert to_pyformat(sql) == (
        """SELECT '?', "a?b", x FROM t /* ? */ WHERE y = %s AND z LIKE '%%' -- ?\nAND w = %s"""
    )
    assert to_pyformat("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', %s"


async def test_the_database_names_its_engine(backend: Database, backend_location: object) -> None:
    expected = "postgres" if isinstance(backend_location, str) else "sqlite"
    assert backend.engine == expected
