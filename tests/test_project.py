"""The project's own files: compose runs the real entry point, every setting is documented,
the README opens with the two commands, CI runs them."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

import yaml

from bot.settings import DOCS
from tests.fakes import REPO


def test_compose_service_runs_the_real_entry_point_with_a_named_volume() -> None:
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    bot = compose["services"]["bot"]
    assert bot["command"] == ["studybot", "run"]
    assert bot["build"] == "."
    volume, target = bot["volumes"][0].split(":")
    assert volume in compose["volumes"]
    # SQLite on the volume, unless .env names a database (PostgreSQL, with the scale profile)
    assert (
        bot["environment"]["STUDYBOT_DATABASE"]
        == "${STUDYBOT_DATABASE:-" + target + "/studybot.sqlite3}"
    )
    assert bot["env_file"][0]["path"] == ".env"
    # The sandbox's namespaces need unshare and mount, which Docker's profiles refuse; the
    # container gives up capabilities, new privileges and root-file-system writes instead.
    assert {"seccomp=unconfined", "apparmor=unconfined", "no-new-privileges:true"} <= set(
        bot["security_opt"]
    )
    assert bot["cap_drop"] == ["ALL"] and bot["read_only"] is True
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["studybot"] == "bot.cli:main"
    dockerfile = (REPO / "Dockerfile").read_text()
    assert 'CMD ["studybot", "run"]' in dockerfile
    assert "pip install" in dockerfile


def test_env_example_lists_every_setting() -> None:
    example = (REPO / ".env.example").read_text()
    names = {line.split("=")[0] for line in example.splitlines() if "=" in line and
             not line.startswith("#")}  # fmt: skip
    assert names == {doc.name for doc in DOCS}


def test_readme_opens_with_the_two_commands_and_ci_runs_the_tests() -> None:
    readme = (REPO / "README.md").read_text().split("\n")
    opening = "\n".join(readme[:6])
    assert "make run" in opening and "make test" in opening
    assert "make test" in (REPO / ".ci" / "run").read_text()


def test_every_declared_dependency_has_a_lower_bound() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + project["optional-dependencies"]["test"]
    assert all(">=" in requirement for requirement in requirements)


def test_make_run_installs_what_running_needs_and_make_test_the_tools(tmp_path: Path) -> None:
    """On a fresh machine (no virtualenv yet) `make run` installs the project without its
    test extra; `make test` installs the extra, and counts as installed for `make run`."""
    venv = tmp_path / "venv"

    def planned(target: str) -> list[str]:
        done = subprocess.run(["make", "-n", target, f"VENV={venv}"], cwd=REPO, check=True,
                              capture_output=True, text=True)  # fmt: skip
        return [line for line in done.stdout.splitlines() if " install " in line]

    assert planned("run")[-1].endswith("pip install --quiet -e .")
    assert not any("[test]" in line for line in planned("run"))
    assert planned("test")[-1].endswith("pip install --quiet -e '.[test]'")
