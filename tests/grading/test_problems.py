"""Problems as content: judge files, generated tests, and faults that name file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.errors import ContentError
from bot.grading.problems import Problem, load_problem, load_problems
from tests.fakes import REPO


def test_hidden_tests_include_the_large_generated_cases(problems: dict[str, Problem]) -> None:
    sizes = {len(c.args()[0]) for c in problems["rotate-matrix"].cases if not c.sample}
    assert {100, 200} <= sizes
    exponents = {c.args()[1] for c in problems["fast-power"].cases}
    assert {2**31 - 1, -(2**31)} <= exponents
    graphs = [len(c.args()[0]["nodes"]) for c in problems["graph-fusion"].cases]
    assert max(graphs) == 5000


def test_every_problem_has_samples_and_hidden_tests(problems: dict[str, Problem]) -> None:
    folders = {p.name for p in (REPO / "content" / "problems").iterdir() if p.is_dir()}
    assert set(problems) == folders and len(folders) >= 20
    for problem in problems.values():
        assert any(c.sample for c in problem.cases)
        assert sum(not c.sample for c in problem.cases) >= 8
        assert [c.number for c in problem.cases] == list(range(1, len(problem.cases) + 1))
    assert problems["fast-power"].banned == ("**", "pow", "math.pow")
    assert problems["rotate-matrix"].wants_args


def test_generated_tests_are_the_same_on_every_load(problems: dict[str, Problem]) -> None:
    again = load_problems(REPO / "content")
    assert again == problems


def test_expected_results_come_from_the_reference(problems: dict[str, Problem]) -> None:
    first = problems["rotate-matrix"].cases[0]
    assert first.args() == [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]
    assert first.expected == [[7, 4, 1], [8, 5, 2], [9, 6, 3]]
    power = next(c for c in problems["fast-power"].cases if c.args() == [2.0, -2])
    assert power.expected == 0.25


@pytest.fixture
def problem_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "fast-power"
    shutil.copytree(REPO / "content" / "problems" / "fast-power", folder)
    return folder


def edit(folder: Path, old: str, new: str) -> None:
    judge = folder / "judge.yaml"
    text = judge.read_text(encoding="utf-8")
    assert old in text
    judge.write_text(text.replace(old, new), encoding="utf-8")


def faults_of(folder: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_problem(folder)
    return [str(f) for f in caught.value.faults]


def test_an_unknown_checker_is_named_with_its_line(problem_copy: Path) -> None:
    edit(problem_copy, "checker: close", "checker: fuzzy")
    lines = (problem_copy / "judge.yaml").read_text().splitlines()
    line = next(i for i, t in enumerate(lines, 1) if t.startswith("checker:"))
    (fault,) = faults_of(problem_copy)
    assert f"judge.yaml:{line}:" in fault and "exact, close, allclose, in_place, fusion" in fault


def test_broken_yaml_names_the_line(problem_copy: Path) -> None:
    edit(problem_copy, "  - [2.1, 3]", "  - [2.1, 3")
    (fault,) = faults_of(problem_copy)
    assert "judge.yaml:" in fault and "not valid YAML" in fault


def test_a_test_the_reference_cannot_run_is_named(problem_copy: Path) -> None:
    edit(problem_copy, "  - [2.1, 3]", "  - [2.1]")
    (fault,) = faults_of(problem_copy)
    assert "test 2: the reference raised TypeError" in fault


def test_every_fault_is_reported_at_once(problem_copy: Path) -> None:
    edit(problem_copy, "time_limit: {times: 5, floor: 0.25}", "time_limit: -1\nretries: 3")
    edit(problem_copy, "{generator: power,", "{generator: powr,")
    faults = faults_of(problem_copy)
    assert len(faults) == 3
    assert any("time_limit: {times: N, floor: S}" in f for f in faults)
    assert any("unknown key 'retries'" in f for f in faults)
    assert any("each generator is" in f for f in faults)


@pytest.mark.parametrize(
    ("rule", "fault"),
    [
        ("2.0", "time_limit: {times: N, floor: S}"),  # seconds would encode one machine's speed
        ("{times: 2}", "times must be a number of at least 3"),
        ("{times: 5, floor: -1}", "floor is a number of standard seconds"),
        ("{times: 5, ceiling: 9}", "time_limit: {times: N, floor: S}"),
    ],
)
def test_a_time_limit_is_relative_to_the_reference(problem_copy: Path, rule: str,
                                                   fault: str) -> None:  # fmt: skip
    edit(problem_copy, "time_limit: {times: 5, floor: 0.25}", f"time_limit: {rule}")
    (found,) = faults_of(problem_copy)
    assert fault in found and ":4:" in found  # at the time_limit line


def test_a_problem_may_bring_its_own_generators(problem_copy: Path) -> None:
    (problem_copy / "generators.py").write_text(
        "def squares(rng, count):\n"
        "    return [[float(rng.randint(2, 9)), 2] for _ in range(count)]\n"
        "def _helper():\n    return []\n",
        encoding="utf-8",
    )
    edit(problem_copy, "generate:\n", "generate:\n  - {generator: squares, seed: 3, count: 5}\n")
    cases = load_problem(problem_copy).cases
    mine = [c for c in cases if len(c.args()) == 2 and c.args()[1] == 2]
    assert len(mine) >= 5 and all(c.expected == c.args()[0] ** 2 for c in mine)
    edit(problem_copy, "{generator: squares,", "{generator: _helper,")
    (fault,) = faults_of(problem_copy)
    assert "each generator is {generator: one of" in fault and "squares" in fault
    assert "_helper" not in fault.split("one of")[1]


@pytest.mark.parametrize(
    ("code", "fault"),
    [
        ("def bad(rng):\n    return 1 / 0\n", "generator bad: ZeroDivisionError"),
        ("def bad(rng):\n    return [1, 2]\n", "generator bad must return a list of argument"),
        ("import nothing_here\n", "generators.py: ModuleNotFoundError"),
    ],
)
def test_a_broken_generator_is_a_fault_not_a_crash(problem_copy: Path, code: str,
                                                   fault: str) -> None:  # fmt: skip
    (problem_copy / "generators.py").write_text(code, encoding="utf-8")
    edit(problem_copy, "generate:\n", "generate:\n  - {generator: bad, seed: 1}\n")
    assert any(fault in found and "judge.yaml:" in found for found in faults_of(problem_copy))
