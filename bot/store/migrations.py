"""Schema migrations, applied in order, each in its own transaction.

The database records the version it is at in `schema_version`; `migrate` applies every
newer step and refuses a database written by a newer studybot rather than guess.
Never edit a released step: append a new one.

Question rows are keyed by the content's stable slug, so re-loading content updates rows in
place. User rows (reveals now; schedules, posts and submissions later) reference questions by
that id and are never touched by a content load: a question removed from content is marked
`retired`, not deleted.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: the question bank, its search index, and the first user table.
    """
    CREATE TABLE questions (
        id           TEXT PRIMARY KEY,
        title        TEXT NOT NULL,
        title_en     TEXT,
        kind         TEXT NOT NULL CHECK (kind IN ('qa', 'coding')),
        difficulty   TEXT NOT NULL CHECK (difficulty IN ('easy', 'medium', 'hard')),
        prompt       TEXT,
        answer       TEXT NOT NULL,
        signature    TEXT,
        content_hash TEXT NOT NULL,
        retired      INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX questions_kind ON questions (retired, kind, id);
    CREATE TABLE question_topics (
        question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
        topic       TEXT NOT NULL,
        PRIMARY KEY (question_id, topic)
    ) WITHOUT ROWID;
    CREATE INDEX question_topics_topic ON question_topics (topic, question_id);
    CREATE TABLE question_sources (
        question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
        position    INTEGER NOT NULL,
        document    TEXT NOT NULL,
        title       TEXT NOT NULL,
        company     TEXT,
        role        TEXT,
        round       TEXT,
        PRIMARY KEY (question_id, position)
    ) WITHOUT ROWID;
    -- Pre-tokenised text (CJK unigrams + bigrams, folded Latin words); rowid = questions.rowid.
    CREATE VIRTUAL TABLE question_search USING fts5 (
        title, body, tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE answer_reveals (
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        question_id TEXT NOT NULL REFERENCES questions (id),
        revealed_at TEXT NOT NULL,
        PRIMARY KEY (platform, user_id, question_id)
    ) WITHOUT ROWID;
    """,
    # 2: daily channel schedules and the posts they make, one row per (schedule, slot, part).
    """
    CREATE TABLE schedules (
        id           INTEGER PRIMARY KEY,
        platform     TEXT NOT NULL,
        workspace    TEXT NOT NULL DEFAULT '',
        channel      TEXT NOT NULL,
        post_time    TEXT NOT NULL,
        timezone     TEXT NOT NULL,
        days         INTEGER NOT NULL,
        coding_days  INTEGER NOT NULL DEFAULT 0,
        topic        TEXT,
        answer       TEXT NOT NULL,
        locale       TEXT NOT NULL DEFAULT 'en',
        paused       INTEGER NOT NULL DEFAULT 0,
        pause_reason TEXT,
        UNIQUE (platform, workspace, channel)
    );
    -- The exactly-once ledger: the primary key is the claim. `slot` is the local date for
    -- scheduled posts, or 'now-<instant>' for `daily now`.
    CREATE TABLE daily_posts (
        schedule_id INTEGER NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
        slot        TEXT NOT NULL,
        part        TEXT NOT NULL CHECK (part IN ('question', 'answer')),
        question_id TEXT NOT NULL REFERENCES questions (id),
        kind        TEXT NOT NULL,
        cycle       INTEGER NOT NULL,
        due_at      TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed')),
        attempts    INTEGER NOT NULL DEFAULT 0,
        nonce       TEXT NOT NULL,
        message_id  TEXT,
        sent_at     TEXT,
        error       TEXT,
        PRIMARY KEY (schedule_id, slot, part)
    ) WITHOUT ROWID;
    CREATE INDEX daily_posts_state ON daily_posts (state, part);
    CREATE INDEX daily_posts_cycle ON daily_posts (schedule_id, part, kind, cycle);
    """,
    # 3: every submission, stored before grading starts so a crash loses none.
    """
    CREATE TABLE submissions (
        id          INTEGER PRIMARY KEY,
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        user_name   TEXT NOT NULL,
        problem_id  TEXT,
        code        TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('queued', 'graded', 'interrupted')),
        verdict     TEXT,
        passed      INTEGER,
        total       INTEGER,
        cpu_ms      REAL,
        peak_kb     INTEGER,
        created_at  TEXT NOT NULL,
        graded_at   TEXT
    );
    CREATE INDEX submissions_user ON submissions (platform, user_id, problem_id, verdict);
    CREATE INDEX submissions_state ON submissions (state);
    """,
    # 4: start-up recovery counts its attempts at each leftover submission, and gives up on one
    # that failed twice (`failed`) so it cannot block every start. SQLite cannot change a CHECK
    # constraint in place: the table is rebuilt, rows and ids kept.
    """
    CREATE TABLE submissions_v4 (
        id          INTEGER PRIMARY KEY,
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        user_name   TEXT NOT NULL,
        problem_id  TEXT,
        code        TEXT NOT NULL,
        state       TEXT NOT NULL
                    CHECK (state IN ('queued', 'graded', 'interrupted', 'failed')),
        verdict     TEXT,
        passed      INTEGER,
        total       INTEGER,
        cpu_ms      REAL,
        peak_kb     INTEGER,
        created_at  TEXT NOT NULL,
        graded_at   TEXT,
        attempts    INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO submissions_v4 (id, platform, user_id, user_name, problem_id, code, state,
                                verdict, passed, total, cpu_ms, peak_kb, created_at, graded_at)
        SELECT id, platform, user_id, user_name, problem_id, code, state, verdict, passed,
               total, cpu_ms, peak_kb, created_at, graded_at FROM submissions;
    DROP TABLE submissions;
    ALTER TABLE submissions_v4 RENAME TO submissions;
    CREATE INDEX submissions_user ON submissions (platform, user_id, problem_id, verdict);
    CREATE INDEX submissions_state ON submissions (state);
    """,
    # 5: the bilingual format. English explanation and statement beside the Chinese; quick
    # checks and related ids as JSON (read whole, never queried inside); a draft is stored
    # but never served. Existing rows are published: everything loaded before was.
    """
    ALTER TABLE questions ADD COLUMN answer_en TEXT;
    ALTER TABLE questions ADD COLUMN prompt_en TEXT;
    ALTER TABLE questions ADD COLUMN quiz TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE questions ADD COLUMN related TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE questions ADD COLUMN status TEXT NOT NULL DEFAULT 'published'
        CHECK (status IN ('published', 'draft'));
    DROP INDEX questions_kind;
    CREATE INDEX questions_kind ON questions (retired, status, kind, id);
    """,
    # 6: a coding problem's hints (nudge, approach, near-solution) as JSON, like the quiz.
    # Problems loaded before are read again at the next load (their files hold the hints).
    """
    ALTER TABLE questions ADD COLUMN hints TEXT NOT NULL DEFAULT '[]';
    UPDATE questions SET content_hash = '' WHERE kind = 'coding';
    """,
    # 7: members' answers to the quick checks of daily posts, one per member per post.
    """
    CREATE TABLE quiz_answers (
        schedule_id INTEGER NOT NULL,
        slot        TEXT NOT NULL,
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        choice      INTEGER NOT NULL,
        correct     INTEGER NOT NULL CHECK (correct IN (0, 1)),
        answered_at TEXT NOT NULL,
        PRIMARY KEY (schedule_id, slot, platform, user_id)
    ) WITHOUT ROWID;
    """,
    # 8: the hints each member took, first time only (a solve "with a hint" is told apart).
    """
    CREATE TABLE hints_taken (
        platform   TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        problem_id TEXT NOT NULL,
        level      INTEGER NOT NULL,
        taken_at   TEXT NOT NULL,
        PRIMARY KEY (platform, user_id, problem_id, level)
    ) WITHOUT ROWID;
    """,
    # 9: the learning loop. `activity` is the ledger of points and streak days: one row per
    # quiz answered, problem solved or review rated, unique by `dedupe` so a replayed
    # interaction scores nothing. `day` is the member's local date when it happened (their time
    # zone then), so a later change of zone does not rewrite old streaks. `cards` holds each
    # member's fsrs card per question (its JSON, with `due` copied out to be indexed); every
    # rating is kept in `reviews`. Times are UTC. Submissions learn where they were posted, so
    # a solution posted under a coding day's post counts for that channel.
    """
    CREATE TABLE activity (
        id          INTEGER PRIMARY KEY,
        platform    TEXT NOT NULL,
        workspace   TEXT NOT NULL,
        channel     TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        user_name   TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('quiz', 'solve', 'review')),
        question_id TEXT NOT NULL,
        correct     INTEGER NOT NULL CHECK (correct IN (0, 1)),
        points      INTEGER NOT NULL CHECK (points >= 0),
        hinted      INTEGER NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1)),
        at          TEXT NOT NULL,
        day         TEXT NOT NULL,
        dedupe      TEXT NOT NULL UNIQUE
    );
    CREATE INDEX activity_board ON activity (platform, workspace, at);
    CREATE INDEX activity_member ON activity (platform, user_id, day);
    CREATE TABLE cards (
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        question_id TEXT NOT NULL,
        card        TEXT NOT NULL,
        due         TEXT NOT NULL,
        PRIMARY KEY (platform, user_id, question_id)
    ) WITHOUT ROWID;
    CREATE INDEX cards_due ON cards (platform, user_id, due);
    CREATE TABLE reviews (
        id          INTEGER PRIMARY KEY,
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        question_id TEXT NOT NULL,
        rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
        source      TEXT NOT NULL CHECK (source IN ('quiz', 'rating')),
        reviewed_at TEXT NOT NULL
    );
    CREATE INDEX reviews_member ON reviews (platform, user_id, question_id);
    CREATE TABLE questions_seen (
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        question_id TEXT NOT NULL,
        seen_at     TEXT NOT NULL,
        PRIMARY KEY (platform, user_id, question_id)
    ) WITHOUT ROWID;
    CREATE TABLE member_settings (
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        timezone    TEXT,
        due_digest  INTEGER NOT NULL DEFAULT 0 CHECK (due_digest IN (0, 1)),
        digest_day  TEXT,
        PRIMARY KEY (platform, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE workspace_settings (
        platform    TEXT NOT NULL,
        workspace   TEXT NOT NULL,
        retention   REAL NOT NULL CHECK (retention BETWEEN 0.7 AND 0.97),
        PRIMARY KEY (platform, workspace)
    ) WITHOUT ROWID;
    ALTER TABLE schedules ADD COLUMN summary TEXT NOT NULL DEFAULT 'off'
        CHECK (summary IN ('off', 'weekly'));
    CREATE TABLE summary_posts (
        schedule_id INTEGER NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
        week        TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed')),
        message_id  TEXT,
        sent_at     TEXT,
        PRIMARY KEY (schedule_id, week)
    ) WITHOUT ROWID;
    ALTER TABLE submissions ADD COLUMN workspace TEXT;
    ALTER TABLE submissions ADD COLUMN channel TEXT;
    """,
    # 10: a member's quiz answers found without a scan (seen questions, /forget me); a
    # channel's acts by time (a channel's leaderboard reads its own rows, not its server's);
    # a problem's submissions (its solvers' board).
    """
    CREATE INDEX quiz_answers_member ON quiz_answers (platform, user_id);
    CREATE INDEX activity_channel ON activity (platform, workspace, channel, at);
    CREATE INDEX submissions_problem ON submissions (problem_id, platform, user_id);
    """,
    # 11: many processes over one database. A claim of a daily post is leased: `claimed_by`
    # names the process sending it and `lease_until` how long the claim holds unless renewed,
    # so a live sender is left alone and a dead one's posts are taken over once it lapses
    # (NULL: a claim made before leases, lapsed). `schedule_revision` counts schedule
    # changes (one row; each change takes the next number and stamps it on the schedule in
    # the same transaction), so a process notices another's change with one cheap read.
    """
    ALTER TABLE daily_posts ADD COLUMN claimed_by TEXT;
    ALTER TABLE daily_posts ADD COLUMN lease_until TEXT;
    ALTER TABLE schedules ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX schedules_revision ON schedules (revision);
    CREATE TABLE schedule_revision (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        revision INTEGER NOT NULL
    );
    INSERT INTO schedule_revision (id, revision) VALUES (1, 0);
    """,
    # 12: a submission's whole Grade, as JSON (bot/store/grade_json.py): with a grading queue,
    # a grader records it and the bot process that waits for it replies with every test
    # from this column. Rows graded before keep NULL (their summary columns stay).
    """
    ALTER TABLE submissions ADD COLUMN grade TEXT;
    """,
    # 13: a weekly summary's claim is leased as a daily post's is (11): `claimed_by`,
    # `lease_until`, and `due_at` (when it was due), so a live process takes over the
    # summary of one that died between claim and send, within the grace period. Claims made
    # before keep NULLs and are never taken over.
    """
    ALTER TABLE summary_posts ADD COLUMN claimed_by TEXT;
    ALTER TABLE summary_posts ADD COLUMN lease_until TEXT;
    ALTER TABLE summary_posts ADD COLUMN due_at TEXT;
    """,
    # 14: the reference solution's CPU time on the grader that judged a submission, so a
    # board compares solutions graded on different machines by their CPU time relative to
    # it (bot/grading/timing.py). Rows graded before keep NULL and are not ranked by speed.
    """
    ALTER TABLE submissions ADD COLUMN reference_ms REAL;
    """,
    # 15: the community bank. A server's own items are rows of `questions` with `server` set
    # (NULL: the shared bank, the only rows a content load writes or retires); `server_items`
    # says where each stands (draft, published, rejected), which report it came from (the
    # report's digest `report`, and the text it had for the question), who shared it and who
    # decided. `question_asks` records a report that asks a question the bank or the server
    # already has, once per report (its digest) per server. `report_imports` is every
    # member's imports, for the rate limit. A member forgotten keeps no name here.
    """
    ALTER TABLE questions ADD COLUMN server TEXT;
    CREATE INDEX questions_server ON questions (server, id) WHERE server IS NOT NULL;
    CREATE TABLE server_items (
        question_id  TEXT PRIMARY KEY REFERENCES questions (id) ON DELETE CASCADE,
        server       TEXT NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('draft', 'published', 'rejected')),
        report       TEXT NOT NULL,
        report_text  TEXT NOT NULL,
        shared_platform TEXT NOT NULL,
        shared_by    TEXT,
        shared_name  TEXT,
        shared_at    TEXT NOT NULL,
        decided_by   TEXT,
        decided_at   TEXT
    );
    CREATE INDEX server_items_state ON server_items (server, state, shared_at, question_id);
    CREATE INDEX server_items_member ON server_items (shared_platform, shared_by);
    CREATE TABLE question_asks (
        question_id TEXT NOT NULL REFERENCES questions (id),
        server      TEXT NOT NULL,
        digest      TEXT NOT NULL,
        title       TEXT NOT NULL,
        company     TEXT,
        role        TEXT,
        round       TEXT,
        shared_platform TEXT NOT NULL,
        shared_by   TEXT,
        shared_at   TEXT NOT NULL,
        PRIMARY KEY (question_id, server, digest)
    );
    CREATE INDEX question_asks_member ON question_asks (shared_platform, shared_by);
    CREATE TABLE report_imports (
        platform    TEXT NOT NULL,
        user_id     TEXT NOT NULL,
        server      TEXT NOT NULL,
        digest      TEXT NOT NULL,
        imported_at TEXT NOT NULL
    );
    CREATE INDEX report_imports_member ON report_imports (platform, user_id, imported_at);
    """,
    # 16: mistakes members report in explanations (bot/store/mistakes.py): the item, the
    # server it was reported in, the reporter (id and name cleared by /forget me, the text
    # kept), their language, what is wrong and the sentence quoted; open until a moderator of
    # that server resolves it with a note. Indexed for a server's open reports and for a
    # member's recent ones (their rate limit).
    """
    CREATE TABLE mistake_reports (
        id                INTEGER PRIMARY KEY,
        question_id       TEXT NOT NULL,
        server            TEXT NOT NULL,
        reporter_platform TEXT NOT NULL,
        reporter_id       TEXT,
        reporter_name     TEXT,
        locale            TEXT NOT NULL,
        quote             TEXT NOT NULL,
        body              TEXT NOT NULL,
        created_at        TEXT NOT NULL,
        state             TEXT NOT NULL CHECK (state IN ('open', 'resolved')),
        resolver_id       TEXT,
        resolver_name     TEXT,
        note              TEXT,
        resolved_at       TEXT
    );
    CREATE INDEX mistake_reports_server ON mistake_reports (server, state, id);
    CREATE INDEX mistake_reports_reporter
        ON mistake_reports (reporter_platform, reporter_id, created_at);
    """,
    # 17: answers from the group (bot/store/answers.py): a member's answer to a server's
    # open question (an item without an explanation), the server it was given in, its author
    # (deleted by /forget me while open; once adopted, it stays without the author's id and
    # name), its text, and whether a moderator adopted it as the item's explanation. Indexed
    # for an item's answers in a server and for a member's recent ones (their rate limit).
    """
    CREATE TABLE group_answers (
        id              INTEGER PRIMARY KEY,
        question_id     TEXT NOT NULL,
        server          TEXT NOT NULL,
        author_platform TEXT NOT NULL,
        author_id       TEXT,
        author_name     TEXT,
        body            TEXT NOT NULL,
        created_at      TEXT NOT NULL,
        state           TEXT NOT NULL CHECK (state IN ('open', 'adopted')),
        adopted_by      TEXT,
        adopted_at      TEXT
    );
    CREATE INDEX group_answers_item ON group_answers (server, question_id, state, id);
    CREATE INDEX group_answers_author ON group_answers (author_platform, author_id, created_at);
    """,
    # 18: nothing on SQLite. The platforms' rate budgets live in this process's memory here
    # (one process runs); PostgreSQL's step 9 keeps them in a table every process shares.
    """
    SELECT 1;
    """,
)
