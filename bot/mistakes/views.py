"""How reported mistakes look: to moderators (`/reports`, one report a page) and to the
reporter (the note, by direct message).

Everything a member wrote (the text, the quote, their name, a moderator's note) is shown
inert: mentions neutralised (`bot.text.code.neutralize`), and inside a code block or span,
where no platform reads Markdown, so nobody is pinged and no formatting or link is forged.
"""

from __future__ import annotations

from datetime import datetime

from bot.i18n import t
from bot.store.mistakes import Report
from bot.text.code import neutralize
from bot.types import Action, ActionKind, Field, Locale, Reply

NAME_LIMIT = 80  # characters of a reporter's name shown


def inert_block(text: str) -> str:
    """`text` verbatim in a code block: no Markdown, no mentions, whatever it holds."""
    return f"```text\n{neutralize(text).strip() or ' '}\n```"


def inert_span(text: str) -> str:
    """A short `text` (a name, an id) in a code span, on one line."""
    flat = " ".join(neutralize(text).replace("`", "'").split())[:NAME_LIMIT]
    return f"`{flat or '?'}`"


def report_page(report: Report, title: str, index: int, total: int, locale: Locale) -> Reply:
    """One open report, with Resolve and the buttons to the reports beside it."""
    parts = [t(locale, "reports.what"), inert_block(report.text)]
    if report.quote.strip():
        parts += [t(locale, "reports.quote"), inert_block(report.quote)]
    who = inert_span(report.reporter_name) if report.reporter_name else t(locale, "reports.anon")
    fields = (Field(t(locale, "reports.item"), f"{inert_span(report.item)} {title}"),
              Field(t(locale, "reports.by"), who),
              Field(t(locale, "reports.when"), _when(report.created_at)))  # fmt: skip
    return Reply("\n".join(parts), title=t(locale, "reports.title", n=index + 1, total=total),
                 fields=fields, actions=_buttons(report, index, total, locale),
                 ephemeral=True, footer=t(locale, "reports.footer", id=report.id))  # fmt: skip


def _buttons(report: Report, index: int, total: int, locale: Locale) -> tuple[Action, ...]:
    resolve = Action(ActionKind.RESOLVE_REPORT, t(locale, "action.resolve"), str(report.id))
    previous = (Action(ActionKind.REPORTS_PAGE, t(locale, "action.previous"), str(index)),)
    following = (Action(ActionKind.REPORTS_PAGE, t(locale, "action.next"), str(index + 2)),)
    return (resolve, *(previous if index > 0 else ()), *(following if index + 1 < total else ()))


def note_reply(report: Report, title: str) -> Reply:
    """The reporter's answer, in their language: which item, what they wrote, the note."""
    locale = report.locale
    body = "\n".join((t(locale, "reports.dm_body", id=report.item, title=title),
                      t(locale, "reports.what"), inert_block(report.text),
                      t(locale, "reports.note"), inert_block(report.note or "")))  # fmt: skip
    return Reply(body, title=t(locale, "reports.dm_title"))


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")
