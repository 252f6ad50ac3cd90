"""`studybot content load` builds whichever database `STUDYBOT_DATABASE` names."""

from __future__ import annotations

from pathlib import Path

import psycopg
from click.testing import CliRunner

from bot.cli import cli


def test_content_load_fills_a_postgresql_database(postgres_dsn: str, content_dir: Path) -> None:
    env = {"STUDYBOT_DATABASE": postgres_dsn, "STUDYBOT_CONTENT_DIR": str(content_dir)}
    loaded = CliRunner().invoke(cli, ["content", "load"], env=env)
    assert loaded.exit_code == 0, loaded.output
    with psycopg.connect(postgres_dsn) as conn:
        ids = {row[0] for row in conn.execute("SELECT question_id FROM question_search")}
    assert ids == {"python-gil", "ring-allreduce", "gpu-memory", "fast-power"}
    again = CliRunner().invoke(cli, ["content", "load"], env=env)
    assert again.exit_code == 0 and "0 added" in again.output, again.output
