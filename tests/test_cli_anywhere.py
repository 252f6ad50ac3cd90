"""`studybot` works from any folder: the bank is found beside the installation, the database
lives in the user's data directory, and a missing bank is named in full."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fakes import REPO
from tests.grading.conftest import reference


def studybot(folder: Path, *args: str, stdin: str = "",
             **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    environment = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_")}
    environment |= {"XDG_DATA_HOME": str(folder / "xdg"), "XDG_CACHE_HOME": str(folder / "cache"),
                    "LANG": "C.UTF-8", **env}  # fmt: skip
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=folder, env=environment,
                          input=stdin, capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip


def test_grade_console_and_doctor_run_from_an_unrelated_folder(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text(reference("fast-power"), encoding="utf-8")
    graded = studybot(tmp_path, "grade", "--problem", "fast-power", str(solution))
    assert graded.returncode == 0, graded.stderr
    assert "Accepted" in graded.stdout
    console = studybot(tmp_path, "console", stdin="/question python-gil\n")
    assert console.returncode == 0, console.stderr
    assert "GIL" in console.stdout
    assert (tmp_path / "xdg" / "studybot" / "studybot.sqlite3").is_file()
    assert not (tmp_path / "data").exists()  # nothing written where it was started
    doctor = studybot(tmp_path, "doctor")
    shipped = len(list((REPO / "content" / "problems").glob("*/judge.yaml")))
    assert f"problems: {shipped}" in doctor.stdout, doctor.stdout + doctor.stderr
    assert (tmp_path / "cache" / "studybot" / "cases").is_dir()  # computed once, kept there


def test_a_missing_bank_is_an_error_naming_its_path_and_the_setting(tmp_path: Path) -> None:
    for command in (["console"], ["doctor"], ["grade", "--problem", "fast-power", "-"],
                    ["content", "validate"]):  # fmt: skip
        done = studybot(tmp_path, *command, STUDYBOT_CONTENT_DIR="bank")
        assert done.returncode == 2, command
        assert (f"configuration error: STUDYBOT_CONTENT_DIR: the question bank "
                f"'{tmp_path / 'bank'}' does not exist") in done.stderr  # fmt: skip
