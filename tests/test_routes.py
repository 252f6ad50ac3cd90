"""What every adapter asks the same way (`bot.routes`), answered once in the core."""

from __future__ import annotations

import asyncio

from bot.routes import (
    ACK_BUDGET,
    budget,
    code_option,
    form_of,
    form_options,
    needs_code,
    problem_of,
    within,
)
from bot.types import Action, ActionKind


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
    assert form_options("submit", "fast-power", "def f(): ...") == {
        "problem": "fast-power", "code": "def f(): ..."}  # fmt: skip
    assert form_options("run", "", "print(1)") == {"code": "print(1)"}
    assert form_options("submit", " ", "x") == {"code": "x"}  # no subject typed: the core asks


def test_buttons_run_commands_or_open_the_form_of_their_problem() -> None:
    submit = Action(ActionKind.SUBMIT_SOLUTION, "Submit", "fast-power")
    assert form_of(submit) == ("submit", "fast-power")
    assert form_of(Action(ActionKind.REVEAL_ANSWER, "Answer", "python-gil")) is None
    reveal = Action(ActionKind.REVEAL_ANSWER, "Answer", "python-gil")
    assert problem_of([reveal, submit]) == "fast-power" and problem_of([reveal]) is None
