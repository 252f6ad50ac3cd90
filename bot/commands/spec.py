"""Declarations of every command and its options: the one source adapters read.

Discord registers its slash commands from these, Slack and the console parse text with them,
and `/help` lists them. A handler never learns which platform asked.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.answers import TEXT_LIMIT as ANSWER_LIMIT
from bot.i18n import t
from bot.mistakes import NOTE_LIMIT, QUOTE_LIMIT, TEXT_LIMIT
from bot.types import Locale

LANGUAGES = tuple(locale.value for locale in Locale)  # the content's languages: en, zh
BOTH = "both"  # a channel's posts may speak both


class Suggest(enum.StrEnum):
    """What an option's value names, so platforms with autocomplete can offer matches
    (`Studybot.complete`)."""

    QUESTION = "question"
    TOPIC = "topic"
    PROBLEM = "problem"
    TIMEZONE = "timezone"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    name: str
    help_key: str
    required: bool = False
    rest: bool = False  # takes the rest of the line, spaces included (search queries)
    choices: tuple[str, ...] = ()
    suggest: Suggest | None = None
    # For a command whose first option is an `action` with choices (`/schedule set`): the
    # actions this option belongs to (empty: all). Platforms with subcommands use it.
    only_for: tuple[str, ...] = ()
    # Text with line breaks (code): platforms whose options lose newlines collect it in a
    # form or a file instead.
    multiline: bool = False
    # Other words accepted for a choice, as its label reads ("explained" for qa): alias, choice.
    aliases: tuple[tuple[str, str], ...] = ()
    # Free text up to this many characters (a reported mistake): not folded, and longer
    # than an ordinary option's cap allows (0: an ordinary option, or a `rest` one uncapped).
    max_length: int = 0

    def canonical(self, value: str) -> str:
        """`value` as one of `choices` if it is one or an alias of one (else as given)."""
        word = value.strip().lower()
        return dict(self.aliases).get(word, word) if self.choices else value


@dataclass(frozen=True, slots=True)
class CommandSpec:
    name: str
    help_key: str
    options: tuple[OptionSpec, ...] = ()
    # May take seconds (grading): platforms with a reply deadline acknowledge first.
    slow: bool = False
    # Mostly for admins (the core still checks per action): platforms that can hide a
    # command from other members do.
    for_admins: bool = False
    # How many leading options a bare word may fill (None: all): `/question python-gil` is
    # an id, and words after it are left over rather than read as a topic and a kind.
    positional: int | None = None

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)

    def usage(self) -> str:
        parts = [f"/{self.name}"]
        for o in self.options:
            parts.append(f"<{o.name}>" if o.required else f"[{o.name}:…]")
        return " ".join(parts)

    def summary(self, locale: Locale) -> str:
        return t(locale, self.help_key)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("question", "cmd.question", (
        OptionSpec("id", "opt.id", suggest=Suggest.QUESTION),
        OptionSpec("topic", "opt.topic", suggest=Suggest.TOPIC),
        OptionSpec("kind", "opt.kind", choices=("qa", "coding"),
                   aliases=(("explained", "qa"), ("问答", "qa"), ("编程", "coding"))),
        OptionSpec("lang", "opt.lang", choices=LANGUAGES),
        OptionSpec("difficulty", "opt.difficulty", choices=("easy", "medium", "hard"),
                   aliases=(("简单", "easy"), ("中等", "medium"), ("困难", "hard"))),
    ), positional=1),
    CommandSpec("questions", "cmd.questions", (
        OptionSpec("topic", "opt.topic", suggest=Suggest.TOPIC),
        OptionSpec("difficulty", "opt.difficulty", choices=("easy", "medium", "hard"),
                   aliases=(("简单", "easy"), ("中等", "medium"), ("困难", "hard"))),
        OptionSpec("kind", "opt.kind", choices=("qa", "coding"),
                   aliases=(("explained", "qa"), ("问答", "qa"), ("编程", "coding"))),
        OptionSpec("page", "opt.page"),
        OptionSpec("sort", "opt.sort", choices=("level", "asked"),
                   aliases=(("asked-most", "asked"), ("most-asked", "asked"),
                            ("popular", "asked"), ("问得最多", "asked"), ("最常问", "asked"),
                            ("考频", "asked"), ("高频", "asked"), ("difficulty", "level"),
                            ("easiest", "level"), ("难度", "level"), ("由易到难", "level"))),
    )),
    CommandSpec("answer", "cmd.answer", (
        OptionSpec("id", "opt.id", required=True, suggest=Suggest.QUESTION),
        OptionSpec("lang", "opt.lang", choices=LANGUAGES),
    ), positional=1),
    CommandSpec("search", "cmd.search", (OptionSpec("query", "opt.query", True, rest=True),)),
    CommandSpec("topics", "cmd.topics"),
    CommandSpec("schedule", "cmd.schedule", (
        OptionSpec("action", "opt.action", required=True,
                   choices=("set", "show", "pause", "resume", "remove")),
        OptionSpec("time", "opt.time", only_for=("set",)),
        OptionSpec("timezone", "opt.timezone", suggest=Suggest.TIMEZONE, only_for=("set",)),
        OptionSpec("days", "opt.days", only_for=("set",)),
        OptionSpec("coding", "opt.coding", only_for=("set",)),
        OptionSpec("topic", "opt.topic_or_any", suggest=Suggest.TOPIC, only_for=("set",)),
        OptionSpec("answer", "opt.answer", only_for=("set",)),
        OptionSpec("summary", "opt.summary", choices=("weekly", "off"), only_for=("set",)),
        OptionSpec("lang", "opt.schedule_lang", choices=(*LANGUAGES, BOTH),
                  only_for=("set",)),
    ), for_admins=True),
    CommandSpec("daily", "cmd.daily", (
        OptionSpec("action", "opt.daily_action", required=True, choices=("now",)),
    ), for_admins=True),
    CommandSpec("submit", "cmd.submit", (
        OptionSpec("problem", "opt.problem", required=True, suggest=Suggest.PROBLEM),
        OptionSpec("code", "opt.code", required=True, rest=True, multiline=True),
    ), slow=True),
    CommandSpec("hint", "cmd.hint", (
        OptionSpec("problem", "opt.hint_problem", suggest=Suggest.PROBLEM),
        OptionSpec("level", "opt.level", choices=("1", "2", "3")),
    )),
    CommandSpec("run", "cmd.run", (
        OptionSpec("code", "opt.code", True, rest=True, multiline=True),
    ), slow=True),
    CommandSpec("me", "cmd.me", (
        OptionSpec("timezone", "opt.me_timezone", suggest=Suggest.TIMEZONE),
    )),
    CommandSpec("leaderboard", "cmd.leaderboard", (
        OptionSpec("period", "opt.period", choices=("week", "month", "all"),
                   aliases=(("本周", "week"), ("本月", "month"), ("全部", "all"))),
        OptionSpec("topic", "opt.topic", suggest=Suggest.TOPIC),
        OptionSpec("scope", "opt.scope", choices=("server", "channel"),
                   aliases=(("服务器", "server"), ("频道", "channel"))),
        OptionSpec("problem", "opt.board_problem", suggest=Suggest.PROBLEM),
    )),
    CommandSpec("export", "cmd.export", (
        OptionSpec("action", "opt.export_action", required=True, choices=("scores",)),
    ), slow=True, for_admins=True),
    CommandSpec("forget", "cmd.forget", (
        OptionSpec("what", "opt.forget_what", required=True, choices=("me",)),
    )),
    CommandSpec("review", "cmd.review", (
        OptionSpec("digest", "opt.digest", choices=("on", "off"),
                   aliases=(("开", "on"), ("关", "off"))),
        OptionSpec("retention", "opt.retention"),
    )),
    CommandSpec("import", "cmd.import", (
        OptionSpec("text", "opt.report_text", required=True, rest=True, multiline=True),
    )),
    CommandSpec("drafts", "cmd.drafts", (
        OptionSpec("action", "opt.drafts_action",
                   choices=("show", "approve", "reject", "edit")),
        OptionSpec("id", "opt.draft_id", only_for=("approve", "reject", "edit")),
        OptionSpec("page", "opt.page", only_for=("show",)),
        OptionSpec("title", "opt.draft_title", only_for=("edit",)),
        OptionSpec("title_en", "opt.draft_title_en", only_for=("edit",)),
        OptionSpec("topics", "opt.draft_topics", only_for=("edit",)),
        OptionSpec("difficulty", "opt.difficulty", choices=("easy", "medium", "hard"),
                   aliases=(("简单", "easy"), ("中等", "medium"), ("困难", "hard")),
                   only_for=("edit",)),
        OptionSpec("kind", "opt.kind", choices=("qa", "coding"),
                   aliases=(("explained", "qa"), ("问答", "qa"), ("编程", "coding")),
                   only_for=("edit",)),
    ), positional=2),
    CommandSpec("report", "cmd.report", (
        OptionSpec("id", "opt.id", required=True, suggest=Suggest.QUESTION),
        OptionSpec("text", "opt.mistake_text", required=True, rest=True, max_length=TEXT_LIMIT),
        OptionSpec("quote", "opt.report_quote", max_length=QUOTE_LIMIT),
    )),
    CommandSpec("reports", "cmd.reports", (OptionSpec("page", "opt.page"),)),
    CommandSpec("resolve", "cmd.resolve", (
        OptionSpec("report", "opt.report_id", required=True),
        OptionSpec("note", "opt.report_note", required=True, rest=True, max_length=NOTE_LIMIT),
    )),
    CommandSpec("contribute", "cmd.contribute", (
        OptionSpec("id", "opt.id", required=True, suggest=Suggest.QUESTION),
        OptionSpec("text", "opt.contribute_text", required=True, rest=True,
                   max_length=ANSWER_LIMIT),
    )),
    CommandSpec("adopt", "cmd.adopt", (OptionSpec("answer", "opt.answer_id", required=True),)),
    CommandSpec("answers", "cmd.answers", (
        OptionSpec("id", "opt.id", required=True, suggest=Suggest.QUESTION),
    )),
    CommandSpec("help", "cmd.help"),
)  # fmt: skip

# Commands only buttons run: not typed, not listed in /help, not registered on Discord.
BUTTON_COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("quiz", "cmd.quiz", (
        OptionSpec("post", "opt.post", required=True),
        OptionSpec("choice", "opt.choice", required=True),
    )),
    CommandSpec("forget-confirm", "cmd.forget", (
        OptionSpec("answer", "opt.forget_answer", required=True, choices=("yes", "no")),
    )),
    CommandSpec("rate", "cmd.rate", (
        OptionSpec("id", "opt.id", required=True),
        OptionSpec("seen", "opt.seen", required=True),
        OptionSpec("rating", "opt.rating", required=True, choices=("1", "2", "3", "4")),
        OptionSpec("owner", "opt.owner", required=True),
    )),
    CommandSpec("review-check", "cmd.review_check", (
        OptionSpec("id", "opt.id", required=True),
        OptionSpec("seen", "opt.seen", required=True),
        OptionSpec("check", "opt.check", required=True),
        OptionSpec("choice", "opt.choice", required=True),
        OptionSpec("owner", "opt.owner", required=True),
    )),
    CommandSpec("review-explain", "cmd.review_explain", (
        OptionSpec("id", "opt.id", required=True),
        OptionSpec("owner", "opt.owner", required=True),
    )),
)  # fmt: skip

BY_NAME = {spec.name: spec for spec in (*COMMANDS, *BUTTON_COMMANDS)}
