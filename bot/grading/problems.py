"""Gradable problems: content/problems/<id>/judge.yaml beside the statement and explanation.

    function    the name a solution must define
    checker     exact | close | allclose | in_place | fusion (see checkers.py)
    time_limit  CPU time for all tests together, relative to the reference solution:
                {times: N, floor: S}, N times the reference's time on the grading machine
                and never under S standard seconds (bot/grading/timing.py)
    memory_mb   memory a solution may use on top of the interpreter
    banned      constructs refused on the syntax tree: "**", "pow", "math.pow" ...
    samples     argument lists shown to users with expected and actual results
    hidden      argument lists graded pass/fail only
    generate    seeded generators of more hidden tests: {generator, seed, ...parameters};
                a generator is one of bot/grading/generators.py or a function of the
                problem's own generators.py (called with a random.Random and the parameters)
    equivalent_mutants
                mutants of the reference that no test can kill because they compute the
                same thing, each {operator, before, after, reason}: mutmut's operator and the
                changed lines before and after, stripped (`studybot content mutants` prints
                them for each survivor; see bot/grading/mutants.py)

Beside them, wrong/*.py keeps known-wrong solutions that `studybot content validate` proves
are rejected (bot/grading/proofs.py).

Expected results are computed here by the reference solution, the first ```python block of
explanation.md, so the explanation users read is the code that defines "right". Content is
ours and trusted; users' code never runs in this process. Loading is CPU work: call it in a
thread.
"""

from __future__ import annotations

import json
import random
import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bot.content.bank import EXPLANATION_FILE, PROBLEMS_DIR
from bot.errors import ContentError, Fault
from bot.grading.case_cache import CaseCache, files_digest
from bot.grading.checkers import CHECKERS
from bot.grading.generators import GENERATORS
from bot.grading.sandbox.plain import plain
from bot.grading.timing import TimeRule

JUDGE_FILE = "judge.yaml"
LOCAL_GENERATORS = "generators.py"
KEYS = {"function", "checker", "time_limit", "memory_mb", "banned", "samples", "hidden",
        "generate", "equivalent_mutants"}  # fmt: skip
EQUIVALENT_KEYS = ("operator", "before", "after", "reason")
CODE_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


@dataclass(frozen=True, slots=True)
class Case:
    number: int  # 1-based, as users see it
    args_json: str  # what the worker receives, decoded afresh for every run
    expected: Any  # the reference's result, plain data
    sample: bool
    given: Any = None  # the arguments, decoded once for checkers: read them, never change them

    def args(self) -> list[Any]:
        """The arguments, decoded: the parent's own copy (checkers must not mutate it)."""
        return self.given if self.given is not None else list(json.loads(self.args_json))


@dataclass(frozen=True, slots=True)
class EquivalentMutant:
    """A mutant declared harmless: it is named by what changes, not by where, so the
    declaration holds while unrelated lines of the reference are edited."""

    operator: str
    before: str
    after: str
    reason: str
    line: int  # in the judge file, where a stale declaration is reported

    @property
    def identity(self) -> tuple[str, str, str]:
        return self.operator, self.before, self.after


@dataclass(frozen=True, slots=True)
class Problem:
    id: str
    function: str
    checker: str
    time_rule: TimeRule
    memory_mb: int
    banned: tuple[str, ...]
    cases: tuple[Case, ...]
    reference: str = ""  # the reference solution's source, as a user would submit it
    digest: str = ""  # of the files that decide the problem (its measured time is kept by it)
    equivalent: tuple[EquivalentMutant, ...] = ()

    @property
    def wants_args(self) -> bool:
        """Whether grading looks at the arguments after the call (in-place problems)."""
        return self.checker == "in_place"


def load_problems(content_dir: Path, cache: CaseCache | None = None) -> dict[str, Problem]:
    """Every problem with a judge file, or a ContentError listing every fault. With a
    `cache`, tests computed before for the same files and code are read, not computed."""
    problems, faults = {}, list[Fault]()
    for judge in sorted((content_dir / PROBLEMS_DIR).glob(f"*/{JUDGE_FILE}")):
        try:
            problems[judge.parent.name] = load_problem(judge.parent, cache)
        except ContentError as exc:
            faults += exc.faults
    if faults:
        raise ContentError(faults)
    return problems


