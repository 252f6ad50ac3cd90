"""Plain Python graded as rotate-matrix's solution: on each test, searches the worker's whole
heap and every frame for test data, and returns fingerprints of what it found.

Candidates: any str that looks like serialised arguments, and any list of lists (a matrix,
or an argument list holding one). The test compares the fingerprints with every other test's
input and every expected output, which must never be here.
"""

import gc
import json
import sys


def fingerprint(matrix):
    """A matrix's fingerprint: the hash of a tuple of int tuples is the same in every
    CPython process (int hashes are not randomised), so the test can compute it too."""
    return hash(tuple(tuple(row) for row in matrix))


def _is_matrix(value):
    return (
        type(value) is list
        and value
        and all(type(row) is list and all(type(x) is int for x in row) for row in value)
    )


def _matrices(value, depth=0):
    """Matrices in `value`: itself, or inside lists and dicts (an argument list, a job), or
    in serialised form (strings are not tracked by the collector: found through these)."""
    if type(value) is str and value.startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            return
    if _is_matrix(value):
        yield value
    elif depth < 3 and type(value) in (list, dict):
        for inner in value.values() if type(value) is dict else value:
            yield from _matrices(inner, depth + 1)


def _candidates():
    for obj in gc.get_objects():
        if type(obj) in (list, dict):
            yield from _matrices(obj)
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            yield from _matrices(value)
        frame = frame.f_back


def rotate(matrix):
    seen = set()
    for candidate in _candidates():
        seen.add(fingerprint(candidate))
    n = len(matrix)
    for i in range(n):
        for j in range(i + 1, n):
            matrix[i][j], matrix[j][i] = matrix[j][i], matrix[i][j]
    for row in matrix:
        row.reverse()
    return sorted(seen)
