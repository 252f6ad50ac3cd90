"""Deciding whether one test passed, in the parent, on plain data the worker returned.

A checker gets the test's arguments (the parent's own copy), the reference's result, and what
the solution returned, with the arguments as they were after the call. It answers None
(passed) or a Reason (a message key and its values, worded in each reader's language).
Nothing here trusts the solution's objects: the values are plain data decoded in the parent,
so equality means equality.

A reason's values may come from the expected result (an element, a shape, a group count):
on a hidden test only its kind is shown, `MISMATCH[reason.key]`, a message without values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.grades import Reason
from bot.grading.generators import ELEMENTWISE


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the solution produced for one test: its return value, its arguments after."""

    value: Any
    args: list[Any] | None


Checker = Callable[[list[Any], Any, Outcome], "Reason | None"]


def same(a: Any, b: Any) -> bool:
    """Equality that tells True from 1 and 1 from 1.0, as a judge must.

    Containers are compared by `==` in C first (fast, and enough to reject), then the element
    types at each level, a slice at a time (a C call on a whole 400,000-element list would
    keep the GIL from the event loop); only nested containers are walked in Python, so a
    200 x 200 matrix costs 200 steps, not 40,000."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        if len(a) != len(b) or a != b:
            return False
        nested = False
        for start in range(0, len(a), SLICE):
            kinds = list(map(type, a[start : start + SLICE]))
            if kinds != list(map(type, b[start : start + SLICE])):
                return False
            nested = nested or list in kinds or dict in kinds
        if not nested:  # flat rows: already fully compared
            return True
        return all(same(x, y) for x, y in zip(a, b, strict=True) if type(x) in (list, dict))
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return False
        return all(same(a[k], b[k]) for k in a)
    return bool(a == b)


SLICE = 8192  # elements whose types are compared in one C call


def exact(_args: list[Any], expected: Any, got: Outcome) -> Reason | None:
    return None if same(got.value, expected) else Reason.of("reason.wrong_result")


def close(_args: list[Any], expected: Any, got: Outcome) -> Reason | None:
    value = got.value
    if type(value) not in (int, float):
        return Reason.of("reason.not_a_number", type=type(value).__name__)
    if math.isclose(value, expected, rel_tol=1e-6, abs_tol=1e-9):
        return None
    return Reason.of("reason.not_close")


REL_TOL, ABS_TOL = 1e-6, 1e-8


def allclose(_args: list[Any], expected: Any, got: Outcome) -> Reason | None:
    """Float arrays (nested lists, or numpy arrays the worker turned into them): the same
    shape, and every element within 1e-6 relative or 1e-8 absolute of the expected one;
    a non-finite element must match exactly (NaN with NaN, +inf with +inf)."""
    want, have = _shape(expected), _shape(got.value)
    if have is None:
        return Reason.of("reason.not_an_array")
    if have != want:
        return Reason.of("reason.shape", want=want, got=have)
    for i, (a, b) in enumerate(zip(_flat(got.value), _flat(expected), strict=True)):
        if not _near(a, b):
            return Reason.of("reason.element", i=i, got=repr(a), want=repr(b), tol=f"{REL_TOL:g}")
    return None


def _shape(value: Any) -> tuple[int, ...] | None:
    """The shape of a number or of rectangular nested lists of numbers; None otherwise."""
    if type(value) in (int, float):
        return ()
    if type(value) is not list or not value:
        return (0,) if value == [] else None
    inner = {_shape(v) for v in value}
    if len(inner) != 1 or None in inner:
        return None
    return (len(value), *inner.pop())  # type: ignore[misc]


def _flat(value: Any) -> list[float]:
    if type(value) is not list:
        return [value]
    return [x for v in value for x in _flat(v)]


def _near(a: float, b: float) -> bool:
    if math.isfinite(a) and math.isfinite(b):
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    return (math.isnan(a) and math.isnan(b)) or a == b


def in_place(_args: list[Any], expected: Any, got: Outcome) -> Reason | None:
    after = got.args[0] if got.args else None
    if same(after, expected):
        return None
    if same(got.value, expected):
        return Reason.of("reason.copy_not_in_place")
    return Reason.of("reason.matrix_wrong")


def fusion(args: list[Any], expected: Any, got: Outcome) -> Reason | None:
    graph, groups = args[0], got.value
    if not _is_groups(groups):
        return Reason.of("reason.not_groups")
    first = next(_fusion_faults(graph, groups), None)  # the first is all a verdict says
    if first is not None:
        return first
    if len(groups) > len(expected):
        return Reason.of("reason.not_minimal", got=len(groups), want=len(expected))
    return None


def _is_groups(groups: Any) -> bool:
    return isinstance(groups, list) and all(
        isinstance(g, list) and all(isinstance(n, str) for n in g) for g in groups
    )


def fusion_faults(graph: dict[str, Any], groups: list[list[str]]) -> list[Reason]:
    """Why `groups` breaks the rules of the graph-fusion problem (minimality aside)."""
    return list(_fusion_faults(graph, groups))


def _fusion_faults(graph: dict[str, Any], groups: list[list[str]]) -> Iterator[Reason]:
    """The faults one at a time, so a verdict that needs the first builds no more: a result
    of a hundred thousand empty groups would otherwise cost the parent a reason each."""
    nodes = graph["nodes"]
    elementwise = {n["name"] for n in nodes if n["op"] in ELEMENTWISE}
    members = [name for group in groups for name in group]
    if sorted(members) != sorted(elementwise):
        yield Reason.of("reason.groups_cover")
        return
    users = _users(nodes)
    producers = {n["name"]: {s for s in n["inputs"] if s in users} for n in nodes}
    for group in groups:
        yield from _group_faults(group, graph, users, producers)
    if _contraction_has_cycle(nodes, groups, users):
        yield Reason.of("reason.groups_cycle")


def _users(nodes: list[dict[str, Any]]) -> dict[str, set[str]]:
    users: dict[str, set[str]] = {n["name"]: set() for n in nodes}
    for n in nodes:
        for src in n["inputs"]:
            if src in users:  # graph inputs are not nodes
                users[src].add(n["name"])
    return users


def _group_faults(group: list[str], graph: dict[str, Any], users: dict[str, set[str]],
                  producers: dict[str, set[str]]) -> list[Reason]:  # fmt: skip
    if not group:
        return [Reason.of("reason.group_empty")]
    inside, outputs = set(group), set(graph["outputs"])
    exits = [m for m in group if m in outputs or users[m] - inside]
    faults = []
    if len(exits) != 1:
        faults.append(Reason.of("reason.group_exits", group=group[:6], n=len(exits)))
    reached, todo = {group[0]}, [group[0]]
    while todo:
        near = ((users[m] | producers[m]) & inside for m in [todo.pop()])
        for found in near:
            todo += found - reached
            reached |= found
    if reached != inside:
        faults.append(Reason.of("reason.group_disconnected", group=group[:6]))
    return faults


def _contraction_has_cycle(nodes: list[dict[str, Any]], groups: list[list[str]],
                           users: dict[str, set[str]]) -> bool:  # fmt: skip
    where = {m: f"#{i}" for i, group in enumerate(groups) for m in group}
    edges: dict[str, set[str]] = {}
    for n in nodes:
        dst = where.get(n["name"], n["name"])
        for src in n["inputs"]:
            if src in users and (head := where.get(src, src)) != dst:
                edges.setdefault(head, set()).add(dst)
    indegree: dict[str, int] = {}
    for head, tails in edges.items():
        indegree.setdefault(head, 0)
        for tail in tails:
            indegree[tail] = indegree.get(tail, 0) + 1
    ready = [v for v, d in indegree.items() if d == 0]
    seen = 0
    while ready:
        v = ready.pop()
        seen += 1
        for tail in edges.get(v, ()):
            indegree[tail] -= 1
            if indegree[tail] == 0:
                ready.append(tail)
    return seen != len(indegree)


# The kind of mismatch each reason is, as a hidden test says it (the judge's own reasons too).
MISMATCH = {
    "reason.wrong_result": "mismatch.value", "reason.not_close": "mismatch.value",
    "reason.element": "mismatch.value", "reason.matrix_wrong": "mismatch.value",
    "reason.not_a_number": "mismatch.type", "reason.not_an_array": "mismatch.type",
    "reason.uncomparable": "mismatch.type", "reason.shape": "mismatch.shape",
    "reason.copy_not_in_place": "mismatch.in_place", "reason.not_minimal": "mismatch.not_minimal",
    "reason.not_groups": "mismatch.groups", "reason.groups_cover": "mismatch.groups",
    "reason.groups_cycle": "mismatch.groups", "reason.group_empty": "mismatch.groups",
    "reason.group_exits": "mismatch.groups", "reason.group_disconnected": "mismatch.groups",
    "reason.result_too_large": "mismatch.too_large",
}  # fmt: skip

CHECKERS: dict[str, Checker] = {"exact": exact, "close": close, "allclose": allclose,
                                "in_place": in_place, "fusion": fusion}  # fmt: skip
