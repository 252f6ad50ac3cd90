"""How grades look as `Reply`s.

Samples show input, expected and actual values; hidden tests only pass or fail (with the kind
of failure the judge kept, never their data: see bot/grading/judge.py). Everything a solution
wrote or raised is echoed through `echo`: cut to a length first (a 10 MB compile error never
reaches an adapter, whoever built the Grade), then `neutralize`d, inside code blocks it cannot
close, or, in one line, mention nobody on any platform.
"""

from __future__ import annotations

import re

from bot.grades import Grade, TestResult, Verdict
from bot.i18n import said, t
from bot.text.code import neutralize
from bot.types import Field, Locale, Reply

MARKS = {Verdict.ACCEPTED: "✅", Verdict.SKIPPED: "⏭️"}
OUTPUT_SHOWN = 1500
MESSAGE_SHOWN = 1500  # characters of a compile error or error message
LINE_SHOWN = 300  # characters of a test's message, input, expected or actual value
NOTE_SHOWN = 200
# The sandbox's words when it refuses an import (bot/grading/sandbox/policy.py).
IMPORT_REFUSED = re.compile(r"^ImportError: import of '([\w.]{1,80})' is not allowed; "
                            r"allowed: ([\w, ]{1,300}?)(?: \(line \d+\))?$")  # fmt: skip


def grade_reply(grade: Grade, locale: Locale, title: str | None) -> Reply:
    verdict = t(locale, f"verdict.{grade.verdict.value}")
    mark = MARKS.get(grade.verdict, "❌")
    if title is None:  # a snippet is not judged: "accepted" only means it ran to the end
        if grade.verdict is Verdict.ACCEPTED:
            verdict = t(locale, "grade.run_finished")
        heading = f"{mark} " + t(locale, "grade.run_title", verdict=verdict)
    else:
        heading = f"{mark} " + t(locale, "grade.title", verdict=verdict, problem=title)
    parts = [*_message(grade, locale), *_tests(grade, locale),
             *_output(grade, locale, title is None)]  # fmt: skip
    # A verdict is a result, not a mistake in using the bot: always the normal tone.
    return Reply(title=heading, body="\n\n".join(p for p in parts if p),
                 fields=_usage(grade, locale), footer=_notes(grade))  # fmt: skip


def echo(text: str, limit: int) -> str:
    """Text that came from a solution, as it may be shown: at most `limit` characters, inert."""
    return neutralize(text if len(text) <= limit else text[: limit - 1] + "…")


def _notes(grade: Grade) -> str | None:
    return " · ".join(echo(note, NOTE_SHOWN) for note in grade.notes[:5]) or None


def _message(grade: Grade, locale: Locale) -> list[str]:
    if not grade.message or (grade.tests and grade.verdict is not Verdict.COMPILE_ERROR
                             and any(t.message == grade.message for t in grade.tests)):  # fmt: skip
        return []
    if grade.reason is not None:  # the grader's words, in the reader's language; their
        return [echo(said(grade.reason, locale), MESSAGE_SHOWN)]  # values may be the code's
    return [f"```\n{echo(grade.message, MESSAGE_SHOWN)}\n```", *_import_note(grade, locale)]


def _import_note(grade: Grade, locale: Locale) -> list[str]:
    """The sandbox's refusal of an import is Python's ImportError, in English as Python
    speaks; a Chinese reader also gets it in Chinese."""
    found = IMPORT_REFUSED.search(grade.message or "")
    if locale is not Locale.ZH or found is None:
        return []
    return [t(locale, "grade.import_refused", module=neutralize(found[1]), allowed=found[2])]


