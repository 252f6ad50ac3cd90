"""Solutions written the ordinary way: augmented assignment to items and attributes, and item
writes to the library's containers and numpy arrays, through the real sandbox; and what
stays refused (attributes of library objects, writes to anything else)."""

from __future__ import annotations

import contextlib
import io

import pytest

from bot.grades import Verdict
from bot.grading.grader import Grader

ON_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")

ORDINARY = """
import collections
import numpy as np

counts = collections.Counter()
for word in "a b a c a".split():
    counts[word] += 1
grid = [[0] * 3 for _ in range(2)]
grid[1][2] += 5
grid[0][0:2] += [7]
lru = collections.OrderedDict()
lru["x"] = 1
lru["y"] = 2
lru.move_to_end("x")
del lru["y"]
window = collections.deque([1, 2, 3])
window[0] = 9
window[-1] -= 1
seen = collections.defaultdict(list)
seen["k"] += [1]
a = np.zeros((2, 3))
a[0, 1] = 4.0
a[1] += 2
a[a > 3] *= 10
a[:, 2] -= 1


class Node:
    def __init__(self):
        self.size = 0


node = Node()
node.size += 3
node.size *= 2
print(dict(counts), grid, list(lru.items()), list(window), dict(seen))
print(a.tolist(), node.size)
"""


@ON_MODULE_LOOP
async def test_ordinary_writes_work_as_in_python(grader: Grader) -> None:
    result = await grader.run(ORDINARY)
    assert result.verdict is Verdict.ACCEPTED, result.message
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):  # what plain Python prints
        exec(compile(ORDINARY, "<plain>", "exec"), {"__name__": "plain"})
    assert result.output == printed.getvalue()
    assert result.output.splitlines()[1] == "[[0.0, 40.0, -1.0], [2.0, 2.0, 1.0]] 6"


@ON_MODULE_LOOP
async def test_each_part_is_evaluated_once(grader: Grader) -> None:
    code = ("calls = []\n"
            "def at(i):\n    calls.append(i)\n    return i\n"
            "xs = [1, 2, 3]\nxs[at(1)] += 10\nprint(xs, calls)\n")  # fmt: skip
    result = await grader.run(code)
    assert result.output.strip() == "[1, 12, 3] [1]"


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("import numpy as np\na = np.zeros(4)\na.shape = (2, 2)\n", "cannot set attributes"),
        ("import collections\nd = collections.deque()\nd.maxlen = 3\n", "cannot set attributes"),
        ("import math\nmath.pi += 1\n", "attribute"),
        ("t = (1, 2)\nt[0] += 1\n", "item"),
        ("import numpy as np\nnp.pi += 1\n", "attribute"),
        ("x = [1]\nx._y += 1\n", "_y"),
        ("f = lambda: 0\nf.x += 1\n", "attribute"),
        ("import numpy as np\nnp.ndarray.x = 1\n", "attribute"),
        ("import collections\ncollections.Counter.total = 1\n", "attribute"),
        ("import numpy as np\na = np.zeros(2)\na.flags.writeable += 1\n", "attribute"),
    ],
)
@ON_MODULE_LOOP
async def test_what_stays_refused_is_refused(grader: Grader, code: str, says: str) -> None:
    result = await grader.run(code)
    assert result.verdict in (Verdict.RUNTIME_ERROR, Verdict.COMPILE_ERROR), result
    assert says in (result.message or "") + result.output, result
