"""The community bank on Discord, through the real discord.py client and the local Discord:
a member imports a report as an attachment (fetched from the local CDN) or through the
`/import` form; a moderator (Manage Messages) pages the drafts with their buttons, edits one
through the form the Edit button opens filled with its values, and approves it; the item is
then served and searched in that server only. A member without the right is refused on
every click and every form."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import App
from tests.adapters.discord.conftest import HeldCore, Running, connected
from tests.adapters.discord.stub import APP_ID, DiscordStub
from tests.adapters.discord.test_interactions import COMMAND, answered, slash
from tests.adapters.discord.test_mistakes import MOD, click, filled, inputs

REPORT = Path(__file__).parents[2] / "community" / "reports" / "new_questions.txt"
NEW = "s.nccl-tree-ring"
OTHER_GUILD, OTHER_CHANNEL = "2300", "2301"
FORM_REPORT = "腾讯 推理优化 一面\nQ: 讲一下 FlashAttention 的 IO 感知分块？\n分块放进 SRAM。\n"


@pytest.fixture
async def two_servers(stub: DiscordStub, app: App) -> AsyncIterator[Running]:
    """The bot in the stub's server and in another one."""
    stub.add_guild(OTHER_GUILD, OTHER_CHANNEL)
    async with connected(stub, app) as running:
        yield running


def attached(stub: DiscordStub, name: str, content: bytes, mime: str) -> dict[str, Any]:
    """`/import` with `content` attached as the file `name`, as Discord sends it."""
    upload = {**stub.upload(name, content), "content_type": mime}
    data = {**slash("import"), "resolved": {"attachments": {upload["id"]: upload}}}
    data["options"].append({"name": "text", "type": 11, "value": upload["id"]})
    return data


def text_of(message: dict[str, Any]) -> str:
    embed = message["embeds"][0]
    return "\n".join([embed.get("title") or "", embed.get("description") or "",
                      *(f"{f['name']} {f['value']}" for f in embed.get("fields", []))])  # fmt: skip


def button_ids(message: dict[str, Any]) -> list[str]:
    return [b["custom_id"] for row in message.get("components", []) for b in row["components"]]


async def test_an_attached_report_is_reviewed_through_buttons_and_served_in_its_server_only(
    two_servers: Running,
) -> None:
    stub = two_servers.stub
    sent = attached(stub, "report.txt", REPORT.read_bytes(), "text/plain; charset=utf-8")
    imported = await answered(stub, await stub.interact(COMMAND, sent))
    assert imported["flags"] == 64 and "3 new draft(s)" in text_of(imported)
    assert f"`{NEW}`" in text_of(imported)

    refused = await answered(stub, await stub.interact(COMMAND, slash("drafts")))
    assert "moderators" in text_of(refused)
    first = await answered(stub, await stub.interact(COMMAND, slash("drafts"), member=MOD,
                                                     moderator=True))  # fmt: skip
    assert first["flags"] == 64 and first["embeds"][0]["title"].startswith("Draft 1/3: C++")
    assert button_ids(first)[-1] == "draft-page:2"  # Next
    page = await answered(stub, await click(stub, "draft-page:2", first, member=MOD,
                                            moderator=True))  # fmt: skip
    assert page["embeds"][0]["title"].startswith("Draft 2/3: NCCL")
    assert button_ids(page) == [f"draft-approve:{NEW}", f"draft-reject:{NEW}",
                                f"draft-edit:{NEW}", "draft-page:1", "draft-page:3"]  # fmt: skip

    for route in (f"draft-edit:{NEW}", f"draft-approve:{NEW}"):  # alice moderates nothing
        nope = await answered(stub, await click(stub, route, page))
        assert nope["flags"] == 64 and "moderators" in text_of(nope)
    sneaky = filled(f"code:drafts:edit {NEW}", title="mine now")
    assert "moderators" in text_of(await answered(stub, await stub.interact(5, sneaky)))

    asked = await click(stub, f"draft-edit:{NEW}", page, member=MOD, moderator=True)
    form = await stub.wait_for(lambda: stub.callback(asked))
    assert form["type"] == 9 and form["data"]["custom_id"] == f"code:drafts:edit {NEW}"
    fields = inputs(form)
    assert list(fields) == ["title", "title_en", "topics", "difficulty", "kind"]
    assert fields["title"]["value"].startswith("NCCL 的 Tree 算法")
    assert fields["difficulty"]["value"] in ("easy", "medium", "hard")
    assert fields["kind"]["value"] == "qa" and not fields["title_en"]["required"]
    edit = filled(f"code:drafts:edit {NEW}", title=fields["title"]["value"],
                  title_en="NCCL: Tree vs Ring latency", topics="collectives, interconnect",
                  difficulty="hard", kind="qa")  # fmt: skip
    edited = await answered(stub, await stub.interact(5, edit, member=MOD, moderator=True))
    assert f"Edited `{NEW}`" in text_of(edited)
    assert "collectives, interconnect" in text_of(edited) and "Difficulty hard" in text_of(edited)

    approved = await answered(stub, await click(stub, f"draft-approve:{NEW}", page, member=MOD,
                                                moderator=True))  # fmt: skip
    assert f"Approved `{NEW}`" in text_of(approved)

    shown = await answered(stub, await stub.interact(COMMAND, slash("question", id=NEW)))
    assert shown["embeds"][0]["title"] == "NCCL: Tree vs Ring latency"  # as edited
    found = await answered(stub, await stub.interact(COMMAND, slash("search", query="Tree 算法")))
    assert NEW in text_of(found)
    elsewhere = {"guild_id": OTHER_GUILD, "channel_id": OTHER_CHANNEL}
    missing = await answered(stub, await stub.interact(COMMAND, slash("question", id=NEW),
                                                       **elsewhere))  # fmt: skip
    assert "Tree vs Ring" not in text_of(missing) and NEW in text_of(missing)  # not found
    not_found = await answered(stub, await stub.interact(
        COMMAND, slash("search", query="Tree 算法"), **elsewhere))  # fmt: skip
    assert NEW not in text_of(not_found)


