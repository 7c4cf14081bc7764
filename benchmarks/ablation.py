"""Node counts with each search technique switched off, on cut positions.

    python benchmarks/ablation.py --depth 8 --deals 20 [--time-limit 30]

Nodes are the measure (repeatable on a busy machine); every configuration
solves the same positions exactly, each with a fresh table.  A configuration
stopped by the limit is marked with ``*`` and its nodes are a lower bound.
"""

from __future__ import annotations

import argparse
from typing import Dict, List

from bench_solver import positions

from tarot_solver.solver import Solver

CONFIGS: Dict[str, Dict[str, bool]] = {
    "all techniques": {},
    "no table": {"table": False},
    "no sure-point bounds": {"bounds": False},
    "no abstract game (its bounds)": {"abstract": False},
    "no merging / value choice": {"merge": False},
    "no partition search (whole-key table)": {"partition": False},
    "no bounds shared across honours": {"similar": False},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=30.0)
    a = ap.parse_args()
    states = positions(a.depth, a.deals)
    print(f"{a.deals} positions with {a.depth} tricks left, exact margin, limit {a.time_limit}s\n")
    print("| configuration | nodes | x all | stopped |\n|---|---|---|---|")
    base = None
    for name, opts in CONFIGS.items():
        solver = Solver(256)
        solver.set_options(**opts)
        nodes: List[int] = []
        stopped = 0
        for st in states:
            solver.clear()
            r = solver.solve(st, time_limit=a.time_limit, pv=False)
            nodes.append(r.nodes)
            stopped += not r.complete
        total = sum(nodes)
        base = base or total
        print(f"| {name} | {total:,}{'*' if stopped else ''} | {total / base:.1f} | {stopped} |", flush=True)


if __name__ == "__main__":
    main()