def load_problem(folder: Path, cache: CaseCache | None = None) -> Problem:
    path = folder / JUDGE_FILE
    text = path.read_text(encoding="utf-8")
    spec = _parse(path, text)
    fault = _Faults(path, text)
    _check_keys(spec, fault)
    equivalent = _equivalent(spec, text, fault)
    checker = str(spec.get("checker"))
    if checker not in CHECKERS:
        fault("checker", f"checker must be one of: {', '.join(CHECKERS)}")
    if fault.faults:  # computed anyway, to report every fault of the problem at once
        _computed(folder, spec, checker, path, fault)
    key = cache.key(folder) if cache is not None else ""
    rows = cache.load(folder.name, key) if cache is not None else None
    if rows is not None:
        cases = [Case(n, a, e, s) for n, (a, e, s) in enumerate(rows, 1)]
    else:
        cases = _computed(folder, spec, checker, path, fault)
        if cache is not None:
            cache.save(folder.name, key, [(c.args_json, c.expected, c.sample) for c in cases])
    return Problem(folder.name, spec["function"], checker, _time_rule(spec["time_limit"]),
                   int(spec["memory_mb"]), tuple(map(str, spec.get("banned") or ())),
                   tuple(cases), reference_source(folder) or "",
                   files_digest(folder).hex(), equivalent)  # fmt: skip


def reference_source(folder: Path) -> str | None:
    """The reference solution: the first ```python block of the problem's explanation."""
    match = CODE_BLOCK.search((folder / EXPLANATION_FILE).read_text(encoding="utf-8"))
    return match.group(1) if match else None


def _time_rule(spec: dict[str, Any]) -> TimeRule:
    return TimeRule(float(spec["times"]), float(spec.get("floor", 0)))


def _computed(folder: Path, spec: dict[str, Any], checker: str, path: Path,
              fault: _Faults) -> list[Case]:  # fmt: skip
    """The problem's tests with the reference's results, or a ContentError."""
    reference = _reference(folder, str(spec.get("function")), fault)
    tests = _tests(spec, fault, _local_generators(folder, fault))
    if fault.faults:
        raise ContentError(fault.faults)
    assert reference is not None
    cases = _cases(tests, reference, checker == "in_place", path, fault)
    if fault.faults:
        raise ContentError(fault.faults)
    return cases


