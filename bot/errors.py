"""One error root for everything the bot raises on purpose.

    StudybotError
    ├── UserError            the person asking made a mistake; tell them how to fix it
    │   ├── UnknownCommand
    │   ├── BadArgument
    │   ├── NotFound         carries the nearest matches, so the reply can suggest them
    │   ├── TooBusy          a grading limit: one job per person, a few a minute, a full queue
    │   └── GradingFailed    a submission whose grading kept failing was given up on
    ├── ConfigError          a setting is wrong; start-up stops naming the setting
    ├── ContentError         content files are malformed; carries every `Fault`
    │   └── ImportRejected   an interview report yielded nothing to import
    ├── StoreError           the database is missing, too new, or unreadable
    ├── DeliveryError        a platform refused a post (permanent: channel gone, no access)
    └── GradingUnavailable   the grading sandbox is not running
        └── IsolationRefused strict isolation, and a layer is missing: no code runs

User errors become friendly replies; everything else is the bot's failure, logged in full
and shown to users only as an apology. Foreign exceptions (sqlite3, yaml) are translated at
the boundary with ``raise ... from exc``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class StudybotError(Exception):
    """Root of every error the bot raises on purpose."""


class UserError(StudybotError):
    """The request was wrong, not the bot. The message is shown to the user."""


class UnknownCommand(UserError):
    pass


class BadArgument(UserError):
    pass


class NotFound(UserError):
    def __init__(self, message: str, suggestions: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.suggestions = suggestions


class TooBusy(UserError):
    pass


class GradingFailed(UserError):
    """The submission took its grader down twice and was not graded. Said to its author
    as its verdict: the code may be at fault, and nothing the bot can retry will help."""


class GradingDelayed(UserError):
    """No grader took the submission in time. It stays queued: a grader grades it when one
    is free, and its verdict is on its author's record (`/me`)."""


class ConfigError(StudybotError):
    """A setting has a wrong value. The message names the setting."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One problem in one content file, at a line (1-based)."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class ContentError(StudybotError):
    def __init__(self, faults: list[Fault]) -> None:
        self.faults = tuple(faults)
        super().__init__("\n".join(str(f) for f in faults))


class ImportRejected(ContentError):
    pass


class StoreError(StudybotError):
    pass


class DeliveryError(StudybotError):
    """An adapter could not post. `permanent` errors are not worth retrying."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


class GradingUnavailable(StudybotError):
    pass


class IsolationRefused(GradingUnavailable):
    """Strict isolation (STUDYBOT_GRADING_ISOLATION) and a layer the kernel would not give:
    nothing is graded. `missing` names each layer and why it is missing; the message says how
    to accept the risk instead."""

    def __init__(self, missing: dict[str, str]) -> None:
        self.missing = dict(missing)
        layers = "; ".join(f"{name} ({why})" for name, why in missing.items())
        super().__init__(f"grading refused: strict isolation needs every layer, and the "
                         f"sandbox lacks {layers}. STUDYBOT_GRADING_ISOLATION=relaxed accepts "
                         f"the risk and grades anyway")  # fmt: skip
