"""The community bank's forms: a report to import, and the edit of a draft.

Both are `bot.types.Form`s. The import form submits to `/import` (`text`); a platform
caps a text input (Discord at 4,000 characters, Slack at 3,000), so the form is built for
the platform's `limit` and says it, and a longer report goes as a file where the platform
takes one. The edit form's subject is `edit <id>` (`/drafts`' first two options, as typed:
`bot.routes.form_options`) and its inputs are the `/drafts edit` options; it opens filled
with the draft's current values, which `/drafts edit` without changes answers with
(`bot.commands.community.edit_fields`, read by `bot.routes.filled`).
"""

from __future__ import annotations

from bot.community import untrusted
from bot.i18n import t
from bot.types import Form, FormField, Locale

IMPORT = "import"
DRAFTS = "drafts"
TOPICS_LIMIT = 200  # characters: four topics by slug or Chinese name fit with room to spare


def import_form(locale: Locale, limit: int) -> Form:
    text = FormField("text", t(locale, "import.form.text", limit=f"{limit:,}"), multiline=True,
                     max_length=limit, hint=t(locale, "import.form.hint"))  # fmt: skip
    return Form(IMPORT, "", t(locale, "import.form.title"), (text,),
                t(locale, "import.form.intro", limit=f"{limit:,}"))  # fmt: skip


def draft_form(qid: str, locale: Locale) -> Form:
    """The edit of draft `qid`, its inputs empty (`bot.routes.filled` fills them)."""
    fields = (
        FormField("title", t(locale, "drafts.form.title_zh"), max_length=untrusted.MAX_TITLE),
        FormField("title_en", t(locale, "drafts.form.title_en"), max_length=untrusted.MAX_TITLE,
                  required=False),
        FormField("topics", t(locale, "drafts.form.topics"), max_length=TOPICS_LIMIT),
        FormField("difficulty", t(locale, "drafts.form.difficulty"), max_length=10),
        FormField("kind", t(locale, "drafts.form.kind"), max_length=10),
    )  # fmt: skip
    return Form(DRAFTS, f"edit {qid}", t(locale, "drafts.form.heading"), fields,
                t(locale, "drafts.form.intro", id=qid))  # fmt: skip
