"""Odd input in the console gets a reply that says what is wrong and what to type: extra
words, a UTC offset for a time, a command missing its one choice, a page past the end,
full-width digits (as Chinese input methods type them), a pause or resume twice; and the
README's own examples run."""

from __future__ import annotations

import re
from pathlib import Path

from tests.adapters.console.test_console import studybot
from tests.fakes import REPO


def replies(output: str) -> list[str]:
    """The console's replies, one string each (header and body)."""
    return [block.strip() for block in output.split("\n└") if block.strip()]


def test_odd_input_gets_a_reply_that_helps(tmp_path: Path) -> None:
    script = [
        "/question python-gil extra words here",
        "/schedule set -01:00 UTC",
        "/export",
        "/questions page:12345678901234567890",
        "/questions page:999",
    ]
    out = replies(studybot(["console"], "\n".join(script) + "\n", tmp_path).stdout)
    extra, offset, export, huge, past = out
    assert "Too many words for `/question`: `extra words here` is left over" in extra, extra
    assert "kind" not in extra.split("Usage")[0]
    assert "time: '-01:00' is not a time of day" in offset and "Etc/GMT+1" in offset, offset
    assert "`/export` needs one of: `scores`, e.g. `/export scores`." in export, export
    assert "12345678901234567890" not in huge and "There is no page 12345678…" in huge, huge
    pages = re.search(r"this list has (\d+) page\(s\); the last is `page:(\d+)`", past)
    assert pages is not None and pages[1] == pages[2], past
    assert f"the last is `page:{pages[1]}`" in huge


def test_full_width_digits_are_read_wherever_a_number_is(tmp_path: Path) -> None:
    script = [
        "/hint fast-power level:２",
        "/questions page：２",
        "/schedule set ０９：３０ UTC answer:+２h",
        "/review retention:０.９",
    ]
    out = replies(studybot(["console"], "\n".join(script) + "\n", tmp_path).stdout)
    hint, page, schedule, retention = out
    assert "Hint 2 of 3" in hint, hint
    assert "Page 2 of" in page, page
    assert "09:30 UTC" in schedule and "+2h" in schedule, schedule
    assert "Desired retention here is now 0.9" in retention, retention


def test_pausing_or_resuming_twice_says_it_already_is(tmp_path: Path) -> None:
    script = ["/schedule set 09:00 UTC", *["/schedule pause"] * 2, *["/schedule resume"] * 2]
    out = replies(studybot(["console"], "\n".join(script) + "\n", tmp_path).stdout)
    assert "Paused." in out[1] and "already paused" in out[2], out[2]
    assert "Resumed." in out[3] and "already on" in out[4], out[4]


def test_the_readmes_questions_example_shows_its_page(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"^\| `/questions` \|.*`(/questions [^`]*page:2)`", readme, re.M)
    (reply,) = replies(studybot(["console"], example + "\n", tmp_path).stdout)
    assert "Page 2 of" in reply and "⚠" not in reply, reply
