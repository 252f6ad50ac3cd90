"""Strict isolation is strict everywhere: with a layer missing, nothing runs code.

STUDYBOT_GRADING_ISOLATION=strict (the default once a chat platform's token is set) means no
code runs unless every isolation layer came up. Each way into the sandbox is tried where a
layer is missing: the commands (`grade`, `content validate`, `content mutants`, `sandbox
exec`, `grader`, the console) as processes where the kernel refuses namespaces, as Docker's
default seccomp profile does (tests/grading/payloads/refuse_namespaces.py); the bot and the
grader as `open_app` and `open_grader` build them, in this process, their zygote started
with namespaces turned off (the sandbox's boundary with the OS, `_spawn_zygote`).

A command refused says so in one line naming the layer and how to accept the risk, and exits
3; a member is told that grading is unavailable (not "something went wrong"), and the log,
at start, names the missing layer. The escape drill turns layers off on purpose: those do not
count as missing, the others still do.
"""

from __future__ import annotations

import ast
import json
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import GraderOptions, open_app, open_grader
from bot.cli.doctor import check_grading
from bot.errors import IsolationRefused
from bot.i18n import t
from bot.settings import Settings
from bot.types import Invocation, Locale, Tone
from tests.fakes import REPO
from tests.grading.conftest import reference

REFUSE_NAMESPACES = REPO / "tests" / "grading" / "payloads" / "refuse_namespaces.py"
KERNEL_REFUSES = "namespaces (the kernel refuses them"
RELAXED = "STUDYBOT_GRADING_ISOLATION=relaxed accepts the risk and grades anyway"
# A Discord token's shape (never sent anywhere): its presence makes isolation strict.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
RAN = "print('the code ran')"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the sandbox is Linux's")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for this module's commands (XDG_CACHE_HOME; theirs is its `studybot`
    folder): the problems' expected results, computed once."""
    return tmp_path_factory.mktemp("cache")


def studybot(folder: Path, cache: Path, *args: str, stdin: str = "",
             **env: str) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """`studybot ARGS` where the kernel refuses namespaces, strict unless `env` says not."""
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("STUDYBOT_", "DISCORD_", "SLACK_"))}  # fmt: skip
    environment |= {"XDG_DATA_HOME": str(folder / "xdg"), "XDG_CACHE_HOME": str(cache),
                    "LANG": "C.UTF-8", "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
                    "STUDYBOT_GRADING_ISOLATION": "strict", **env}  # fmt: skip
    return subprocess.run([sys.executable, str(REFUSE_NAMESPACES), *args], cwd=folder,
                          env=environment, input=stdin, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip


def assert_refused(done: subprocess.CompletedProcess[str], command: str) -> None:
    """Refused before running anything: status 3, and one line naming the layer and the way
    to accept the risk (the log above it may say so too), no traceback."""
    assert done.returncode == 3, done.stdout + done.stderr
    assert "the code ran" not in done.stdout and "Accepted" not in done.stdout
    said = [line for line in done.stderr.splitlines() if line.startswith(f"studybot {command}:")]
    assert len(said) == 1, done.stderr
    assert said[0].startswith(f"studybot {command}: grading refused: strict isolation needs "
                              f"every layer, and the sandbox lacks {KERNEL_REFUSES}")  # fmt: skip
    assert said[0].endswith(RELAXED)
    assert "Traceback" not in done.stderr


def test_every_sandbox_of_the_bot_is_built_from_the_settings() -> None:
    """Only bot/grading/sandboxes.py calls `Sandbox(...)`: a new command cannot forget."""
    builders = {
        str(path.relative_to(REPO))
        for path in (REPO / "bot").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.Call)
        and "Sandbox" in (getattr(node.func, "id", None), getattr(node.func, "attr", None))
    }  # fmt: skip
    assert builders == {"bot/grading/sandboxes.py"}


@pytest.mark.parametrize("command", ["grade", "content validate", "content mutants",
                                     "sandbox exec"])  # fmt: skip
