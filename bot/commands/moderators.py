"""Who may moderate: one check for every moderation command (drafts, reported mistakes,
answers from the group).

The adapter says who moderates (`User.is_moderator`, for the server the call comes from:
the platform's rights, or the roles and ids the settings name); the core refuses everyone
else here, on every command and every click, each command in its own words."""

from __future__ import annotations

from bot.errors import BadArgument
from bot.i18n import t
from bot.types import Invocation


def moderators_only(inv: Invocation, refusal: str) -> None:
    """Refuse `inv` unless its member moderates its server; `refusal` is the i18n key of
    what they are told."""
    if not inv.user.is_moderator:
        raise BadArgument(t(inv.locale, refusal))
