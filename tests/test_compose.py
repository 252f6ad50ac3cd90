"""docker-compose.yml's postgres service: the image, a named volume, a health check, credentials
from the environment (documented in .env.example), and off by default until the bot uses it.

`docker compose config` validates the whole file where the compose plugin is installed; this
test reads it with PyYAML so it runs everywhere.
"""

from __future__ import annotations

import re

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
