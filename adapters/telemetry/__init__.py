"""Prometheus metrics and health checks over HTTP: the `Metrics` port's implementation
(`prometheus.py`) and the server of /metrics, /healthz and /readyz (`server.py`). Loaded
only when `STUDYBOT_METRICS_PORT` is set."""