async def test_the_import_form_takes_a_report_and_a_file_that_is_not_one_is_not_fetched(
    bot: Running,
) -> None:
    stub = bot.stub
    [registered] = stub.calls("PUT", "/applications/")
    [option] = next(c for c in registered.body if c["name"] == "import")["options"]
    assert option["type"] == 11 and ".txt or .md" in option["description"]
    asked = await stub.interact(COMMAND, slash("import"), locale="zh-CN")
    form = await stub.wait_for(lambda: stub.callback(asked))
    assert form["type"] == 9 and form["data"]["custom_id"] == "code:import:"
    [text] = inputs(form).values()
    assert (text["style"], text["max_length"]) == (2, 4000) and "4,000" in text["label"]
    assert len(text["placeholder"]) <= 100 and text["placeholder"].endswith(".md 文件。")
    done = await answered(stub, await stub.interact(5, filled("code:import:", text=FORM_REPORT)))
    assert "1 new draft(s)" in text_of(done) and "FlashAttention" in text_of(done)

    for name, mime, content in (("report.pdf", "application/pdf", b"%PDF"),
                                ("report.txt", "text/plain", b"x" * (65 * 1024))):  # fmt: skip
        sent = attached(stub, name, content, mime)
        refused = await answered(stub, await stub.interact(COMMAND, sent))
        assert refused["flags"] == 64 and ".txt" in text_of(refused)
    assert not stub.calls("GET", "/cdn/")


async def test_values_that_come_too_late_for_the_form_are_shown_as_the_command_to_type(
    held: tuple[Running, HeldCore],
) -> None:
    bot, core = held  # commands wait for `release`; the file import does not
    stub = bot.stub
    sent = attached(stub, "report.txt", REPORT.read_bytes(), "text/plain")
    assert "3 new draft(s)" in text_of(await answered(stub, await stub.interact(COMMAND, sent)))
    asked = await click(stub, f"draft-edit:{NEW}", {"embeds": []}, member=MOD, moderator=True)
    deferred = await stub.wait_for(lambda: stub.callback(asked))
    assert deferred["type"] == 5  # no modal can follow a deferral
    core.release.set()
    [late] = await stub.wait_for(lambda: stub.calls("POST", f"/webhooks/{APP_ID}/tok-{asked}"))
    assert late.body["flags"] == 64
    assert f"/drafts edit id:{NEW}" in text_of(late.body)
