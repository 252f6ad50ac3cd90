"""Who is asking: display name, UI language and rights, from users.info, cached briefly.

The core decides what admins and moderators may do (`User.is_admin`, `User.is_moderator`);
the adapter only says who is one: admins are workspace admins and owners (users.info
`is_admin` / `is_owner`) and the ids listed in `SLACK_ADMIN_USER_IDS`; moderators are the
admins and the ids listed in `SLACK_MODERATOR_USER_IDS`, who moderate without being admins.
Answers are cached for a few minutes so a burst of commands costs one lookup, and a revoked
admin loses the right within that time. A failed lookup never blocks a command: the person
is treated as a member speaking English (a listed admin or moderator keeps that right)
until the next try.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.types import Locale, User

log = logging.getLogger(__name__)
PLATFORM = "slack"
TTL_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class Person:
    user: User
    locale: Locale


class People:
    def __init__(
        self,
        client: AsyncWebClient,
        admins: frozenset[str] = frozenset(),
        *,
        moderators: frozenset[str] = frozenset(),
        ttl: float = TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client, self._admins, self._ttl, self._clock = client, admins, ttl, clock
        self._moderators = moderators
        self._cache: dict[str, tuple[float, Person]] = {}

    async def get(self, user_id: str, name: str = "") -> Person:
        cached = self._cache.get(user_id)
        if cached is not None and self._clock() - cached[0] < self._ttl:
            return cached[1]
        person = await self._lookup(user_id, name)
        if person is not None:
            self._cache[user_id] = (self._clock(), person)
            return person
        admin = user_id in self._admins
        return Person(User(PLATFORM, user_id, name or user_id, admin,
                           is_moderator=self._moderates(user_id, admin)), Locale.EN)  # fmt: skip

    def peek_locale(self, user_id: str) -> Locale:
        """The language last seen for `user_id`, without a lookup (for an immediate ack)."""
        cached = self._cache.get(user_id)
        return cached[1].locale if cached is not None else Locale.EN

    async def _lookup(self, user_id: str, name: str) -> Person | None:
        try:
            response = await self._client.users_info(user=user_id, include_locale=True)
        except SlackApiError as exc:
            log.warning("slack: users.info for %s failed: %s", user_id, exc.response.get("error"))
            return None
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("slack: users.info for %s failed: %r", user_id, exc)
            return None
        info: dict[str, Any] = response.get("user") or {}
        admin = bool(info.get("is_admin") or info.get("is_owner")) or user_id in self._admins
        profile = info.get("profile") or {}
        shown = profile.get("display_name") or info.get("real_name") or info.get("name") or name
        return Person(User(PLATFORM, user_id, shown or user_id, admin,
                           is_moderator=self._moderates(user_id, admin)),
                      Locale.parse(info.get("locale")))  # fmt: skip

    def _moderates(self, user_id: str, admin: bool) -> bool:
        return admin or user_id in self._moderators
