"""`/export scores`: admins get the workspace's scores as a CSV file with the reply, one row per
member, safe to open in a spreadsheet; others get a sentence and no file."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from bot.app import App
from bot.store.activity import ActKind
from bot.types import ChannelRef, Locale, Reply, Tone, User

ADMIN = User("test", "boss", "Boss", is_admin=True)
HERE = ChannelRef("test", "c1", "w1")
OTHER = ChannelRef("test", "c2", "w2")
MALLORY = User("test", "u3", '=HYPERLINK("http://x","hi")')
WEI = User("test", "u2", "张伟")
ANN = User("test", "u1", "@ann")


async def export(app: App, user: User = ADMIN, locale: Locale = Locale.EN) -> Reply:
    return await app.core.handle_line("/export scores", user=user, channel=HERE, locale=locale)


async def act(app: App, user: User, day: int, qid: str, *,
              kind: ActKind = ActKind.QUIZ, correct: bool = True, points: int = 10,
              where: ChannelRef = HERE) -> None:  # fmt: skip
    at = datetime(2026, 1, day, 9, 0, tzinfo=UTC)
    await app.ledger.record(kind, user, where, qid, correct=correct, points=points, at=at,
                            dedupe=f"{kind}:{user.id}:{day}:{qid}:{where.channel}")  # fmt: skip


def rows(reply: Reply) -> list[list[str]]:
    (attachment,) = reply.attachments
    assert attachment.mime == "text/csv" and attachment.name == "scores-w1-2026-01-05.csv"
    assert attachment.data.startswith(b"\xef\xbb\xbf")  # UTF-8 BOM: spreadsheets read 张伟
    return list(csv.reader(io.StringIO(attachment.data.decode("utf-8-sig"))))


async def test_an_admin_gets_one_row_per_member_safe_to_open(app: App) -> None:
    await act(app, WEI, 4, "python-gil")
    await act(app, WEI, 5, "ring-allreduce", correct=False, points=0)
    await act(app, WEI, 5, "fast-power", kind=ActKind.SOLVE, points=30)
    await act(app, ANN, 2, "gpu-memory")
    await act(app, MALLORY, 5, "gpu-memory", points=5)
    await act(app, MALLORY, 5, "python-gil", where=OTHER, points=100)  # another workspace
    reply = await export(app)
    assert reply.ephemeral and reply.tone is Tone.INFO
    assert reply.body == "The scores of 3 member(s), as CSV."
    assert rows(reply) == [
        ["name", "id", "points", "quizzes_answered", "quizzes_right", "problems_solved",
         "current_streak"],
        ["张伟", "u2", "40", "2", "1", "1", "2"],
        ["'@ann", "u1", "10", "1", "1", "0", "0"],
        ["'=HYPERLINK(\"http://x\",\"hi\")", "u3", "5", "1", "1", "0", "1"],
    ]  # fmt: skip


async def test_others_get_a_sentence_and_no_file(app: App) -> None:
    await act(app, WEI, 4, "python-gil")
    member = User("test", "u2", "张伟")
    for locale, says in [(Locale.EN, "Only admins"), (Locale.ZH, "只有管理员")]:
        reply = await export(app, member, locale)
        assert reply.tone is Tone.USER_ERROR and reply.ephemeral and says in reply.body
        assert not reply.attachments


async def test_nothing_to_export_says_so(app: App) -> None:
    reply = await export(app)
    assert "Nobody has scored here yet" in reply.body and not reply.attachments
    bad = await app.core.handle_line("/export everything", user=ADMIN, channel=HERE,
                                     locale=Locale.EN)  # fmt: skip
    assert bad.tone is Tone.USER_ERROR and "scores" in bad.body
