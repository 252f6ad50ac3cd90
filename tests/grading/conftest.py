from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.grading.grader import Grader, GraderConfig
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem, load_problems
from tests.fakes import REPO
from tests.waiting import PATIENCE

# Snippets that must end some other way than by the time limit (refused, out of memory) run
# with 20 s of CPU: far more than any needs, so a slow machine cannot make it a time limit.
PATIENT = GraderConfig(run_time_limit=20.0, deadline_margin=20.0)
# The wall-clock deadline is a backstop for a worker that hangs; a time limit is the CPU
# limit's verdict. Beside busy processes a niced worker gets a tenth of a core, and the
# default margin (1.5 s over the CPU limit) turned references needing 0.4 s of CPU into
# time limits; a minute keeps the wall clock out of the verdicts tests check.
UNHURRIED = GraderConfig(deadline_margin=PATIENCE)


@pytest.fixture(scope="session")
def problems() -> dict[str, Problem]:
    """The real bank's problems, references and generated tests included."""
    return load_problems(REPO / "content")


def reference(problem_id: str) -> str:
    """The reference solution: the first python block of the problem's explanation."""
    text = (REPO / "content" / "problems" / problem_id / "explanation.md").read_text("utf-8")
    match = re.search(r"^```python\n(.*?)^```", text, re.M | re.S)
    assert match is not None
    return match.group(1)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sandbox() -> AsyncIterator[Sandbox]:
    """One real sandbox (zygote + warm workers) per test module: start-up is paid once."""
    box = Sandbox(warm=2)
    await box.start()
    yield box
    await box.close()


@pytest.fixture(scope="module")
def grader(sandbox: Sandbox, problems: dict[str, Problem]) -> Grader:
    return Grader(sandbox, problems, UNHURRIED)
