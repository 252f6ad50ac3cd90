"""Importing interview reports into the question bank: plan first, then write.

    read_report(path)          file -> Report, or ImportRejected naming the file
    plan_import(root, paths)   -> ImportPlan: what happens to each question, and the full
                               text of every file to create or rewrite
    apply_plan(plan)           writes those texts; a dry run simply does not call it

All the deciding happens in planning and planning writes nothing, so `--dry-run` reports
exactly what a real run would do, and a rejected report cannot leave half its files behind.

Duplicates (the matching itself is `bot.content.matching`'s, shared with members' imports,
which match against the database). The bank under `root` is scanned tolerantly (a broken
file is skipped, its id still reserved) rather than with `read_bank`, which would refuse the whole import over one bad file.
Titles are compared by a normalised key: "Q:" and "手撕：" prefixes, punctuation (half and full
width, via NFKC), whitespace, case and the words that only frame a question ("讲一下", "是什么",
"的") removed, so "讲一下Python的GIL？" and "Python的GIL是什么？" have one key. A question matches
an entry of the same kind whose key is equal, or similar by `difflib.SequenceMatcher` ratio
>= 0.85: as is, with bracketed asides dropped ("数值的整数次方（快速幂）" is "数值的整数次方"), or
with a phrase replaced by the abbreviation in brackets after it ("Python全局解释器锁（GIL）" is
"PythonGIL"). The plan reports such a match as a likely duplicate of that id. A match gets the
report's source appended to its `sources` (identity: document and title), its other keys and
body kept; no new file. An item written for the bank (`source: original`) is matched too, and
keeps its attribution: the plan says the source was not added. Questions planned earlier in
the same batch are matched the same way.

Ids are slugs of the English words in the title ("python-gil"); a title with none gets
"q-" plus 8 hex digits of the SHA-1 of its key, and one whose only English is a language name
gets that name plus the digits ("python-1a2b3c4d"), since "python" alone says nothing.
Collisions with the bank or the batch get "-2", "-3", ...

Reading and writing are blocking; an async caller runs these functions in a thread.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.content import frontmatter
from bot.content import topics as topic_table
from bot.content.bank import (
    EXPLANATION_FILE,
    PROBLEM_FILE,
    PROBLEMS_DIR,
    QUESTIONS_DIR,
    content_files,
)
from bot.content.matching import (
    FRAMING_WORDS,
    best_match,
    normalise_title,
    plain,
)
from bot.content.report import Report, ReportQuestion, parse_report
from bot.errors import Fault, ImportRejected
from bot.search.tokens import query_tokens
from bot.text.code import NotUtf8, decode_source
from bot.types import Kind, Source, Status

DIFFICULTY = "medium"
SIGNATURE = "def solve() -> None"
MAX_ID_WORDS = 6
MAX_WORD = 24  # letters of one word in an id (the longest English word in the bank: 15)
# Words a YAML reader takes for a number, a boolean or null: never an id on their own.
YAML_WORDS = frozenset({"nan", "inf", "infinity", "null", "none", "true", "false", "yes",
                        "no", "on", "off", "y", "n"})  # fmt: skip
LANGUAGES = frozenset({"python", "cpp", "c", "java", "go", "golang", "rust", "js", "javascript"})
# (topic, keywords looked for in the lowercased title); the first guesses are the surest.
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("python", ("python", "gil", "cpython")),
    ("concurrency", ("线程", "进程", "协程", "并发", "gil", "ipc", "锁")),
    ("distributed", ("分布式", "ddp", "fsdp", "zero", "并行", "parallel")),
    ("collectives", ("allreduce", "all-reduce", "nccl", "通信", "集合通信")),
    ("gpu", ("gpu", "cuda", "kernel", "warp", "显卡")),
    ("memory", ("显存",)),
    ("pytorch", ("pytorch", "torch", "tensor.", "autograd")),
    ("transformers", ("attention", "transformer", "注意力", "rope", "layernorm")),
    ("inference", ("kv-cache", "kv cache", "推理", "vllm", "投机")),
    ("quantization", ("量化", "int8", "int4", "awq", "gptq")),
    ("precision", ("混合精度", "fp16", "bf16", "fp8")),
    ("interconnect", ("nvlink", "pcie", "infiniband", "rdma", "互联")),
    ("compilers", ("fusion", "编译", "算子融合", "triton")),
    ("performance", ("roofline", "性能", "profil")),
    ("os", ("操作系统", "虚拟内存", "页表", "linux")),
    ("reliability", ("容错", "checkpoint", "故障", "可靠性")),
    ("rl", ("强化学习", "rlhf", "ppo", "grpo", "dpo")),
    ("scheduling", ("slurm", "kubernetes", "k8s", "调度", "mig", "mps")),
    ("data", ("dataloader", "数据加载", "数据管线", "pin_memory")),
    ("recsys", ("推荐", "embedding", "dlrm")),
    ("training", ("优化器", "optimizer", "adam", "scaling law", "蒸馏", "剪枝")),
    ("algorithms", ("快速幂", "矩阵", "排序", "链表", "二叉树", "动态规划", "二分", "lru")),
)
# Only when nothing else tells (an empty bank): not in the topic table, so an item that gets
# it is written as a draft for a reviewer to place.
FALLBACK_TOPIC = "uncategorized"
NEAREST = 0.5  # the least share of a title's weight an existing title must hold to lend a topic

_ENGLISH = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:\+\+)?")

QA_TODO = "TODO(reviewer): the report gave no answer to this question. Write one before publishing."
STATEMENT_TODO = (
    "> TODO(reviewer): the report gave only this title. Write the full statement (input,\n"
    f"> output, an example) and replace the placeholder signature `{SIGNATURE}`."
)
EXPLANATION_TODO = (
    "TODO(reviewer): the report gave no solution. Write the explanation and a reference\n"
    "solution before publishing this problem."
)


@dataclass(frozen=True, slots=True)
class PlannedQuestion:
    """What happens to one question: a new file at `path`, or a source added to a duplicate."""

    title: str
    kind: Kind
    id: str
    path: Path
    duplicate_of: str | None = None
    source_added: bool = False
    reworded: bool = False  # the duplicate's title differs: a likely duplicate, to check
    authored: bool = False  # the duplicate was written for the bank: no source is added


@dataclass(frozen=True, slots=True)
class FilePlan:
    """One report: its questions, or why it was rejected (then nothing is written for it)."""

    path: Path
    questions: tuple[PlannedQuestion, ...] = ()
    error: str | None = None
    source: Source | None = None

    @property
    def rejected(self) -> bool:
        return self.error is not None


@dataclass(frozen=True, slots=True)
class Write:
    path: Path
    text: str


@dataclass(frozen=True, slots=True)
class ImportPlan:
    root: Path
    files: tuple[FilePlan, ...]
    writes: tuple[Write, ...]

    @property
    def rejected(self) -> bool:
        return any(f.rejected for f in self.files)


@dataclass(frozen=True, slots=True)
class _Entry:
    """A question of the bank, as found on disk or as planned; `data` is its front matter."""

    id: str
    kind: Kind
    key: str
    path: Path
    data: dict[str, Any]
    body: str
    explanation: str | None = None  # set for a new coding problem only
    dirty: bool = False  # must be written
    text: str | None = None  # the file as read, for an entry on disk
    added: tuple[dict[str, str], ...] = ()  # sources to append to it


# --- reading -----------------------------------------------------------------------------------


def read_report(path: Path) -> Report:
    """Read and parse one report; raise `ImportRejected` if it is unreadable or has no questions."""
    try:
        text = decode_source(path.read_bytes())
    except NotUtf8 as exc:  # says what the file seems to be instead (UTF-16 ...)
        raise _rejected(path, str(exc)) from exc
    except OSError as exc:
        raise _rejected(path, f"cannot read the file: {exc.strerror or exc}") from exc
    report = parse_report(text, path.name)
    if not report.questions:
        raise _rejected(path, "no questions found (expected lines starting with 'Q:' or 'Q：')")
    return report


def _rejected(path: Path, message: str) -> ImportRejected:
    return ImportRejected([Fault(path, 1, message)])


def scan_bank(root: Path) -> tuple[list[_Entry], set[str]]:
    """The bank's readable questions, and every id in use (readable or not)."""
    entries: list[_Entry] = []
    ids: set[str] = set()
    for path, qid in content_files(root):
        ids.add(qid)
        entry = _read_entry(path, qid)
        if entry is not None:
            entries.append(entry)
    return entries, ids


