"""Mutation testing of the problems' tests, run by `studybot content mutants`.

`content validate` proves the tests reject the mistakes someone thought of (wrong/*.py);
this asks which small mistakes they miss. Each problem's reference solution is mutated one
change at a time, and every mutant is graded exactly as a chat submission is: the same
Grader, Sandbox and restricted compiler. A mutant is killed when its verdict is anything but
accepted; a survivor is a change to the reference the tests cannot see.

The changes are mutmut's, not ours: its libcst operators
(`mutmut.mutation.mutators.mutation_operators`, a list of (node type, operator) pairs) are
applied to every node of the reference's syntax tree, each mutant replacing one node.
mutmut's own driver is not used: it rewrites a package's files with trampolines and runs
pytest, while a reference is one snippet graded in a sandbox. Comments are never nodes, so
they are never mutated; docstrings (any statement that is a bare string) and annotations
are skipped because changing them changes no result. Mutants that do not compile are
dropped, and so are duplicates and mutants identical to the reference, compared by syntax
tree so that layout alone never makes two mutants.

Some mutants compute the same thing as the reference (`if n:` before a squaring that is
only skipped as an optimisation). A judge file declares them under `equivalent_mutants`,
each named by the operator and the changed lines before and after, stripped: a name that
survives edits to unrelated lines, unlike a line number or a diff with context. Declared
mutants are not graded; a declaration that matches no mutant is stale and reported.

Grading mutants that loop forever costs the problem's time limit each, so a verdict is
remembered (`MutantCache`) under the mutant's code, the problem's deciding files and the
grading code, as `content validate` remembers its proofs.
"""

from __future__ import annotations

import ast
import asyncio
import difflib
import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from mutmut.mutation.mutators import mutation_operators

from bot.grades import Verdict
from bot.grading.case_cache import engine_digest, files_digest
from bot.grading.grader import Grader
from bot.grading.problems import EquivalentMutant, Problem

THRESHOLD = 0.9  # of the non-equivalent mutants a problem's tests must kill
PREFIX = "operator_"  # mutmut's operator functions' names start with it; we print the rest


@dataclass(frozen=True, slots=True)
class Mutant:
    problem: str
    operator: str  # mutmut's operator, e.g. "swap_op"
    before: str  # the reference's changed lines, stripped, one per line
    after: str  # the same lines in the mutant
    code: str  # the whole mutated solution
    diff: str  # unified, against the reference

    @property
    def identity(self) -> tuple[str, str, str]:
        return self.operator, self.before, self.after


@dataclass(frozen=True, slots=True)
class Outcome:
    """A mutant and what became of it: `verdict` is None for a declared equivalent."""

    mutant: Mutant
    verdict: Verdict | None
    equivalent: EquivalentMutant | None
    seconds: float  # grading wall time; 0 when remembered or not graded

    @property
    def killed(self) -> bool:
        return self.verdict not in (None, Verdict.ACCEPTED)

    @property
    def survived(self) -> bool:
        return self.verdict is Verdict.ACCEPTED


@dataclass(frozen=True, slots=True)
class Report:
    """One problem's mutation score."""

    problem: str
    outcomes: tuple[Outcome, ...]
    stale: tuple[EquivalentMutant, ...]  # declarations that match no mutant

    @property
    def killed(self) -> int:
        return sum(o.killed for o in self.outcomes)

    @property
    def equivalent(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.equivalent is not None]

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.survived]

    @property
    def killed_ratio(self) -> float:
        """Killed over the non-equivalent mutants; 1.0 when there are none."""
        judged = len(self.outcomes) - len(self.equivalent)
        return self.killed / judged if judged else 1.0

    @property
    def passes(self) -> bool:
        return self.killed_ratio >= THRESHOLD

    @property
    def by_verdict(self) -> dict[str, int]:
        return dict(Counter(str(o.verdict) for o in self.outcomes if o.verdict is not None))

    @property
    def seconds(self) -> float:
        return sum(o.seconds for o in self.outcomes)


def make_mutants(problem: str, reference: str) -> list[Mutant]:
    """Every distinct compiling mutant of `reference`, in source order. CPU work: call it
    in a thread."""
    module = cst.parse_module(reference)
    seen, mutants = {_tree(reference)}, list[Mutant]()
    for node in _mutable_nodes(module):
        for operator, mutated in _mutations(node):
            code = cst.ensure_type(module.deep_replace(node, mutated), cst.Module).code
            tree = _tree(code)
            if tree is None or tree in seen:
                continue
            seen.add(tree)
            mutants.append(_mutant(problem, operator, reference, code))
    return mutants


def _mutable_nodes(module: cst.Module) -> list[cst.CSTNode]:
    class Collect(cst.CSTVisitor):
        def __init__(self) -> None:
            self.nodes = list[cst.CSTNode]()

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Annotation) or _is_bare_string(node):
                return False  # neither changes what the solution returns
            self.nodes.append(node)
            return True

    collect = Collect()
    module.visit(collect)
    return collect.nodes


