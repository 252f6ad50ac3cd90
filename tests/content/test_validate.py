"""Validation names the file, the line and the fault, for every fault at once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.content.bank import read_bank
from bot.errors import ContentError
from tests.fakes import REPO, write_question


def faults_of(root: Path) -> list[str]:
    with pytest.raises(ContentError) as caught:
        read_bank(root)
    return [str(f).replace(str(root) + "/", "") for f in caught.value.faults]


def test_every_fault_is_reported_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "bad-one.md").write_text(
        "---\n"
        "id: bad-one\n"
        "title: 标题\n"
        "kind: essay\n"
        "difficulty: medium\n"
        "topics: [gpu, GPU Stuff]\n"
        "sources:\n"
        "  - document: a.txt\n"
        "  - title: only a title\n"
        "colour: blue\n"
        "---\n"
        "body\n",
        encoding="utf-8",
    )
    assert faults_of(tmp_path) == [
        "questions/bad-one.md:10: unknown key 'colour' (allowed: id, title, kind, difficulty, "
        "topics, title_en, sources, source, related, reviewed, status, quiz, signature, hints)",
        "questions/bad-one.md:4: 'kind' is 'essay'; expected one of: qa, coding",
        "questions/bad-one.md:6: topic 'GPU Stuff' is not a slug",
        "questions/bad-one.md:8: source 1: missing 'title'",
        "questions/bad-one.md:9: source 2: missing 'document'",
    ]


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("no front matter\n", "1: file must start with a '---' front matter block"),
        ("---\nid: x\n", "1: front matter is not closed by a '---' line"),
        ("---\nid: [unclosed\ntitle: t\n---\nbody\n", "3: invalid YAML"),
        ("---\n- a list\n---\nbody\n", "2: front matter must be a mapping"),
        ("---\nid: x\nid: y\n---\nbody\n", "3: duplicate key 'id'"),
    ],
)
def test_malformed_front_matter(tmp_path: Path, text: str, fault: str) -> None:
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "x.md").write_text(text, encoding="utf-8")
    assert faults_of(tmp_path)[0].startswith(f"questions/x.md:{fault}")


def test_id_must_match_file_name_and_body_must_not_be_empty(tmp_path: Path) -> None:
    path = write_question(tmp_path, "right-name", "标题", "解析")
    path.rename(tmp_path / "questions" / "wrong-name.md")
    write_question(tmp_path, "empty", "标题", "")
    assert faults_of(tmp_path) == [
        "questions/empty.md:12: the body (the explanation) is empty",
        "questions/wrong-name.md:2: id 'right-name' must match its file or folder name "
        "'wrong-name'",
    ]


def test_coding_problems_need_a_signature_and_an_explanation(tmp_path: Path) -> None:
    write_question(tmp_path, "no-sig", "题", "思路", kind="coding")
    write_question(tmp_path, "no-expl", "题", "思路", kind="coding", signature="def f() -> None")
    (tmp_path / "problems" / "no-expl" / "explanation.md").unlink()
    assert faults_of(tmp_path) == [
        "problems/no-expl/explanation.md:1: missing: every problem needs an explanation",
        "problems/no-sig/problem.md:1: a coding problem needs a 'signature'",
    ]


def test_invalid_utf8_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "questions").mkdir()
    (tmp_path / "questions" / "gbk.md").write_bytes("---\ntitle: 显存\n---\n".encode("gbk"))
    assert faults_of(tmp_path)[0].startswith("questions/gbk.md:1: not valid UTF-8")


def run_cli(*args: str, content: Path, tmp: Path,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:  # fmt: skip
    env = {**os.environ, "STUDYBOT_CONTENT_DIR": str(content),
           "STUDYBOT_DATABASE": str(tmp / "db.sqlite3"),
           "STUDYBOT_CACHE_DIR": str(tmp / "cache")}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=tmp, env=env, capture_output=True,
        text=True, timeout=timeout, check=False,
    )  # fmt: skip


def test_validate_command_exits_1_listing_faults(tmp_path: Path) -> None:
    root = tmp_path / "content"
    write_question(root, "fine", "标题", "解析")
    (root / "questions" / "broken.md").write_text("---\nid: broken\n", encoding="utf-8")
    result = run_cli("content", "validate", content=root, tmp=tmp_path)
    assert result.returncode == 1
    assert f"{root}/questions/broken.md:1: front matter is not closed" in result.stderr


def test_validate_command_accepts_the_bundled_bank(tmp_path: Path) -> None:
    # The whole bank measured and proved from a cold cache: minutes on a busy machine.
    result = run_cli("content", "validate", content=REPO / "content", tmp=tmp_path, timeout=1200)
    assert result.returncode == 0, result.stderr
    shipped = len(read_bank(REPO / "content").questions)
    *margins, last = result.stdout.splitlines()
    assert last.startswith(f"ok: {shipped} questions")
    problems = [p for p in (REPO / "content" / "problems").iterdir() if p.is_dir()]
    assert f"{len(problems)} gradable problems" in last
    assert sorted(line.split(":")[0] for line in margins) == sorted(p.name for p in problems)


def test_validate_json_shows_every_margin(tmp_path: Path) -> None:
    """The reference's share of its limit, and how far past the limit a too-slow solution
    was still running: the limit is 3x or more the reference's time here, and the naive
    loop ran its whole threefold allowance without finishing."""
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "problems" / "fast-power", root / "problems" / "fast-power")
    problem = root / "problems" / "fast-power" / "problem.md"
    problem.write_text(problem.read_text("utf-8").replace("related: [rotate-matrix]\n", ""),
                       "utf-8")  # fmt: skip
    result = run_cli("content", "validate", "--json", content=root, tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is True and report["faults"] == []
    (power,) = report["problems"]
    assert power["id"] == "fast-power"
    assert 0 < power["reference_ran_ms"] <= power["limit_ms"] / 3
    assert power["limit_ms"] >= 5 * power["reference_ms"]  # its judge file says times: 5
    wrongs = {Path(w["file"]).name: w for w in power["wrongs"]}
    assert wrongs.keys() == {"ignores-negative.py", "linear-loop.py"}
    slow = wrongs["linear-loop.py"]
    assert slow["expected"] == slow["verdict"] == "time_limit_exceeded"
    assert slow["limit_ms"] == pytest.approx(3 * power["limit_ms"])
    assert slow["ran_ms"] >= 0.99 * slow["limit_ms"]
    assert wrongs["ignores-negative.py"]["verdict"] == "wrong_answer"
    again = json.loads(run_cli("content", "validate", "--json", content=root, tmp=tmp_path).stdout)
    assert again["problems"] == report["problems"]  # remembered, with what it saw


def test_validate_command_checks_judge_files(tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    judge = root / "problems" / "rotate-matrix" / "judge.yaml"
    judge.write_text(judge.read_text(encoding="utf-8").replace("function: rotate",
                                                               "function: turn"))  # fmt: skip
    result = run_cli("content", "validate", content=root, tmp=tmp_path)
    assert result.returncode == 1
    assert f"{judge}:3: the reference in explanation.md defines no 'turn'" in result.stderr


def test_proofs_are_remembered_until_what_they_prove_changes(tmp_path: Path) -> None:
    root = tmp_path / "content"
    shutil.copytree(REPO / "content" / "problems" / "fast-power", root / "problems" / "fast-power")
    problem = root / "problems" / "fast-power" / "problem.md"  # alone: no related items
    problem.write_text(problem.read_text("utf-8").replace("related: [rotate-matrix]\n", ""),
                       "utf-8")  # fmt: skip
    first = run_cli("content", "validate", content=root, tmp=tmp_path)
    assert "(0 of 3 proofs remembered)" in first.stdout, first.stderr
    again = run_cli("content", "validate", content=root, tmp=tmp_path)
    assert "(3 of 3 proofs remembered)" in again.stdout
    wrong = root / "problems" / "fast-power" / "wrong" / "linear-loop.py"
    wrong.write_text(wrong.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    edited = run_cli("content", "validate", content=root, tmp=tmp_path)
    assert "(2 of 3 proofs remembered)" in edited.stdout
    judge = root / "problems" / "fast-power" / "judge.yaml"
    judge.write_text(judge.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    retested = run_cli("content", "validate", content=root, tmp=tmp_path)
    assert "(0 of 3 proofs remembered)" in retested.stdout
    fresh = run_cli("content", "validate", "--fresh", content=root, tmp=tmp_path)
    assert fresh.returncode == 0 and "proofs remembered" not in fresh.stdout
