"""Mistakes members report in the bank's explanations, and what moderators do with them.

A "Report a mistake" button sits under every explanation (`/answer`, a daily post's reveal,
a review's); it opens a form (`forms.py`) whose submission runs `/report`. A report belongs to
the server it was made in (`ChannelRef.server`) and waits there, open, until a moderator of
that server resolves it from `/reports` with a note, which goes to the reporter as a direct
message (`service.py`). The bank's maintainers read the reports on shared-bank items, all
servers together, with `studybot content feedback` (bot/cli/content.py).

What a member writes is untrusted: capped (`TEXT_LIMIT`, `QUOTE_LIMIT`, `NOTE_LIMIT`),
rate-limited per member (`PER_HOUR`, counted in the database, so every process agrees), and
shown to moderators with mentions neutralised and Markdown escaped (`views.py`).
"""

from __future__ import annotations

TEXT_LIMIT = 1000  # characters of "what is wrong"
QUOTE_LIMIT = 300  # characters of the sentence quoted
NOTE_LIMIT = 500  # characters of a moderator's note to the reporter
PER_HOUR = 5  # reports one member may file in any hour
