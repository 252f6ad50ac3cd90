"""The layers under RestrictedPython, tested on their own: limits, namespaces, seccomp.

A probe script applies exactly what a worker applies and tries what a hostile solution
would, outside RestrictedPython, so each layer is shown to hold by itself. Namespaces and
seccomp are optional by design (many containers forbid them); where the kernel refuses a
layer, the probe says so and only the layers that came up are held to account. On the
machines this project targets both come up, and `studybot doctor` reports them.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.errors import GradingUnavailable
from bot.grading.grader import Grader
from bot.grading.pool import ZYGOTE_ENV, Sandbox
from tests.fakes import REPO

PROBE = Path(__file__).with_name("isolation_probe.py")


@pytest.fixture(scope="module")
def victim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file of the bot's user, standing in for its database."""
    path = tmp_path_factory.mktemp("host") / "studybot.sqlite3"
    path.write_bytes(b"precious")
    return path


@pytest.fixture(scope="module")
def probe(victim: Path) -> dict[str, Any]:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        env = {"PATH": os.environ.get("PATH", "")}
        done = subprocess.run([sys.executable, str(PROBE), str(port), str(victim)],
                              capture_output=True, text=True, cwd=REPO, env=env, timeout=60,
                              check=True)  # fmt: skip
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_a_worker_holds_one_descriptor(probe: dict[str, Any]) -> None:
    assert probe["fds"] == ["0"]
    assert probe["inside"]["open_file"] in (errno.EMFILE, errno.EPERM)  # rlimit or seccomp


def test_a_worker_runs_under_limits(probe: dict[str, Any]) -> None:
    limits = {line[:26].strip(): line[26:].split() for line in probe["limits"].splitlines()}
    assert limits["Max cpu time"][:2] == ["2", "2"]  # the 1 s budget, and a second of backstop
    assert limits["Max file size"][:2] == ["0", "0"]
    assert limits["Max processes"][:2] == ["0", "0"]
    assert limits["Max open files"][:2] == ["1", "1"]
    assert limits["Max address space"][0] == str(512 * 1024 * 1024)
    assert limits["Max core file size"][:2] == ["0", "0"]


def test_seccomp_refuses_sockets_processes_and_signals(probe: dict[str, Any]) -> None:
    if probe["layers"]["seccomp"]:
        pytest.skip("libseccomp is not available on this machine")
    inside = probe["inside"]
    assert inside["socket"] == errno.EPERM
    assert inside["fork"] == errno.EPERM
    assert inside["exec"] == errno.EPERM
    assert inside["kill_parent"] == errno.EPERM


def test_seccomp_keeps_the_bots_files_as_they_are(probe: dict[str, Any], victim: Path) -> None:
    if probe["layers"]["seccomp"]:
        pytest.skip("libseccomp is not available on this machine")
    inside = probe["inside"]
    for attempt in ("truncate_file", "unlink_file", "rename_file", "chmod_file"):
        assert inside[attempt] == errno.EPERM, attempt
    assert victim.read_bytes() == b"precious"


def test_a_worker_has_no_network(probe: dict[str, Any]) -> None:
    if probe["layers"]["namespaces"]:
        pytest.skip("unprivileged user namespaces are disabled on this machine")
    # The host listens on 127.0.0.1; from the worker's own network namespace it is unreachable.
    assert probe["inside"]["connect_host"] is not None


async def test_the_zygote_gets_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "canary-token-value")
    sandbox = Sandbox(warm=1)
    layers = await sandbox.start()
    try:
        assert sandbox.pid is not None
        environ = await asyncio.to_thread(Path(f"/proc/{sandbox.pid}/environ").read_bytes)
        names = {entry.split(b"=")[0].decode() for entry in environ.split(b"\0") if entry}
        assert names <= set(ZYGOTE_ENV)
        assert b"canary-token-value" not in environ
        assert layers.describe().startswith("active: process, rlimits")
    finally:
        await sandbox.close()


@pytest.mark.parametrize("layer", ["namespaces", "landlock", "seccomp"])
async def test_strict_isolation_refuses_to_grade_without_every_layer(layer: str) -> None:
    sandbox = Sandbox(warm=1, strict=True, disabled=frozenset({layer}))
    layers = await sandbox.start()
    try:
        assert layers.missing == {layer: "turned off"}
        with pytest.raises(GradingUnavailable, match=f"strict isolation .* {layer} "):
            await Grader(sandbox, {}).run("print(1)")
    finally:
        await sandbox.close()


async def test_relaxed_isolation_grades_with_a_layer_missing() -> None:
    sandbox = Sandbox(warm=1, disabled=frozenset({"namespaces"}))
    await sandbox.start()
    try:
        grade = await Grader(sandbox, {}).run("print(6 * 7)")
        assert grade.output == "42\n"
    finally:
        await sandbox.close()
