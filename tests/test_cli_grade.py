"""`studybot grade`: the CLI contract scripts rely on (JSON shape, exit codes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.grading.problems import load_problem
from tests.fakes import REPO
from tests.grading.conftest import reference


def grade(tmp: Path, *args: str, code: str,
          encoding: str = "utf-8") -> subprocess.CompletedProcess[str]:  # fmt: skip
    solution = tmp / "solution.py"
    solution.write_bytes(code.encode(encoding))
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(REPO / "content")}
    return subprocess.run([sys.executable, "-m", "bot", "grade", *args, str(solution)],
                          capture_output=True, text=True, env=env, cwd=tmp, timeout=120,
                          check=False)  # fmt: skip


def test_json_has_the_verdict_and_every_test(tmp_path: Path) -> None:
    done = grade(tmp_path, "--problem", "graph-fusion", "--json", code=reference("graph-fusion"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "accepted"
    assert len(result["tests"]) == len(load_problem(REPO / "content/problems/graph-fusion").cases)
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
    shipped = sorted(p.parent.name for p in (REPO / "content" / "problems").glob("*/judge.yaml"))
    assert f"unknown problem 'nope'; problems: {', '.join(shipped)}" in done.stderr


def test_bad_usage_exits_two(tmp_path: Path) -> None:
    done = grade(tmp_path, code="x = 1")  # no --problem
    assert done.returncode == 2
    assert "Missing option '--problem'" in done.stderr


def test_a_file_saved_with_a_utf8_bom_is_read(tmp_path: Path) -> None:
    code = "# 旋转矩阵\n" + reference("rotate-matrix")
    done = grade(tmp_path, "--problem", "rotate-matrix", "--json", code=code, encoding="utf-8-sig")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "accepted"


def test_a_file_in_another_encoding_is_refused_clearly(tmp_path: Path) -> None:
    code = "# 旋转矩阵\ndef rotate(m):\n    pass\n"
    done = grade(tmp_path, "--problem", "rotate-matrix", code=code, encoding="gbk")
    assert done.returncode == 2
    assert "solution.py: the file is not UTF-8 text (byte 0xd0 at offset 2); save it as UTF-8" \
        in done.stderr  # fmt: skip
    done = grade(tmp_path, "--problem", "rotate-matrix", code=code, encoding="utf-16")
    assert done.returncode == 2
    assert "the file is UTF-16 text; save it as UTF-8" in done.stderr
