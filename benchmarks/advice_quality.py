"""Quality and cost of the Monte Carlo advice (issue 4).

    python benchmarks/advice_quality.py quality [--deals 200] [--worlds 100] [--eval-budget N] [--save FILE]
    python benchmarks/advice_quality.py settle FILE [--eval-budget 1000000000] [--table-mb 1024]
    python benchmarks/advice_quality.py report FILE
    python benchmarks/advice_quality.py estimator [--positions 60] [--tricks-left 8] [--budgets ...]
    python benchmarks/advice_quality.py timing [--hands 10] [--worlds 100]
    python benchmarks/advice_quality.py play [--positions 20] [--tricks-left 14,10,6] [--worlds 100]

``quality``: a fixed, seeded set of random deals; in each, the seat with the best
classic hand count decides what to bid twice, by the Monte Carlo advice and by the hand
count (:mod:`tarot_solver.handcount`).  Each decision is scored on the *real* deal under
double-dummy play (prise and garde after the simple discard policy), with a larger node
budget than the advice's.  A real deal the solver cannot decide is scored as the
advice scores an undecided world (0, made or failed by a hair at even odds), and its
whole bracket goes into the reported bounds.  Reports the mean score per deal (the
taker's 3U, no bonuses) with 95 % intervals, the paired difference between the two
policies, and how often the contracts bid are made.  With ``--save`` the run is kept in a
JSON Lines file and resumes from it; ``settle`` asks that file's open real questions again
with more nodes, and ``report`` prints its report (:class:`Saved`).

``estimator``: how far the advice's score estimate (midpoint of the proven margin
bracket; 0 for an undecided question) strays from the exact double-dummy score, on
positions the solver can solve exactly: advice worlds cut to a few tricks left by a
seeded random legal prefix, at several node budgets.

``timing``: wall-clock and CPU time of ``bid`` and ``discard`` with 100 worlds on the
hands of the quality set.  The machine is shared: compare the CPU seconds too.

``play``: the play advice at a few stages of the quality set's deals (each played as a
garde by its deciding seat, cut by a seeded random legal prefix): its time, and, where
the real position is solved exactly within ``--exact-budget`` nodes, what the card it
recommends costs there against double-dummy play, beside the mean cost of a random
legal card.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from tarot_solver import rules
from tarot_solver.advice import Z95, Outcome, RunInfo, ask, bid_advice, discard_advice, margin_score, play_advice
from tarot_solver.cards import cards_of, mask_of
from tarot_solver.handcount import best_taker, contract_for, hand_count, simple_call, simple_discard
from tarot_solver.parallel import map_ordered
from tarot_solver.records import VARIANT, DealRecord
from tarot_solver.sampling import Sampler, hand_constraints, world_rng
from tarot_solver.solver import Solver, worker_solver
from tarot_solver.variant import Contract, variant_for

SEED = 20261201
#: the three double-dummy questions of a deal: prise and garde play alike
FAMILIES = (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)


def family(contract: Contract) -> Contract:
    return Contract.GARDE if contract.taker_takes_dog else contract


@dataclass(frozen=True)
class Deal:
    index: int
    hands: Tuple[int, ...]
    dog: int
    seat: int  # the seat with the best hand count, who decides
    dealer: int


def deals(n: int, seed: int = SEED, players: int = 4) -> List[Deal]:
    """``n`` random deals (no Petit sec), each with its deciding seat and a random dealer."""
    rng = random.Random(seed)
    size = variant_for(players).hand_size
    out: List[Deal] = []
    while len(out) < n:
        deck = list(range(78))
        rng.shuffle(deck)
        hands = tuple(mask_of(deck[size * i: size * i + size]) for i in range(players))
        dealer = rng.randrange(players)
        if any(rules.is_petit_sec(h) for h in hands):
            continue
        out.append(Deal(len(out), hands, mask_of(deck[size * players:]), best_taker(hands), dealer))
    return out


def mean_ci(xs: Sequence[float]) -> Tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    se = statistics.stdev(xs) / math.sqrt(n) if n > 1 else 0.0
    return m, m - Z95 * se, m + Z95 * se


# quality ---------------------------------------------------------------------------------------


#: one real question: the deal, the question, make/fail and margin budgets, table MiB, bracket known
RealJob = Tuple[Deal, Contract, int, int, int, Tuple[float, float]]


def _evaluate(job: RealJob) -> Outcome:
    """The real deal's outcome for one question (fresh table), within a bracket ``known``."""
    deal, question, budget, margin_budget, table_mb, known = job
    solver = worker_solver(table_mb)
    leader = (deal.dealer + 1) % VARIANT.players
    discard = simple_discard(deal.hands[deal.seat] | deal.dog) if question.taker_takes_dog else None
    state = rules.opening_state(deal.hands, deal.dog, deal.seat, question, leader, discard, VARIANT)
    solver.clear()
    return ask(solver, state, budget, margin_budget, known)


