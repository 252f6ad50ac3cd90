"""`Metrics` on prometheus_client: each event of the port becomes a sample.

Every metric lives in the registry given (one per process, not the library's global one,
so tests can build several), with the process collector's CPU, memory and file descriptor
figures beside them. Names follow Prometheus conventions (`_total` counters, `_seconds`
histograms). Labels are bounded by their callers (see bot/ports.py); the outcome and verdict
sets are fixed here, and series for every known combination exist from the start at 0, so a
rate is defined before the first event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector

from bot.commands.spec import BY_NAME
from bot.grades import Verdict

OUTCOMES = ("ok", "user_error", "failure")
POST_OUTCOMES = ("sent", "late", "missed")
LATENCY = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
WAIT = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
PACING = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
PLATFORMS = ("discord", "slack")


class PrometheusMetrics:
    def __init__(self, registry: CollectorRegistry, commands: Iterable[str] = BY_NAME) -> None:
        ProcessCollector(registry=registry)
        self.registry = registry
        self._interactions = Counter(
            "studybot_interactions", "Commands answered, by command and outcome",
            ("command", "outcome"), registry=registry)  # fmt: skip
        self._reply = Histogram(
            "studybot_reply_seconds", "Seconds from a command to its reply, by command",
            ("command",), buckets=LATENCY, registry=registry)  # fmt: skip
        self._posts = Counter(
            "studybot_daily_posts", "Scheduled posts: sent on time, sent late, or missed",
            ("outcome",), registry=registry)  # fmt: skip
        self._verdicts = Counter(
            "studybot_verdicts", "Gradings by verdict", ("verdict",), registry=registry
        )
        self._depth = Gauge(
            "studybot_grading_queue_depth", "Grading jobs waiting for a grader (PostgreSQL)",
            registry=registry)  # fmt: skip
        self._wait = Histogram(
            "studybot_grading_queue_wait_seconds", "Seconds a grading job waited in the queue",
            buckets=WAIT, registry=registry)  # fmt: skip
        self._restarts = Counter(
            "studybot_sandbox_restarts", "Restarts of the grading sandbox's zygote",
            registry=registry)  # fmt: skip
        self._layers = Gauge(
            "studybot_isolation_layer_active", "1 for each sandbox isolation layer that is up",
            ("layer",), registry=registry)  # fmt: skip
        self._reconnects = Counter(
            "studybot_platform_reconnects", "Chat platform reconnections, by platform",
            ("platform",), registry=registry)  # fmt: skip
        self._pacing = Histogram(
            "studybot_rate_limit_wait_seconds",
            "Seconds a request waited for its turn under the platform's rate limit",
            ("platform",), buckets=PACING, registry=registry)  # fmt: skip
        self._limited = Counter(
            "studybot_rate_limited", "Requests the platform refused for its rate limit (429)",
            ("platform",), registry=registry)  # fmt: skip
        self._start(commands)

    def _start(self, commands: Iterable[str]) -> None:
        for command in (*commands, "unknown"):
            self._reply.labels(command)
            for outcome in OUTCOMES:
                self._interactions.labels(command, outcome)
        for post in POST_OUTCOMES:
            self._posts.labels(post)
        for verdict in Verdict:
            self._verdicts.labels(verdict.value)
        for platform in PLATFORMS:
            self._pacing.labels(platform)
            self._limited.labels(platform)

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        self._interactions.labels(command, outcome).inc()
        self._reply.labels(command).observe(seconds)

    def daily_post(self, outcome: str) -> None:
        self._posts.labels(outcome).inc()

    def verdict(self, verdict: str) -> None:
        self._verdicts.labels(verdict).inc()

    def queue_depth(self, jobs: int) -> None:
        self._depth.set(jobs)

    def queue_wait(self, seconds: float) -> None:
        self._wait.observe(seconds)

    def sandbox_restart(self) -> None:
        self._restarts.inc()

    def isolation(self, layers: Mapping[str, bool]) -> None:
        for layer, active in layers.items():
            self._layers.labels(layer).set(1 if active else 0)

    def reconnect(self, platform: str) -> None:
        self._reconnects.labels(platform).inc()

    def rate_limit_wait(self, platform: str, seconds: float) -> None:
        self._pacing.labels(platform).observe(seconds)

    def rate_limited(self, platform: str) -> None:
        self._limited.labels(platform).inc()
