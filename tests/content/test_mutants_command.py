"""`studybot content mutants`, end to end: a copy of the fast-power problem alone in its bank,
its reference mutated by mutmut's operators and every mutant graded in the real sandbox."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakes import REPO

# The two mutants of fast-power's `if n < 0:` that only its test of 0.0 ** 0 kills: with
# n == 0 they invert x first (1 / 0.0 raises). The fixture is the shipped problem without it.
ZERO_BASE = "  - [0.0, 0]\n"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "problems" / "fast-power", root / "problems" / "fast-power")
    problem = root / "problems" / "fast-power" / "problem.md"  # alone: no related items
    problem.write_text(problem.read_text("utf-8").replace("related: [rotate-matrix]\n", ""),
                       "utf-8")  # fmt: skip
    judge = root / "problems" / "fast-power" / "judge.yaml"  # less its test of 0 ** 0
    kept = [line for line in judge.read_text("utf-8").splitlines(keepends=True)
            if not line.startswith(ZERO_BASE.rstrip("\n"))]  # fmt: skip
    judge.write_text("".join(kept), encoding="utf-8")
    return root


def edit_judge(content: Path, old: str, new: str) -> Path:
    judge = content / "problems" / "fast-power" / "judge.yaml"
    text = judge.read_text(encoding="utf-8")
    assert old in text
    judge.write_text(text.replace(old, new, 1), encoding="utf-8")
    return judge


def mutants(content: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(content),
           "STUDYBOT_DATABASE": str(content.parent / "db.sqlite3"),
           "STUDYBOT_CACHE_DIR": str(content.parent / "cache")}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bot", "content", "mutants", *args], cwd=content.parent,
        env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip


def test_tests_that_kill_every_mutant_pass_and_are_remembered(content: Path) -> None:
    edit_judge(content, "hidden:\n", f"hidden:\n{ZERO_BASE}")
    result = mutants(content, "--problem", "fast-power", "--fresh")
    assert result.returncode == 0, result.stdout + result.stderr
    header, row = result.stdout.splitlines()[:2]
    assert header.split() == ["problem", "mutants", "killed", "equivalent", "survived", "killed%"]
    assert row.split() == ["fast-power", "18", "18", "0", "0", "100.0%"]
    assert "survivor" not in result.stdout and "under 90%" not in result.stdout
    again = json.loads(mutants(content, "--json").stdout)["problems"][0]
    fresh = json.loads(mutants(content, "--json", "--fresh").stdout)["problems"][0]
    # --fresh grades them all but records its verdicts; then --fresh again ignores them
    assert again["seconds"] == 0 and fresh["seconds"] > 0
    assert again["by_verdict"] == fresh["by_verdict"] and fresh["killed"] == 18


def test_a_weak_test_suite_shows_its_survivors_and_fails(content: Path) -> None:
    judge = edit_judge(content, "samples:", "tests:")  # one sample left: no negative powers
    judge.write_text(judge.read_text("utf-8").split("tests:")[0] + "samples:\n  - [2.0, 10]\n",
                     encoding="utf-8")  # fmt: skip
    result = mutants(content)
    assert result.returncode == 1, result.stdout + result.stderr
    row = result.stdout.splitlines()[1].split()
    assert row[0] == "fast-power" and row[-2:] == ["<", "90%"] and int(row[4]) > 2
    assert "fast-power: survivor (swap_op)\n--- reference\n+++ mutant\n" in result.stdout
    assert "-        x, n = 1.0 / x, -n\n+        x, n = 1.0 * x, -n\n" in result.stdout
    assert "1 problem(s) kill under 90% of their non-equivalent mutants: fast-power" in (
        result.stdout)


def test_equivalent_mutants_are_counted_and_stale_ones_reported(content: Path) -> None:
    judge = edit_judge(content, "generate:", "equivalent_mutants:\n"
                       "  - operator: swap_op\n"
                       "    before: 'if n < 0:'\n"
                       "    after: 'if n <= 0:'\n"
                       "    reason: declared for the test\n"
                       "  - operator: swap_op\n"
                       "    before: 'result = 1.0'\n"
                       "    after: 'result = 0.0'\n"
                       "    reason: no such mutant\n"
                       "generate:")  # fmt: skip
    lines = judge.read_text("utf-8").splitlines()
    stale_line = lines.index("    reason: declared for the test") + 2
    result = mutants(content, "--json")
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem["id"] == "fast-power"
    assert (problem["mutants"], problem["killed"], len(problem["survived"])) == (18, 16, 1)
    assert problem["equivalent"] == [{"operator": "swap_op", "before": "if n < 0:",
                                      "after": "if n <= 0:",
                                      "reason": "declared for the test"}]  # fmt: skip
    (survivor,) = problem["survived"]
    assert survivor["after"] == "if n < 1:" and "+    if n < 1:\n" in survivor["diff"]
    assert problem["killed_ratio"] == round(16 / 17, 4) and problem["passes"] is True
    assert sum(problem["by_verdict"].values()) == 17 and problem["by_verdict"]["accepted"] == 1
    assert problem["stale"] == [{"operator": "swap_op", "before": "result = 1.0",
                                 "after": "result = 0.0", "line": stale_line}]  # fmt: skip
    assert f"{judge}:{stale_line}: declared equivalent mutant is not made" in result.stderr
    assert result.returncode == 0  # 16 of 17 killed: 94%