def real_score(outcomes: Dict[Contract, Outcome], contract: Optional[Contract]) -> Tuple[float, float, float]:
    """(point, low, high) score of bidding ``contract`` (None: pass) on the real deal."""
    if contract is None:
        return 0.0, 0.0, 0.0
    o = outcomes[family(contract)]
    lo, hi = margin_score(contract, o.low), margin_score(contract, o.high)
    return ((lo + hi) / 2 if o.made is not None else 0.0), lo, hi


def difference(outcomes: Dict[Contract, Outcome], a: Optional[Contract],
               b: Optional[Contract]) -> Tuple[float, float, float]:
    """(point, low, high) of score(a) - score(b) on the real deal, bounds over what is unproven."""
    pa, la, ha = real_score(outcomes, a)
    pb, lb, hb = real_score(outcomes, b)
    if a is not None and b is not None and family(a) == family(b):
        # one unknown margin m: the difference is (mult_a - mult_b) * f(m), f increasing
        ends = (la - lb, ha - hb)
        return pa - pb, min(ends), max(ends)
    return pa - pb, la - hb, ha - lb


@dataclass
class Saved:
    """A quality run kept in a JSON Lines file, so that it resumes and its undecided real
    questions can be asked again with more nodes (``settle``).

    Line 1 holds the run's parameters; then one line per deal's advice
    (``{"deal", "advice", "hand_count", "run"}``) and one per real question asked
    (``{"deal", "question", "budget", "margin_budget", "table_mb", "made", "low", "high",
    "nodes"}``); a question asked again with more nodes supersedes its earlier lines.
    """

    path: Optional[Path]  # None: kept in memory only
    params: Dict[str, int]
    rows: Dict[int, Tuple[Optional[Contract], Optional[Contract], RunInfo]]
    real: Dict[Tuple[int, Contract], Tuple[int, Outcome]]  # (budget, outcome)

    @classmethod
    def open(cls, path: Path, params: Optional[Dict[str, int]] = None) -> "Saved":
        """Read ``path``; with ``params``, create it if absent and refuse one of another run."""
        saved = cls(path, {}, {}, {})
        if not path.exists():
            if params is None:
                raise SystemExit(f"{path}: no such file")
            saved.params = params
            saved._write({"params": params})
            return saved
        with path.open() as f:
            for line in f:
                saved._read(json.loads(line))
        if params is not None and saved.params != params:
            raise SystemExit(f"{path}: saved from another run ({saved.params}), not {params}")
        return saved

    def _read(self, obj: dict) -> None:
        if "params" in obj:
            self.params = obj["params"]
        elif "advice" in obj:
            contract = (lambda v: None if v is None else Contract(v))
            self.rows[obj["deal"]] = (contract(obj["advice"]), contract(obj["hand_count"]), RunInfo(**obj["run"]))
        else:
            key = (obj["deal"], Contract(obj["question"]))
            outcome = Outcome(obj["made"], obj["low"], obj["high"], obj["nodes"])
            if key not in self.real or self.real[key][0] <= obj["budget"]:
                self.real[key] = (obj["budget"], outcome)

    def _write(self, obj: dict) -> None:
        if self.path is not None:
            with self.path.open("a") as f:
                f.write(json.dumps(obj) + "\n")
        self._read(obj)

    def add_advice(self, deal: int, advice: Optional[Contract], count: Optional[Contract], run: RunInfo) -> None:
        self._write({"deal": deal, "advice": advice and advice.value, "hand_count": count and count.value,
                     "run": dataclasses.asdict(run)})

    def add_real(self, deal: int, question: Contract, budget: int, margin_budget: int, table_mb: int,
                 o: Outcome) -> None:
        self._write({"deal": deal, "question": question.value, "budget": budget, "margin_budget": margin_budget,
                     "table_mb": table_mb, "made": o.made, "low": o.low, "high": o.high, "nodes": o.nodes})