def _read_entry(path: Path, qid: str) -> _Entry | None:
    try:
        text = path.read_text(encoding="utf-8")
        fm = frontmatter.parse(text)
    except (OSError, UnicodeDecodeError, frontmatter.FrontMatterError):
        return None  # broken files are `content validate`'s business, not the importer's
    title, sources = fm.data.get("title"), fm.data.get("sources")
    original = fm.data.get("source") == "original"
    if not isinstance(title, str) or not (isinstance(sources, list) or original):
        return None
    kind = Kind.CODING if path.name == PROBLEM_FILE else Kind.QA
    return _Entry(qid, kind, normalise_title(title), path, fm.data, fm.body, text=text)


# --- ids and topics ----------------------------------------------------------------------------


def slug_for(title: str) -> str:
    """A slug id from the title's English words, or a short hash of its normalised form.

    At most `MAX_ID_WORDS` words of at most `MAX_WORD` letters: a title that is one endless
    token still names a file. The hash is added where the words alone would not do: only
    language names, a word cut short, or an id YAML would read as something else (`nan`)."""
    words: list[str] = []
    for match in _ENGLISH.findall(unicodedata.normalize("NFKC", title)):
        word = match.lower().replace("++", "pp")
        if word not in words:
            words.append(word)
    digest = hashlib.sha1(normalise_title(title).encode()).hexdigest()[:8]
    if not words:
        return f"q-{digest}"
    kept = [w[:MAX_WORD] for w in words[:MAX_ID_WORDS]]
    slug = "-".join(kept)
    cut = any(len(w) > MAX_WORD for w in words[:MAX_ID_WORDS])
    if cut or set(words) <= LANGUAGES or slug in YAML_WORDS:
        return f"{slug}-{digest}"
    return slug


