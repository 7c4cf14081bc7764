"""The core's builds (setup.py): the package searches with the x86-64-v3 build where
the CPU runs it, and the portable build, which the rest of the suite then does not
exercise, answers exactly as it does, node for node."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

import pytest

import tarot_solver
from tarot_solver import _core

TESTS = Path(__file__).parent
VARIANT = Path(tarot_solver.__file__).parent / "_x86_64_v3"

# margins and node counts of seeded positions: endgames, and deeper ones
ANSWERS = """
import json, random, sys
sys.path.insert(0, {tests!r})
from test_solver import endgames, random_position
from tarot_solver import Solver, _core
rng = random.Random(11)
states = endgames(11, 200) + [random_position(rng, 10) for _ in range(10)]
solver = Solver(64)
answers = []
for st in states:
    solver.clear()
    r = solver.solve(st, pv=False)
    answers.append((r.margin, r.nodes))
print(json.dumps({{"build": _core.BUILD, "answers": answers}}))
"""


def answers(env: dict) -> Tuple[str, List[List[float]]]:
    proc = subprocess.run([sys.executable, "-c", ANSWERS.format(tests=str(TESTS))], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tempfile.gettempdir())  # (not the source tree)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    return out["build"], out["answers"]


def test_the_core_in_use_is_the_fastest_this_cpu_runs() -> None:
    if _core.BUILD == "x86-64-v3":
        assert _core.cpu_has_x86_64_v3()
    built = VARIANT.is_dir() and any(VARIANT.glob("_core*"))
    if built and _core.cpu_has_x86_64_v3() and os.environ.get("TAROT_CORE") != "portable":
        assert _core.BUILD == "x86-64-v3"


def test_the_portable_core_answers_as_the_one_in_use() -> None:
    if _core.BUILD != "x86-64-v3":
        pytest.skip(f"the core in use is the {_core.BUILD} build; there is no other to compare")
    build, ours = answers(dict(os.environ))
    assert build == "x86-64-v3"
    build, theirs = answers(dict(os.environ, TAROT_CORE="portable"))
    assert build == "portable"
    assert theirs == ours
    assert sum(n for _, n in ours) > 100_000  # (deep enough to search, not only to bound)


def test_tarot_core_takes_portable_in_any_case_and_warns_of_other_values() -> None:
    code = "import warnings, tarot_solver; print(tarot_solver._core.BUILD)"
    for value, build, warned in (("PORTABLE", "portable", False), ("x86-64-v3", _core.BUILD, True),
                                 ("", _core.BUILD, False)):
        if build == "portable" and _core.BUILD != "x86-64-v3":
            build = _core.BUILD  # (a native or debug build is used as it is)
        proc = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True,
                              env=dict(os.environ, TAROT_CORE=value), timeout=60, cwd=tempfile.gettempdir())
        assert proc.returncode == 0 and proc.stdout.strip() == build, proc.stderr
        assert ("TAROT_CORE='x86-64-v3' is ignored: its one value is 'portable'" in proc.stderr) is warned, proc.stderr