def test_each_command_that_runs_code_is_refused_without_namespaces(
    tmp_path: Path, cache: Path, command: str
) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text(reference("fast-power") + RAN + "\n", encoding="utf-8")
    args = {"grade": ("grade", "--problem", "fast-power", str(solution)),
            "content validate": ("content", "validate", "--fresh"),
            "content mutants": ("content", "mutants", "--problem", "fast-power", "--fresh"),
            "sandbox exec": ("sandbox", "exec", str(solution))}[command]  # fmt: skip
    assert_refused(studybot(tmp_path, cache, *args), command)


def test_a_platform_token_makes_a_command_strict(tmp_path: Path, cache: Path) -> None:
    """No isolation setting, but a Discord token (in the environment or `.env`): strict."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n", encoding="ascii")
    solution = tmp_path / "solution.py"
    solution.write_text(RAN + "\n", encoding="utf-8")
    done = studybot(tmp_path, cache, "sandbox", "exec", str(solution),
                    STUDYBOT_GRADING_ISOLATION="")  # fmt: skip
    assert_refused(done, "sandbox exec")


def test_relaxed_isolation_grades_without_namespaces(tmp_path: Path, cache: Path) -> None:
    """The refusals above are strictness, not a sandbox that cannot start here."""
    solution = tmp_path / "solution.py"
    solution.write_text(reference("fast-power"), encoding="utf-8")
    done = studybot(tmp_path, cache, "grade", "--problem", "fast-power", str(solution),
                    STUDYBOT_GRADING_ISOLATION="relaxed")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Accepted" in done.stdout


def test_the_drill_runs_with_exactly_the_missing_layers_turned_off(
    tmp_path: Path, cache: Path
) -> None:
    """`--without namespaces` turns off what the kernel refuses anyway: the operator chose
    it, so strict mode lets the drill run, and its layers say so."""
    solution = tmp_path / "drill.py"
    solution.write_text(RAN + "\n", encoding="utf-8")
    done = studybot(tmp_path, cache, "sandbox", "exec", "--without", "namespaces", str(solution))
    assert done.returncode == 0, done.stderr
    assert "the code ran" in done.stdout
    assert "  namespaces: turned off" in done.stdout.splitlines()
    as_json = studybot(tmp_path, cache, "sandbox", "exec", "--json", "--without", "namespaces",
                       str(solution))  # fmt: skip
    layers = json.loads(as_json.stdout)["layers"]
    assert layers["namespaces"] == {"active": False, "why": "turned off"}
    assert layers["process"] == {"active": True} and layers["seccomp"] == {"active": True}


def test_the_drill_is_refused_when_a_layer_it_kept_is_missing(tmp_path: Path, cache: Path) -> None:
    """Turning seccomp off does not excuse the namespaces the kernel refused."""
    solution = tmp_path / "drill.py"
    solution.write_text(RAN + "\n", encoding="utf-8")
    done = studybot(tmp_path, cache, "sandbox", "exec", "--without", "seccomp", str(solution))
    assert_refused(done, "sandbox exec")
    assert "seccomp" not in done.stderr.splitlines()[-1]


def test_the_console_says_grading_is_unavailable_and_the_log_says_why(
    tmp_path: Path, cache: Path
) -> None:
    done = studybot(tmp_path, cache, "console", stdin=f"/run {RAN}\n/question python-gil\n")
    assert done.returncode == 0, done.stderr
    assert "the code ran" not in done.stdout
    assert "something went wrong" not in done.stdout
    refs = re.findall(r"ref `([0-9a-f]{8})`", done.stdout)
    assert len(refs) == 1
    assert "│ " + t(Locale.EN, "grading.unavailable", ref=refs[0]) in done.stdout
    assert "GIL" in done.stdout  # the rest of the bot works
    log = done.stderr.splitlines()
    start = [line for line in log if " ERROR bot.grading.pool: " in line]
    assert len(start) == 1 and KERNEL_REFUSES in start[0], done.stderr  # once, at start
    refused = [line for line in log if refs[0] in line]
    assert len(refused) == 1 and " WARNING " in refused[0] and "/run not graded" in refused[0]
    assert "Traceback" not in done.stderr


@pytest.fixture
def namespaces_off(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every zygote this test starts turns namespaces off, as if the kernel refused them."""
    import bot.grading.pool as pool

    real = pool._spawn_zygote

    def without_namespaces(control_fd: int, disabled: str) -> subprocess.Popen[bytes]:
        return real(control_fd, ",".join(sorted({*disabled.split(","), "namespaces"} - {""})))

    monkeypatch.setattr(pool, "_spawn_zygote", without_namespaces)
    yield