def guess_topics(title: str, kind: Kind, entries: Sequence[_Entry] = ()) -> list[str]:
    """Topics of the bank's table for a title; never empty. First the topics whose keywords
    the title names; else a coding problem is `algorithms`; else the main topic of the bank's
    most similar question; else (an empty bank) `FALLBACK_TOPIC`."""
    text = unicodedata.normalize("NFKC", title).lower()
    topics = [topic for topic, words in TOPICS if any(w in text for w in words)]
    if topics:
        return topics
    if kind is Kind.CODING:
        return ["algorithms"]
    return [_nearest_topic(title, entries) or FALLBACK_TOPIC]


def _nearest_topic(title: str, entries: Sequence[_Entry]) -> str | None:
    """The main topic of the bank's question whose title shares the most of this title's
    words (CJK bigrams and Latin words, as search tokenises them), each weighted by how rare
    it is in the bank's titles; None below `NEAREST` of the title's weight."""
    placed = [(e, set(query_tokens(e.data.get("title", "")))) for e in entries if _main_topic(e)]
    words = set(query_tokens(FRAMING_WORDS.sub("", title)))
    if not placed or not words:
        return None
    rarity = {w: math.log((1 + len(placed)) / (1 + sum(w in t for _, t in placed))) for w in words}
    whole = sum(rarity.values())
    score, nearest = max(((sum(rarity[w] for w in words & t), e) for e, t in placed),
                         key=lambda pair: pair[0])  # fmt: skip
    return _main_topic(nearest) if whole > 0 and score / whole >= NEAREST else None


def _main_topic(entry: _Entry) -> str:
    topics = entry.data.get("topics")
    first = topics[0] if isinstance(topics, list) and topics else None
    return first if isinstance(first, str) and first in topic_table.SLUGS else ""


def unique(base: str, taken: set[str]) -> str:
    """`base`, or `base` with "-2", "-3" ... : the first not in `taken`."""
    qid, n = base, 1
    while qid in taken:
        n += 1
        qid = f"{base}-{n}"
    return qid


# --- planning ----------------------------------------------------------------------------------


def plan_import(root: Path, paths: Sequence[Path]) -> ImportPlan:
    """Decide, for every question of every report, whether it is new or a duplicate."""
    entries, taken = scan_bank(root)
    files = []
    for path in paths:
        plan, entries = _plan_file(root, path, entries, taken)
        files.append(plan)
    writes = [w for e in entries if e.dirty for w in _writes(e)]
    return ImportPlan(root, tuple(files), tuple(writes))


def _plan_file(
    root: Path, path: Path, entries: list[_Entry], taken: set[str]
) -> tuple[FilePlan, list[_Entry]]:
    try:
        report = read_report(path)
    except ImportRejected as exc:
        return FilePlan(path, error=str(exc)), entries
    planned = []
    for question in report.questions:
        outcome, entries = _plan_question(root, question, report.source, entries, taken)
        planned.append(outcome)
    return FilePlan(path, tuple(planned), source=report.source), entries