def _tests(grade: Grade, locale: Locale) -> list[str]:
    if not grade.tests:
        return []
    lines = [t(locale, "grade.summary", passed=grade.passed, total=len(grade.tests))]
    lines += [_sample(test, locale) for test in grade.tests if test.sample]
    hidden = [test for test in grade.tests if not test.sample]
    if hidden:
        passed = sum(h.verdict is Verdict.ACCEPTED for h in hidden)
        lines.append(t(locale, "grade.hidden_summary", passed=passed, total=len(hidden)))
        failed = next((h for h in hidden if h.verdict not in (Verdict.ACCEPTED,
                                                              Verdict.SKIPPED)), None)  # fmt: skip
        if failed is not None:
            lines.append(_headline(failed, locale))
    return ["\n".join(lines)]


def _headline(test: TestResult, locale: Locale) -> str:
    kind = t(locale, "grade.sample" if test.sample else "grade.hidden")
    mark = MARKS.get(test.verdict, "❌")
    line = f"{mark} {t(locale, 'grade.test', number=test.number)} ({kind}): "
    line += t(locale, f"verdict.{test.verdict.value}")
    if test.cpu_ms and test.cpu_ms >= 0.1 and test.verdict is Verdict.ACCEPTED:
        # (below the clock's resolution it says nothing)
        line += " · " + t(locale, "grade.ms", ms=f"{test.cpu_ms:.1f}")
    if test.message and test.verdict is not Verdict.ACCEPTED and not _restates(test):
        words = said(test.reason, locale) if test.reason else test.message
        line += f" — {echo(words, LINE_SHOWN)}"
    return line


def _restates(test: TestResult) -> bool:
    """Whether the test's message only says its verdict again ("time limit exceeded")."""
    text = (test.message or "").strip().rstrip(".").lower()
    return text in {test.verdict.value.replace("_", " "), "memoryerror"}


def _sample(test: TestResult, locale: Locale) -> str:
    line = _headline(test, locale)
    if test.verdict in (Verdict.ACCEPTED, Verdict.SKIPPED):
        return line
    rows = [(t(locale, "grade.input"), test.input), (t(locale, "grade.expected"), test.expected),
            (t(locale, "grade.got"), test.got)]  # fmt: skip
    shown = "\n".join(f"{label}: {echo(value, LINE_SHOWN)}" for label, value in rows if value)
    return f"{line}\n```\n{shown}\n```"


def _output(grade: Grade, locale: Locale, always: bool) -> list[str]:
    if not grade.output and not always:
        return []
    text = neutralize(grade.output[:OUTPUT_SHOWN].rstrip("\n")) or t(locale, "grade.no_output")
    dropped = grade.output_dropped + max(len(grade.output) - OUTPUT_SHOWN, 0)
    cut = f"\n{t(locale, 'grade.output_cut', dropped=dropped)}" if dropped else ""
    return [f"{t(locale, 'grade.output')}:\n```\n{text}\n```{cut}"]


def _cpu(grade: Grade, locale: Locale) -> str:
    """CPU time, and the limit it was judged against where the grade knows it: limits are
    measured per grader, so the figure alone would not say how close it came."""
    assert grade.cpu_ms is not None
    if grade.limit_ms is None or not grade.reference_ms:
        return t(locale, "grade.ms", ms=f"{grade.cpu_ms:.0f}")
    return t(locale, "grade.cpu_of_limit", cpu=f"{grade.cpu_ms:.0f}", limit=f"{grade.limit_ms:.0f}",
             ratio=f"{grade.limit_ms / grade.reference_ms:.0f}",
             reference=f"{grade.reference_ms:.0f}")  # fmt: skip


def _usage(grade: Grade, locale: Locale) -> tuple[Field, ...]:
    fields = []
    if grade.cpu_ms is not None:
        fields.append(Field(t(locale, "grade.cpu"), _cpu(grade, locale)))
    if grade.peak_kb is not None:
        peak = f"{grade.peak_kb / 1024:.1f} MiB"
        if grade.verdict is Verdict.MEMORY_LIMIT_EXCEEDED:
            # The peak is what was in use; the allocation that broke the limit was refused,
            # so it never shows in it. Say so, or a small figure reads as a wrong verdict.
            peak = t(locale, "grade.memory_refused", peak=peak)
        fields.append(Field(t(locale, "grade.memory"), peak))
    return tuple(fields)
