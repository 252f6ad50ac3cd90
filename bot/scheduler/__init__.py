"""The daily loop: post each channel's question at its local time and the answer after it.

    service.py   Scheduler: platforms attaching, the loop, ticks, `daily now`
    plan.py      Plan: the due heap of question, answer and retry jobs
    poster.py    Poster: claim, send, record, retry, pause
    reads.py     TickReads: the reads one tick's jobs share, dropped after it
    leases.py    Leases: claims held while sending, taken over when their holder dies
    changes.py   Changes: the schedule changes other processes made

Design
- Work is a heap of jobs keyed by due instant: each active schedule's next question, each
  posted question's answer, each retry. The loop sleeps until the earliest one (or until a
  schedule changes) and never scans every schedule every minute.
- Exactly once: the questions due in a tick are first *claimed*, their ledger rows
  (schedule, slot, part) inserted in one transaction; then they are sent; then the platform's
  message references are recorded, again in one write. A claimed slot is never claimed
  again, so a restart cannot post it twice.
- The one window left: the platform accepted a message but the process died before its
  reference was stored (for the posts of one tick, well under a second). Such a row is still
  `pending`; once its lease lapses, the restarted process (or another live one) takes it
  over and, if its slot is within the grace period, sends it again with the same nonce.
  Discord deduplicates by nonce, so there it is still one message; on platforms without
  idempotency (Slack, the console) the channel may see the question twice.
  A pending row older than the grace period is given up and logged instead, so a long
  outage never floods a channel.
- Platforms come and go (`bot/platforms.py`): nothing is planned for a platform until it
  attaches. Its first attach in a run loads its schedules and recovers its unfinished posts
  (below); a post whose platform is away when it is due is parked and delivered when the
  platform attaches again (within the grace period for a question). So the order in which
  Discord, Slack and the console connect, and reconnects, change nothing.
- Missed slots: when a platform attaches, a question whose slot passed less than `grace` ago
  is posted late; older slots are skipped and logged; answers of posted questions are always
  delivered, late if need be.
- Failures: a refused post is retried with growing delays; a permanent refusal or too many
  failures pauses the schedule and records why, which `schedule show` reports.
- Many processes, no leader: every process on the database (PostgreSQL, or one SQLite file
  in WAL) plans every schedule of the platforms it has attached and tries to claim each slot;
  the claim is one atomic row, so one process wins it and the others plan only its answer
  (whose claim is atomic too, so it follows even if the winner dies). A claim is leased
  (`leases.py`): the winner renews it while it works; if it dies between claim and record,
  the lease lapses (a minute) and the next tick of any live process takes the post over in
  one statement and sends it with the same nonce, within the grace period. At start-up a
  process takes over only lapsed claims, so it never resends what a live one is sending.
  Each tick also reads the change count of the schedules (one cheap read) and re-plans what
  other processes created, changed, paused or removed (`changes.py`); the loop wakes at
  least every `watch` (10 s) to look, so a change made elsewhere is planned here within
  about that. A lone process pays one read and one write a tick for all this.
- Time comes from the injected Clock; tests move a fake clock and call `tick()`.
"""

from bot.scheduler.service import NowOutcome, Scheduler, SchedulerConfig

__all__ = ["NowOutcome", "Scheduler", "SchedulerConfig"]
