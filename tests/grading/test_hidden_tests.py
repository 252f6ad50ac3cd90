"""Hidden tests stay hidden even from code that escaped the restricted layer.

A plain-Python solution (no restricted compiler: `studybot sandbox exec --problem`) searches
its worker's heap and frames on every test. It must find its own input and nothing of any
test still to come, input or expected result: the parent hands inputs out one at a time, on
request, and keeps every expected result to itself. (What a worker was given for earlier
tests it may have kept; a hostile one would.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.grading.problems import Case, Problem
from tests.fakes import REPO

HUNT = Path(__file__).with_name("payloads") / "hunt_inputs.py"


def fingerprint(matrix: list[list[int]]) -> int:
    """As the payload computes it (tuple-of-int hashes are not randomised in CPython)."""
    return hash(tuple(tuple(row) for row in matrix))


@pytest.fixture(scope="module")
def hunted() -> list[dict[str, Any]]:
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(REPO / "content")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "exec", "--json", "--problem", "rotate-matrix",
         str(HUNT)], capture_output=True, text=True, env=env, cwd=REPO, timeout=60, check=True,
    )  # fmt: skip
    tests: list[dict[str, Any]] = json.loads(done.stdout)["tests"]
    return tests


def test_each_test_finds_its_own_input_and_no_other(
    hunted: list[dict[str, Any]], problems: dict[str, Problem]
) -> None:
    cases = problems["rotate-matrix"].cases
    assert [t["i"] for t in hunted] == list(range(len(cases)))
    for test, case in zip(hunted, cases, strict=True):
        assert test["status"] == "ok", test
        found = set(test["value"])
        assert fingerprint(case.args()[0]) in found  # the search does find test data
        later = {fingerprint(c.args()[0]) for c in telling(cases) if c.number > case.number
                 and c.args() != case.args()}  # fmt: skip
        assert not found & later, f"test {case.number} saw a later test's input"


def test_no_expected_result_ever_reaches_the_worker(
    hunted: list[dict[str, Any]], problems: dict[str, Problem]
) -> None:
    cases = problems["rotate-matrix"].cases
    # rotate-matrix's expected results are the rotated matrices (checked in place).
    for test, case in zip(hunted, cases, strict=True):
        expected = {fingerprint(_rotated(c.args()[0])) for c in telling(cases)
                    if c.number > case.number and c.args() != case.args()}  # fmt: skip
        assert not set(test["value"]) & expected, case.number


def telling(cases: tuple[Case, ...]) -> list[Case]:
    """Cases whose matrices could only come from the test data: 3 x 3 and larger (a [[1]]
    or a 2 x 2 may exist in the interpreter's heap for reasons of its own)."""
    return [c for c in cases if len(c.args()[0]) >= 3]


def _rotated(matrix: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*matrix[::-1], strict=True)]
