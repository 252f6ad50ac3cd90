"""`studybot content export`, run as a subprocess over the database the bot wrote, on both
engines: a server's approved items (made through the app: `/import`, then `/drafts approve`)
become bank files that `studybot content validate` accepts beside the bank; drafts, rejected
items and other servers' items stay out; ids are unique against the bank; an unknown server
and a non-empty directory are refused."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from bot.app import App
from bot.content import frontmatter
from bot.types import ChannelRef, Invocation, Locale, Reply, Tone, User
from tests.fakes import write_question

HERE = ChannelRef("test", "c1", "guild-a")
THERE = ChannelRef("test", "c9", "guild-b")
MEMBERS = itertools.count(1)
MOD = User("test", "m1", "mod", is_moderator=True)
REPORT = """字节跳动 AI Infra 实习 二面
Q: NCCL 的 Tree 算法和 Ring 算法在延迟上有什么差别？
Tree 的延迟是对数级，Ring 是线性级。
Q: 讲一下 vLLM 的 continuous batching 调度器如何抢占请求？
Q: 进程间通信 IPC 有哪些方式？
管道、共享内存、socket。
手撕：实现 LRU 缓存
"""
# The same NCCL question in another report: a link, so a second source of that item.
AGAIN = "阿里 AI Infra 三面\nQ: NCCL 的 Tree 算法和 Ring 算法在延迟上有什么差别？\n见上。\n"


async def share(app: App, text: str, where: ChannelRef = HERE) -> list[str]:
    """The ids a report drafted; each report from another member (imports are rate-limited
    per member)."""
    who = User("test", f"u{next(MEMBERS)}", "member")
    reply = await app.core.handle(Invocation("import", {"text": text}, who, where, Locale.EN))
    return [row.split("`")[1] for row in reply.body.splitlines() if row.startswith("- `")]


async def decide(app: App, verb: str, qid: str, where: ChannelRef = HERE) -> Reply:
    reply = await app.core.handle_line(f"/drafts {verb} {qid}", user=MOD, channel=where,
                                       locale=Locale.EN)  # fmt: skip
    assert reply.tone is Tone.INFO, reply.body
    return reply


def named(ids: list[str], word: str) -> str:
    return next(i for i in ids if word in i)


async def studybot(location: Path | str, content: Path, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "STUDYBOT_DATABASE": str(location),
           "STUDYBOT_CONTENT_DIR": str(content), "LANG": "C.UTF-8"}  # fmt: skip
    env.pop("DATABASE_URL", None)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode or 0, out.decode("utf-8"), err.decode("utf-8")


def read(path: Path) -> frontmatter.FrontMatter:
    return frontmatter.parse(path.read_text(encoding="utf-8"))


async def approved_here(app: App) -> dict[str, str]:
    """HERE approves its NCCL, IPC and LRU items, rejects vLLM; THERE approves its own."""
    ids = await share(app, REPORT)
    items = {w: named(ids, w) for w in ("nccl", "vllm", "ipc", "lru")}
    for word in ("nccl", "ipc", "lru"):
        await decide(app, "approve", items[word])
    await decide(app, "reject", items["vllm"])
    await share(app, AGAIN)  # links to the approved NCCL item
    (draft,) = await share(app, "某司 一面\nQ: 讲一下 NUMA 架构对 GPU 训练的影响？\n")
    items["draft"] = draft
    there = await share(app, "某司 二面\nQ: RDMA 和 TCP 有什么区别？\n零拷贝。\n", THERE)
    await decide(app, "approve", there[0], THERE)
    items["there"] = there[0]
    return items


async def test_a_servers_approved_items_become_bank_files_that_validate(
    app: App, database_location: Path | str, content_dir: Path, tmp_path: Path
) -> None:
    items = await approved_here(app)
    out = tmp_path / "export"
    code, stdout, err = await studybot(database_location, content_dir, "content", "export",
                                       "--server", HERE.server, str(out), "--json")  # fmt: skip
    assert code == 0, err
    listed = json.loads(stdout)
    exported = {i["item"]: i for i in listed["items"]}
    # no draft, nothing rejected, nothing of THERE's
    assert set(exported) == {items["nccl"], items["ipc"], items["lru"]}
    assert listed["server"] == HERE.server
    assert all(i["status"] == "draft" for i in exported.values())

    nccl = exported[items["nccl"]]
    assert nccl["id"] == items["nccl"].removeprefix("s.")
    assert nccl["files"] == [f"questions/{nccl['id']}.md"] and "review" in nccl["missing"]
    fm = read(out / nccl["files"][0])
    assert fm.data["id"] == nccl["id"] and fm.data["kind"] == "qa"
    assert "reviewed" not in fm.data and fm.data["status"] == "draft"
    assert fm.data["topics"] == ["collectives"] and fm.data["difficulty"] == "medium"
    assert [s["title"] for s in fm.data["sources"]] == ["字节跳动 AI Infra 实习 二面",
                                                        "阿里 AI Infra 三面"]  # fmt: skip
    assert "Tree 的延迟是对数级" in fm.body

    lru = exported[items["lru"]]
    folder = out / "problems" / lru["id"]
    assert lru["kind"] == "coding" and sorted(p.name for p in folder.iterdir()) == [
        "explanation.md", "problem.md"]  # fmt: skip
    problem = read(folder / "problem.md")
    assert problem.data["signature"].startswith("def ") and "LRU" in problem.body
    assert "explanation" in lru["missing"] and "TODO" in (folder / "explanation.md").read_text()
    assert not (out / "questions" / f"{items['there'].removeprefix('s.')}.md").exists()

    merged = tmp_path / "merged"
    shutil.copytree(content_dir, merged)
    shutil.copytree(out, merged, dirs_exist_ok=True)
    code, stdout, err = await studybot(database_location, merged, "content", "validate",
                                       "--no-grade")  # fmt: skip
    assert code == 0, err
    assert "7 questions" in stdout  # the bank's four and the three exported


async def test_ids_are_unique_against_the_bank_and_english_is_written(
    app: App, database_location: Path | str, content_dir: Path, tmp_path: Path
) -> None:
    items = await approved_here(app)
    slug = items["ipc"].removeprefix("s.")
    write_question(content_dir, slug, "已经在题库里的问题", "答案。", topics=("os",))
    await app.core.handle_line(f'/drafts edit {items["draft"]} title_en:"NUMA and GPU training" '
                               "topics:os", user=MOD, channel=HERE, locale=Locale.EN)  # fmt: skip
    await decide(app, "approve", items["draft"])
    out = tmp_path / "export"
    code, stdout, err = await studybot(database_location, content_dir, "content", "export",
                                       "--server", HERE.server, str(out), "--json")  # fmt: skip
    assert code == 0, err
    exported = {i["item"]: i for i in json.loads(stdout)["items"]}
    assert exported[items["ipc"]]["id"] == f"{slug}-2"
    assert read(out / "questions" / f"{slug}-2.md").data["id"] == f"{slug}-2"
    numa = read(out / exported[items["draft"]]["files"][0])
    assert numa.data["title_en"] == "NUMA and GPU training"
    assert "explanation" in exported[items["draft"]]["missing"]  # its report said nothing

    merged = tmp_path / "merged"
    shutil.copytree(content_dir, merged)
    shutil.copytree(out, merged, dirs_exist_ok=True)
    code, _, err = await studybot(database_location, merged, "content", "validate", "--no-grade")
    assert code == 0, err


async def test_unknown_servers_and_full_directories_are_refused(
    app: App, database_location: Path | str, content_dir: Path, tmp_path: Path
) -> None:
    await approved_here(app)
    out = tmp_path / "export"

    async def export(*args: str) -> tuple[int, str, str]:
        return await studybot(database_location, content_dir, "content", "export", *args)

    code, _, err = await export("--server", "discord:404", str(out))
    assert code == 2 and "no server 'discord:404'" in err, err
    assert f"servers with items: {HERE.server}, {THERE.server}" in err and not out.exists()

    code, stdout, err = await export("--list-servers", "--json")
    assert code == 0, err
    servers: list[dict[str, Any]] = json.loads(stdout)["servers"]
    assert servers == [
        {"server": HERE.server, "approved": 3, "drafts": 1, "rejected": 1},
        {"server": THERE.server, "approved": 1, "drafts": 0, "rejected": 0},
    ]

    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, err = await export("--server", HERE.server, str(out))
    assert code == 2 and "is not empty" in err and "--force" in err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    code, stdout, err = await export("--server", HERE.server, str(out), "--force")
    assert code == 0, err
    assert "3 approved item(s)" in stdout and (out / "notes.txt").read_text() == "mine"
    assert len(list((out / "questions").glob("*.md"))) == 2
