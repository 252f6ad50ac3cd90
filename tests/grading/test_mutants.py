"""Mutants of a reference: mutmut's operators, applied to code only, each mutant distinct and
compiling, named so a declaration of an equivalent one survives unrelated edits. And the
judge file's `equivalent_mutants`, validated by the loader."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.errors import ContentError
from bot.grading.mutants import make_mutants
from bot.grading.problems import EquivalentMutant, load_problem
from tests.fakes import REPO

SCALE = '''def scale(xs, k):
    """Multiply each of xs by k (k * 2 in the docstring is not code)."""
    out = []  # a comment with x + 1 in it
    for x in xs:
        out.append(x * k)
    return out
'''


def test_operators_touch_code_never_comments_or_docstrings() -> None:
    made = make_mutants("scale", SCALE)
    assert {m.operator for m in made} >= {"assignment", "arg_removal", "swap_op"}
    assert "out.append(x / k)" in {m.after for m in made}
    for mutant in made:
        assert '"""Multiply each of xs by k (k * 2 in the docstring is not code)."""' in mutant.code
        assert "# a comment with x + 1 in it" in mutant.code


def test_mutants_are_distinct_compiling_and_differ_from_the_reference() -> None:
    made = make_mutants("pair", "def pair(x):\n    return max(x, x)\n")
    # dropping either argument gives the same `max(x)`: one mutant, not two
    assert sorted(m.after for m in made) == ["return max(None, x)", "return max(x)",
                                             "return max(x, None)"]  # fmt: skip
    looped = "for _ in range(2):\n    break\n\ndef f():\n    return 1\n"
    # mutmut turns `break` into `return`, which outside a function does not compile
    assert all("return" not in m.after for m in make_mutants("f", looped) if "break" in m.before)
    inside = "def f():\n    for _ in range(2):\n        break\n"
    assert ("break", "return") in {(m.before, m.after) for m in make_mutants("f", inside)}


def test_a_mutant_is_named_by_what_changes_not_by_where() -> None:
    named = {m.identity for m in make_mutants("scale", SCALE)}
    moved = SCALE.replace("    out = []", "    k = k + 0  # an unrelated new line\n    out = []")
    assert named <= {m.identity for m in make_mutants("scale", moved)}
    mutant = next(m for m in make_mutants("scale", SCALE) if m.after == "out.append(x / k)")
    assert mutant.identity == ("swap_op", "out.append(x * k)", "out.append(x / k)")
    assert "-        out.append(x * k)\n+        out.append(x / k)\n" in mutant.diff


@pytest.fixture
def problem_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "fast-power"
    shutil.copytree(REPO / "content" / "problems" / "fast-power", folder)
    return folder


def declare(folder: Path, yaml_text: str) -> None:
    judge = folder / "judge.yaml"
    judge.write_text(judge.read_text(encoding="utf-8") + yaml_text, encoding="utf-8")


def test_the_loader_reads_equivalent_mutants(problem_copy: Path) -> None:
    declare(problem_copy, "equivalent_mutants:\n"
                          "  - operator: swap_op\n"
                          "    before: 'if n < 0:'\n"
                          "    after: 'if n <= 0:'\n"
                          "    reason: n == 0 gives 1.0 either way\n")  # fmt: skip
    line = len((problem_copy / "judge.yaml").read_text().splitlines()) - 3
    assert load_problem(problem_copy).equivalent == (
        EquivalentMutant("swap_op", "if n < 0:", "if n <= 0:", "n == 0 gives 1.0 either way", line),
    )


def test_a_malformed_declaration_is_a_fault_at_its_line(problem_copy: Path) -> None:
    declare(problem_copy, "equivalent_mutants:\n"
                          "  - {operator: swap_op, before: a, after: b, reason: fine}\n"
                          "  - {operator: swap_op, before: a, after: b}\n"
                          "  - {operator: swap_op, before: a, after: b, reason: ' ',\n"
                          "     why: x}\n")  # fmt: skip
    end = len((problem_copy / "judge.yaml").read_text().splitlines()) - 1
    with pytest.raises(ContentError) as caught:
        load_problem(problem_copy)
    assert [(f.line, "operator, before, after, reason" in f.message)
            for f in caught.value.faults] == [(end - 1, True), (end, True)]  # fmt: skip


def test_equivalent_mutants_must_be_a_list(problem_copy: Path) -> None:
    declare(problem_copy, "equivalent_mutants: {operator: swap_op}\n")
    with pytest.raises(ContentError) as caught:
        load_problem(problem_copy)
    assert [str(f.message) for f in caught.value.faults] == ["equivalent_mutants must be a list"]
