"""`/import`: a member's interview report becomes drafts of their server, or links.

One entry point for every platform, `Imports.text`; a file (the console's `/import FILE`,
an attachment on a chat platform) comes through `Imports.file`, which checks its size and
reads it as UTF-8 before handing the text on. A platform that downloads the file first checks
what it says of it (`check_file`: name, type, size) so that nothing too big is fetched.
In order, each step refusing with a reply in the member's language:

1. size: at most `untrusted.MAX_BYTES` of UTF-8 (checked before anything is parsed);
2. rate: at most `untrusted.MAX_IMPORTS` imports a member per hour, counted in the database
   (`report_imports`) on the injected clock, so every process of a deployment agrees;
3. parse and plan in a thread (`bot.community.plan.prepare`), one import at a time: no
   questions, or more than `untrusted.MAX_QUESTIONS`, is refused. A seven-question report
   plans in about 25 ms against a bank of 280 items and 0.3 s against 5,600; thirty
   near-identical titles (each compared in full with all the others) take 1.2 s and 21 s;
   `untrusted.MAX_QUESTIONS` and the rate limit bound that;
4. the drafts, links and the import's count are written in one transaction; if an import
   that committed meanwhile took one of its new ids, it is planned again (against that
   import's drafts too), up to `ATTEMPTS` times.

A report is known by the digest of its text (`plan.digest_of`): imported again, its
questions match the drafts it made, so nothing is drafted twice and no link counts twice.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from bot.community import untrusted
from bot.community.plan import Plan, digest_of, prepare
from bot.errors import BadArgument, TooBusy
from bot.i18n import t
from bot.ports import Clock
from bot.store.community import CommunityStore, Shared
from bot.text.code import NotUtf8, decode_source, valid_unicode
from bot.types import Locale, User

ATTEMPTS = 3
REPORT_SUFFIXES = (".txt", ".md")  # what a report sent as a file may be named


@dataclass(frozen=True, slots=True)
class Asker:
    """Who imports, where, and the language to refuse in."""

    member: User
    server: str
    locale: Locale


class Imports:
    def __init__(self, store: CommunityStore, clock: Clock) -> None:
        self._store, self._clock = store, clock
        # Planning is CPU work in a thread, and Python threads share one interpreter lock:
        # plans take turns, so a burst of imports costs one core at most, never the loop.
        self._planning = asyncio.Semaphore(1)

    async def file(self, data: bytes, filename: str, asker: Asker) -> Plan:
        """A report sent as a file: its bytes, and its name as the report's document."""
        _check_size(len(data), asker.locale)
        try:
            text = await asyncio.to_thread(decode_source, data)
        except NotUtf8 as exc:
            raise BadArgument(t(asker.locale, "import.not_text", reason=str(exc))) from exc
        name = untrusted.source_title(filename.rsplit("/", 1)[-1]) or None
        return await self.text(text, asker, document=name)

    async def text(self, text: str, asker: Asker, document: str | None = None) -> Plan:
        """A report's text: drafts for its new questions, links for the others."""
        _check_size(len(text.encode("utf-8", "surrogatepass")), asker.locale)
        await self._check_rate(asker)
        text = valid_unicode(text)
        name = document or f"report-{digest_of(text)[:12]}"
        for _ in range(ATTEMPTS):
            plan = await self._plan(text, name, asker)
            shared = Shared(asker.server, plan.digest, plan.source, asker.member,
                            self._clock.now())  # fmt: skip
            if await self._store.record(shared, plan.items, [i.id for i in plan.linked]):
                return plan
        raise TooBusy(t(asker.locale, "import.busy"))

    async def _plan(self, text: str, name: str, asker: Asker) -> Plan:
        known = await self._store.known(asker.server)
        taken = await self._store.taken_ids()
        async with self._planning:
            plan = await asyncio.to_thread(prepare, text, name, known, taken)
        _check_questions(plan, asker.locale)
        return plan

    async def _check_rate(self, asker: Asker) -> None:
        since = self._clock.now() - timedelta(hours=untrusted.WINDOW_HOURS)
        if await self._store.imports_since(asker.member, since) >= untrusted.MAX_IMPORTS:
            raise TooBusy(t(asker.locale, "import.rate", limit=untrusted.MAX_IMPORTS))


def check_file(filename: str, mime: str | None, size: int, locale: Locale) -> None:
    """What a platform checks before it downloads a file sent as a report, from what the
    platform says of it: a `.txt` or `.md` name, a text type if one is given, and at most
    `untrusted.MAX_BYTES`; a BadArgument that says what is taken otherwise."""
    named = filename.lower().endswith(REPORT_SUFFIXES)
    text = not mime or mime.split(";", 1)[0].strip().lower().startswith("text/")
    if not named or not text or not 0 <= size <= untrusted.MAX_BYTES:
        raise BadArgument(t(locale, "import.not_report_file", limit=untrusted.MAX_BYTES // 1024))


def _check_size(size: int, locale: Locale) -> None:
    if size > untrusted.MAX_BYTES:
        raise BadArgument(t(locale, "import.too_big", limit=untrusted.MAX_BYTES // 1024))


def _check_questions(plan: Plan, locale: Locale) -> None:
    if plan.questions == 0:
        raise BadArgument(t(locale, "import.none"))
    if plan.questions > untrusted.MAX_QUESTIONS:
        raise BadArgument(t(locale, "import.too_many", count=plan.questions,
                            limit=untrusted.MAX_QUESTIONS))  # fmt: skip
