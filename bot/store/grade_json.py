"""A `Grade` as JSON in the `submissions.grade` column, and back.

A grader on another machine hands the whole verdict (every test, its message, the output) to
the bot process that waits for it through this column, so the reply is the one in-process
grading would have given. The shape is `dataclasses.asdict`'s (what `studybot grade --json`
prints): verdicts as their string values, a `Reason`'s values as [name, value] pairs.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from bot.grades import Grade, Reason, TestResult, Verdict


def dumps(grade: Grade) -> str:
    return json.dumps(dataclasses.asdict(grade), ensure_ascii=False, separators=(",", ":"))


def loads(raw: str) -> Grade:
    d = json.loads(raw)
    return Grade(
        d["problem"], Verdict(d["verdict"]), tuple(_test(t) for t in d["tests"]), d["message"],
        d["output"], d["output_dropped"], tuple(d["notes"]), d["cpu_ms"], d["peak_kb"],
        _reason(d["reason"]), d.get("limit_ms"), d.get("reference_ms"),
    )  # fmt: skip
    # (limit_ms and reference_ms are absent from grades stored before limits were measured)


def _test(d: dict[str, Any]) -> TestResult:
    return TestResult(d["number"], d["sample"], Verdict(d["verdict"]), d["message"], d["input"],
                      d["expected"], d["got"], d["cpu_ms"], _reason(d["reason"]))  # fmt: skip


def _reason(d: dict[str, Any] | None) -> Reason | None:
    if d is None:
        return None
    return Reason(d["key"], tuple((str(k), str(v)) for k, v in d["values"]))
