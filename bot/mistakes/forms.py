"""The forms of reported mistakes: the report under an explanation, and its resolution.

Both are `bot.types.Form`s routed by `bot.routes.FORMS`: the report's subject is the item id
and it submits to `/report` (`text`, `quote`); the resolution's subject is the report's id
and it submits to `/resolve` (`note`)."""

from __future__ import annotations

from bot.i18n import t
from bot.mistakes import NOTE_LIMIT, QUOTE_LIMIT, TEXT_LIMIT
from bot.types import Form, FormField, Locale


def report_form(item: str, locale: Locale) -> Form:
    fields = (
        FormField("text", t(locale, "report.form.text"), multiline=True, max_length=TEXT_LIMIT),
        FormField("quote", t(locale, "report.form.quote"), multiline=True,
                  max_length=QUOTE_LIMIT, required=False, hint=t(locale, "report.form.quote_hint")),
    )  # fmt: skip
    return Form("report", item, t(locale, "report.form.title"), fields,
                t(locale, "report.form.intro", id=item))  # fmt: skip


def resolve_form(report: str, locale: Locale) -> Form:
    note = FormField("note", t(locale, "reports.form.note"), multiline=True,
                     max_length=NOTE_LIMIT, hint=t(locale, "reports.form.note_hint"))  # fmt: skip
    return Form("resolve", report, t(locale, "reports.form.title", id=report), (note,),
                t(locale, "reports.form.intro", id=report))  # fmt: skip