def _ask_real(saved: Saved, jobs: List[RealJob], n_jobs: int, t0: float) -> None:
    """Ask the real questions of ``jobs`` in parallel, each saved as it comes."""
    for k, (job, o) in enumerate(zip(jobs, map_ordered(_evaluate, jobs, jobs=n_jobs, progress=None))):
        deal, question, budget, margin_budget, table_mb, _ = job
        saved.add_real(deal.index, question, budget, margin_budget, table_mb, o)
        print(f"\rreal question {k + 1}/{len(jobs)} {time.monotonic() - t0:.0f}s", end="", file=sys.stderr)
    print(file=sys.stderr)


def quality(args: argparse.Namespace) -> None:
    chosen = deals(args.deals, args.seed)
    params = {k: getattr(args, k) for k in ("deals", "worlds", "node_budget", "margin_budget", "eval_budget",
                                             "eval_margin_budget", "seed")}
    saved = Saved.open(Path(args.save), params) if args.save else Saved(None, params, {}, {})
    t0 = time.monotonic()
    for d in chosen:
        if d.index in saved.rows:
            continue
        res = bid_advice(cards_of(d.hands[d.seat]), seat=d.seat, dealer=d.dealer, worlds=args.worlds,
                         seed=args.seed + d.index, jobs=args.jobs, node_budget=args.node_budget,
                         margin_budget=args.margin_budget, progress=None)
        saved.add_advice(d.index, res.recommendation, contract_for(hand_count(d.hands[d.seat])), res.run)
        print(f"\rdeal {d.index + 1}/{len(chosen)} advice {time.monotonic() - t0:.0f}s", end="", file=sys.stderr)
    print(file=sys.stderr)
    jobs = [(d, q, args.eval_budget, args.eval_margin_budget, 256, (-math.inf, math.inf))
            for d in chosen for q in FAMILIES if (d.index, q) not in saved.real]
    _ask_real(saved, jobs, args.jobs, t0)
    report_quality(saved, f" -j {args.jobs}`{_when(t0)}")


def settle(args: argparse.Namespace) -> None:
    """Ask again, with more nodes, the real questions a policy's bid depends on that are
    undecided, then those decided whose margin is only bracketed."""
    saved = Saved.open(Path(args.file))
    p = saved.params
    chosen = deals(p["deals"], p["seed"])
    if len(saved.rows) < len(chosen) or len(saved.real) < len(chosen) * len(FAMILIES):
        raise SystemExit(f"{args.file}: the quality run is not finished; run quality --save {args.file} again")
    undecided: List[RealJob] = []
    bracketed: List[RealJob] = []
    for d in chosen:
        bids = {family(c) for c in saved.rows[d.index][:2] if c is not None}
        for q in FAMILIES:
            budget, o = saved.real[d.index, q]
            if q in bids and o.low < o.high and budget < args.eval_budget:
                job = (d, q, args.eval_budget, args.eval_margin_budget, args.table_mb, (o.low, o.high))
                (undecided if o.made is None else bracketed).append(job)
    jobs = undecided + bracketed
    print(f"{len(undecided)} undecided questions and {len(bracketed)} decided with their margin bracketed,"
          f" to ask with {args.eval_budget:,} nodes", file=sys.stderr)
    t0 = time.monotonic()
    _ask_real(saved, jobs, args.jobs, t0)
    report_quality(saved, f"`; then `settle {args.file} --eval-budget {args.eval_budget} --eval-margin-budget"
                          f" {args.eval_margin_budget} --table-mb {args.table_mb} -j {args.jobs}`{_when(t0)}")


