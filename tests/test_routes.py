"""What every adapter asks the same way (`bot.routes`), answered once in the core."""

from __future__ import annotations

import asyncio

from bot.routes import (
    ACK_BUDGET,
    PREFILLED,
    budget,
    code_form,
    code_option,
    filled,
    form_of,
    form_options,
    input_form,
    needs_code,
    problem_of,
    takes_report,
    typed,
    within,
)
from bot.types import Action, ActionKind, Field, Locale, Reply, Tone


def test_grading_answers_at_once_and_the_rest_gets_the_budget() -> None:
    assert budget("submit") == budget("run") == 0.0
    assert budget("question") == budget("search") == budget("nonsense") == ACK_BUDGET < 3.0


async def test_within_says_whether_the_work_finished_and_lets_it_run_on() -> None:
    quick = asyncio.ensure_future(asyncio.sleep(0, result="done"))
    assert await within(quick, 60) and quick.result() == "done"  # returns as soon as done
    release = asyncio.Event()
    slow = asyncio.ensure_future(release.wait())  # held until released: no race with a timer
    assert not await within(slow, 0.01)
    assert not await within(slow, 0)  # no budget: not even a turn of the loop is waited
    release.set()
    await slow  # it ran on (not cancelled) after the budget passed
    assert await within(slow, 0)


def test_which_option_takes_code_and_when_a_form_must_ask_for_it() -> None:
    assert code_option("submit") is not None and code_option("submit").name == "code"  # type: ignore[union-attr]
    assert code_option("question") is None and code_option("nonsense") is None
    assert needs_code("submit", {"problem": "fast-power"})
    assert needs_code("run", {"code": "   "})
    assert not needs_code("run", {"code": "print(1)"}) and not needs_code("question", {})


def test_a_forms_fields_become_the_commands_options() -> None:
    assert form_options("submit", "fast-power", {"code": "def f(): ..."}) == {
        "problem": "fast-power", "code": "def f(): ..."}  # fmt: skip
    assert form_options("run", "", {"code": "print(1)"}) == {"code": "print(1)"}
    assert form_options("submit", " ", {"code": "x"}) == {"code": "x"}  # the core asks
    asked = form_options("submit", "", {"problem": "fast-power", "code": "x"})
    assert asked == {"problem": "fast-power", "code": "x"}
    sent = {"text": "wrong figure", "quote": "", "id": "other", "admin": "1"}
    assert form_options("report", "python-gil", sent) == {  # inputs only fill their own
        "id": "other", "text": "wrong figure", "quote": ""}  # fmt: skip
    assert form_options("report", "python-gil", {"text": "t"}) == {"id": "python-gil", "text": "t"}
    assert form_options("nonsense", "x", {"a": "b"}) == {}


def test_buttons_run_commands_or_open_their_form() -> None:
    submit = Action(ActionKind.SUBMIT_SOLUTION, "Submit", "fast-power")
    form = form_of(submit, Locale.EN)
    assert form is not None and (form.command, form.subject) == ("submit", "fast-power")
    assert [f.name for f in form.fields] == ["code"] and form.fields[0].multiline
    assert form_of(Action(ActionKind.REVEAL_ANSWER, "Answer", "python-gil"), Locale.EN) is None
    reveal = Action(ActionKind.REVEAL_ANSWER, "Answer", "python-gil")
    assert problem_of([reveal, submit]) == "fast-power" and problem_of([reveal]) is None


def test_the_code_form_asks_for_its_problem_only_when_it_has_none() -> None:
    assert [f.name for f in code_form("submit", "", Locale.EN).fields] == ["problem", "code"]
    assert [f.name for f in code_form("run", "", Locale.ZH).fields] == ["code"]
    assert code_form("run", "", Locale.EN).title == "Run Python"


def test_the_report_form_asks_what_is_wrong_and_a_quote_within_caps() -> None:
    report = form_of(Action(ActionKind.REPORT_MISTAKE, "Report", "python-gil"), Locale.ZH)
    assert report is not None and (report.command, report.subject) == ("report", "python-gil")
    text, quote = report.fields
    assert (text.name, text.required, text.multiline, text.max_length) == ("text", True, True, 1000)
    assert (quote.name, quote.required, quote.max_length) == ("quote", False, 300)
    assert report.title == "报告错误" and text.label == "哪里有错？"
    resolve = form_of(Action(ActionKind.RESOLVE_REPORT, "Resolve", "12"), Locale.EN)
    assert resolve is not None and resolve.command == "resolve" and resolve.subject == "12"
    assert [(f.name, f.required) for f in resolve.fields] == [("note", True)]


def test_where_there_are_no_forms_a_button_says_what_to_type() -> None:
    assert (
        typed(Action(ActionKind.REPORT_MISTAKE, "R", "python-gil")) == "/report python-gil <text>"
    )
    assert typed(Action(ActionKind.RESOLVE_REPORT, "R", "12")) == "/resolve 12 <note>"
    assert typed(Action(ActionKind.SUBMIT_SOLUTION, "S", "fast-power")) == "/submit fast-power"
    assert typed(Action(ActionKind.REVEAL_ANSWER, "A", "python-gil")) == "/answer python-gil"


def test_the_edit_of_a_draft_is_a_form_of_drafts_edit_filled_from_its_commands_answer() -> None:
    edit = Action(ActionKind.DRAFT_EDIT, "Edit", "s.nccl-tree")
    form = form_of(edit, Locale.EN)
    assert form is not None and edit.kind in PREFILLED
    assert [f.name for f in form.fields] == ["title", "title_en", "topics", "difficulty", "kind"]
    sent = {f.name: "x" for f in form.fields}
    assert form_options(form.command, form.subject, sent) == {
        "action": "edit", "id": "s.nccl-tree", **sent}  # fmt: skip
    values = (Field("title", "NCCL 的 Tree"), Field("topics", "collectives"))
    ready = filled(form, Reply("", fields=values))
    assert ready is not None and [f.value for f in ready.fields][:3] == ["NCCL 的 Tree", "",
                                                                         "collectives"]  # fmt: skip
    assert filled(form, Reply("Only moderators.", tone=Tone.USER_ERROR)) is None
    assert typed(edit) == "/drafts edit id:s.nccl-tree"  # the console: its answer says what to type


def test_import_takes_a_report_form_built_for_the_platforms_input_limit() -> None:
    assert needs_code("import", {}) and takes_report("import") and not takes_report("submit")
    form = input_form("import", "", Locale.ZH, 3000)
    [text] = form.fields
    assert (form.command, text.name, text.max_length, text.multiline) == ("import", "text", 3000,
                                                                          True)  # fmt: skip
    assert "3,000" in text.label
    assert input_form("run", "", Locale.EN).fields[0].name == "code"
