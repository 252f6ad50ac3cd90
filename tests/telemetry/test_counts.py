"""What each part counts, through the Prometheus implementation of `Metrics` and read back
from its registry: the scheduler's posts (on time, late, missed), the sandbox's layers and
restarts; and a process without a metrics port imports none of it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta

from prometheus_client import CollectorRegistry

from adapters.telemetry.prometheus import PrometheusMetrics
from bot.errors import DeliveryError
from bot.grading.grader import Grader
from bot.grading.pool import Sandbox
from bot.platforms import Platforms
from bot.scheduler import Scheduler
from bot.store.db import Database
from bot.store.questions import QuestionStore
from bot.store.schedules import ScheduleStore
from tests.fakes import REPO, FakeAdapter, FakeClock
from tests.schedule.test_scheduler import add
from tests.waiting import PATIENCE, until

SLOT = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai, `add`'s default


def counted() -> tuple[PrometheusMetrics, CollectorRegistry]:
    registry = CollectorRegistry()
    return PrometheusMetrics(registry), registry


def posts(registry: CollectorRegistry, outcome: str) -> float | None:
    return registry.get_sample_value("studybot_daily_posts_total", {"outcome": outcome})


async def scheduler_at(db: Database, clock: FakeClock, adapter: FakeAdapter,
                       metrics: PrometheusMetrics, now: datetime) -> Scheduler:  # fmt: skip
    clock.set(now)
    scheduler = Scheduler(ScheduleStore(db), QuestionStore(db), clock,
                          Platforms({"test": adapter}), metrics=metrics)  # fmt: skip
    await scheduler.start()
    await scheduler.tick()
    return scheduler


async def test_a_post_at_its_slot_counts_as_sent(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    metrics, registry = counted()
    await add(loaded_database)
    await scheduler_at(loaded_database, clock, adapter, metrics, SLOT)
    assert len(adapter.sent) == 1
    assert (posts(registry, "sent"), posts(registry, "late")) == (1, 0)


async def test_a_post_after_downtime_within_the_grace_counts_as_late(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    metrics, registry = counted()
    await add(loaded_database)
    await scheduler_at(loaded_database, clock, adapter, metrics, SLOT + timedelta(minutes=10))
    assert len(adapter.sent) == 1
    assert (posts(registry, "sent"), posts(registry, "late")) == (0, 1)


async def test_a_refused_post_given_up_counts_as_missed(
    loaded_database: Database, clock: FakeClock, adapter: FakeAdapter
) -> None:
    metrics, registry = counted()
    await add(loaded_database)
    adapter.failures.append(DeliveryError("channel deleted", permanent=True))
    await scheduler_at(loaded_database, clock, adapter, metrics, SLOT)
    assert adapter.sent == []
    assert (posts(registry, "sent"), posts(registry, "missed")) == (0, 1)


async def test_the_sandbox_reports_its_layers_and_counts_a_restart() -> None:
    metrics, registry = counted()
    sandbox = Sandbox(warm=1, disabled=frozenset({"landlock"}), metrics=metrics)
    await sandbox.start()
    try:

        def layer(name: str) -> float | None:
            return registry.get_sample_value("studybot_isolation_layer_active", {"layer": name})

        assert layer("landlock") == 0 and layer("rlimits") == 1
        restarts = "studybot_sandbox_restarts_total"
        assert registry.get_sample_value(restarts) == 0
        assert sandbox.pid is not None
        os.kill(sandbox.pid, signal.SIGKILL)
        await until(lambda: registry.get_sample_value(restarts) == 1, PATIENCE)
        grade = await Grader(sandbox, {}, metrics=metrics).run("print(6 * 7)")
        assert grade.output == "42\n"
        assert registry.get_sample_value("studybot_verdicts_total", {"verdict": "accepted"}) == 1
    finally:
        await sandbox.close()


def test_without_a_port_nothing_is_served_or_imported() -> None:
    script = (
        "import asyncio, sys\n"
        "from bot.cli.telemetry import open_telemetry\n"
        "from bot.settings import Settings\n"
        "async def main():\n"
        "    async with open_telemetry(Settings.from_mapping({})) as telemetry:\n"
        "        print(type(telemetry.metrics).__name__, telemetry.port)\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in sys.modules if m.startswith(('prometheus', 'adapters.tele'))))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_METRICS")}
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=REPO, env=env, timeout=60, check=True)  # fmt: skip
    assert ran.stdout == "NoMetrics None\n[]\n"
