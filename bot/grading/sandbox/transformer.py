"""The restricted compiler's rules, with augmented assignment to items and attributes.

RestrictedPython refuses `counts[x] += 1` and `self.size -= 1` outright ("Augmented
assignment of object items and slices is not allowed"), and solutions written the ordinary
way hit that all the time. Here they compile to calls of guards of ours, which read through
the read guards and write through the write guard exactly as `t[k] = t[k] + v` would:

    t[k] op= v     ->   _inplaceitem_("op=", t, k, v)
    o.name op= v   ->   _inplaceattr_("op=", o, "name", v)

`t`, `k` and `v` are evaluated once each, in that order; Python itself reads `t[k]` before
evaluating `v`, which differs only if evaluating `v` changes `t[k]`. Slices become `slice()`
calls and names are checked as everywhere else, by RestrictedPython's own visitors, before
this rewrite sees the node.
"""

from __future__ import annotations

import ast
from typing import Any

from RestrictedPython.transformer import (
    IOPERATOR_TO_STR,
    RestrictingNodeTransformer,
    copy_locations,
)

INPLACE_ITEM = "_inplaceitem_"
INPLACE_ATTR = "_inplaceattr_"


class SolutionTransformer(RestrictingNodeTransformer):
    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        if isinstance(node.target, ast.Name):
            return super().visit_AugAssign(node)
        node = self.node_contents_visit(node)
        target, op = node.target, ast.Constant(IOPERATOR_TO_STR[type(node.op)])
        if isinstance(target, ast.Subscript):
            key = _key(target.slice)
            call = _call(INPLACE_ITEM, op, _unwritten(target.value), key, node.value)
        elif isinstance(target, ast.Attribute):
            call = _call(INPLACE_ATTR, op, _unwritten(target.value), ast.Constant(target.attr),
                         node.value)  # fmt: skip
        else:  # pragma: no cover - the grammar has no other augmented target
            return super().visit_AugAssign(node)
        statement = ast.Expr(call)
        copy_locations(statement, node)
        copy_locations(call, node)
        return statement


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(name, ast.Load()), args=list(args), keywords=[])


def _key(key: ast.expr) -> ast.expr:
    """A subscript's key as a value: `1:3` is `slice(1, 3, None)`, `i, 1:3` a tuple of keys."""
    if isinstance(key, ast.Slice):
        bounds = [part or ast.Constant(None) for part in (key.lower, key.upper, key.step)]
        call = _call("slice", *bounds)
        copy_locations(call, key)
        return call
    if isinstance(key, ast.Tuple):
        return ast.Tuple([_key(element) for element in key.elts], ast.Load())
    return key


def _unwritten(value: ast.expr) -> ast.expr:
    """The object itself: the visit wrapped a store target's object in `_write_(...)`; the
    guard call gets the object and applies the write guard itself."""
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "_write_" and len(value.args) == 1):  # fmt: skip
        return value.args[0]
    return value
