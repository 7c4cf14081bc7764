"""The hand-written typed surface ``tarot_solver/_core.pyi`` against the compiled core.

Cython writes no stub, so nothing else notices when the two drift apart: every
public name, whether it is a property or a method, and each method's parameters
(names, order, which have defaults) must agree.  (mypy's stubtest does this too,
but would add mypy to the test dependencies for one file.)
"""

from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path
from typing import Dict, Tuple

import tarot_solver
from tarot_solver import _core

STUB = Path(tarot_solver.__file__).parent / "_core.pyi"

Member = Tuple[str, Tuple[str, ...], int]  # kind, parameter names, how many have defaults


def _stub() -> Tuple[Dict[str, Member], set]:
    """Core's members and the module's other names, as the stub declares them."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names = {t.target.id for t in tree.body if isinstance(t, ast.AnnAssign) and isinstance(t.target, ast.Name)}
    names |= {t.name for t in tree.body if isinstance(t, ast.FunctionDef)}
    core = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Core")
    members: Dict[str, Member] = {}
    for f in core.body:
        if isinstance(f, ast.FunctionDef) and not f.name.startswith("__"):  # (__new__: the constructor)
            prop = any(isinstance(d, ast.Name) and d.id == "property" for d in f.decorator_list)
            members[f.name] = ("property" if prop else "method", tuple(a.arg for a in f.args.args),
                               len(f.args.defaults))
    return members, names | {"Core"}


def _compiled() -> Tuple[Dict[str, Member], set]:
    """The same, read from the extension module."""
    members: Dict[str, Member] = {}
    for name in dir(_core.Core):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(_core.Core, name)
        if inspect.isdatadescriptor(attr):
            members[name] = ("property", ("self",), 0)
        else:
            params = list(inspect.signature(getattr(_core.Core, name)).parameters.values())
            members[name] = ("method", tuple(p.name for p in params),
                             sum(p.default is not inspect.Parameter.empty for p in params))
    names = {n for n in dir(_core) if not n.startswith("_") and not isinstance(getattr(_core, n), types.ModuleType)}
    return members, names


def test_the_stub_declares_what_the_core_has() -> None:
    stub_members, stub_names = _stub()
    members, names = _compiled()
    assert stub_names == names
    assert set(stub_members) == set(members)
    for name, member in members.items():
        assert stub_members[name] == member, name
