"""PostgreSQL fixtures for any test: a fresh database on the throwaway cluster.

One cluster per session (`tests.postgres`); a template database migrated once; each test its
own database, copied from the template (`CREATE DATABASE ... TEMPLATE`: no migration runs
again) or created empty when the test is about migrating; dropped after the test.
tests/conftest.py imports these, so every folder shares the one cluster.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator

import psycopg
import pytest

from bot.store.postgres.database import open_postgres
from tests.postgres import Cluster, find_bindir, running_cluster

TEMPLATE = "studybot_template"
_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(
            "PostgreSQL tests skipped: no server binaries (initdb, pg_ctl) found via "
            "STUDYBOT_PG_BINDIR, `pg_config --bindir`, /usr/lib/postgresql/*/bin or PATH; "
            "install the PostgreSQL server (Debian: postgresql-15) to run them"
        )
    with running_cluster(bindir) as cluster:
        asyncio.run(_migrate(cluster.dsn(_create(cluster, TEMPLATE, "template0"))))
        yield cluster


async def _migrate(dsn: str) -> None:
    async with open_postgres(dsn, max_size=1):
        pass


def _create(cluster: Cluster, name: str, template: str, options: str = "") -> str:
    # WAL_LOG (PostgreSQL 15's default strategy) copies the small template in about 0.2 s;
    # FILE_COPY's checkpoint costs more here.
    with psycopg.connect(cluster.dsn(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" {options}'.encode())
    return name


@pytest.fixture
def postgres_dsn(postgres_cluster: Cluster) -> Iterator[str]:
    """A fresh database at the latest schema, for this test only."""
    yield from _database(postgres_cluster, f"test_{next(_names)}", TEMPLATE)


@pytest.fixture
def empty_postgres_dsn(postgres_cluster: Cluster) -> Iterator[str]:
    """A fresh empty database (no schema), for this test only."""
    yield from _database(postgres_cluster, f"empty_{next(_names)}", "template0")


@pytest.fixture
def icu_english_dsn(postgres_cluster: Cluster) -> Iterator[str]:
    """A fresh empty database whose text sorts by ICU's English rules, not bytewise: one
    studybot must refuse."""
    icu = "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
    yield from _database(postgres_cluster, f"icu_{next(_names)}", "template0", icu)


def _database(cluster: Cluster, name: str, template: str, options: str = "") -> Iterator[str]:
    yield cluster.dsn(_create(cluster, name, template, options))
    with psycopg.connect(cluster.dsn(), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)'.encode())
