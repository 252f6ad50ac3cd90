"""The console adapter: a chat-like REPL over stdin and stdout.

Interactive (a terminal): a prompt, and numbered buttons that can be pressed by typing their
number. Scripted (stdin is a pipe or file): one command per line, each reply printed, no
prompt, so `printf '/search 显存\\n' | studybot console` works in scripts and tests.
A line that ends by opening a ``` code block (```` /run ```python ````) continues until a line
that closes it, so code can be pasted into `/submit <problem>` and `/run` as in chat; a ```
inside a line (`/run print("```")`) opens nothing. A block still open at the end of input is
not run (half a paste is not the code meant): the console says on which line it opened, and
the commands among the lines it took are read as commands. Pressing "Submit solution" is the
terminal's version of a chat form: it asks for the code (a ``` block, or lines up to one with
just `/end`, blank lines being part of the code), then submits it; a line with just `/cancel`
drops it and `/quit` leaves the console, as a form's Cancel and closing the window do. Input
that ends inside the form submits nothing. `/import` alone is the same kind of form for a
report's text (every line up to `/end`), and `/import FILE` reads the report from a file
(through `Studybot.import_file`, as a chat platform's attachment). A reply's attachments (an
admin's CSV export) are written as files into the `files` folder, and their paths printed;
a picture that comes with a Unicode drawing of itself (the `/me` calendar) is printed as that.
Input is read as adapters/console/lines.py describes (numbered, Windows line endings as
plain ones).
"""

from __future__ import annotations

import asyncio
import itertools
import re
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from adapters.console.lines import Lines
from adapters.console.render import render
from bot.community.untrusted import MAX_BYTES
from bot.core import Studybot
from bot.i18n import t
from bot.routes import code_option, form_of, form_options, typed
from bot.types import Action, ChannelRef, Invocation, Locale, MessageRef, Reply, User

PLATFORM = "console"
EXIT_WORDS = {"/quit", "/exit", "quit", "exit"}
END_OF_CODE = "/end"
CANCEL = "/cancel"
IMPORT = "/import"  # alone, a form for a report's text; with a path, the file's
OPENS_BLOCK = re.compile(r"```[ \t]*(?:python3?|py)?[ \t]*$", re.I)  # a fence ending its line


