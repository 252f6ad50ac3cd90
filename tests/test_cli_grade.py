"""`studybot grade`: the CLI contract scripts rely on (JSON shape, exit codes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fakes import REPO
from tests.grading.conftest import reference


def grade(tmp: Path, *args: str, code: str) -> subprocess.CompletedProcess[str]:
    solution = tmp / "solution.py"
    solution.write_text(code, encoding="utf-8")
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(REPO / "content")}
    return subprocess.run([sys.executable, "-m", "bot", "grade", *args, str(solution)],
                          capture_output=True, text=True, env=env, cwd=tmp, timeout=120,
                          check=False)  # fmt: skip


def test_json_has_the_verdict_and_every_test(tmp_path: Path) -> None:
    done = grade(tmp_path, "--problem", "graph-fusion", "--json", code=reference("graph-fusion"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "accepted"
    assert len(result["tests"]) == 49
    assert {t["verdict"] for t in result["tests"]} == {"accepted"}


def test_a_wrong_verdict_still_exits_zero(tmp_path: Path) -> None:
    code = "def my_pow(x, n):\n    return pow(x, n)"
    done = grade(tmp_path, "--problem", "fast-power", code=code)
    assert done.returncode == 0, done.stderr
    assert "Rule violation: fast-power" in done.stdout
    assert "`pow` (line 2) is not allowed here" in done.stdout


def test_an_unknown_problem_exits_two(tmp_path: Path) -> None:
    done = grade(tmp_path, "--problem", "nope", code="x = 1")
    assert done.returncode == 2
    known = "fast-power, graph-fusion, rotate-matrix"
    assert f"unknown problem 'nope'; problems: {known}" in done.stderr


def test_bad_usage_exits_two(tmp_path: Path) -> None:
    done = grade(tmp_path, code="x = 1")  # no --problem
    assert done.returncode == 2
    assert "Missing option '--problem'" in done.stderr
