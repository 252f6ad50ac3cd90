"""`/export scores`: an admin's CSV of the workspace's scores, as a file with the reply.

One row per member with activity here: name, id, points, quizzes answered and right,
problems solved, current streak. The file is UTF-8 with a byte order mark, so spreadsheets
read Chinese names right, and safe to open in one: a cell that starts with `=`, `+`, `-`,
`@`, a tab or a carriage return (a display name can) is prefixed with `'`, so it is shown as
text instead of being run as a formula (OWASP's advice on CSV injection).
"""

from __future__ import annotations

import asyncio
import csv
import io

from bot.commands.context import Context
from bot.errors import UserError
from bot.i18n import t
from bot.store.progress import MemberScore
from bot.types import Attachment, Invocation, Reply, User

HEADER = ("name", "id", "points", "quizzes_answered", "quizzes_right", "problems_solved",
          "current_streak")  # fmt: skip
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


async def export(ctx: Context, inv: Invocation) -> Reply:
    if not inv.user.is_admin:
        raise UserError(t(inv.locale, "export.not_admin"))
    platform, workspace = inv.channel.platform, inv.channel.workspace or ""
    scores = await ctx.progress.scores(platform, workspace)
    if not scores:
        return Reply(t(inv.locale, "export.empty"), ephemeral=True)
    now = ctx.clock.now()
    streaks = []
    for score in scores:
        streak, _ = await ctx.ledger.streak(User(platform, score.user_id, score.name), now)
        streaks.append(streak.days)
    data = await asyncio.to_thread(scores_csv, scores, streaks)
    name = f"scores-{_slug(workspace or platform)}-{now.date().isoformat()}.csv"
    return Reply(t(inv.locale, "export.done", count=len(scores)), ephemeral=True,
                 attachments=(Attachment(name, data, "text/csv"),))  # fmt: skip


def scores_csv(scores: list[MemberScore], streaks: list[int]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for s, streak in zip(scores, streaks, strict=True):
        writer.writerow([safe_cell(s.name), safe_cell(s.user_id), s.points, s.answered, s.right,
                         s.solved, streak])  # fmt: skip
    return out.getvalue().encode("utf-8-sig")


def safe_cell(text: str) -> str:
    """`text` as a spreadsheet shows it, never as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in text)[:40] or "workspace"