def _when(t0: float) -> str:
    """' (date, minutes)' of a run started at ``t0`` (time.monotonic), after its command line."""
    return f" ({time.strftime('%Y-%m-%d')}, {(time.monotonic() - t0) / 60:.0f} min)"


def report(args: argparse.Namespace) -> None:
    report_quality(Saved.open(Path(args.file)), "`")


def report_quality(saved: Saved, how: str) -> None:
    """The report of a saved run; ``how`` ends its command line (the run's options, and when)."""
    p = saved.params
    n = p["deals"]
    rows = [saved.rows[i] for i in range(n)]
    real = [{q: saved.real[i, q][1] for q in FAMILIES} for i in range(n)]
    budgets = sorted({budget for budget, _ in saved.real.values()})
    print("## Advice quality: Monte Carlo bid advice vs the hand count\n")
    print(f"`python benchmarks/advice_quality.py quality --deals {n} --worlds {p['worlds']} --node-budget"
          f" {p['node_budget']} --margin-budget {p['margin_budget']} --eval-budget {p['eval_budget']}"
          f" --eval-margin-budget {p['eval_margin_budget']} --seed {p['seed']}{how}; real questions asked with"
          f" {', '.join(f'{b:,}' for b in budgets)} nodes\n")
    undecided_real = {c.value: sum(1 for r in real if r[c].made is None) for c in FAMILIES}
    print("Real questions left undecided at the largest budget each was asked with: "
          + ", ".join(f"{k} {v}/{n}" for k, v in undecided_real.items()) + ".")
    worlds = sum(r[2].worlds for r in rows)
    und = sum(r[2].undecided_worlds for r in rows)
    print(f"Advice worlds with an undecided question: {und}/{worlds}.\n")
    print("| policy | mean score per deal | 95 % interval | bounds over unproven outcomes | bids | made | failed"
          " | undecided |")
    print("|---|---|---|---|---|---|---|---|")
    policies = {"Monte Carlo advice": [r[0] for r in rows], "hand count": [r[1] for r in rows]}
    for name, decisions in policies.items():
        scores = [real_score(real[i], c) for i, c in enumerate(decisions)]
        m, lo, hi = mean_ci([s[0] for s in scores])
        low = mean_ci([s[1] for s in scores])[1]
        high = mean_ci([s[2] for s in scores])[2]
        bids = [(i, c) for i, c in enumerate(decisions) if c is not None]
        made = sum(1 for i, c in bids if real[i][family(c)].made is True)
        failed = sum(1 for i, c in bids if real[i][family(c)].made is False)
        print(f"| {name} | {m:+.1f} | [{lo:+.1f}, {hi:+.1f}] | [{low:+.1f}, {high:+.1f}] | {len(bids)} | {made}"
              f" | {failed} | {len(bids) - made - failed} |")
    diffs = [difference(real[i], rows[i][0], rows[i][1]) for i in range(n)]
    m, lo, hi = mean_ci([d[0] for d in diffs])
    low = mean_ci([d[1] for d in diffs])[1]
    high = mean_ci([d[2] for d in diffs])[2]
    print(f"\nPaired difference (advice − hand count) per deal: {m:+.1f}, 95 % interval [{lo:+.1f}, {hi:+.1f}],"
          f" bounds over unproven outcomes [{low:+.1f}, {high:+.1f}].\n")
    print("| decision | " + " | ".join(["pass"] + [c.value for c in Contract]) + " |")
    print("|---|" + "---|" * (1 + len(Contract)))
    for name, decisions in policies.items():
        counts = [sum(1 for c in decisions if c is None)] + [sum(1 for c in decisions if c is k) for k in Contract]
        print(f"| {name} | " + " | ".join(map(str, counts)) + " |")
    secs = [r[2].seconds for r in rows]
    cpu = [r[2].cpu_seconds for r in rows]
    print(f"\nAdvice time per hand: median {statistics.median(secs):.1f} s wall, {statistics.median(cpu):.1f} s CPU.")


# estimator ----------------------------------------------------------------------------------


