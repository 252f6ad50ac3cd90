"""The form of "Answer this": one multiline field, submitted to `/contribute` (subject: the
item id), routed by `bot.routes.FORMS` as every form is."""

from __future__ import annotations

from bot.answers import TEXT_LIMIT
from bot.i18n import t
from bot.types import Form, FormField, Locale


def answer_form(item: str, locale: Locale) -> Form:
    text = FormField("text", t(locale, "contribute.form.text"), multiline=True,
                     max_length=TEXT_LIMIT, hint=t(locale, "contribute.form.hint"))  # fmt: skip
    return Form("contribute", item, t(locale, "contribute.form.title"), (text,),
                t(locale, "contribute.form.intro", id=item))  # fmt: skip
