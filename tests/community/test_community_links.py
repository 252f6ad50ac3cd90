"""A server's items meet the rest of the bank's features, through open_app on both engines:
reports members share count towards "asked" in their own server only (the report an item
was drafted from once, however often it is shared), and a server's item takes reported
mistakes where it is served, nowhere else."""

from __future__ import annotations

import re

from bot.app import App
from bot.types import Reply, Tone
from tests.community.test_community_bank import (
    MIXED,
    MOD,
    NIO,
    THERE,
    approved,
    line,
    share,
)

ASKED = re.compile(r"Asked in (\d+) reports?")


def asked(reply: Reply) -> int:
    """The card's "Asked in N reports" count (0 when the card has no such line)."""
    found = [ASKED.search(f.value) for f in reply.fields]
    return next((int(m.group(1)) for m in found if m), 0)


async def test_shared_reports_count_in_their_server_only(app: App) -> None:
    gpu = await approved(app)
    await share(app, NIO)  # the report it was drafted from, shared again
    assert asked(await line(app, f"/question {gpu}")) == 1
    before_here = asked(await line(app, "/question python-gil"))
    before_there = asked(await line(app, "/question python-gil", where=THERE))
    await share(app, MIXED)  # asks python-gil
    assert asked(await line(app, "/question python-gil")) == before_here + 1
    assert asked(await line(app, "/question python-gil", where=THERE)) == before_there
    await share(app, MIXED, who=MOD)  # the same report again: still one more
    assert asked(await line(app, "/question python-gil")) == before_here + 1


async def test_a_servers_item_takes_reports_where_it_is_served(app: App) -> None:
    gpu = await approved(app)
    filed = await line(app, f"/report {gpu} the comparison table has the wrong core count")
    assert filed.tone is Tone.INFO, filed.body
    listed = await line(app, "/reports", MOD)
    assert "core count" in listed.body and gpu in str(listed.fields), listed
    elsewhere = await line(app, f"/report {gpu} wrong", where=THERE)
    assert elsewhere.tone is Tone.USER_ERROR, elsewhere.body
    assert "core count" not in str(await line(app, "/reports", MOD, where=THERE))
