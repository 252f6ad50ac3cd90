"""The shipped bank's tests catch mistakes: every problem kills at least 90% of the mutants
of its reference that compute something else (`studybot content mutants`, the command the
bank's maintainers run, graded in the real sandbox). A test suite weakened by an edit fails
here, with the survivors' diffs in the message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fakes import REPO

THRESHOLD = 0.9


def test_every_problem_kills_nine_in_ten_of_its_mutants(tmp_path: Path) -> None:
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
           "STUDYBOT_DATABASE": str(tmp_path / "db.sqlite3"),
           "STUDYBOT_CACHE_DIR": str(tmp_path / "cache")}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "bot", "content", "mutants", "--json"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=3600, check=False,
    )  # fmt: skip
    report = json.loads(result.stdout)
    shipped = {p.name for p in (REPO / "content" / "problems").iterdir() if p.is_dir()}
    assert {p["id"] for p in report["problems"]} == shipped
    weak = {
        p["id"]: [s["diff"] for s in p["survived"]]
        for p in report["problems"]
        if not p["passes"] or p["killed_ratio"] < THRESHOLD
    }
    assert weak == {}, "\n".join(f"{k}:\n" + "\n".join(v) for k, v in weak.items())
    assert result.returncode == 0, result.stderr
    assert all(p["mutants"] > len(p["equivalent"]) for p in report["problems"])