def cut(state: rules.PlayState, tricks_left: int, rng: random.Random) -> rules.PlayState:
    """Play a random legal prefix until ``tricks_left`` tricks remain."""
    state = state.copy()
    for _ in range(state.variant.players * (state.total_tricks - tricks_left)):
        state.play(rng.choice(cards_of(state.legal())))
    return state


def _estimate(job: Tuple[rules.PlayState, Contract, Sequence[int], int]) -> Tuple[Optional[float], List[Outcome]]:
    """(exact margin or None, the advice's outcome at each budget) for one position."""
    state, contract, budgets, exact_budget = job
    solver = worker_solver(256)
    solver.clear()
    exact = solver.solve(state, node_limit=exact_budget, pv=False)
    out = []
    for b in budgets:
        solver.clear()
        out.append(ask(solver, state, b, b))
    return exact.margin, out


def estimator(args: argparse.Namespace) -> None:
    budgets = [int(b) for b in args.budgets.split(",")]
    rng = random.Random(args.seed)
    jobs = []
    for d in deals(args.positions, args.seed):
        sampler = Sampler(hand_constraints(d.seat, d.hands[d.seat]))
        world = sampler.sample(world_rng(args.seed, d.index))
        contract = FAMILIES[d.index % 3]
        discard = simple_discard(world.hands[d.seat] | world.aside) if contract.taker_takes_dog else None
        state = rules.opening_state(world.hands, world.aside, d.seat, contract, (d.dealer + 1) % 4, discard)
        jobs.append((cut(state, args.tricks_left, rng), contract, budgets, args.exact_budget))
    results = list(map_ordered(_estimate, jobs, jobs=args.jobs, progress="positions", total=len(jobs)))
    solved = [(job[1], exact, outs) for job, (exact, outs) in zip(jobs, results) if exact is not None]
    print("## Score estimator against exact margins\n")
    print(f"`python benchmarks/advice_quality.py estimator --positions {args.positions} --tricks-left"
          f" {args.tricks_left} --budgets {args.budgets} --exact-budget {args.exact_budget} --seed {args.seed}"
          f" -j {args.jobs}` ({time.strftime('%Y-%m-%d')})\n")
    print(f"{len(solved)} of {len(jobs)} positions solved exactly (prise/garde, garde sans and garde contre in"
          f" turn; {args.tricks_left} tricks left). Error = estimated score − exact score (3U, no bonuses).\n")
    print("| node budget | undecided | mean bracket width (points) | mean error | 95 % interval | mean abs. error"
          " | mean error, decided only |")
    print("|---|---|---|---|---|---|---|")
    for j, b in enumerate(budgets):
        errs, width, und, dec_errs = [], [], 0, []
        for contract, exact, outs in solved:
            o = outs[j]
            truth = margin_score(contract, exact)
            lo, hi = margin_score(contract, o.low), margin_score(contract, o.high)
            est = (lo + hi) / 2 if o.made is not None else 0.0
            errs.append(est - truth)
            width.append(o.high - o.low)
            if o.made is None:
                und += 1
            else:
                dec_errs.append(est - truth)
        m, lo_ci, hi_ci = mean_ci(errs)
        dm = sum(dec_errs) / len(dec_errs) if dec_errs else float("nan")
        print(f"| {b:,} | {und}/{len(solved)} | {sum(width) / len(width):.1f} | {m:+.1f} | [{lo_ci:+.1f},"
              f" {hi_ci:+.1f}] | {sum(abs(e) for e in errs) / len(errs):.1f} | {dm:+.1f} |")


# timing ----------------------------------------------------------------------------------------


