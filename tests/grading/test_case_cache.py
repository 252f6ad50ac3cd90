"""Computed tests are read back, not computed again, for exactly the same files and code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.grading.case_cache import CaseCache
from bot.grading.problems import load_problem
from tests.fakes import REPO


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    copy = tmp_path / "rotate-matrix"
    shutil.copytree(REPO / "content" / "problems" / "rotate-matrix", copy)
    return copy


def test_a_second_load_reads_the_same_cases(folder: Path, tmp_path: Path) -> None:
    cache = CaseCache(tmp_path / "cache")
    computed = load_problem(folder, cache)
    (stored,) = (tmp_path / "cache").glob("rotate-matrix-*.json")
    read = load_problem(folder, cache)
    assert [(c.number, c.args_json, c.expected, c.sample) for c in read.cases] == [
        (c.number, c.args_json, c.expected, c.sample) for c in computed.cases
    ]
    assert read.cases[0].args() == computed.cases[0].args()  # decoded on demand
    # Read, not computed: a reference that can no longer run does not matter to a hit.
    stored.write_text(stored.read_text("utf-8").replace("[[7, 4, 1]", "[[0, 0, 0]"), "utf-8")
    assert load_problem(folder, cache).cases[0].expected[0] == [0, 0, 0]


def test_any_change_to_the_deciding_files_computes_again(folder: Path, tmp_path: Path) -> None:
    cache = CaseCache(tmp_path / "cache")
    load_problem(folder, cache)
    before = cache.key(folder)
    judge = folder / "judge.yaml"
    judge.write_text(judge.read_text("utf-8").replace("sizes: [", "sizes: [4, "), "utf-8")
    assert cache.key(folder) != before
    assert any(len(c.args()[0]) == 4 for c in load_problem(folder, cache).cases)
    assert len(list((tmp_path / "cache").glob("rotate-matrix-*.json"))) == 1  # stale one gone


def test_an_unreadable_cache_is_a_miss_and_an_unwritable_one_no_error(
    folder: Path, tmp_path: Path
) -> None:
    cache = CaseCache(tmp_path / "cache")
    load_problem(folder, cache)
    (stored,) = (tmp_path / "cache").glob("*.json")
    stored.write_text("{not json", "utf-8")
    assert len(load_problem(folder, cache).cases) > 8
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x", "utf-8")
    assert len(load_problem(folder, CaseCache(blocked / "cache")).cases) > 8
