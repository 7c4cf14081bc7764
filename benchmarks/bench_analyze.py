"""Benchmark of ``tarot-solve analyze``: cost of one game against one solve, and throughput.

    python benchmarks/bench_analyze.py [--games 100] [--from-trick 9] [--time-limit S | --nodes N]
                                       [--jobs 1,2] [--solved-only] [--markdown [--per-game]]

The history is seeded: ``--games`` games dealt, bid and played like
``examples/make_examples.py`` (seeds from ``--seed`` on).  Two measurements:

* cost ratio, on one core, in this process: per game, an exact solve of the position
  before trick ``--from-trick`` from a cleared table, against the analysis of the
  game from that trick on (every position solved, the table kept along the game).
  The target is a median ratio of at most 3 for full games (``--from-trick 1``);
  full deals are not solved exactly within minutes yet, hence the default of
  trick 9 (10 tricks left), where both finish.  Times are CPU times (the machine may
  be shared); with a budget, a solve stopped early counts at its cost, or with
  ``--solved-only`` its game is left out (the medians are then over the games whose
  deal the budget solves, the easier ones).  The JSON output lists every measured
  game's times and ratio; ``--per-game`` adds that table to the Markdown report;
* throughput: the whole history through :func:`tarot_solver.parallel.map_ordered`
  (as ``analyze -j N`` does) for each ``--jobs`` value: games per second, per
  core, the speed-up over the first value, the workers' CPU time per game and
  their share of ``wall time x workers``, and a check that the output lines are
  identical.  Wall-clock times: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from make_examples import make_game  # noqa: E402

from tarot_solver.history import AnalysisOptions, analyze_game, analyze_task  # noqa: E402
from tarot_solver.parallel import map_ordered  # noqa: E402
from tarot_solver.records import DealRecord  # noqa: E402
from tarot_solver.solver import Solver  # noqa: E402


def seeded_history(games: int, seed: int) -> List[DealRecord]:
    """``games`` complete games from consecutive seeds (void and passed-out deals skipped)."""
    out: List[DealRecord] = []
    while len(out) < games:
        record = make_game(seed, f"b{seed}")
        seed += 1
        if record is not None:
            out.append(record)
    return out


def cost_ratio(history: List[DealRecord], options: AnalysisOptions, solved_only: bool = False) -> Dict[str, Any]:
    """Per game: one solve of the position before ``first_trick`` against the analysis from there.

    ``solved_only``: games whose solve the budget stops are not analysed, and the
    medians are over the others (``"measured"`` of them): on full games, where only
    some deals solve exactly within a budget, the only cost ratio that can be measured.
    """
    solver = Solver(options.table_mb)
    solves, analyses, ratios, exact_from, exact = [], [], [], [], 0
    per_game: List[Dict[str, Any]] = []
    for number, record in enumerate(history, 1):
        state = record.opening_state()
        for card in (record.played or [])[:(options.first_trick - 1) * state.players]:
            state.play(card)
        solver.clear()
        start = time.process_time()
        solved = solver.solve(state, time_limit=options.time_limit, node_limit=options.node_limit, pv=False)
        seconds = time.process_time() - start
        print(f"\rgame {number}/{len(history)}: solve {seconds:.1f} s{'' if solved.complete else ' (stopped)'}",
              end="", file=sys.stderr)
        if solved_only and not solved.complete:
            continue
        solves.append(seconds)
        start = time.process_time()
        result = analyze_game(record, options, solver)
        analyses.append(time.process_time() - start)
        ratios.append(analyses[-1] / max(solves[-1], 1e-6))
        exact += solved.complete and all(lo == hi for lo, hi in result.values[(options.first_trick - 1) * 4:])
        inexact = [i for i, (lo, hi) in enumerate(result.values) if lo != hi]
        exact_from.append(inexact[-1] // state.players + 2 if inexact else 1)
        per_game.append({"game": record.id or str(number), "solve_s": round(solves[-1], 3),
                         "analysis_s": round(analyses[-1], 3), "ratio": round(ratios[-1], 3),
                         "exact_from_trick": exact_from[-1]})
    print(file=sys.stderr)
    if not solves:
        raise SystemExit("no game's solve finished within the budget: nothing to measure")
    return {
        "games": len(history),
        "measured": len(solves),
        "exact": exact,
        "exact_from_trick_median": statistics.median(exact_from),
        "solve_median": statistics.median(solves),
        "analysis_median": statistics.median(analyses),
        "ratio_of_medians": statistics.median(analyses) / statistics.median(solves),
        "median_ratio": statistics.median(ratios),
        "per_game": per_game,
    }


def timed_task(item: Tuple[int, DealRecord, AnalysisOptions]) -> Tuple[Dict[str, Any], float]:
    """:func:`analyze_task` and the CPU time it took in its worker."""
    start = time.process_time()
    line = analyze_task(item)
    return line, time.process_time() - start


def throughput(history: List[DealRecord], options: AnalysisOptions, jobs: List[int]) -> List[Dict[str, Any]]:
    """Wall time of the whole history for each worker count; the lines must not change.

    ``cpu_share`` is the workers' CPU time over ``wall time x workers``: below 1 when
    the workers waited (for other processes of a shared machine, or for work).
    """
    rows: List[Dict[str, Any]] = []
    reference: Optional[List[str]] = None
    items = [(i + 1, r, options) for i, r in enumerate(history)]
    for j in jobs:
        load = os.getloadavg()[0]
        start = time.perf_counter()
        results = list(map_ordered(timed_task, items, jobs=j))
        seconds = time.perf_counter() - start
        lines = [json.dumps(line) for line, _ in results]
        cpu = sum(t for _, t in results)
        # a time budget depends on the machine's speed: lines may then differ in their bounds
        identical = None if options.time_limit else (reference is None or lines == reference)
        reference = reference or lines
        rate = len(history) / seconds
        rows.append({"jobs": j, "seconds": seconds, "games_per_s": rate, "per_core": rate / j,
                     "speedup": rate / rows[0]["games_per_s"] if rows else 1.0,
                     "cpu_per_game": cpu / len(history), "cpu_share": cpu / (seconds * j),
                     "identical": identical, "load": load})
    return rows


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores, {cpu}"


def markdown(args: argparse.Namespace, ratio: Dict[str, Any], rows: List[Dict[str, Any]]) -> str:
    budget = (f"{args.time_limit:g} s" if args.time_limit else f"{args.nodes} nodes" if args.nodes else "none")
    lines = [
        f"`python benchmarks/bench_analyze.py {shlex.join(sys.argv[1:])}`",
        f"({datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()}, Python {platform.python_version()};"
        f" {args.games} games from seed {args.seed}, from trick {args.from_trick}, budget per position: {budget})",
        "",
        "| cost of one game, one core (CPU time) | value |",
        "|---|---|",
        f"| exact solve of the position before trick {args.from_trick}, median | {ratio['solve_median']:.3f} s |",
        f"| analysis of the game from trick {args.from_trick}, median | {ratio['analysis_median']:.3f} s |",
        f"| ratio of the medians (target <= 3) | {ratio['ratio_of_medians']:.2f} |",
        f"| median of the per-game ratios | {ratio['median_ratio']:.2f} |",
        f"| games measured (their solve not stopped by the budget) | {ratio['measured']} of {ratio['games']} |",
        f"| games solved exactly throughout | {ratio['exact']} of {ratio['games']} |",
        f"| trick from which every value is exact, median | {ratio['exact_from_trick_median']:g} |",
        "",
    ]
    if args.per_game:
        lines += ["| game | exact solve | analysis | ratio | exact from trick |", "|---|---|---|---|---|"]
        lines += [f"| {g['game']} | {g['solve_s']:.3f} s | {g['analysis_s']:.3f} s | {g['ratio']:.2f} |"
                  f" {g['exact_from_trick']} |" for g in ratio["per_game"]]
        lines.append("")
    if rows:
        lines += [
            "| workers | wall time | games/s | games/s per core | speed-up | CPU s per game | CPU share"
            " | same lines | load avg at start |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
    for r in rows:
        lines.append(f"| {r['jobs']} | {r['seconds']:.1f} s | {r['games_per_s']:.3f} | {r['per_core']:.3f} |"
                     f" {r['speedup']:.2f}x | {r['cpu_per_game']:.3f} | {r['cpu_share']:.2f} |"
                     f" {_same(r['identical'])} | {r['load']:.2f} |")
    return "\n".join(lines)


def _same(identical: Optional[bool]) -> str:
    return "n/a (time budget)" if identical is None else "yes" if identical else "NO"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--from-trick", type=int, default=9)
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per position")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per position")
    parser.add_argument("--table-mb", type=int, default=256)
    parser.add_argument("--jobs", default="1,2", help="worker counts for the throughput runs ('': none)")
    parser.add_argument("--solved-only", action="store_true",
                        help="analyse only the games whose first solve the budget does not stop")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown report")
    parser.add_argument("--per-game", action="store_true",
                        help="with --markdown, also a table of each measured game's times and ratio")
    args = parser.parse_args()
    options = AnalysisOptions(time_limit=args.time_limit, node_limit=args.nodes, table_mb=args.table_mb,
                              first_trick=args.from_trick)
    history = seeded_history(args.games, args.seed)
    ratio = cost_ratio(history, options, args.solved_only)
    rows = throughput(history, options, [int(j) for j in args.jobs.split(",") if j])
    if args.markdown:
        print(markdown(args, ratio, rows))
    else:
        print(json.dumps({"cost": ratio, "throughput": rows}, indent=2))


if __name__ == "__main__":
    main()