def _is_bare_string(node: cst.CSTNode) -> bool:
    """A statement that is only a string: a docstring, or one in the place of a comment."""
    return isinstance(node, cst.Expr) and isinstance(node.value, cst.BaseString)


def _mutations(node: cst.CSTNode) -> Iterator[tuple[str, cst.CSTNode]]:
    for kind, operator in mutation_operators:
        if isinstance(node, kind):
            name = operator.__name__.removeprefix(PREFIX)
            yield from ((name, mutated) for mutated in operator(node))


def _tree(code: str) -> str | None:
    """The code's syntax tree, dumped: mutants that differ only in layout (`f(x, )` and
    `f(x)`, from dropping either of two equal arguments) are one mutant. None when the code
    does not compile."""
    try:
        compile(code, "<mutant>", "exec")  # beyond parsing: `return` outside a function ...
    except (SyntaxError, ValueError):
        return None
    return ast.dump(ast.parse(code))


def _mutant(problem: str, operator: str, reference: str, code: str) -> Mutant:
    old, new = reference.splitlines(keepends=True), code.splitlines(keepends=True)
    before, after = list[str](), list[str]()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        if tag != "equal":
            before += [line.strip() for line in old[i1:i2]]
            after += [line.strip() for line in new[j1:j2]]
    diff = "".join(difflib.unified_diff(old, new, "reference", "mutant", n=2))
    return Mutant(problem, operator, "\n".join(before), "\n".join(after), code, diff)


async def grade_mutants(grader: Grader, mutants: list[Mutant], parallel: int,
                        cache: MutantCache | None) -> list[Report]:  # fmt: skip
    """Grade every mutant not declared equivalent nor remembered (`parallel` at a time,
    across problems, so no worker waits for a slow problem) and report each of the grader's
    problems. The cache's file work happens in a thread, off the event loop."""
    gate = asyncio.Semaphore(parallel)
    remembered = await asyncio.to_thread(_remembered, cache, mutants)

    async def one(mutant: Mutant, known: Verdict | None) -> Outcome:
        problem = grader.problems[mutant.problem]
        declared = _declared(problem, mutant)
        if declared is not None or known is not None:
            return Outcome(mutant, None if declared else known, declared, 0.0)
        async with gate:
            started = time.monotonic()
            grade = await grader.grade(problem, mutant.code)
        return Outcome(mutant, grade.verdict, None, time.monotonic() - started)

    outcomes = await asyncio.gather(*map(one, mutants, remembered))
    if cache is not None:
        await asyncio.to_thread(cache.save, outcomes)
    return [_report(problem, outcomes) for problem in grader.problems.values()]


def _remembered(cache: MutantCache | None, mutants: list[Mutant]) -> list[Verdict | None]:
    return [cache.verdict(m) if cache is not None else None for m in mutants]


def _declared(problem: Problem, mutant: Mutant) -> EquivalentMutant | None:
    return next((e for e in problem.equivalent if e.identity == mutant.identity), None)


def _report(problem: Problem, outcomes: list[Outcome]) -> Report:
    mine = tuple(o for o in outcomes if o.mutant.problem == problem.id)
    made = {o.mutant.identity for o in mine}
    stale = tuple(e for e in problem.equivalent if e.identity not in made)
    return Report(problem.id, mine, stale)


class MutantCache:
    """Verdicts of mutants graded before, in a JSON file of key -> verdict (a missing or
    broken file is an empty cache: the mutants are simply graded). A `fresh` cache reads
    nothing but still records, so the run after `--fresh` is fast again."""

    def __init__(self, path: Path, content_dir: Path, *, fresh: bool = False) -> None:
        self._path, self._content, self._fresh = path, content_dir, fresh
        self._engine = engine_digest()
        self._folders: dict[str, str] = {}
        try:
            known = json.loads(path.read_text(encoding="utf-8"))
            self._known = {str(k): Verdict(v) for k, v in known.items()}
        except (OSError, ValueError, TypeError, AttributeError):
            self._known = {}

    def key(self, mutant: Mutant) -> str:
        if mutant.problem not in self._folders:
            folder = self._content / "problems" / mutant.problem
            self._folders[mutant.problem] = files_digest(folder).hex()
        parts = (self._engine, self._folders[mutant.problem], mutant.code)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def verdict(self, mutant: Mutant) -> Verdict | None:
        return None if self._fresh else self._known.get(self.key(mutant))

    def save(self, outcomes: list[Outcome]) -> None:
        self._known |= {self.key(o.mutant): o.verdict for o in outcomes if o.verdict}
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._path.write_text(json.dumps(self._known, sort_keys=True), encoding="utf-8")
        except OSError:
            pass  # a cache that cannot be written only costs time next run