@pytest.mark.usefixtures("namespaces_off")
async def test_the_bot_with_a_platform_tells_members_grading_is_unavailable(
    tmp_path: Path, cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """As `studybot run` builds it with a Discord token: strict without being asked."""
    settings = Settings.from_mapping({"STUDYBOT_DATABASE": str(tmp_path / "bot.sqlite3"),
                                      "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
                                      "STUDYBOT_CACHE_DIR": str(cache / "studybot"),
                                      "DISCORD_TOKEN": TOKEN})  # fmt: skip
    assert settings.strict_isolation
    caplog.set_level(logging.INFO)
    async with open_app(settings) as app:
        asked = [Invocation("run", {"code": RAN}, locale=Locale.EN),
                 Invocation("run", {"code": RAN}, locale=Locale.ZH),
                 Invocation("submit", {"problem": "fast-power", "code": reference("fast-power")},
                            locale=Locale.ZH)]  # fmt: skip
        for inv in asked:
            reply = await app.core.handle(inv)
            ref = re.search(r"ref `([0-9a-f]{8})`|编号 `([0-9a-f]{8})`", reply.body)
            assert ref is not None, reply.body
            expected = t(inv.locale, "grading.unavailable", ref=ref.group(1) or ref.group(2))
            assert (reply.body, reply.tone, reply.ephemeral) == (expected, Tone.FAILURE, True)
        # Refused before it was stored: no later start grades (or scores) what a member was
        # told could not be graded.
        assert tuple(await app.db.fetch_one("SELECT count(*) FROM submissions") or ()) == (0,)
    start = [r for r in caplog.records if r.name == "bot.grading.pool" and r.levelname == "ERROR"]
    assert len(start) == 1 and "namespaces (turned off)" in start[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info]  # a state, not a crash: no traceback


@pytest.mark.usefixtures("namespaces_off")
async def test_a_grader_process_refuses_to_start(postgres_dsn: str, cache: Path) -> None:
    """It takes no job it cannot grade: the jobs wait for a grader that can."""
    settings = Settings.load({"STUDYBOT_DATABASE": postgres_dsn,
                              "STUDYBOT_CONTENT_DIR": str(REPO / "content"),
                              "STUDYBOT_CACHE_DIR": str(cache / "studybot"),
                              "STUDYBOT_GRADING_ISOLATION": "strict"}, env_file=None)  # fmt: skip
    with pytest.raises(IsolationRefused) as refused:
        async with open_grader(settings, options=GraderOptions(heartbeat=0.5)):
            pass
    assert refused.value.missing == {"namespaces": "turned off"}


def test_studybot_grader_says_why_it_stops(tmp_path: Path, cache: Path, postgres_dsn: str) -> None:
    assert_refused(studybot(tmp_path, cache, "grader", STUDYBOT_DATABASE=postgres_dsn), "grader")


@pytest.mark.usefixtures("namespaces_off")
async def test_doctor_says_what_strict_isolation_refuses(tmp_path: Path, cache: Path) -> None:
    settings = Settings.from_mapping({"STUDYBOT_CONTENT_DIR": str(REPO / "content"),
                                      "STUDYBOT_CACHE_DIR": str(cache / "studybot"),
                                      "STUDYBOT_GRADING_ISOLATION": "strict"})  # fmt: skip
    lines, healthy = await check_grading(settings)
    assert not healthy
    assert "grading: isolation strict (grading refused: layers missing)" in lines
    assert ("  grading refused: strict isolation needs every layer, and the sandbox lacks "
            f"namespaces (turned off). {RELAXED}") in lines  # fmt: skip
