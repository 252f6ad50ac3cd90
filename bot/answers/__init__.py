"""Answers from the group: members explain a server's open questions, moderators adopt one.

A server's item (`bot.store.community`) drafted from an interview report often has no
explanation (a bare question, a 手撕 problem: its explanation is empty or the importer's
`NO_ANSWER` note). Such an item is **open** (`is_open`): wherever it is shown (`/question`,
`/answer`, a daily post, a `/review` card, `/questions`) it says so and carries an "Answer
this" button, whose form (`forms.py`) submits `/contribute <id> <text>` (typed as such in the
console and Slack's `/study`).

An answer is stored in the server it was given in (`bot.store.answers`), the member thanked
privately, and the answer posted for the group (`service.py`): in the thread of the item's
latest daily post in that server when there is one (in that schedule's language), else in the
channel it was given in (in the server's language where the platform says one), its author
named, with a "Use as explanation" button. A moderator of that server (checked on every
click) adopts it: it becomes the item's explanation (that server's row only), re-indexed for
search, shown with "Answer by <name>" wherever it is shown (`Answers.credit`: `/answer`, the
daily answer post, a review's explanation), and the item is no longer open.
`/answers <id>` lists an item's answers not yet adopted to its moderators.

What a member writes is untrusted: capped (`TEXT_LIMIT`), rate-limited per member (`PER_HOUR`,
counted in the database on the injected clock, so every process agrees), mentions
neutralised and Markdown kept (it is an explanation). `/forget me` deletes a member's answers
not adopted; an adopted one is the server's explanation now and stays, its author no longer
named ("Answer by a former member").
"""

from __future__ import annotations

from bot.community.plan import NO_ANSWER
from bot.store.community import PREFIX
from bot.types import Question

TEXT_LIMIT = 3000  # characters of an answer
PER_HOUR = 5  # answers one member may give in any hour
LISTED = 5  # answers `/answers` shows at once


def is_open(q: Question) -> bool:
    """Whether `q` is a server's item still waiting for an explanation."""
    explained = q.answer.strip() not in ("", NO_ANSWER) or bool((q.answer_en or "").strip())
    return q.id.startswith(PREFIX) and not explained
