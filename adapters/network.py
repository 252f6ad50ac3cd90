"""The network under the chat platforms fails, and that is logged as one line each time.

Discord or Slack unreachable at start, a connection dropped later: the platform libraries
retry on their own (discord.py's gateway reconnect, Slack's Socket Mode client), and each
logs every failed attempt with its whole traceback, a hundred lines a retry for what is only
"the network is down". `quiet_network_errors` puts a filter on the log's handlers that keeps
such a record's message, adds the error in one line, drops the traceback, and logs it as a
warning. Any other exception keeps its traceback and level: that is a bug to read, not
weather.

`retry_delays` is the backoff for what the libraries do not retry themselves (logging in to
Discord): doubling from a second, at most a minute apart, with jitter so that many bots
coming back after one outage do not knock in step.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterator

import aiohttp

# What the network does, as the libraries raise it: refused, reset, unreachable, timed out
# (OSError and TimeoutError), and aiohttp's failures that are not OSErrors (a server that
# hung up, a broken websocket handshake).
NETWORK_ERRORS: tuple[type[BaseException], ...] = (OSError, TimeoutError, asyncio.TimeoutError,
                                                   aiohttp.ClientError)  # fmt: skip
# Warnings of discord.py about voice, which the bot does not use, at every start.
NOISE = ("PyNaCl is not installed", "davey is not installed")
FIRST_RETRY, LAST_RETRY = 1.0, 60.0


def is_network_error(exc: BaseException) -> bool:
    """Whether `exc`, or what it was raised from, is the network failing."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 8:
        if isinstance(current, NETWORK_ERRORS):
            return True
        current, seen = current.__cause__ or current.__context__, seen + 1
    return False


def summary(exc: BaseException) -> str:
    """An error in one line: its type and message."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class OneLineNetworkErrors(logging.Filter):
    """On a handler: a record carrying a network error loses its traceback and says the error
    in its message instead; discord.py's voice warnings are dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("discord.") and record.msg in NOISE_MESSAGES:
            return False
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not is_network_error(exc):
            return True
        record.msg, record.args = f"{record.getMessage()} ({summary(exc)})", None
        record.exc_info, record.exc_text = None, None
        if record.levelno > logging.WARNING:  # weather, not a fault of the bot's
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


NOISE_MESSAGES = frozenset(f"{n}, voice will NOT be supported" for n in NOISE)


def quiet_network_errors() -> None:
    """Install the filter on every handler of the root logger (once each)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, OneLineNetworkErrors) for f in handler.filters):
            handler.addFilter(OneLineNetworkErrors())


def retry_delays(rng: random.Random | None = None) -> Iterator[float]:
    """Seconds to wait before each next attempt: 1, 2, 4 ... 60, 60 ..., each with up to a
    tenth added at random."""
    pick = rng or random.Random()
    delay = FIRST_RETRY
    while True:
        yield delay * (1 + pick.random() / 10)
        delay = min(delay * 2, LAST_RETRY)
