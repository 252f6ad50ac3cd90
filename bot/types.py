"""The value objects the core speaks.

Everything that crosses a boundary of the core is one of these frozen dataclasses. Adapters
build `Invocation`s from platform payloads and render `Reply`s back; nothing in `bot/` ever
sees a discord.py or slack-bolt object.

A `Reply` is deliberately richer than text: it carries a title, a Markdown body, fields,
and `Action`s (buttons on Discord and Slack, a hint line in the console), and says whether it
is ephemeral (only the asker sees it) and whether it belongs in a thread. Each adapter renders
what its platform supports and falls back to plain text for the rest.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


class Kind(enum.StrEnum):
    """What sort of question this is: explained (`qa`) or a coding problem."""

    QA = "qa"
    CODING = "coding"


class Difficulty(enum.StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Locale(enum.StrEnum):
    """The UI languages, and the two languages of content (Chinese first, English beside)."""

    EN = "en"
    ZH = "zh"

    @classmethod
    def parse(cls, tag: str | None) -> Locale:
        """Map a platform locale tag (``zh-CN``, ``en-US``, ``zh_TW``...) to a UI language."""
        return cls.ZH if tag and tag.lower().startswith("zh") else cls.EN

    def other(self) -> Locale:
        return Locale.ZH if self is Locale.EN else Locale.EN


class Status(enum.StrEnum):
    """Whether an item is served. A draft is loaded and checked, never shown."""

    PUBLISHED = "published"
    DRAFT = "draft"


@dataclass(frozen=True, slots=True)
class Source:
    """Where a question came from: one interview report, as precisely as it says."""

    document: str
    title: str
    company: str | None = None
    role: str | None = None
    round: str | None = None

    def label(self) -> str:
        parts = [p for p in (self.company, self.role, self.round) if p]
        return " · ".join(parts) if parts else self.title


@dataclass(frozen=True, slots=True)
class AskedAt:
    """A company among the reports that asked a question, and the rounds they name (in the
    reports' words: 一面, 二面 ...)."""

    company: str
    rounds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Asked:
    """How often a question was asked: the distinct interview reports that mention it, and
    the companies those reports name, most reports first. An item written for the bank,
    and not since reported, has `Asked()`: no reports."""

    reports: int = 0
    companies: tuple[AskedAt, ...] = ()


class ListOrder(enum.StrEnum):
    """How `/questions` orders the bank: easiest first (`level`, the default) or most often
    asked first (`asked`); ties by id either way, so pages are stable."""

    LEVEL = "level"
    ASKED = "asked"


@dataclass(frozen=True, slots=True)
class Bilingual:
    """A short text in both languages, as a quick check states it."""

    zh: str
    en: str

    def in_(self, locale: Locale) -> str:
        return self.en if locale is Locale.EN else self.zh


@dataclass(frozen=True, slots=True)
class QuizOption:
    """One of a quick check's four options, with why it is right or wrong."""

    text: Bilingual
    why: Bilingual
    correct: bool = False


@dataclass(frozen=True, slots=True)
class QuickCheck:
    """A multiple-choice question about an item, for channel quizzes: exactly one option
    is correct (the content schema guarantees it)."""

    question: Bilingual
    options: tuple[QuizOption, ...]

    def correct_index(self) -> int:
        return next(i for i, o in enumerate(self.options) if o.correct)


@dataclass(frozen=True, slots=True)
class Question:
    """One item of the bank. `answer` is the Markdown explanation and `prompt` a coding
    problem's statement, both in Chinese; `*_en` are their English versions, when written.

    No `sources` means the item was written for the bank (`source: original`)."""

    id: str
    title: str
    kind: Kind
    difficulty: Difficulty
    topics: tuple[str, ...]
    sources: tuple[Source, ...]
    answer: str
    title_en: str | None = None
    prompt: str | None = None
    signature: str | None = None
    answer_en: str | None = None
    prompt_en: str | None = None
    related: tuple[str, ...] = ()
    quiz: tuple[QuickCheck, ...] = ()
    status: Status = Status.PUBLISHED
    hints: tuple[Bilingual, ...] = ()  # a coding problem's nudge, approach, near-solution

    def display_title(self, locale: Locale) -> str:
        """The title in `locale`'s language when there is one, else the Chinese."""
        return self.title_en if locale is Locale.EN and self.title_en else self.title

    def answer_in(self, locale: Locale) -> str:
        return self.answer_en if locale is Locale.EN and self.answer_en else self.answer

    def prompt_in(self, locale: Locale) -> str | None:
        return self.prompt_en if locale is Locale.EN and self.prompt_en else self.prompt

    def has_english(self) -> bool:
        """Whether switching to English shows anything different."""
        return bool(self.title_en or self.answer_en or self.prompt_en)


@dataclass(frozen=True, slots=True)
class SearchHit:
    question_id: str
    title: str
    kind: Kind
    snippet: str


@dataclass(frozen=True, slots=True)
class TopicCount:
    topic: str
    questions: int


class ActionKind(enum.StrEnum):
    """What a button does. Adapters route clicks by kind and `value`, statelessly.

    The `*_IN` kinds show an item in a given language; their value is `<lang>:<id>`
    (`en:python-gil`), so a click needs nothing else either. A `BROWSE` button turns a page
    of `/questions`; its value is the listing's options, `topic=gpu;page=2`."""

    REVEAL_ANSWER = "reveal"
    SHOW_QUESTION = "question"
    SUBMIT_SOLUTION = "submit"
    ANSWER_IN = "answer-in"
    QUESTION_IN = "question-in"
    BROWSE = "browse"
    QUIZ = "quiz"  # a daily post's quick check option: `<schedule>:<slot>:<position shown>`
    HINT = "hint"  # a coding problem's next hint: `<problem>:<level>`
    FORGET = "forget"  # `/forget me` confirmed (`yes`) or not (`no`): the clicker's own data
    # Spaced review (see `_FIELDS`): a rating after an explanation, an option of a review's
    # quick check, the explanation after it, and the next due card.
    RATE = "rate"
    REVIEW_CHECK = "review-check"
    REVIEW_EXPLAIN = "review-explain"
    REVIEW_NEXT = "review-next"
    # A server's drafts (`/drafts`): approve, reject or edit one (the value is its id), or
    # turn to a page of them (the value is the page); every click is checked again.
    DRAFT_APPROVE = "draft-approve"
    DRAFT_REJECT = "draft-reject"
    DRAFT_EDIT = "draft-edit"
    DRAFT_PAGE = "draft-page"
    # Reported mistakes: the form under an explanation (value: the item id), a page of
    # `/reports` (value: the page), the Resolve form of a report (value: the report id).
    REPORT_MISTAKE = "report"
    REPORTS_PAGE = "reports"
    RESOLVE_REPORT = "resolve"
    # Answers from the group: the form that answers a server's open question (value: the
    # item id), and a moderator's adoption of an answer as its explanation (value: its id).
    ANSWER_THIS = "contribute"
    ADOPT_ANSWER = "adopt"


@dataclass(frozen=True, slots=True)
class Action:
    """A button. `value` is all a click needs (a question id), so old buttons keep working."""

    kind: ActionKind
    label: str
    value: str

    @classmethod
    def in_language(cls, kind: ActionKind, label: str, qid: str, lang: Locale) -> Action:
        return cls(kind, label, f"{lang.value}:{qid}")

    @classmethod
    def browse(cls, label: str, options: dict[str, str]) -> Action:
        return cls(ActionKind.BROWSE, label, ";".join(f"{k}={v}" for k, v in options.items()))

    def invocation(self) -> tuple[str, dict[str, str]]:
        """The command a click runs and its options: the one routing every adapter uses."""
        command, option = _ACTION_COMMANDS[self.kind]
        if self.kind in _IN_LANGUAGE:
            lang, _, qid = self.value.partition(":")
            return command, {option: qid, "lang": lang}
        if self.kind is ActionKind.BROWSE:
            pairs = (pair.partition("=") for pair in self.value.split(";"))
            return command, {k: v for k, sep, v in pairs if sep and k and v}
        if self.kind is ActionKind.QUIZ:
            post, _, choice = self.value.rpartition(":")
            return command, {"post": post, "choice": choice}
        if self.kind is ActionKind.HINT:
            problem, _, level = self.value.rpartition(":")
            return command, {"problem": problem, "level": level}
        if self.kind is ActionKind.REVIEW_NEXT:
            return command, {}
        if self.kind in _DRAFT_ACTIONS:
            action, name = _DRAFT_ACTIONS[self.kind]
            return command, {"action": action, name: self.value}
        if self.kind in _FIELDS:
            names = _FIELDS[self.kind]  # the last, a member id, may hold colons of its own
            return command, dict(zip(names, self.value.split(":", len(names) - 1), strict=False))
        return command, {option: self.value}

    def as_command(self) -> str:
        """The slash command that does the same thing: the console's fallback for a button."""
        command, options = self.invocation()
        if self.kind in _BY_NAME or not options:  # all by name
            return " ".join([f"/{command}", *(f"{k}:{v}" for k, v in options.items())])
        first, *more = options.items()
        return " ".join([f"/{command} {first[1]}", *(f"{k}:{v}" for k, v in more)])


_ACTION_COMMANDS = {
    ActionKind.REVEAL_ANSWER: ("answer", "id"),
    ActionKind.SHOW_QUESTION: ("question", "id"),
    ActionKind.SUBMIT_SOLUTION: ("submit", "problem"),
    ActionKind.ANSWER_IN: ("answer", "id"),
    ActionKind.QUESTION_IN: ("question", "id"),
    ActionKind.BROWSE: ("questions", "page"),
    ActionKind.QUIZ: ("quiz", "post"),
    ActionKind.HINT: ("hint", "problem"),
    ActionKind.FORGET: ("forget-confirm", "answer"),
    ActionKind.RATE: ("rate", "id"),
    ActionKind.REVIEW_CHECK: ("review-check", "id"),
    ActionKind.REVIEW_EXPLAIN: ("review-explain", "id"),
    ActionKind.REVIEW_NEXT: ("review", ""),
    ActionKind.DRAFT_APPROVE: ("drafts", "id"),
    ActionKind.DRAFT_REJECT: ("drafts", "id"),
    ActionKind.DRAFT_EDIT: ("drafts", "id"),
    ActionKind.DRAFT_PAGE: ("drafts", "page"),
    ActionKind.REPORT_MISTAKE: ("report", "id"),
    ActionKind.REPORTS_PAGE: ("reports", "page"),
    ActionKind.RESOLVE_REPORT: ("resolve", "report"),
    ActionKind.ANSWER_THIS: ("contribute", "id"),
    ActionKind.ADOPT_ANSWER: ("adopt", "answer"),
}
# The `/drafts` action each draft button runs, and the option its value fills.
_DRAFT_ACTIONS = {
    ActionKind.DRAFT_APPROVE: ("approve", "id"),
    ActionKind.DRAFT_REJECT: ("reject", "id"),
    ActionKind.DRAFT_EDIT: ("edit", "id"),
    ActionKind.DRAFT_PAGE: ("show", "page"),
}
_IN_LANGUAGE = frozenset({ActionKind.ANSWER_IN, ActionKind.QUESTION_IN})
# The review buttons' values, `:`-separated in this order; `owner` is the member the message
# was dealt to, `seen` how many reviews their card had then (a replay finds more), `choice`
# the position the option is shown at, 0 for A (the order is drawn from the rest and read
# back on a click, so the value never names the option in the file: bot/quiz.py).
_FIELDS = {
    ActionKind.RATE: ("id", "seen", "rating", "owner"),
    ActionKind.REVIEW_CHECK: ("id", "seen", "check", "choice", "owner"),
    ActionKind.REVIEW_EXPLAIN: ("id", "owner"),
}
_BY_NAME = frozenset({ActionKind.BROWSE, ActionKind.QUIZ, ActionKind.HINT, *_FIELDS})


@dataclass(frozen=True, slots=True)
class FormField:
    """One text input of a `Form`: its `name` is the option of the form's command it fills."""

    name: str
    label: str
    multiline: bool = False
    max_length: int = 100
    required: bool = True
    value: str = ""  # prefilled
    hint: str | None = None  # a line under the input, or its placeholder where that is all


@dataclass(frozen=True, slots=True)
class Form:
    """What a button opens instead of running a command at once: text inputs whose values
    become the options of `command` (`bot.routes.form_options`), and `subject`, what the
    form is about (a problem, an item, a report), which fills the command's first option.

    Routing stays stateless: an adapter carries (command, subject) in the form it sends (a
    Discord modal's custom_id, a Slack view's private_metadata) and reads them back with
    the inputs by field name on submission; nothing is stored between opening and sending.
    Each platform renders what it can: a Discord modal (up to 5 inputs), a Slack modal
    view (plain_text_input blocks, `intro` as a section above them); the console has no
    forms, its typed command is the form (`bot.routes.typed`)."""

    command: str
    subject: str
    title: str
    fields: tuple[FormField, ...]
    intro: str | None = None  # a sentence above the inputs, where the platform can show one


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = True


class Tone(enum.StrEnum):
    """How a reply should look: normal content, a user's mistake, or the bot's own failure."""

    INFO = "info"
    USER_ERROR = "user_error"
    FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file that goes with a reply (an admin's CSV export, a progress card): each adapter
    delivers it as its platform can (a file on Discord and Slack, a file on disk from the
    console). A picture (`image/png`) may carry `text`, the same picture drawn in Unicode, for
    a place that shows no images: the console prints it instead of saving the file."""

    name: str
    data: bytes
    mime: str = "application/octet-stream"
    text: str | None = None

    @property
    def image(self) -> bool:
        return self.mime.startswith("image/")


@dataclass(frozen=True, slots=True)
class Reply:
    """A message from the core. `body` is Markdown; tables and code blocks are allowed."""

    body: str
    title: str | None = None
    fields: tuple[Field, ...] = ()
    actions: tuple[Action, ...] = ()
    footer: str | None = None
    ephemeral: bool = False
    tone: Tone = Tone.INFO
    in_thread: bool = False
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One autocomplete suggestion: `name` is shown, `value` is what the option receives."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class ChannelRef:
    """A place messages go: platform, workspace or guild (if any), channel."""

    platform: str
    channel: str
    workspace: str | None = None

    @property
    def server(self) -> str:
        """The community this channel belongs to, as one key (`discord:<guild>`,
        `slack:<team>`; a channel outside any server, a DM or the console, is its own):
        what a server's own items and moderation are scoped by."""
        return f"{self.platform}:{self.workspace or self.channel}"


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A posted message, as the platform names it, so a thread can be started on it later."""

    channel: ChannelRef
    message_id: str


@dataclass(frozen=True, slots=True)
class User:
    platform: str
    id: str
    display_name: str
    is_admin: bool = False
    # May review what members contribute (drafts, reported mistakes): the adapter says who
    # (Manage Messages on Discord, workspace admins on Slack, configurable), the core checks.
    is_moderator: bool = False


# Shows the asker how a reply in the making goes (a place in the grading queue). The adapter
# gives one where its platform can show it; delivering is its business, failures included.
Notice = Callable[["Reply"], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Invocation:
    """A command someone ran: its name, its options by name, and who ran it where; and,
    from adapters that can show one, where to send a notice while the reply is made."""

    command: str
    options: dict[str, str] = field(default_factory=dict)
    user: User = User("console", "local", "you")
    channel: ChannelRef = ChannelRef("console", "terminal")
    locale: Locale = Locale.EN
    notice: Notice | None = field(default=None, compare=False, repr=False)
    # The server's (guild's) preferred language, where its platform says one: a new
    # schedule's posts speak it, whatever the language of the admin who set it up.
    server_locale: Locale | None = None
