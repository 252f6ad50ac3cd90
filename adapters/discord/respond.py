"""Answering an interaction with a rendered `Reply`, within Discord's 3-second deadline.

Discord drops an interaction not acknowledged within 3 s. The work gets its `budget`
(`bot.routes.budget`: none for grading) to finish and is deferred only if it has not (a cold
database, a busy loop). A deferred reply then replaces
the "thinking" message; an ephemeral one cannot (its visibility was fixed by the deferral), so
the placeholder is removed and the reply follows privately. Pages after the first arrive as
follow-up messages. A reply's attachments (an admin's CSV export, the `/me` card) go as files
with its first page; a picture is shown inside the first embed.

A notice the work sends meanwhile (a place in the grading queue) is shown in the "thinking"
message, once there is one, and the reply replaces it there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord.render import Page, attached_files, buttons, render
from bot.routes import within
from bot.types import Notice, Reply


async def answer_in_time(interaction: discord.Interaction[Any],
                         work: Callable[[Notice], Awaitable[Reply]], *,
                         budget: float) -> None:  # fmt: skip
    """Answer with what `work` makes, given the notice it may send while it works."""
    acknowledged = asyncio.Event()

    async def notice(reply: Reply) -> None:
        await acknowledged.wait()  # the placeholder to edit exists once deferred
        await interaction.edit_original_response(**_message(render(reply)[0]))

    task = asyncio.ensure_future(work(notice))
    if not await within(task, budget):
        await interaction.response.defer(thinking=True)
        acknowledged.set()
    await send_reply(interaction, await task)


async def send_reply(interaction: discord.Interaction[Any], reply: Reply) -> None:
    pages = render(reply)
    first, rest = pages[0], pages[1:]
    files = attached_files(reply)  # with the first page; discord.py sends them as multipart
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=reply.ephemeral,
                                                **_message(first, files))  # fmt: skip
    elif reply.ephemeral:
        await interaction.delete_original_response()
        await interaction.followup.send(ephemeral=True, **_message(first, files))
    else:
        await interaction.edit_original_response(**_message(first, files, "attachments"))
    for page in rest:
        await interaction.followup.send(ephemeral=reply.ephemeral, **_message(page))


async def apologise(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def _message(page: Page, files: list[discord.File] | None = None,
             key: str = "files") -> dict[str, Any]:  # fmt: skip
    view = buttons(page.actions)
    return {"embeds": list(page.embeds), **({"view": view} if view else {}),
            **({key: files} if files else {})}  # fmt: skip
