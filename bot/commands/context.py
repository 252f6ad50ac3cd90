"""What a command handler may use. Built once by the composition root."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.answers.service import Answers
from bot.charts.painter import Painter
from bot.community.imports import Imports
from bot.community.moderation import Moderation
from bot.grading.service import Grading
from bot.learning.ledger import Ledger
from bot.learning.scores import Scores
from bot.mistakes.service import Mistakes
from bot.ports import Clock
from bot.review.reviews import Reviews
from bot.scheduler import Scheduler
from bot.scheduler.tally import Tallies
from bot.store.members import MemberData
from bot.store.preferences import Preferences
from bot.store.progress import ProgressStore
from bot.store.questions import QuestionStore
from bot.store.quizzes import QuizStore
from bot.store.schedules import ScheduleStore
from bot.store.seen import SeenStore


@dataclass(frozen=True, slots=True)
class Context:
    store: QuestionStore
    clock: Clock
    rng: random.Random
    schedules: ScheduleStore
    scheduler: Scheduler
    quizzes: QuizStore
    members: MemberData
    prefs: Preferences
    ledger: Ledger
    reviews: Reviews
    seen: SeenStore
    progress: ProgressStore
    scores: Scores
    tallies: Tallies | None = None  # None: quiz posts are not edited (some tests)
    grading: Grading | None = None  # None where no sandbox runs (some tests)
    painter: Painter | None = None  # None: replies carry no pictures (some tests)
    imports: Imports | None = None  # the community bank (`/import`, `/drafts`)
    moderation: Moderation | None = None
    mistakes: Mistakes | None = None  # None: no reported mistakes (some tests)
    answers: Answers | None = None  # None: no answers from the group (some tests)