class _Faults:
    """Collects faults, each at the line of the key it is about."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.lines, self.faults = path, text.splitlines(), list[Fault]()

    def __call__(self, key: str, message: str) -> None:
        line = next((i for i, t in enumerate(self.lines, 1) if t.startswith(f"{key}:")), 1)
        self.at(line, message)

    def at(self, line: int, message: str) -> None:
        self.faults.append(Fault(self.path, line, message))


def _parse(path: Path, text: str) -> dict[str, Any]:
    try:
        spec = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        raise ContentError([Fault(path, line, f"not valid YAML: {exc}")]) from exc
    if not isinstance(spec, dict):
        raise ContentError([Fault(path, 1, "a judge file is a mapping of keys")])
    return spec


def _check_keys(spec: dict[str, Any], fault: _Faults) -> None:
    for key in sorted(set(spec) - KEYS):
        fault(key, f"unknown key '{key}'; expected: {', '.join(sorted(KEYS))}")
    if not isinstance(spec.get("function"), str) or not spec["function"].isidentifier():
        fault("function", "function must be a Python identifier")
    if not _positive(spec.get("memory_mb")):
        fault("memory_mb", "memory_mb must be a positive number")
    _check_time_rule(spec.get("time_limit"), fault)
    if not isinstance(spec.get("banned", []), list):
        fault("banned", "banned must be a list")


TIME_RULE = "time_limit: {times: N, floor: S}: N times the reference's CPU time, at least S "
MIN_TIMES = 3  # below it the reference itself would run out of time on a noisy machine


def _check_time_rule(rule: Any, fault: _Faults) -> None:
    if not isinstance(rule, dict) or set(rule) - {"times", "floor"} or "times" not in rule:
        fault("time_limit", f"{TIME_RULE}standard seconds (bot/grading/timing.py)")
    elif not _positive(rule["times"]) or rule["times"] < MIN_TIMES:
        fault("time_limit", f"time_limit's times must be a number of at least {MIN_TIMES}, so "
                            "the reference has room to spare")  # fmt: skip
    elif "floor" in rule and not (_positive(rule["floor"]) or rule["floor"] == 0):
        fault("time_limit", "time_limit's floor is a number of standard seconds, 0 or more")


def _positive(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def _equivalent(spec: dict[str, Any], text: str,
                fault: _Faults) -> tuple[EquivalentMutant, ...]:  # fmt: skip
    """The declared equivalent mutants, each with its own line; a malformed one is a fault."""
    items = spec.get("equivalent_mutants") or []
    if not isinstance(items, list):
        fault("equivalent_mutants", "equivalent_mutants must be a list")
        return ()
    lines = _item_lines(text, "equivalent_mutants")
    declared = []
    for number, item in enumerate(items):
        line = lines[number] if number < len(lines) else 1
        if not isinstance(item, dict) or set(item) != set(EQUIVALENT_KEYS) or not all(
                isinstance(item[k], str) and item[k].strip() for k in EQUIVALENT_KEYS):  # fmt: skip
            fault.at(line, f"each of equivalent_mutants has exactly these non-empty strings: "
                           f"{', '.join(EQUIVALENT_KEYS)}")  # fmt: skip
            continue
        operator, before, after, reason = (item[k].strip() for k in EQUIVALENT_KEYS)
        declared.append(EquivalentMutant(operator, before, after, reason, line))
    return tuple(declared)


def _item_lines(text: str, key: str) -> list[int]:
    """The line of each item of a top-level list, from the YAML node tree (the text has
    parsed already, so composing it again cannot fail)."""
    root = yaml.compose(text)
    for name, value in root.value if isinstance(root, yaml.MappingNode) else ():
        if name.value == key and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _reference(folder: Path, function: str, fault: _Faults) -> Callable[..., Any] | None:
    source = reference_source(folder)
    if source is None:
        fault("function", f"{EXPLANATION_FILE} has no ```python block: the reference solution")
        return None
    namespace: dict[str, Any] = {}
    exec(compile(source, str(folder / EXPLANATION_FILE), "exec"), namespace)
    found = namespace.get(function)
    if not callable(found):
        fault("function", f"the reference in {EXPLANATION_FILE} defines no '{function}'")
        return None
    return found  # type: ignore[no-any-return]


def _local_generators(folder: Path, fault: _Faults) -> dict[str, Callable[..., Any]]:
    """The public functions of the problem's generators.py (trusted content, like the
    reference), by name."""
    path = folder / LOCAL_GENERATORS
    if not path.is_file():
        return {}
    module = f"problems.{folder.name}.generators"
    namespace: dict[str, Any] = {"__name__": module}
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    except Exception as exc:  # the content is wrong: say so at the judge file's generators
        fault("generate", f"{LOCAL_GENERATORS}: {type(exc).__name__}: {exc}")
        return {}
    return {name: f for name, f in namespace.items() if isinstance(f, types.FunctionType)
            and f.__module__ == module and not name.startswith("_")}  # fmt: skip


def _tests(spec: dict[str, Any], fault: _Faults,
           local: dict[str, Callable[..., Any]]) -> list[tuple[list[Any], bool]]:  # fmt: skip
    tests: list[tuple[list[Any], bool]] = []
    for key, sample in (("samples", True), ("hidden", False)):
        for args in spec.get(key) or []:
            if not isinstance(args, list):
                fault(key, f"each of {key} is a list of arguments")
                continue
            tests.append((args, sample))
    if not any(sample for _, sample in tests):
        fault("samples", "at least one sample test is needed (users see its result)")
    for generated in spec.get("generate") or []:
        tests += [(args, False) for args in _generate(generated, fault, local)]
    return tests


def _generate(spec: Any, fault: _Faults,
              local: dict[str, Callable[..., Any]]) -> list[list[Any]]:  # fmt: skip
    known = {**GENERATORS, **local}
    if not isinstance(spec, dict) or spec.get("generator") not in known:
        fault("generate", f"each generator is {{generator: one of {', '.join(known)}, "
                          "seed: N, ...}")  # fmt: skip
        return []
    params = {k: v for k, v in spec.items() if k not in ("generator", "seed")}
    try:
        cases = known[spec["generator"]](random.Random(spec.get("seed", 0)), **params)
    except Exception as exc:  # a local generator is content: report it, don't crash
        fault("generate", f"generator {spec['generator']}: {type(exc).__name__}: {exc}")
        return []
    if not isinstance(cases, list) or not all(isinstance(args, list) for args in cases):
        fault("generate", f"generator {spec['generator']} must return a list of argument lists")
        return []
    return cases


def _cases(tests: list[tuple[list[Any], bool]], reference: Callable[..., Any], in_place: bool,
           path: Path, fault: _Faults) -> list[Case]:  # fmt: skip
    cases = []
    for number, (args, sample) in enumerate(tests, 1):
        args_json = json.dumps(args)
        given = json.loads(args_json)  # the reference's own copy: a deep copy, at C speed
        try:
            result = reference(*given)
        except Exception as exc:  # the content is wrong, not the bot: say which test
            fault("samples" if sample else "hidden", f"test {number}: the reference raised "
                                                     f"{type(exc).__name__}: {exc}")  # fmt: skip
            continue
        # The reference's result as a solution's would come back (numpy arrays as lists).
        expected = json.loads(json.dumps(plain(given[0] if in_place else result)))
        cases.append(Case(number, args_json, expected, sample, args))
    return cases
