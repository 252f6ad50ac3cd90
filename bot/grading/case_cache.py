"""Problems' computed tests, kept on disk so they are computed once, not at every start.

Generating a problem's large tests and running its reference over them takes seconds of
Python for the whole bank (random numbers in Python, the reference in Python), and both the
bot's start and `content validate` would pay it every time. The tests depend only on the
problem's judge file, its generators and its reference, and on the code that turns those
into cases; the cache key is a digest of all of them, so a change to any one computes that
problem again and a stale entry can never be read.

A file that cannot be read is a miss; a file that cannot be written costs the next start
its time, nothing else.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

DECIDING_FILES = ("judge.yaml", "generators.py", "explanation.md")
# The code that shapes cases: the loader, the built-in generators, plain-data conversion.
_HERE = Path(__file__).parent
DECIDING_CODE = (_HERE / "problems.py", _HERE / "generators.py", _HERE / "sandbox" / "plain.py")

Row = tuple[str, Any, bool]  # the arguments as JSON, the expected result, shown as a sample


def files_digest(problem: Path) -> bytes:
    """A digest of what decides a problem's tests: its judge file, generators and reference."""
    digest = hashlib.sha256()
    for name in DECIDING_FILES:
        path = problem / name
        digest.update(path.read_bytes() if path.is_file() else b"")
        digest.update(b"\0")
    return digest.digest()


def engine_digest() -> str:
    """A digest of the grading code: the sandbox, the judge, the checkers and the verdicts.
    What was proved or measured with other code is proved or measured again."""
    files = [*sorted(_HERE.rglob("*.py")), _HERE.parent / "grades.py"]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()


class CaseCache:
    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._code = hashlib.sha256(b"".join(p.read_bytes() for p in DECIDING_CODE)).digest()

    def key(self, problem: Path) -> str:
        return hashlib.sha256(self._code + files_digest(problem)).hexdigest()[:32]

    def load(self, problem_id: str, key: str) -> list[Row] | None:
        try:
            rows = json.loads((self._folder / f"{problem_id}-{key}.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return [(str(a), e, bool(s)) for a, e, s in rows]

    def save(self, problem_id: str, key: str, rows: list[Row]) -> None:
        target = self._folder / f"{problem_id}-{key}.json"
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            for stale in self._folder.glob(f"{problem_id}-*.json"):
                stale.unlink(missing_ok=True)
            temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
            temporary.replace(target)
        except OSError:
            pass
