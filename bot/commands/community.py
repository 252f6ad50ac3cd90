"""`/import` and `/drafts`: the community bank's commands (the logic is `bot.community`'s).

Platform-neutral, as every command: `/import` takes the report's text as one multiline
option (`text`); a platform that receives a file instead calls `Studybot.import_file` with
its bytes and name, which lands in `import_file` here and goes the same way. `/drafts` is
one command with an `action` (show, approve, reject, edit) so that its buttons are plain
invocations: Approve, Reject and Edit carry the draft's id, Previous and Next the page
(`ActionKind.DRAFT_*`), and each click is checked again (a moderator, of this server).
Edit without changes answers with the current values as the command to type, a form in
words, and as the reply's fields, each named by its option (`edit_fields`): a platform
renders a real form from those and sends its answers back as `/drafts edit` options
(`bot.community.forms.draft_form`, `bot.routes.filled`); an input left blank changes nothing.

Everything shown that a member wrote (titles, the report's name) is Markdown-escaped.
"""

from __future__ import annotations

from bot.commands.context import Context
from bot.commands.moderators import moderators_only
from bot.community import untrusted
from bot.community.imports import Asker, Imports
from bot.community.moderation import Draft, Moderation
from bot.community.plan import Plan
from bot.errors import BadArgument
from bot.i18n import t
from bot.types import Action, ActionKind, Field, Invocation, Locale, Reply

EDITS = ("title", "title_en", "topics", "difficulty", "kind")
SHOWN_TEXT = 1500  # characters of the report's text a draft shows (a message's limit is 4000)


async def import_report(ctx: Context, inv: Invocation) -> Reply:
    plan = await _imports(ctx).text(inv.options["text"], _asker(inv))
    return _imported(plan, inv)


async def import_file(ctx: Context, inv: Invocation, data: bytes, filename: str) -> Reply:
    """A report sent as a file (an attachment, the console's `/import FILE`)."""
    plan = await _imports(ctx).file(data, filename, _asker(inv))
    return _imported(plan, inv)


async def drafts(ctx: Context, inv: Invocation) -> Reply:
    moderators_only(inv, "drafts.moderators_only")
    action = inv.options.get("action", "show")
    if action == "show":
        return await _page(ctx, inv)
    qid = inv.options.get("id", "").strip().lower()
    if not qid:
        raise BadArgument(t(inv.locale, "drafts.missing_id", action=action))
    if action == "edit":
        return await _edit(ctx, inv, qid)
    return await _decide(ctx, inv, qid, approve=action == "approve")


async def _page(ctx: Context, inv: Invocation) -> Reply:
    raw = inv.options.get("page", "1").strip()
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 1
    found = await _moderation(ctx).page(inv.channel.server, page, inv.locale)
    if found is None:
        return Reply(t(inv.locale, "drafts.none"), ephemeral=True)
    title = t(inv.locale, "drafts.title", page=found.page, pages=found.pages,
              title=_title_of(found.draft, inv.locale))  # fmt: skip
    return _draft_reply(found.draft, inv.locale, title, _turns(inv.locale, found.page, found.pages))


async def _decide(ctx: Context, inv: Invocation, qid: str, *, approve: bool) -> Reply:
    moderation, server = _moderation(ctx), inv.channel.server
    if approve:
        await moderation.approve(server, qid, inv.user, inv.locale)
    else:
        await moderation.reject(server, qid, inv.user, inv.locale)
    key = "drafts.approved" if approve else "drafts.rejected"
    more = Action(ActionKind.DRAFT_PAGE, t(inv.locale, "action.drafts"), "1")
    return Reply(t(inv.locale, key, id=qid), actions=(more,), ephemeral=True)


async def _edit(ctx: Context, inv: Invocation, qid: str) -> Reply:
    moderation, server = _moderation(ctx), inv.channel.server
    # A blank value is left as it is: a form sends every input, filled or not (an English
    # title nobody wrote yet); a cleared title is refused (`Moderation.edit`).
    changes = {k: v for k, v in inv.options.items() if k in EDITS and (v.strip() or k == "title")}
    if not changes:  # the Edit button: the current values, as the command that changes them
        draft = await moderation.draft(server, qid, inv.locale)
        return Reply(t(inv.locale, "drafts.edit_form", command=_edit_command(draft)),
                     fields=edit_fields(draft), ephemeral=True)  # fmt: skip
    draft = await moderation.edit(server, qid, changes, inv.locale)
    title = t(inv.locale, "drafts.edited", id=qid)
    return _draft_reply(draft, inv.locale, title, ())


