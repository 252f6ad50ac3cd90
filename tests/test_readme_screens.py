"""The README shows the product as it is: its console transcript is what
`python -m scripts.readme_screens` prints now (the scenario driven through the real console
at a fixed instant), and the pictures it references are there and small."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fakes import REPO

PICTURES = ("docs/me-card.png", "docs/weekly-chart.png")


def test_the_readmes_transcript_is_what_the_scenario_prints_now() -> None:
    result = subprocess.run([sys.executable, "-m", "scripts.readme_screens", "--check"],
                            cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
                            env={**os.environ, "LANG": "C.UTF-8"})  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_pictures_the_readme_shows_are_there_and_small() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for picture in PICTURES:
        assert f"]({picture})" in readme
        data = (REPO / picture).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) < 60_000
