from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.grading.grader import Grader, GraderConfig
from bot.grading.pool import Sandbox
from bot.grading.problems import Problem, load_problems
from tests.fakes import REPO

# Snippets that must end some other way than by the time limit (refused, out of memory) run
# with 20 s of CPU: far more than any needs, so a slow machine cannot make it a time limit.
PATIENT = GraderConfig(run_time_limit=20.0, deadline_margin=20.0)


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
    return Grader(sandbox, problems)
