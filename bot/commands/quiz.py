"""A click on an option of a daily post's quick check: each member answers once, in the
channel the post is in, while the quiz is open (until its answer is posted). The reply is
private: right or wrong, and why for the option chosen; the right option is revealed with
the answer in the thread. Every answer that counts reviews the member's card for the
question (spaced review) and asks the post's tally to be updated.

The button names the option by the position its post shows it at (0 for A), never by its
index in the file (the value reaches the client: it must not give the right option away);
the press is read back through the post's order (`shown_for`) and the answer stored by the
index in the file. The letters in replies are those the post shows options under."""

from __future__ import annotations

from bot.commands.context import Context
from bot.errors import BadArgument, NotFound
from bot.i18n import t
from bot.quiz import QuizPost, ShownCheck, shown_for
from bot.store.quizzes import Answer
from bot.types import Invocation, Locale, Reply, Tone


async def quiz(ctx: Context, inv: Invocation) -> Reply:
    post, position = _parsed(inv)
    asked = await ctx.schedules.question_post(post.schedule_id, post.slot)
    schedule = await ctx.schedules.get(post.schedule_id)
    if asked is None or schedule is None:
        raise NotFound(t(inv.locale, "quiz.gone"))
    here, there = inv.channel, schedule.channel
    if (here.platform, here.channel) != (there.platform, there.channel):
        raise BadArgument(t(inv.locale, "quiz.elsewhere"))
    question = await ctx.store.get(asked.question_id, retired=True)
    shown = shown_for(question, post) if question is not None else None
    # A post from before options were shown in a drawn order is read in the order drawn now
    # (see bot/quiz.py); a position its check has no option at is refused like any bad value.
    picked = shown.at(position) if shown is not None else None
    if shown is None or picked is None:
        raise NotFound(t(inv.locale, "quiz.gone"))
    if await ctx.schedules.answer_claimed(post.schedule_id, post.slot):
        return Reply(t(inv.locale, "quiz.closed"), ephemeral=True)
    mine = Answer(picked.choice, shown.is_right(picked.choice))  # stored by index in the file
    earlier = await ctx.quizzes.record(post.schedule_id, post.slot, inv.user, mine,
                                       ctx.clock.now())  # fmt: skip
    if earlier is not None:
        already = t(inv.locale, "quiz.already", letter=shown.letter_of(earlier.choice))
        return Reply(already, ephemeral=True)
    await ctx.reviews.quiz_answered(inv.user, here.workspace, asked.question_id, mine.correct)
    await ctx.scores.quiz_answered(schedule, asked, inv.user, mine.correct, ctx.clock.now())
    if ctx.tallies is not None:
        ctx.tallies.changed(post)
    return _verdict(shown, mine, inv.locale)


def _parsed(inv: Invocation) -> tuple[QuizPost, int]:
    """The post and the position shown (0 for A) a button or its typed form names."""
    post = QuizPost.parse(inv.options.get("post", ""))
    raw = inv.options.get("choice", "")
    if post is None or not raw.isdigit():
        raise BadArgument(t(inv.locale, "quiz.gone"))
    return post, int(raw)


def _verdict(shown: ShownCheck, mine: Answer, locale: Locale) -> Reply:
    """Right or wrong, the option and why, all in the reader's language: a private reply
    speaks to one member, whatever language the channel's post speaks (its letter ties the
    two together)."""
    picked = shown.of(mine.choice)
    key = "quiz.right" if mine.correct else "quiz.wrong"
    lines = [picked.option.why.in_(locale)]
    if not mine.correct:
        lines.append(t(locale, "quiz.wrong_hint"))
    return Reply("\n".join(lines), title=t(locale, key, letter=picked.letter,
                                           text=picked.option.text.in_(locale)),
                 ephemeral=True, tone=Tone.INFO)  # fmt: skip