def _imported(plan: Plan, inv: Invocation) -> Reply:
    lines = []
    if plan.items:
        lines.append(t(inv.locale, "import.drafted", count=len(plan.items)))
        lines += [f"- `{i.id}` {untrusted.escaped(i.title)}" for i in plan.items]
    if plan.linked:
        ids = ", ".join(f"`{i}`" for i in dict.fromkeys(linked.id for linked in plan.linked))
        lines.append(t(inv.locale, "import.linked", count=len(plan.linked), ids=ids))
    if plan.items:
        lines += ["", t(inv.locale, "import.hint")]
    actions: tuple[Action, ...] = ()
    if plan.items and inv.user.is_moderator:
        actions = (Action(ActionKind.DRAFT_PAGE, t(inv.locale, "action.drafts"), "1"),)
    report = untrusted.escaped(plan.source.label())
    return Reply("\n".join(lines), title=t(inv.locale, "import.title", report=report),
                 actions=actions, ephemeral=True)  # fmt: skip


def _draft_reply(draft: Draft, locale: Locale, title: str,
                 turns: tuple[Action, ...]) -> Reply:  # fmt: skip
    q, info = draft.question, draft.info
    text = info.report_text or t(locale, "drafts.no_text")
    if len(text) > SHOWN_TEXT:
        text = text[: SHOWN_TEXT - 1] + "…"
    heading = [f"**{untrusted.escaped(q.title)}**"]
    if q.title_en:
        heading.append(untrusted.escaped(q.title_en))
    body = "\n".join([*heading, "", f"**{t(locale, 'drafts.report_text')}**", text])
    source = q.sources[0].label() if q.sources else "-"
    fields = (
        Field(t(locale, "label.id"), f"`{q.id}`"),
        Field(t(locale, "label.topics"), ", ".join(q.topics) or "-"),
        Field(t(locale, "label.difficulty"), t(locale, f"difficulty.{q.difficulty.value}")),
        Field(t(locale, "label.kind"), t(locale, f"kind.{q.kind.value}")),
        Field(t(locale, "label.source"), untrusted.escaped(source)),
        Field(t(locale, "drafts.shared_by"),
              untrusted.escaped(info.shared_name or t(locale, "drafts.someone"))),
    )  # fmt: skip
    buttons = (
        Action(ActionKind.DRAFT_APPROVE, t(locale, "action.approve"), q.id),
        Action(ActionKind.DRAFT_REJECT, t(locale, "action.reject"), q.id),
        Action(ActionKind.DRAFT_EDIT, t(locale, "action.edit"), q.id),
    )
    return Reply(body, title=title, fields=fields, actions=(*buttons, *turns), ephemeral=True)


def _turns(locale: Locale, page: int, pages: int) -> tuple[Action, ...]:
    turns = []
    if page > 1:
        turns.append(Action(ActionKind.DRAFT_PAGE, t(locale, "action.previous_page"),
                            str(page - 1)))  # fmt: skip
    if page < pages:
        turns.append(Action(ActionKind.DRAFT_PAGE, t(locale, "action.next_page"), str(page + 1)))
    return tuple(turns)


def _title_of(draft: Draft, locale: Locale) -> str:
    return untrusted.escaped(draft.question.display_title(locale))


def edit_fields(draft: Draft) -> tuple[Field, ...]:
    """The draft's current values, each under the name of the `/drafts edit` option that
    changes it: what a platform's edit form is filled with (`Field.name` is the option)."""
    q = draft.question
    values = {"title": q.title, "title_en": q.title_en or "", "topics": ",".join(q.topics),
              "difficulty": q.difficulty.value, "kind": q.kind.value}  # fmt: skip
    return tuple(Field(name, value, inline=False) for name, value in values.items())


def _edit_command(draft: Draft) -> str:
    parts = [f"/drafts edit id:{draft.question.id}"]
    for f in edit_fields(draft):
        if f.value:
            parts.append(f'{f.name}:"{f.value}"' if " " in f.value or "title" in f.name
                         else f"{f.name}:{f.value}")  # fmt: skip
    return "`" + " ".join(parts).replace("`", "'") + "`"


def _asker(inv: Invocation) -> Asker:
    return Asker(inv.user, inv.channel.server, inv.locale)


def _imports(ctx: Context) -> Imports:
    if ctx.imports is None:
        raise RuntimeError("the community bank is not set up")
    return ctx.imports


def _moderation(ctx: Context) -> Moderation:
    if ctx.moderation is None:
        raise RuntimeError("the community bank is not set up")
    return ctx.moderation
