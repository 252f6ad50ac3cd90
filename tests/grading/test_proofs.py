"""`content validate` proves each problem's tests: the reference, submitted through the real
sandbox, is accepted; every known-wrong solution is rejected, with the verdict it names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.grades import Verdict
from bot.grading import proofs
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.grading.problems import load_problem, load_problems
from tests.fakes import REPO

ON_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")  # the module's sandbox lives there


async def proved(content: Path, sandbox: Sandbox) -> list[str]:
    problems = load_problems(content)
    attempts, faults = proofs.gather(content, problems.values())
    grader = Grader(sandbox, problems, proofs.PROVING)
    try:
        faults += proofs.faults_of(await proofs.prove(grader, attempts))
    finally:
        grader.close()
    return [str(f).replace(f"{content}/", "") for f in faults]


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """A copy of the shipped fast-power problem, alone in its bank."""
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "problems" / "fast-power", root / "problems" / "fast-power")
    return root


def wrong(content: Path, name: str, code: str) -> Path:
    path = content / "problems" / "fast-power" / "wrong" / name
    path.write_text(code, encoding="utf-8")
    return path


@ON_MODULE_LOOP
async def test_the_shipped_bank_is_proved(sandbox: Sandbox) -> None:
    problems = load_problems(REPO / "content")
    attempts, faults = proofs.gather(REPO / "content", problems.values())
    assert faults == []
    for problem in problems:  # a reference and at least one wrong solution each
        mine = [a for a in attempts if a.problem == problem]
        assert sum(a.reference for a in mine) == 1 and len(mine) >= 2, problem
    assert await proved(REPO / "content", sandbox) == []


@ON_MODULE_LOOP
async def test_a_wrong_solution_the_tests_accept_is_a_fault(content: Path,
                                                            sandbox: Sandbox) -> None:  # fmt: skip
    reference = next(a for a in proofs.gather(content, load_problems(content).values())[0]
                     if a.reference)  # fmt: skip
    wrong(content, "secretly-right.py", "# Claims a mistake it does not make.\n" + reference.code)
    assert await proved(content, sandbox) == [
        "problems/fast-power/wrong/secretly-right.py:1: this known-wrong solution is accepted: "
        "the tests do not catch its mistake"
    ]


@ON_MODULE_LOOP
async def test_a_wrong_solution_must_get_its_verdict(content: Path, sandbox: Sandbox) -> None:
    wrong(content, "halves.py", "# expect: time_limit_exceeded\n# Off by a factor.\n"
                                "def my_pow(x, n):\n    return x * n / 2\n")  # fmt: skip
    (fault,) = await proved(content, sandbox)
    assert fault.startswith("problems/fast-power/wrong/halves.py:1: expected "
                            "time_limit_exceeded, got wrong_answer at test 1")  # fmt: skip


@ON_MODULE_LOOP
async def test_a_reference_the_sandbox_refuses_is_a_fault(content: Path,
                                                          sandbox: Sandbox) -> None:  # fmt: skip
    explanation = content / "problems" / "fast-power" / "explanation.md"
    text = explanation.read_text(encoding="utf-8")
    # Fine in plain Python (the reference computes the expected results), refused by the
    # restricted compiler that users' code meets: the problem would be unsolvable in chat.
    explanation.write_text(text.replace("```python\n", "```python\n_unused = 1\n", 1),
                           encoding="utf-8")  # fmt: skip
    line = text[: text.index("```python")].count("\n") + 1
    fault, *unproved = await proved(content, sandbox)
    assert fault.startswith(f"problems/fast-power/explanation.md:{line}: the reference "
                            "solution is not accepted when submitted: compile_error")  # fmt: skip
    # Without an accepted reference the problem has no limit, so no wrong solution is proved.
    assert sorted(unproved) == [
        f"problems/fast-power/wrong/{name}:1: not proved: the problem's reference solution is "
        "not accepted, so it has no time limit"
        for name in ("ignores-negative.py", "linear-loop.py")
    ]


def test_wrong_solution_files_are_checked(content: Path) -> None:
    folder = content / "problems" / "fast-power"
    wrong(content, "silent.py", "def my_pow(x, n):\n    return x\n")
    wrong(content, "typo.py", "# expect: wrong_anwser\n# Returns x.\ndef my_pow(x, n):\n"
                              "    return x\n")  # fmt: skip
    attempts, faults = proofs.gather(content, [load_problem(folder)])
    assert [str(f).replace(f"{folder}/", "") for f in faults] == [
        "wrong/silent.py:1: open a wrong solution with a comment saying its mistake",
        "wrong/typo.py:1: '# expect: wrong_anwser' is not a verdict; one of: wrong_answer, "
        "time_limit_exceeded, memory_limit_exceeded, runtime_error, compile_error, "
        "rule_violation, skipped",
    ]
    assert {a.path.name for a in attempts} == {"explanation.md", "ignores-negative.py",
                                               "linear-loop.py"}  # fmt: skip
    shutil.rmtree(folder / "wrong")
    _, faults = proofs.gather(content, [load_problem(folder)])
    assert [f.message for f in faults] == [
        "keep at least one known-wrong solution in wrong/ (see bot.grading.proofs)"
    ]


def test_expectations_read_from_the_header() -> None:
    folder = REPO / "content" / "problems" / "fast-power"
    attempts, _ = proofs.gather(REPO / "content", [load_problem(folder)])
    expects = {a.path.name: a.expect for a in attempts}
    assert expects == {"explanation.md": Verdict.ACCEPTED,
                       "ignores-negative.py": Verdict.WRONG_ANSWER,
                       "linear-loop.py": Verdict.TIME_LIMIT_EXCEEDED}  # fmt: skip
