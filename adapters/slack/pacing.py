"""Slack's rate limits: slack_sdk's retry of a 429, counted; the pace per channel.

A method's tier (chat.postMessage: about one message a second per channel, short bursts
allowed) is kept ahead of time by the adapter's `ChannelPacer` (bot/pacing.py). What Slack
still refuses is retried by slack_sdk's own `AsyncRateLimitErrorRetryHandler`, which waits
the `Retry-After` Slack sends; this subclass only counts each 429 it retries
(`studybot_rate_limited_total{platform="slack"}`).
"""

from __future__ import annotations

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot.ports import Metrics, NoMetrics

PLATFORM = "slack"
POSTS_PER_SECOND = 1.0  # chat.postMessage, in each channel
BURST = 3  # messages a channel may take at once after a quiet spell


class CountedRateLimitRetries(AsyncRateLimitErrorRetryHandler):
    """Retries a 429 after its Retry-After, as slack_sdk does, and counts it."""

    def __init__(self, metrics: Metrics | None = None, max_retry_count: int = 2) -> None:
        super().__init__(max_retry_count=max_retry_count)
        self._metrics = metrics or NoMetrics()

    async def _can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        limited = response is not None and response.status_code == 429
        if limited:
            self._metrics.rate_limited(PLATFORM)
        return limited


def retry_handlers(metrics: Metrics | None) -> list[AsyncRetryHandler]:
    """A dropped connection tried once more; a 429 up to twice, after its Retry-After."""
    return [AsyncConnectionErrorRetryHandler(), CountedRateLimitRetries(metrics)]
