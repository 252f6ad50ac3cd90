"""Rendering against Discord's limits, without a connection."""

from __future__ import annotations

from adapters.discord.render import buttons, custom_id, form_modal, parse_custom_id, render
from bot.routes import code_form
from bot.types import Action, ActionKind, Field, Locale, Reply, Tone


def within_limits(reply: Reply) -> None:
    pages = render(reply)
    for page in pages:
        assert 1 <= len(page.embeds) <= 10
        assert sum(len(e) for e in page.embeds) <= 6000
        for embed in page.embeds:
            assert len(embed.description or "") <= 4096 and len(embed.title or "") <= 256
            assert len(embed.fields) <= 25
            assert all(len(f.name or "") <= 256 and len(f.value or "") <= 1024
                       for f in embed.fields)  # fmt: skip
            assert len(embed.footer.text or "") <= 2048
    assert all(not p.actions for p in pages[:-1])  # buttons only on the last message


def test_a_short_reply_is_one_embed_with_title_fields_and_footer() -> None:
    reply = Reply("body", title="T", fields=(Field("ID", "`x`"),), footer="From: r")
    [page] = render(reply)
    [embed] = page.embeds
    assert (embed.title, embed.description, embed.footer.text) == ("T", "body", "From: r")
    assert [(f.name, f.value) for f in embed.fields] == [("ID", "`x`")]


def test_a_long_answer_is_split_across_embeds_and_messages_with_code_kept_fenced() -> None:
    code = "```python\n" + "\n".join(f"x_{i} = {i}  # 显存" for i in range(900)) + "\n```"
    reply = Reply("intro\n\n" + code + "\n\nend", title="Answer",
                  actions=(Action(ActionKind.SHOW_QUESTION, "Open", "q"),))  # fmt: skip
    within_limits(reply)
    pages = render(reply)
    assert len(pages) > 1
    descriptions = [e.description or "" for p in pages for e in p.embeds]
    assert all(d.count("```") % 2 == 0 for d in descriptions)  # every part renders alone
    assert "x_899 = 899" in descriptions[-1] and pages[-1].actions


def test_tables_become_aligned_monospace() -> None:
    body = "| 项目 | GPU |\n|---|---|\n| 显存 | 80GB |"
    [page] = render(Reply(body))
    assert page.embeds[0].description == "```\n项目  GPU\n----  ----\n显存  80GB\n```"


def test_oversized_titles_fields_and_footers_are_cut_and_tone_sets_the_colour() -> None:
    reply = Reply("x", title="t" * 300, fields=tuple(Field("n" * 300, "v" * 2000)
                                                     for _ in range(30)),
                  footer="f" * 3000, tone=Tone.FAILURE)  # fmt: skip
    within_limits(reply)
    assert render(reply)[0].embeds[0].colour is not None
    assert render(reply)[0].embeds[0].colour.value == 0xED4245  # type: ignore[union-attr]


async def test_buttons_route_statelessly_and_are_kept_out_of_the_view_store() -> None:
    actions = tuple(Action(ActionKind.REVEAL_ANSWER, "Show answer " * 10, f"q{i}")
                    for i in range(30))  # fmt: skip
    view = buttons((*actions, Action(ActionKind.SHOW_QUESTION, "x", "y" * 200)))
    assert view is not None and not view.is_dispatchable()
    rows = view.to_components()
    assert len(rows) == 5 and all(len(r["components"]) == 5 for r in rows)
    assert all(len(b["label"]) <= 80 for r in rows for b in r["components"])
    assert rows[0]["components"][0]["custom_id"] == "reveal:q0"
    assert parse_custom_id("reveal:q0") == Action(ActionKind.REVEAL_ANSWER, "", "q0")
    assert parse_custom_id("nonsense") is None and parse_custom_id("other:x") is None
    assert custom_id(Action(ActionKind.SHOW_QUESTION, "x", "y" * 200)) is None
    assert buttons(()) is None


async def test_the_code_form_fits_discord_and_names_its_route() -> None:
    form = form_modal(code_form("submit", "a-very-long-problem-identifier-for-testing", Locale.ZH))
    assert form.custom_id == "code:submit:a-very-long-problem-identifier-for-testing"
    assert len(form.title) <= 45 and form.title.startswith("提交：")
    assert form.is_finished()  # routed by custom_id: discord.py keeps no copy
