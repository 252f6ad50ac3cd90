"""How a grade reads: no verdict said twice, a refused allocation explained."""

from __future__ import annotations

from bot.commands.verdicts import grade_reply
from bot.grades import Grade, Reason, Verdict
from bot.grades import TestResult as Result  # (not a pytest class)
from bot.i18n import english
from bot.types import Locale


def test_a_verdict_is_not_said_twice() -> None:
    tle = Result(2, False, Verdict.TIME_LIMIT_EXCEEDED, "time limit exceeded")
    slow = grade_reply(Grade("p", Verdict.TIME_LIMIT_EXCEEDED, (tle,)), Locale.EN, "P")
    assert "❌ Test 2 (hidden): Time limit exceeded\n" in slow.body + "\n"
    wrong = Result(1, False, Verdict.WRONG_ANSWER, "returned a copy")
    kept = grade_reply(Grade("p", Verdict.WRONG_ANSWER, (wrong,)), Locale.EN, "P")
    assert "Wrong answer — returned a copy" in kept.body


def test_a_memory_verdict_explains_its_small_peak() -> None:
    mle = Result(1, True, Verdict.MEMORY_LIMIT_EXCEEDED, "MemoryError", "[1]", "1", None)
    grade = Grade("p", Verdict.MEMORY_LIMIT_EXCEEDED, (mle,), peak_kb=13 * 1024)
    explained = {
        Locale.EN: "13.0 MiB in use when an allocation past the limit was refused",
        Locale.ZH: "申请超出限制的内存被拒绝时已使用 13.0 MiB",
    }
    for locale, text in explained.items():
        reply = grade_reply(grade, locale, "P")
        assert "— MemoryError" not in reply.body
        assert text in [f.value for f in reply.fields]


def test_the_graders_own_words_are_in_the_readers_language() -> None:
    copy = Reason.of("reason.copy_not_in_place")
    wrong = Result(3, False, Verdict.WRONG_ANSWER, english(copy), reason=copy)
    missing = Reason.of("reason.define", function="rotate")
    grades = {
        "wrong": Grade("p", Verdict.WRONG_ANSWER, (wrong,), message=english(copy), reason=copy),
        "missing": Grade("p", Verdict.COMPILE_ERROR, message=english(missing), reason=missing),
    }
    zh = {name: grade_reply(g, Locale.ZH, "P").body for name, g in grades.items()}
    assert "返回了旋转后的副本，但参数本身没有改变：请原地旋转" in zh["wrong"]
    assert zh["missing"] == "请定义名为 `rotate` 的函数"
    en = grade_reply(grades["missing"], Locale.EN, "P").body
    assert en == "define a function named `rotate`"