def timing(args: argparse.Namespace) -> None:
    bid_t, bid_cpu, bid_und, dis_t, dis_cpu, dis_und = [], [], [], [], [], []
    for d in deals(args.hands, args.seed, args.players):
        hand = cards_of(d.hands[d.seat])
        b = bid_advice(hand, seat=d.seat, dealer=d.dealer, worlds=args.worlds, jobs=args.jobs, progress=None,
                       players=args.players)
        bid_t.append(b.run.seconds)
        bid_cpu.append(b.run.cpu_seconds)
        bid_und.append(b.run.undecided_worlds)
        r = discard_advice(hand, cards_of(d.dog), Contract.GARDE, seat=d.seat, dealer=d.dealer, worlds=args.worlds,
                           jobs=args.jobs, progress=None, players=args.players)
        dis_t.append(r.run.seconds)
        dis_cpu.append(r.run.cpu_seconds)
        dis_und.append(r.run.undecided_worlds)
        print(f"hand {d.index}: bid {b.run.seconds:.1f} s ({b.run.undecided_worlds} undecided worlds),"
              f" discard {r.run.seconds:.1f} s ({len(r.candidates)} candidates,"
              f" {r.run.undecided_worlds} undecided worlds)", file=sys.stderr)
    print(f"## Advice timing, {args.worlds} worlds, default budgets, -j {args.jobs or 'all'}\n")
    print(f"`python benchmarks/advice_quality.py timing --hands {args.hands} --worlds {args.worlds}"
          f" --players {args.players}`"
          f" ({time.strftime('%Y-%m-%d')})\n")
    print("| command | median wall s | max wall s | median CPU s | median undecided worlds |")
    print("|---|---|---|---|---|")
    for name, t, c, u in (("bid", bid_t, bid_cpu, bid_und), ("discard", dis_t, dis_cpu, dis_und)):
        print(f"| {name} | {statistics.median(t):.1f} | {max(t):.1f} | {statistics.median(c):.1f} |"
              f" {statistics.median(u):.0f} of {args.worlds} |")


# play ------------------------------------------------------------------------------------------


def play_position(d: Deal, tricks_left: int, rng: random.Random) -> DealRecord:
    """The deal played as a garde by its deciding seat (simple discard; at five players the
    simple call), cut by a random legal prefix to ``tricks_left`` tricks left and some cards
    of the next trick."""
    hands = [cards_of(h) for h in d.hands]
    players = len(hands)
    variant = variant_for(players)
    discard = simple_discard(d.hands[d.seat] | d.dog, variant)
    called = simple_call(d.hands[d.seat]) if variant.partner_share else None
    record = DealRecord(hands=hands, dog=cards_of(d.dog), taker=d.seat, contract=Contract.GARDE,
                        discard=list(discard), dealer=d.dealer, players=None if players == 4 else players,
                        called=called)
    state = record.opening_state()
    played: List[int] = []
    for _ in range(players * (record.variant.hand_size - tricks_left) + rng.randrange(players)):
        played.append(rng.choice(cards_of(state.legal())))
        state.play(played[-1])
    return dataclasses.replace(record, played=played)


