"""The core's builds (setup.py): the package searches with the x86-64-v3 build where
the CPU runs it, and the portable build, which the rest of the suite then does not
exercise, answers exactly as it does, node for node."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
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


def child_env(**changes: str) -> dict:
    """This environment without the TAROT_CORE the suite may run under, with ``changes``."""
    env = {k: v for k, v in os.environ.items() if k != "TAROT_CORE"}
    env.update(changes)
    return env


def answers(env: dict) -> Tuple[str, List[List[float]]]:
    proc = subprocess.run([sys.executable, "-c", ANSWERS.format(tests=str(TESTS))], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tempfile.gettempdir())  # (not the source tree)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    return out["build"], out["answers"]


def build_in_use(env: dict) -> Tuple[str, str]:
    """The build a fresh process searches with under ``env``, and its stderr."""
    code = "import warnings, tarot_solver; print(tarot_solver._core.BUILD)"
    proc = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, env=env,
                          timeout=60, cwd=tempfile.gettempdir())
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip(), proc.stderr


@pytest.fixture(scope="module")
def builds() -> Tuple[str, str]:
    """The build a fresh process searches with by default, and with TAROT_CORE=portable
    (the package's own core, whatever its build).  Each is asked of a fresh process:
    the suite itself may run under TAROT_CORE=portable, and the tree may hold a
    TAROT_MARCH or TAROT_DEBUG build beside a variant left by an earlier default build,
    which the package then rightly leaves alone."""
    default, _ = build_in_use(child_env())
    base, _ = build_in_use(child_env(TAROT_CORE="portable"))
    return default, base


def test_the_core_in_use_is_the_fastest_this_cpu_runs(builds: Tuple[str, str]) -> None:
    default, base = builds
    if default == "x86-64-v3":
        assert _core.cpu_has_x86_64_v3() and base == "portable"
    built = VARIANT.is_dir() and any(VARIANT.glob("_core*"))
    if base == "portable" and built and _core.cpu_has_x86_64_v3():
        assert default == "x86-64-v3"
    else:
        assert default == base


def test_the_portable_core_answers_as_the_one_in_use(builds: Tuple[str, str]) -> None:
    default, _ = builds
    if default != "x86-64-v3":
        pytest.skip(f"the core in use is the {default} build; there is no other to compare")
    build, ours = answers(child_env())
    assert build == "x86-64-v3"
    build, theirs = answers(child_env(TAROT_CORE="portable"))
    assert build == "portable"
    assert theirs == ours
    assert sum(n for _, n in ours) > 100_000  # (deep enough to search, not only to bound)


def test_tarot_core_takes_portable_in_any_case_and_warns_of_other_values(builds: Tuple[str, str]) -> None:
    default, base = builds
    for value, build, warned in (("PORTABLE", base, False), ("x86-64-v3", default, True), ("", default, False)):
        got, stderr = build_in_use(child_env(TAROT_CORE=value))
        assert got == build, stderr
        assert ("TAROT_CORE='x86-64-v3' is ignored: its one value is 'portable'" in stderr) is warned, stderr


SHADOWED = """
import sys
# (not an editable install's finder, which would lend the checkout the core it lacks)
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path[:0] = [{checkout!r}, {installed!r}]
import tarot_solver
"""


def test_an_unbuilt_checkout_that_hides_the_installed_package_names_both(tmp_path: Path) -> None:
    # README's Quick start installs with 'pip install .'; its Python example, run from
    # the checkout, then imports the checkout's unbuilt sources, not the installed package
    package = Path(tarot_solver.__file__).parent
    (tmp_path / "tarot_solver").mkdir()
    for source in package.glob("*.py"):
        (tmp_path / "tarot_solver" / source.name).write_bytes(source.read_bytes())
    code = SHADOWED.format(checkout=str(tmp_path), installed=str(package.parent))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=tempfile.gettempdir())
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("tarot_solver.errors.ExtensionMissingError: ")
    assert f"not built in {tmp_path / 'tarot_solver'}, the source checkout" in last
    assert f"installed, with its core, in {package}: run from another directory" in last


def test_a_core_built_from_another_source_is_warned_of(tmp_path: Path) -> None:
    # a checkout whose ext/_core.pyx was edited and not rebuilt answers as the old source:
    # the import says so; a built copy of the same source does not
    package = Path(tarot_solver.__file__).parent
    shutil.copytree(package, tmp_path / "tarot_solver", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "ext").mkdir()
    source = (TESTS.parent / "ext" / "_core.pyx").read_bytes()
    assert hashlib.sha256(source).hexdigest()[:16] == _core.SOURCE, "the core tested is not this checkout's: rebuild"
    code = "import tarot_solver; print(tarot_solver._core.BUILD)"
    for text, warned in ((source, False), (source + b"\n# edited\n", True)):
        (tmp_path / "ext" / "_core.pyx").write_bytes(text)
        proc = subprocess.run([sys.executable, "-W", "always", "-c", code], capture_output=True, text=True,
                              env=child_env(PYTHONPATH=str(tmp_path)), timeout=60, cwd=tempfile.gettempdir())
        assert proc.returncode == 0, proc.stderr
        assert ("compiled core was built from another version of" in proc.stderr) is warned, proc.stderr
