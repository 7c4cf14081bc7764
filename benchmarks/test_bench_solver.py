"""pytest-benchmark version of the solver benchmark.

    pytest benchmarks/test_bench_solver.py --benchmark-enable

Positions are cut from the realistic deal set (``benchmarks/deals.jsonl``) as in
``bench_solver.py``; each round solves a fixed batch with a fresh table.  Kept
to depths that finish in seconds so the timing is repeatable; the full-deal
figures come from ``bench_solver.py``.
"""

from __future__ import annotations

import pytest

from bench_solver import positions
from tarot_solver.solver import Solver


@pytest.mark.parametrize("depth", [6, 8, 10])
def test_exact_margin(benchmark, depth: int) -> None:
    states = positions(depth, 12)
    solver = Solver(256)

    def run() -> list:
        out = []
        for st in states:
            solver.clear()
            out.append(solver.solve(st, pv=False).margin)
        return out

    margins = benchmark(run)
    assert all(m is not None for m in margins)


@pytest.mark.parametrize("depth", [10, 12])
def test_make_fail(benchmark, depth: int) -> None:
    states = positions(depth, 8)
    solver = Solver(256)

    def run() -> list:
        out = []
        for st in states:
            solver.clear()
            out.append(solver.made(st, time_limit=30).made)
        return out

    benchmark(run)
