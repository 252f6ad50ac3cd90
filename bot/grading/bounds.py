"""How much of a worker's report the parent decodes, and how much of a value it shows.

The parent pays for whatever the worker writes: `json.loads` of a line holds the GIL for as
long as it runs (a 16 MiB line of tiny values: seconds, and hundreds of MB), and the event
loop waits with it, although judging runs in a thread. So every line is measured before
it is decoded, by a few byte counts done in C at memory speed (`Budget.of`): its size, its
commas (a bound on values in arrays and objects), brackets (containers), quotes (strings)
and backslashes (escapes). A test's line may hold about what its expected result holds
(`SLACK` times it, plus a `FLOOR` for the event's own fields and printed output); any other
line holds only the `FLOOR`. A line over its budget is never decoded: a test's is a result
far larger than any right answer (a wrong answer, said so), anything else is damage.

Within budget, a large line is decoded with Python hooks for its numbers, so the decoder
comes back to Python every number and the judging thread gives the GIL up on time, and
what is shown of a value is encoded by `shown`, which stops once it has enough characters
(never `json.dumps` of a whole value to show 300 characters of it).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.grading.problems import Problem


@dataclass(frozen=True, slots=True)
class Budget:
    """Counts of a JSON text's bytes that bound what decoding it builds."""

    size: int
    commas: int
    containers: int
    quotes: int
    escapes: int

    @classmethod
    def of(cls, data: bytes) -> Budget:
        containers = data.count(b"[") + data.count(b"{")
        return cls(len(data), data.count(b","), containers, data.count(b'"'), data.count(b"\\"))

    def scaled(self, factor: int, floor: Budget) -> Budget:
        pairs = zip(self._counts(), floor._counts(), strict=True)
        return Budget(*(factor * a + b for a, b in pairs))

    def holds(self, other: Budget) -> bool:
        return all(a <= b for a, b in zip(other._counts(), self._counts(), strict=True))

    def _counts(self) -> tuple[int, int, int, int, int]:
        return self.size, self.commas, self.containers, self.quotes, self.escapes


# An event's own fields and up to 4,000 printed characters, each escaped (\uXXXX) at worst.
FLOOR = Budget(size=64 * 1024, commas=4096, containers=1024, quotes=4096, escapes=24 * 1024)
# A right answer encodes as its expected result does (floats may print longer); a result in
# place comes back as the argument after the call besides the return value.
SLACK = 2
SMALL = 64 * 1024  # bytes under which a line is decoded in one go: well under a millisecond
HEAD = re.compile(rb'\{"event": "(\w{1,20})"(?:, "i": (-?\d{1,9}))?')
_KEPT = 64  # problems whose budgets are kept (each grader's bank, and a few stand-ins)
_budgets: OrderedDict[int, tuple[Problem, tuple[Budget, ...]]] = OrderedDict()


def budgets(problem: Problem) -> tuple[Budget, ...]:
    """Each test's line budget, computed once per problem (the judge's thread calls this)."""
    kept = _budgets.get(id(problem))
    if kept is not None and kept[0] is problem:
        return kept[1]
    computed = tuple(_budget(problem, case.expected) for case in problem.cases)
    _budgets[id(problem)] = (problem, computed)
    while len(_budgets) > _KEPT:
        _budgets.popitem(last=False)
    return computed


def _budget(problem: Problem, expected: Any) -> Budget:
    factor = SLACK * (2 if problem.wants_args else 1)
    return Budget.of(json.dumps(expected).encode()).scaled(factor, FLOOR)


def heading(line: bytes) -> tuple[str, int | None]:
    """The event name and test index a line starts with, as the harness writes them
    (("", None) if it does not start like one)."""
    match = HEAD.match(line)
    if match is None:
        return "", None
    index = match.group(2)
    return match.group(1).decode(), None if index is None else int(index)


def loads(line: bytes) -> Any:
    """`line` decoded; a large one with its numbers parsed through Python, so the GIL is
    given up while it decodes. Raises what `json.loads` raises."""
    if len(line) <= SMALL:
        return json.loads(line)
    return json.loads(line, parse_float=_float, parse_int=_int)


def _float(text: str) -> float:
    return float(text)


def _int(text: str) -> int:
    return int(text)


def prefix(line: bytes, field: str, chars: int) -> tuple[str, int]:
    """The first `chars` characters of string `field` of an undecoded line, and about how
    many bytes of it were left out: for a line too large to decode whose text is still
    worth a look (a compile error). Never reads more than `chars` escapes' worth."""
    key = f'"{field}": "'.encode()
    start = line.find(key, 0, 256)
    if start < 0:
        return "", 0
    start += len(key)
    piece = line[start : start + 6 * chars]
    match = re.match(rb'(?:[^"\\]|\\.)*', piece)
    body = piece[: match.end() if match else 0]
    for cut in range(len(body), max(len(body) - 6, 0) - 1, -1):  # an escape cut in two
        try:
            text = json.loads(b'"' + body[:cut] + b'"')
        except ValueError:
            continue
        end = line.rfind(b'"')
        return text[:chars], max(end - start - len(body[:cut]), 0) + max(len(text) - chars, 0)
    return "", 0


def shown(value: Any, limit: int) -> str:
    """`value` as `json.dumps` would write it, up to `limit` characters and a few more: the
    walk stops once it has enough, whatever the value's size or depth."""
    parts: list[str] = []
    _walk(value, parts, [limit + 1], 0)
    return "".join(parts)


def _walk(value: Any, parts: list[str], room: list[int], depth: int) -> None:
    if room[0] <= 0:
        return
    if isinstance(value, list | dict) and depth < room[0]:  # deeper: all brackets anyway
        _container(value, parts, room, depth)
        return
    piece = _scalar(value, room[0])
    parts.append(piece)
    room[0] -= len(piece)


def _container(value: list[Any] | dict[str, Any], parts: list[str], room: list[int],
               depth: int) -> None:  # fmt: skip
    opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
    parts.append(opening)
    room[0] -= 1
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    for n, (key, item) in enumerate(items):
        if room[0] <= 0:
            return
        if n:
            parts.append(", ")
            room[0] -= 2
        if key is not None:
            _walk(key, parts, room, depth + 1)
            parts.append(": ")
            room[0] -= 2
        _walk(item, parts, room, depth + 1)
    if room[0] > 0:
        parts.append(closing)
        room[0] -= 1


def _scalar(value: Any, room: int) -> str:
    if isinstance(value, str):
        value = value[:room]
    elif isinstance(value, list | dict):
        return "[" * room
    try:
        return json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError):  # an int past the conversion limit
        return "(unprintable)"