class ConsoleAdapter:
    def __init__(self, core: Studybot, stdin: TextIO, stdout: TextIO, *,
                 locale: Locale = Locale.EN, files: Path | None = None) -> None:  # fmt: skip
        self._core, self._out, self._locale = core, stdout, locale
        self._in = Lines(stdin, self._not_utf8)
        self._files = files or Path.cwd()  # where a reply's attachments are written
        self._interactive = stdin.isatty()
        self._user = User(PLATFORM, "local", "you", is_admin=True, is_moderator=True)
        self.channel = ChannelRef(PLATFORM, "terminal")
        self._actions: list[Action] = []
        self._ids = itertools.count(1)

    async def run(self) -> None:
        """Read lines until end of input or `/quit`."""
        if self._interactive:
            self._write("studybot console. Type /help for commands, /quit to leave.\n")
        while (line := await self._read_line()) is not None:
            text = (await self._complete_fence(line)).strip()
            if text in EXIT_WORDS:
                return
            try:
                if text:
                    await self._respond(text)
            except _Left:
                return
        if self._interactive:
            self._write("\n")  # Ctrl-D left the cursor after the prompt

    async def send(
        self,
        channel: ChannelRef,
        reply: Reply,
        *,
        thread_of: MessageRef | None = None,
        nonce: str | None = None,
    ) -> MessageRef:
        """The `ChatAdapter` port: a post the core makes on its own (daily questions).

        A terminal has no idempotency, so `nonce` is not used."""
        prefix = f"↳ in thread of #{thread_of.message_id}\n" if thread_of else ""
        self._show(reply, prefix, await self._save(reply))
        return MessageRef(channel, str(next(self._ids)))

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        """A terminal cannot change what it printed: the post is shown again, marked."""
        self._show(reply, f"↺ #{message.message_id} updated\n")

    async def send_direct(self, user: User, reply: Reply) -> None:
        """The terminal has one reader: a direct message is printed, marked as one."""
        self._show(reply, f"✉ to {user.display_name or user.id}\n")

    async def _respond(self, text: str) -> None:
        if text.isdigit() and not 0 < int(text) <= len(self._actions):
            number, count = text[:6], len(self._actions)
            key = "console.no_button" if count else "console.no_buttons_yet"
            self._write(t(self._locale, key, number=number, count=count) + "\n")
            return
        if text in (END_OF_CODE, CANCEL):
            self._write(t(self._locale, "console.no_form", word=text) + "\n")
            return
        if text.isdigit():
            await self._press(self._actions[int(text) - 1])
            return
        if not text.startswith("/"):
            text = "/help"
        if (report := await self._report(text)) is not None:
            self._show(report)
            return
        reply = await self._core.handle_line(
            text, user=self._user, channel=self.channel, locale=self._locale, notice=self._notice
        )
        self._show(reply, saved=await self._save(reply))

    async def _press(self, action: Action) -> None:
        """A button, pressed by its number: its own invocation, as a chat platform sends a
        click (a button's command is never typed), the code form first for Submit. Any other
        form is a typed command here: the console says which to type."""
        command, options = action.invocation()
        form = form_of(action, self._locale)
        if form is not None and (taking := code_option(form.command)) is None:
            self._write(t(self._locale, "console.form_typed", command=typed(action)) + "\n")
            return
        if form is not None and taking is not None:
            if (code := await self._ask_code(form.subject)) is None:
                return
            options = {**options, **form_options(form.command, form.subject, {taking.name: code})}
        pressed = Invocation(command, options, user=self._user, channel=self.channel,
                             locale=self._locale, notice=self._notice)  # fmt: skip
        reply = await self._core.handle(pressed)
        self._show(reply, saved=await self._save(reply))

    def _not_utf8(self, line: int) -> None:
        self._write(t(self._locale, "console.not_utf8", line=line) + "\n")

    async def _notice(self, reply: Reply) -> None:
        """A notice while a reply is made (a place in the grading queue): printed before it."""
        self._show(reply)

    def _show(self, reply: Reply, prefix: str = "", saved: tuple[Path, ...] = ()) -> None:
        if reply.actions:  # typing "1" presses button 1 of the latest reply that has buttons
            self._actions = list(reply.actions)
        files = "".join(f"📎 {t(self._locale, 'console.saved', path=path)}\n" for path in saved)
        self._write(f"{prefix}{render(_drawn_as_text(reply), self._locale)}\n{files}")

    async def _save(self, reply: Reply) -> tuple[Path, ...]:
        """Write the reply's attachments into the files folder (never over an older file);
        a picture drawn as text too is printed instead (`_drawn_as_text`)."""
        return tuple([await asyncio.to_thread(_write_new, self._files, a.name, a.data)
                      for a in reply.attachments if a.text is None])  # fmt: skip

    async def _report(self, text: str) -> Reply | None:
        """`/import` alone: the report's lines up to `/end`; `/import FILE`: the file's bytes.
        None for any other line (a one-line `/import Q: ...` goes to the core as typed)."""
        word, _, rest = text.partition(" ")
        if word.lower() != IMPORT:
            return None
        invocation = Invocation(IMPORT.removeprefix("/"), user=self._user, channel=self.channel,
                                locale=self._locale)  # fmt: skip
        if not rest.strip():
            report = await self._ask_lines()
            if report is None:
                return Reply(t(self._locale, "console.report_dropped"))
            return await self._core.handle(replace(invocation, options={"text": report}))
        if "\n" in rest or (found := await asyncio.to_thread(_report_file, rest)) is None:
            return None
        return await self._core.import_file(invocation, *found)

    async def _ask_lines(self) -> str | None:
        """Every line up to one with just `/end`; None if dropped (`/cancel`, end of input)."""
        self._write(t(self._locale, "console.paste_report", end=END_OF_CODE, cancel=CANCEL) + "\n")
        lines: list[str] = []
        while (line := await self._read_line(prompt="...> ")) is not None:
            word = line.strip()
            if word in EXIT_WORDS:
                raise _Left
            if word == CANCEL:
                return None
            if word == END_OF_CODE:
                return "".join(lines)
            lines.append(line if line.endswith("\n") else line + "\n")
        return None

    async def _ask_code(self, problem: str) -> str | None:
        """The form: a ``` block, or every line (blank ones too) up to a line with just
        `/end`; None if it was dropped (`/cancel`, or the input ended). `/quit` leaves."""
        self._write(t(self._locale, "console.paste_code", problem=problem, end=END_OF_CODE,
                      cancel=CANCEL) + "\n")  # fmt: skip
        lines: list[str] = []
        while (line := await self._read_line(prompt="...> ")) is not None:
            word = line.strip()
            if word in EXIT_WORDS:
                raise _Left
            if word == CANCEL:
                return self._dropped("console.form_dropped", problem)
            if not lines and OPENS_BLOCK.match(word):
                return await self._complete_fence(line) or None
            if word == END_OF_CODE:
                return "```python\n" + "".join(lines) + "```"
            lines.append(line if line.endswith("\n") else line + "\n")
        return self._dropped("console.form_unfinished", problem)

    def _dropped(self, key: str, problem: str) -> str | None:
        """Say why the form submits nothing; None, the form's answer then."""
        self._write(t(self._locale, key, problem=problem, end=END_OF_CODE) + "\n")
        return None

    async def _complete_fence(self, line: str) -> str:
        """A line that ends by opening a ``` block goes on to the line that closes it; any
        other line is complete as it is. A block the input ends in is refused (""), and the
        commands among its lines are read again."""
        if not OPENS_BLOCK.search(line.rstrip("\n")):
            return line
        opened, lines = self._in.number, [line]
        while (more := await self._read_line(prompt="...> ")) is not None:
            lines.append(more)
            if more.lstrip().startswith("```"):
                return "".join(lines)
        self._write(t(self._locale, "console.unclosed_fence", line=opened) + "\n")
        self._in.replay(more for more in lines[1:] if more.lstrip().startswith("/"))
        return ""

    async def _read_line(self, prompt: str = "you> ") -> str | None:
        if self._interactive:
            self._write(prompt)
        return await self._in.read()

    def _write(self, text: str) -> None:
        self._out.write(text)
        self._out.flush()


def _report_file(typed: str) -> tuple[bytes, str] | None:
    """The bytes and name of the file `typed` names, if it names one (the console's own
    user, at their own terminal: any file they can read)."""
    path = Path(typed.strip()).expanduser()
    if not path.is_file():
        return None
    with path.open("rb") as file:  # one byte past the cap is enough to refuse it
        return file.read(MAX_BYTES + 1), path.name


class _Left(Exception):
    """`/quit` where a line was expected by something other than the prompt (a form)."""


def _drawn_as_text(reply: Reply) -> Reply:
    """The reply with its pictures' text renderings (the `/me` calendar) after its body."""
    texts = [a.text for a in reply.attachments if a.text is not None]
    return replace(reply, body="\n\n".join([reply.body, *texts])) if texts else reply


def _write_new(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    stem, suffix = Path(Path(name).name).stem, Path(name).suffix  # no folders from the name
    path = folder / f"{stem}{suffix}"
    for n in itertools.count(2):
        if not path.exists():
            break
        path = folder / f"{stem}-{n}{suffix}"
    path.write_bytes(data)
    return path