def _plan_question(
    root: Path, q: ReportQuestion, source: Source, entries: list[_Entry], taken: set[str]
) -> tuple[PlannedQuestion, list[_Entry]]:
    match = best_match(normalise_title(q.title), q.kind, entries)
    if match is None:
        topics = guess_topics(q.title, q.kind, entries)
        entry = _new_entry(root, q, source, unique(slug_for(q.title), taken), topics)
        taken.add(entry.id)
        return PlannedQuestion(q.title, q.kind, entry.id, entry.path), [*entries, entry]
    updated = _with_source(match, source)
    outcome = PlannedQuestion(
        q.title, q.kind, match.id, match.path, duplicate_of=match.id,
        source_added=updated is not match,
        reworded=plain(match.key) != plain(normalise_title(q.title)),
        authored=not isinstance(match.data.get("sources"), list),
    )  # fmt: skip
    return outcome, [updated if e is match else e for e in entries]


def _with_source(entry: _Entry, source: Source) -> _Entry:
    """The entry with `source` appended, or the same entry if it already lists it."""
    listed = entry.data.get("sources")
    if not isinstance(listed, list):  # written for the bank (`source: original`): it stays so
        return entry
    if any(_same_source(item, source) for item in listed):
        return entry
    added = source_dict(source)
    data = {**entry.data, "sources": [*listed, added]}
    return dataclasses.replace(entry, data=data, dirty=True, added=(*entry.added, added))


def _same_source(item: object, source: Source) -> bool:
    if not isinstance(item, dict):
        return False
    return (item.get("document"), item.get("title")) == (source.document, source.title)


def source_dict(source: Source) -> dict[str, str]:
    """A source as front matter: only the fields it knows."""
    return {k: v for k, v in dataclasses.asdict(source).items() if v is not None}


def _new_entry(root: Path, q: ReportQuestion, source: Source, qid: str,
               topics: list[str]) -> _Entry:  # fmt: skip
    data: dict[str, Any] = {
        "id": qid, "title": q.title, "kind": q.kind.value, "difficulty": DIFFICULTY,
        "topics": topics, "sources": [source_dict(source)],
    }  # fmt: skip
    key = normalise_title(q.title)
    if q.kind is Kind.QA:
        path = root / QUESTIONS_DIR / f"{qid}.md"
        if not q.answer or FALLBACK_TOPIC in data["topics"]:
            data["status"] = Status.DRAFT.value
        return _Entry(qid, q.kind, key, path, data, q.answer or QA_TODO, dirty=True)
    path = root / PROBLEMS_DIR / qid / PROBLEM_FILE
    data["signature"], data["status"] = SIGNATURE, Status.DRAFT.value  # a stub until reviewed
    statement = f"{q.title}\n\n{STATEMENT_TODO}"
    return _Entry(qid, q.kind, key, path, data, statement, _explanation(q.answer), dirty=True)


def _text(entry: _Entry) -> str:
    """The entry's file: one on disk keeps every byte but its new sources, appended where
    its list ends, unless that cannot be done faithfully (then it is written out whole)."""
    if entry.text is not None:
        kept = frontmatter.append_to_list(entry.text, "sources", list(entry.added))
        if kept is not None and _same_data(kept, entry.data):
            return kept
    return frontmatter.dump(entry.data, entry.body)


def _same_data(text: str, data: dict[str, Any]) -> bool:
    try:
        return frontmatter.parse(text).data == data
    except frontmatter.FrontMatterError:
        return False


def _explanation(notes: str) -> str:
    if not notes:
        return EXPLANATION_TODO
    return f"{EXPLANATION_TODO}\n\nNotes from the report:\n\n{notes}"


def _writes(entry: _Entry) -> list[Write]:
    writes = [Write(entry.path, _text(entry))]
    if entry.explanation is not None:
        writes.append(Write(entry.path.parent / EXPLANATION_FILE, f"{entry.explanation}\n"))
    return writes


# --- writing -----------------------------------------------------------------------------------


def apply_plan(plan: ImportPlan) -> None:
    """Write every planned file; each one atomically, so a crash leaves no half-written file."""
    for write in plan.writes:
        write.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = write.path.with_name(f".{write.path.name}.tmp")
        temporary.write_text(write.text, encoding="utf-8")
        temporary.replace(write.path)