def play(args: argparse.Namespace) -> None:
    """Cost and quality of the play advice at a few stages of the quality set's deals."""
    solver = Solver(256)
    rng = random.Random(args.seed)
    rows = []
    for left in (int(x) for x in args.tricks_left.split(",")):
        for d in deals(args.positions, args.seed, args.players):
            record = play_position(d, left, rng)
            res = play_advice(record, worlds=args.worlds, seed=args.seed + d.index, jobs=args.jobs, progress=None)
            state = record.state()
            solver.clear()
            truth = solver.solve(state, all_cards=True, pv=False, node_limit=args.exact_budget)
            costs = None
            if truth.complete and truth.cards is not None:
                sign = 1 if res.taker_camp else -1
                # a complete all-cards solve has every card's exact margin
                margins = {c: sign * r.margin for c, r in truth.cards.items() if r.margin is not None}
                best = max(margins.values())
                costs = {c: best - m for c, m in margins.items()}
            rows.append((left, res, costs))
            print(f"{left} left, deal {d.index}: {res.run.seconds:.1f} s, {len(res.choices)} classes,"
                  f" {res.run.undecided_worlds} undecided worlds"
                  + ("" if costs is None else f", advice costs {costs[res.recommendation]:g}"), file=sys.stderr)
    print(f"## Play advice, {args.worlds} worlds, default budgets, -j {args.jobs or 'all'}\n")
    print(f"`python benchmarks/advice_quality.py play --positions {args.positions} --tricks-left {args.tricks_left}"
          f" --worlds {args.worlds} --exact-budget {args.exact_budget} --seed {args.seed} --players {args.players}`"
          f" ({time.strftime('%Y-%m-%d')})\n")
    print("| tricks left | positions | card classes, median | median wall s | max wall s | median CPU s"
          " | median undecided worlds | exact | advice's card: mean cost | DD-best | a random card: mean cost |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for left in sorted({r[0] for r in rows}, reverse=True):
        sel = [r for r in rows if r[0] == left]
        exact = [(res, costs) for _, res, costs in sel if costs is not None]
        adv = [costs[res.recommendation] for res, costs in exact]
        rand = [sum(costs.values()) / len(costs) for _, costs in exact]
        best = sum(1 for a in adv if a == 0)
        quality = (f"{len(exact)} | {sum(adv) / len(adv):.2f} | {best}/{len(exact)} | {sum(rand) / len(rand):.2f}"
                   if exact else "0 | - | - | -")
        print(f"| {left} | {len(sel)} | {statistics.median(len(r[1].choices) for r in sel):.0f}"
              f" | {statistics.median(r[1].run.seconds for r in sel):.1f} | {max(r[1].run.seconds for r in sel):.1f}"
              f" | {statistics.median(r[1].run.cpu_seconds for r in sel):.1f}"
              f" | {statistics.median(r[1].run.undecided_worlds for r in sel):.0f} of {args.worlds} | {quality} |")


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    q = sub.add_parser("quality")
    q.add_argument("--deals", type=int, default=200)
    q.add_argument("--worlds", type=int, default=100)
    q.add_argument("--node-budget", type=int, default=500_000)
    q.add_argument("--margin-budget", type=int, default=500_000)
    q.add_argument("--eval-budget", type=int, default=20_000_000)
    q.add_argument("--eval-margin-budget", type=int, default=10_000_000)
    q.add_argument("--seed", type=int, default=SEED)
    q.add_argument("-j", "--jobs", type=int, default=0)
    q.add_argument("--save", metavar="FILE", help="keep the run in FILE (JSON Lines); a run saved there resumes")
    st = sub.add_parser("settle", help="ask a saved run's unsettled real questions again with more nodes")
    st.add_argument("file")
    st.add_argument("--eval-budget", type=int, default=1_000_000_000)
    st.add_argument("--eval-margin-budget", type=int, default=100_000_000)
    st.add_argument("--table-mb", type=int, default=1024)
    st.add_argument("-j", "--jobs", type=int, default=0)
    rp = sub.add_parser("report", help="the report of a saved run")
    rp.add_argument("file")
    e = sub.add_parser("estimator")
    e.add_argument("--positions", type=int, default=60)
    e.add_argument("--tricks-left", type=int, default=8)
    e.add_argument("--budgets", default="3000,10000,30000,100000")
    e.add_argument("--exact-budget", type=int, default=200_000_000)
    e.add_argument("--seed", type=int, default=SEED)
    e.add_argument("-j", "--jobs", type=int, default=0)
    t = sub.add_parser("timing")
    t.add_argument("--hands", type=int, default=10)
    t.add_argument("--worlds", type=int, default=100)
    t.add_argument("--seed", type=int, default=SEED)
    t.add_argument("-j", "--jobs", type=int, default=0)
    t.add_argument("--players", type=int, choices=[3, 4, 5], default=4)
    pl = sub.add_parser("play")
    pl.add_argument("--positions", type=int, default=20)
    pl.add_argument("--tricks-left", default="14,10,6")
    pl.add_argument("--worlds", type=int, default=100)
    pl.add_argument("--exact-budget", type=int, default=20_000_000)
    pl.add_argument("--seed", type=int, default=SEED)
    pl.add_argument("-j", "--jobs", type=int, default=0)
    pl.add_argument("--players", type=int, choices=[3, 4, 5], default=4)
    args = parser.parse_args(argv)
    commands = {"quality": quality, "settle": settle, "report": report, "estimator": estimator, "timing": timing,
                "play": play}
    commands[args.command](args)


if __name__ == "__main__":
    # run as the importable module, so that worker processes find its functions by name
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import advice_quality

    try:
        advice_quality.main()
    except KeyboardInterrupt:  # (a saved run keeps every line finished: run again to go on)
        print("advice_quality: interrupted", file=sys.stderr)
        sys.exit(130)
