"""The throwaway PostgreSQL cluster of the store tests, for the scheduler's tests over many
processes (`test_many_processes.py`)."""

from tests.store.conftest import postgres_cluster, postgres_dsn

__all__ = ["postgres_cluster", "postgres_dsn"]
