"""Solver benchmark: full realistic deals and the frontier of cut positions.

    python benchmarks/bench_solver.py full [--deals N] [--time-limit S] [--mode both]
    python benchmarks/bench_solver.py frontier [--depths 6,8,10] [--deals N] [--time-limit S]
    python benchmarks/bench_solver.py nodes --depth 10 [--deals N]   # node counts only
    python benchmarks/bench_solver.py targets --depth 18 --only 0,4 --targets -35,0,10 [--exact]

``--node-limit N`` stops each position at N nodes instead of (or besides) the
time limit, ``--only 3,5,8`` keeps those deal indices.  ``--seed K`` draws the
deals afresh from seed K (``deals.build``) instead of reading the fixed set: a
held-out set, to check that a change chosen on the benchmark deals carries over
(the fixed set is seed 20261130).  ``--strong K`` takes instead gardes sans whose
taker holds the K highest trumps (``deals.strong_deals``, from ``--seed`` or the
fixed set's seed): hands bid without a second thought, far from the target.

``full`` solves the benchmark deals (``benchmarks/deals.jsonl``) from the first
lead; ``frontier`` solves positions cut from the same deals with k tricks left (a
seeded random legal prefix).  Both report median, 95th percentile and max time,
the number answered within the limit, nodes per second, table hit rate and peak
memory.  Searches stopped by the limit count at the limit in the percentiles.
One core, one Solver whose table is cleared before each position.

``targets`` shows how far from its value a position is hard: for each
position, its sure bounds (no search), then one null-window probe per target
margin ("is the margin at least t?", the table cleared before each), and with
``--exact`` the exact margin, each under the limits.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deals import SEED, build, load, strong_deals  # noqa: E402

from tarot_solver import _core  # noqa: E402
from tarot_solver.cards import cards_of  # noqa: E402
from tarot_solver.records import DealRecord  # noqa: E402
from tarot_solver.rules import PlayState  # noqa: E402
from tarot_solver.solver import Solver  # noqa: E402
from tarot_solver.variant import variant_for  # noqa: E402

FRONTIER_SEED = 7


def cut(state: PlayState, tricks_left: int, rng: random.Random) -> PlayState:
    """Play a random legal prefix until ``tricks_left`` tricks remain."""
    state = state.copy()
    n = state.variant.players * (state.total_tricks - tricks_left)
    for _ in range(n):
        state.play(rng.choice(cards_of(state.legal())))
    return state


@functools.lru_cache(maxsize=None)
def deal_records(seed: Optional[int] = None, players: int = 4, strong: Optional[int] = None) -> List[Dict]:
    """The fixed set, or the deals drawn from ``seed`` (about a minute to draw:
    drawn once per run, not once per depth); three- and five-player deals are always
    drawn (from the fixed set's seed by default); with ``strong``, 52 strong hands."""
    if strong is not None:
        return strong_deals(strong, 52, SEED if seed is None else seed)
    if players != 4:
        return build(SEED if seed is None else seed, players)
    return load() if seed is None else build(seed)


def positions(depth: int, count: int, seed: Optional[int] = None, players: int = 4,
              strong: Optional[int] = None) -> List[PlayState]:
    """The first ``count`` deals (of the fixed set, drawn from ``seed``, or strong hands),
    cut to ``depth`` tricks left."""
    rng = random.Random(FRONTIER_SEED * 100 + depth)
    out = []
    for rec in deal_records(seed, players, strong)[:count]:
        st = DealRecord.from_json(rec).opening_state()
        out.append(cut(st, depth, rng) if depth < st.total_tricks else st)
    return out


def pick(states: List[PlayState], only: Optional[str]) -> List[PlayState]:
    """The states whose indices are listed in ``only`` (all when None)."""
    if not only:
        return states
    return [states[int(i)] for i in only.split(",")]


def pct(xs: List[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[i]


def run(states: List[PlayState], mode: str, time_limit: float, table_mb: int, verbose: bool,
        node_limit: Optional[int] = None) -> Dict:
    solver = Solver(table_mb)
    times, nodes, answered, probes, hits, widths = [], [], 0, 0, 0, []
    searched = 0.0  # seconds actually searched (an open position's time counts as the limit in ``times``)
    for i, st in enumerate(states):
        solver.clear()
        if mode == "made":
            r = solver.made(st, time_limit=time_limit, node_limit=node_limit)
        else:
            r = solver.solve(st, time_limit=time_limit, node_limit=node_limit, pv=False,
                             all_cards=mode == "cards")
        ok = r.complete
        answered += ok
        if not ok:
            widths.append(r.margin_bounds[1] - r.margin_bounds[0])
        times.append(r.seconds if ok else max(r.seconds, time_limit))
        searched += r.seconds
        nodes.append(r.nodes)
        probes += solver.last_stats.tt_probes
        hits += solver.last_stats.tt_hits
        if verbose:
            print(f"  {i:3d} {mode:5s} {'ok ' if ok else 'LIM'} {r.seconds:8.3f}s {r.nodes:>13,d} nodes"
                  f" margin={r.margin} bounds={r.margin_bounds} made={r.made}", file=sys.stderr, flush=True)
    return {
        "mode": mode,
        "positions": len(states),
        "answered": answered,
        "median_s": statistics.median(times),
        "p95_s": pct(times, 0.95),
        "max_s": max(times),
        "total_nodes": sum(nodes),
        "nodes_per_s": sum(nodes) / searched if searched else 0.0,
        "tt_hit_rate": hits / probes if probes else 0.0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "open_widths": widths,
    }


def tail(row: Dict) -> str:
    """After a row: its nodes and, for the positions a limit stopped, how wide
    the proven brackets are (points)."""
    w = row["open_widths"]
    text = f" nodes {row['total_nodes']:,}"
    if w:
        text += f", {len(w)} open brackets: mean {statistics.mean(w):.1f} median {statistics.median(w):.1f}"
    return text


def probe_targets(states: List[PlayState], labels: List[int], targets: List[float], exact: bool,
                  time_limit: float, table_mb: int, node_limit: Optional[int]) -> None:
    """One line per position (labelled by its deal's index): sure bounds, then
    each target's answer and nodes."""
    solver = Solver(table_mb)
    for i, st in zip(labels, states):
        # a target above any margin: answered by the sure bounds, no search
        sure = solver.at_least(st, 1000.0).margin_bounds
        cols = [f"{i:3d} sure [{sure[0]:+.1f}, {sure[1]:+.1f}]"]
        for t in targets:
            solver.clear()
            r = solver.at_least(st, t, time_limit=time_limit, node_limit=node_limit)
            lo, hi = r.margin_bounds
            answer = "yes" if lo >= t else ("no" if hi < t else "undecided")
            cols.append(f">= {t:+g}: {answer} {r.nodes / 1e6:.1f}M")
        if exact:
            solver.clear()
            r = solver.solve(st, time_limit=time_limit, node_limit=node_limit, pv=False)
            value = f"{r.margin:+.1f}" if r.complete else f"[{r.margin_bounds[0]:+.1f}, {r.margin_bounds[1]:+.1f}]"
            cols.append(f"exact {value} {r.nodes / 1e6:.1f}M")
        print("  ".join(cols), flush=True)


def fmt(row: Dict, label: str) -> str:
    return (f"| {label} | {row['mode']} | {row['answered']}/{row['positions']} | {row['median_s']:.3f} |"
            f" {row['p95_s']:.3f} | {row['max_s']:.3f} | {row['nodes_per_s'] / 1e6:.1f} M |"
            f" {row['tt_hit_rate']:.2f} | {row['peak_rss_mb']:.0f} |")


HEADER = ("| set | mode | answered | median s | p95 s | max s | nodes/s | table hits | peak RSS MB |\n"
          "|---|---|---|---|---|---|---|---|---|")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["full", "frontier", "nodes", "targets"])
    ap.add_argument("--deals", type=int, default=52)
    ap.add_argument("--depths", default="6,8,10,12,14,16,18")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--mode", choices=["made", "exact", "both", "cards"], default="both",
                    help="cards: the exact value of every legal card (solve(all_cards=True))")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--table-mb", type=int, default=512)
    ap.add_argument("--node-limit", type=int, help="nodes per position (repeatable on a busy machine)")
    ap.add_argument("--only", help="comma-separated deal indices to keep (after --deals)")
    ap.add_argument("--seed", type=int, help="draw the deals from this seed instead of deals.jsonl (held out)")
    ap.add_argument("--targets", default="", help="targets: margins to probe, in points")
    ap.add_argument("--exact", action="store_true", help="targets: also solve each position exactly")
    ap.add_argument("--players", type=int, choices=[3, 4, 5], default=4,
                    help="3 or 5: realistic deals of that table drawn from --seed (default: the fixed set's seed)")
    ap.add_argument("--strong", type=int, metavar="K",
                    help="gardes sans of a taker holding the K highest trumps instead of the realistic deals")
    ap.add_argument("--json", help="also write the rows to this file")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    modes = ["made", "exact"] if a.mode == "both" else [a.mode]
    rows = []
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} core {_core.BUILD} build, time limit {a.time_limit}s,"
          f" table {a.table_mb} MB"
          + ("" if a.seed is None else f", deals drawn from seed {a.seed}")
          + ("" if a.players == 4 else f", {a.players} players")
          + ("" if a.strong is None else f", strong hands: the {a.strong} highest trumps"))
    if a.what == "targets":
        targets = [float(t) for t in a.targets.split(",") if t]
        labels = [int(i) for i in a.only.split(",")] if a.only else list(range(a.deals))
        probe_targets(pick(positions(a.depth, a.deals, a.seed, a.players, a.strong), a.only), labels, targets, a.exact,
                      a.time_limit, a.table_mb, a.node_limit)
        return
    print(HEADER)
    if a.what == "nodes":
        states = pick(positions(a.depth, a.deals, a.seed, a.players, a.strong), a.only)
        for m in modes:
            row = run(states, m, a.time_limit, a.table_mb, a.verbose, a.node_limit)
            rows.append(dict(row, depth=a.depth))
            print(fmt(row, f"{a.depth} left") + tail(row), flush=True)
    else:
        full = variant_for(a.players).tricks
        depths = [full] if a.what == "full" else [int(d) for d in a.depths.split(",")]
        for d in depths:
            states = pick(positions(d, a.deals, a.seed, a.players, a.strong), a.only)
            for m in modes:
                row = run(states, m, a.time_limit, a.table_mb, a.verbose, a.node_limit)
                rows.append(dict(row, depth=d))
                print(fmt(row, "full deals" if d == full else f"{d} tricks left") + tail(row), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
