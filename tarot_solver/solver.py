"""Double-dummy solving: the Python surface of the compiled core.

A :class:`Solver` owns a transposition table (memory bounded by ``table_mb``) and
keeps it warm across solves: entries are keyed on relative ranks and on the
camps, so they stay valid from one position or deal to the next.  Values are
exact in half-points; ``margin`` is reported in points (a multiple of 0.5).

The exact margin is found by null-window probes (fail-soft alpha-beta on
``[beta-1, beta]``): the first at 0 answers make/fail, the next ones bisect the
interval of proven bounds, then descend from the bounds that failed probes
return once it is narrow.  A make/fail probe that the depth-first search does
not answer within 1 M nodes hands over to a proof-number search near the
root (:mod:`tarot_solver.proofsearch`), the two taking turns.  A node or time
limit stops the search with the bounds proven so far (``complete`` False)
instead of hanging.
"""

from __future__ import annotations

import copy
import functools
import math
import numbers
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, cast

from . import _core
from .cards import OUDLERS, card_token, shown_tokens
from .errors import Interrupted, duration, integer, keeping_partial, spelled
from .parallel import map_ordered
from .proofsearch import LEAF_NODES, ProofSearch
from .rules import PlayState
from .variant import Variant

_Method = TypeVar("_Method", bound=Callable[..., Any])

#: a Solver's table by default: one search, whose hardest cases (hundreds of millions of
#: nodes) fill 256 MiB and take up to 1.8x more nodes in it (benchmarks/RESULTS.md, session 62);
#: the table grows in place, so a smaller search holds only what it needs
DEFAULT_TABLE_MB = 1024
#: each worker's table in runs of many positions (solve_many, analyze): memory about
#: workers x 256 MiB
WORKER_TABLE_MB = 256
#: the largest table the core can address (34,816 MiB)
MAX_TABLE_MB = _core.MAX_TABLE_BYTES >> 20
# Exact margins: within this many half-points, a failed probe is followed by one at
# the bound it returned (Solver._exact). Chosen on 20 positions with 14 tricks left;
# on 32 others, 24 answered within 100 M nodes against 22 by bisection alone, median
# 18.2 M nodes against 22.3 M (docs/solver.md).
_DESCEND = 40
# ... unless proofs of "at least" have been far cheaper than refutations: the last
# successful probe took at least _ASCEND_MIN nodes (not one the bounds settle at the
# root) and under 1/_ASCEND_RATIO of the last failed one's; then the next probe is
# just above the proven low bound (session 24: full deals 36 and 19, 36.2 M and
# 11.9 M nodes to 9.3 M and 9.1 M; 14 tricks left 518.6 M to 511.9 M).
_ASCEND_MIN = 500
_ASCEND_RATIO = 16
# Under a limit, the first probe (make/fail) gets this share of the budget while the
# proven interval is wide; if the limit stops it, the rest brackets the value
# (Solver._exact).  On the benchmark deals and a held-out set of 52 (20 M nodes
# each), the deals left undecided were bracketed 38.7 and 40.6 points wide on
# average instead of 79.8 and 79.3 (the first probe had the whole budget), and no
# verdict was lost; with 0.75 or 0.85 one of those whose make/fail needs
# 16-18 M nodes was (session 43, docs/solver-journal.md).
_FIRST_SHARE = 0.9
# A probe is the depth-first search alone for this many nodes; then proof-number
# search near the root (proofsearch.py) and the depth-first search take turns: the
# depth-first shares double (1 M, 2 M, 4 M...) and the tree gets a fifth of the
# share before it.  Until session 37 the first share was 16 M and each turn four
# times the last; on five sets of 52 deals this schedule answers 2 more within 20 M
# nodes and 3 more within 8 M, for up to 20 % more nodes on the deals the
# depth-first search answers alone and more on the few that need long turns of
# the tree (benchmark deals 18 and 27: 57 M and 61 M nodes before, 282 M and
# 140 M at session 38; docs/solver-journal.md).
_PLAIN_SHARE = 1_000_000
# Before it, a one-sided search where the defence plays only the first two cards
# its ordering tries: a sound proof of a fail where it fails (the defence has those
# cards at least), and cheap where it does not (the restricted defence loses
# quickly: 87 makes of the five sets, 0.1 M nodes in all).  On the five sets at
# 20 M nodes a deal: 156 answered against 153, the held-out sets' median deals
# 1.1-2x fewer nodes, the benchmark's the same (docs/solver-journal.md, session 58).
_DEFENCE_MOVES = 2
_SHARE_GROWTH = 2
_TREE_RATIO = 0.2
# Each leaf's probe in a turn of the tree gets a tenth of the share before it
# (at least proofsearch.LEAF_NODES, 20,000 nodes, every leaf's budget until
# session 38), so the leaves settle more as the turns grow: on the five sets,
# 2 more deals answered within 20 M nodes and the median deal 3-10 % fewer
# nodes on four; make/fail with 16 tricks left 218.5 M -> 148.5 M nodes
# (docs/solver-journal.md, session 39).
_LEAF_SHARE = 10
# the core counts nodes in a C long
_MAX_NODES = 1 << 62


@dataclass(frozen=True, repr=False)
class SolveResult:
    """Outcome of a double-dummy solve from one position.

    ``margin`` is None when a limit stopped the search before its bounds met, and
    after :meth:`Solver.made` and :meth:`Solver.at_least` unless their bounds meet
    (with ``all_cards``, the cards proven may prove the margin while others stay
    open: ``complete`` is then false);
    ``margin_bounds`` holds what was proven (``-inf``/``inf`` are never used:
    the static bounds of the position are always known).  ``made`` is None when
    the bounds straddle 0.  ``pv``, ``taker_points`` and ``oudlers`` come from
    the principal variation: empty and None if a limit stopped its search after
    the margin was proven (``complete`` is still true).

    ``cards`` (``solve(..., all_cards=True)``) maps each legal card of the seat on
    turn to its result (its ``margin_bounds`` where a limit left it inexact), and
    ``best`` lists, in card order, the cards proven optimal for that seat: each
    one's proven worst is at least every other card's proven best, so its value is
    the position's.  Once ``complete``, those are all the cards worth the
    position's value; under a limit, only those the bounds prove (none where they
    leave the choice open; the only legal card is always one).  Both are None
    without ``all_cards``.  A card's ``nodes`` and ``seconds`` are those of its
    own search (0 where its static bounds meet, or a limit left it none); the
    request's own also count the principal variation, so they are at least the
    cards' sum.  The cards' searches share the table, one after another: a card
    searched later may reuse what the earlier ones stored, so its figure depends
    on the order and on what the table held before (:meth:`Solver.clear`).
    """

    margin: Optional[float]
    margin_bounds: Tuple[float, float]
    complete: bool
    made: Optional[bool]
    taker_points: Optional[float] = None
    oudlers: Optional[int] = None
    pv: List[int] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    cards: Optional[Dict[int, "SolveResult"]] = None
    best: Optional[Tuple[int, ...]] = None

    def __repr__(self) -> str:
        """The outcome in card tokens: the margin (its proven bounds when it is None),
        ``made``, ``complete``, the line and the nodes; with ``cards``, each card's margin
        (its bounds where inexact) and the best cards.  The other fields are left out."""
        shown = [f"margin={self.margin!r}"]
        if self.margin is None:
            shown.append(f"margin_bounds={self.margin_bounds!r}")
        shown += [f"made={self.made!r}", f"complete={self.complete!r}", f"pv={shown_tokens(self.pv)!r}",
                  f"nodes={self.nodes!r}"]
        if self.cards is not None:
            values = {card_token(c): r.margin_bounds if r.margin is None else r.margin
                      for c, r in sorted(self.cards.items())}
            shown += [f"cards={values!r}", f"best={shown_tokens(self.best or ())!r}"]
        return f"SolveResult({', '.join(shown)})"


@dataclass(frozen=True)
class SearchStatus:
    """What the request in progress has proven so far (margins in points).

    :attr:`Solver.status` is replaced as probes complete, so another thread
    may read it while the core searches (the GIL is released then): a
    progress display, or a caller reporting what an interrupted solve had
    proven.  ``target`` is the margin the probe in progress tests (None
    between probes).
    """

    bounds: Tuple[float, float]
    target: Optional[float] = None


@dataclass(frozen=True)
class SearchStats:
    nodes: int
    tt_probes: int
    tt_hits: int
    tt_stores: int
    #: lookups where an entry for other honours of a suit gave a bound
    tt_shifted: int = 0
    #: honours not searched: a touching honour's bound, shifted, refuted them
    run_shifts: int = 0


def _finished(state: PlayState) -> SolveResult:
    """The result of a game already over: its margin, with nothing to search."""
    margin = state.margin_hp() / 2
    return SolveResult(margin=margin, margin_bounds=(margin, margin), complete=True, made=margin >= 0,
                       taker_points=state.taker_hp / 2, oudlers=state.taker_oudlers())


def _proven_best(cards: Dict[int, SolveResult], maximizing: bool) -> Tuple[int, ...]:
    """The cards whose proven worst for the side on turn is at least every other card's
    proven best: those proven to be worth the position's value, in card order."""
    sign = 1 if maximizing else -1
    worst = {c: min(sign * b for b in r.margin_bounds) for c, r in cards.items()}
    best = {c: max(sign * b for b in r.margin_bounds) for c, r in cards.items()}
    return tuple(sorted(c for c in cards if all(worst[c] >= best[d] for d in cards if d != c)))


def _decided(lo: int, hi: int) -> Optional[bool]:
    """Made, failed, or None when the proven bounds straddle the target."""
    return True if lo >= 0 else (False if hi < 0 else None)


def _check_table_mb(table_mb: int) -> None:
    integer("table_mb", table_mb)
    if not 1 <= table_mb <= MAX_TABLE_MB:
        raise ValueError(f"table_mb must be between 1 and {MAX_TABLE_MB}, not {table_mb}")


def _check_jobs(jobs: int) -> None:
    """Refuse a number of worker processes that is not an int from 0 (all cores) up."""
    integer("jobs", jobs)
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (all cores) or more, not {jobs}")


def _check_total(total: Optional[int]) -> None:
    """Refuse a progress total that is neither None (unknown) nor an integer: the counter
    divides by it once drawn, after the first item, too late for a clear error."""
    if total is not None:
        integer("total", total)


def _check_limits(time_limit: Optional[float], node_limit: Optional[int]) -> None:
    """Refuse a limit that is neither None (no limit) nor a number from 0 (no search) up."""
    if node_limit is not None:
        integer("node_limit", node_limit)
        if node_limit < 0:
            raise ValueError(f"node_limit must be 0 (no search) or more, or None (no limit), not {node_limit}")
    if time_limit is not None:
        if not duration("time_limit", time_limit) >= 0:
            raise ValueError(f"time_limit must be 0 (no search) or more, or None (no limit), not {time_limit}")


def _check_state(state: object) -> None:
    """A position a program built wrong, refused before it reaches the core (which
    checks its cards): a TypeError or ValueError naming the field."""
    if not isinstance(state, PlayState):
        hint = " (a deal record's: record.position() or record.state())" if hasattr(state, "position") else ""
        raise TypeError(f"expected a PlayState, not {type(state).__name__}{hint}")
    n = len(state.hands)
    for s, hand in enumerate(state.hands):
        if isinstance(hand, bool) or not isinstance(hand, int):
            raise TypeError(f"PlayState.hands[{s}] must be a card set (cards.mask_of), not {type(hand).__name__}")
    if any(isinstance(c, bool) or not isinstance(c, int) for c in state.trick):
        raise TypeError("PlayState.trick must hold card numbers (cards.parse_card of a token)")
    if not 3 <= n <= 5 or len(state.camps) != n:
        raise ValueError(f"PlayState: {n} hands and {len(state.camps)} camps (3 to 5 players, a camp each)")
    if not isinstance(state.variant, Variant):
        raise TypeError(f"PlayState.variant must be a Variant (variant.VARIANTS), not {type(state.variant).__name__}")
    if state.variant.players != n:
        raise ValueError(f"PlayState.variant: {state.variant.players} players, but {n} hands"
                         f" (the game of {n} is variant.VARIANTS[{n}])")
    if isinstance(state.leader, bool) or not isinstance(state.leader, int) or not 0 <= state.leader < n:
        raise ValueError(f"PlayState.leader: seat {state.leader!r}, not one of 0..{n - 1}")
    if any(not isinstance(t.winner, int) or not 0 <= t.winner < n for t in state.tricks):
        raise ValueError("PlayState.tricks: a winner that is not a seat")


class _Budget:
    """Node and time limits shared by the probes of one request: None is no limit, and
    a limit of 0 is spent before any search.  The solver's stop time
    (:meth:`Solver.stop_after`) is the core's: it ends every probe, and is no limit to
    share: where it is not reached, the probes are those without it."""

    def __init__(self, core: "_core.Core", time_limit: Optional[float], node_limit: Optional[int]) -> None:
        _check_limits(time_limit, node_limit)
        # a limit beyond what the core counts to is no limit (2**62 nodes: millennia)
        self.node_limit = None if node_limit is None else min(int(node_limit), _MAX_NODES)
        self.deadline = None if time_limit is None else core.now() + time_limit  # the core's clock

    @property
    def limited(self) -> bool:
        return self.node_limit is not None or self.deadline is not None

    def cap(self, node_limit: int) -> int:
        """``node_limit``, or this budget's node limit where it comes first."""
        return node_limit if self.node_limit is None else min(node_limit, self.node_limit)

    def until(self, node_limit: int) -> "_Budget":
        """This budget, ending at ``node_limit`` nodes if that comes first."""
        short = copy.copy(self)
        short.node_limit = self.cap(node_limit)
        return short

    def spent(self, core: "_core.Core") -> bool:
        return bool((self.node_limit is not None and core.nodes >= self.node_limit)
                    or (self.deadline is not None and core.now() >= self.deadline)
                    or (core.stop and core.now() >= core.stop))

    def part(self, core: "_core.Core", fraction: float) -> "_Budget":
        """A budget that ends once ``fraction`` of what remains of this one is
        spent (none when this one has no limit)."""
        part = _Budget(core, None, None)
        if self.node_limit is not None:
            share = max(1, int((self.node_limit - core.nodes) * fraction))
            part.node_limit = min(self.node_limit, core.nodes + share)  # (never past this budget's limit)
        if self.deadline is not None:
            now = core.now()
            part.deadline = now + max(0.0, self.deadline - now) * fraction
        return part

    def probe(self, core: "_core.Core", beta: int, node_limit: int = _MAX_NODES,
              defence_moves: int = 0) -> Tuple[int, bool]:
        """The core's fail-soft null-window probe of "value >= beta" within this
        budget, ending at ``node_limit`` nodes if that comes first; (0, False)
        without a node searched if the budget is spent (the core would look at
        the clock only after 16,384 nodes, and takes a limit of 0 for none)."""
        if self.spent(core):
            return 0, False
        return core.probe(beta - 1, beta, self.cap(node_limit), 0.0 if self.deadline is None else self.deadline,
                          defence_moves)


CoreArgs = Tuple[Sequence[int], Sequence[bool], int, Sequence[int], int, int, Tuple[bool, bool],
                 List[int]]


def position_args(state: PlayState) -> CoreArgs:
    """The arguments of ``Core.set_position`` that describe ``state`` (all but
    ``deal_tricks``)."""
    fixed = sum(1 for c in OUDLERS if state.oudler_camp.get(c) is True)
    return (state.hands, state.camps, state.leader, state.trick, state.taker_hp, fixed,
            (state.won_all(False), state.won_all(True)),
            [state.variant.target_half_points(n) for n in range(4)])


def _one_at_a_time(method: _Method) -> _Method:
    """A :class:`Solver` method that uses its core: requests from other threads wait
    (the core releases the GIL while it searches, and two searches on one table
    crashed the process)."""
    @functools.wraps(method)
    def exclusive(self: "Solver", *args: Any, **kwargs: Any) -> Any:
        with self._busy:
            return method(self, *args, **kwargs)
    return cast(_Method, exclusive)


class Solver:
    """A double-dummy solver with its own transposition table.

    It serves one request at a time: a request from another thread waits until
    the one in progress ends.  To search in parallel, use one solver per thread
    (the GIL is released while the core searches) or per process.  Every request
    (:meth:`solve`, :meth:`made`, :meth:`at_least`) takes ``time_limit`` in
    seconds and ``node_limit`` in search nodes, None meaning no limit; one it
    stops returns its proven bounds, ``complete`` false.  A limit of 0 searches
    nothing: the answer is the position's static bounds at once (a caller whose
    budget has run out gets what is known, never an unbounded search).  :attr:`status` (a
    :class:`SearchStatus`; None until a request has its first bounds) holds what the
    request in progress, or the last one, has proven: another thread may read it while the core
    searches.  :attr:`last_stats` holds the last request's node and table counts.
    """

    def __init__(self, table_mb: int = DEFAULT_TABLE_MB) -> None:
        _check_table_mb(table_mb)
        self._core = _core.Core(int(table_mb) * 1024 * 1024)
        self._busy = threading.Lock()
        self.last_stats = SearchStats(0, 0, 0, 0)
        self.status: Optional[SearchStatus] = None

    def __reduce__(self) -> Any:
        raise TypeError("a Solver cannot be pickled or copied: its table is native memory; create one in"
                        " each process (tarot_solver.solver.worker_solver keeps one per thread)")

    @property
    def table_bytes(self) -> int:
        """The most memory the table may take (``table_mb``, in whole buckets)."""
        return self._core.table_bytes

    @property
    def table_used_bytes(self) -> int:
        """The table's memory in use: it starts at 8 to 16 MiB (the whole table
        where that is smaller), doubles whenever a search fills half of it, up
        to :attr:`table_bytes`, and shrinks back when cleared."""
        return self._core.table_used_bytes

    @property
    def nodes(self) -> int:
        """Nodes searched by the current (or last) request so far."""
        return self._core.nodes

    @_one_at_a_time
    def clear(self) -> None:
        """Empty the transposition table."""
        self._core.clear_table()

    def stop_after(self, seconds: Optional[float]) -> None:
        """End every search of this solver ``seconds`` from now (None: no such end),
        whatever its own limits: for a caller with a deadline over many requests
        (the advice's time budget), or another thread cancelling the request in
        progress (``stop_after(0)``: it ends within milliseconds).  A request it
        stops returns its proven bounds, ``complete`` false, as under a time
        limit; one that ends before is what it would be without it.  The stop
        holds for later requests too, until ``stop_after(None)``."""
        if seconds is not None and not math.isfinite(duration("seconds", seconds)):
            raise ValueError(f"seconds must be a finite number (or None), not {seconds!r}")
        self._core.stop_at(0.0 if seconds is None else self._core.now() + max(0.0, float(seconds)))

    @property
    def past_stop(self) -> bool:
        """Whether :meth:`stop_after`'s time has come (a request may have been cut)."""
        return bool(self._core.stop) and self._core.now() >= self._core.stop

    @_one_at_a_time
    def set_options(self, *, table: Optional[bool] = None, bounds: Optional[bool] = None,
                    merge: Optional[bool] = None, partition: Optional[bool] = None,
                    scan: Optional[bool] = None, abstract: Optional[bool] = None,
                    similar: Optional[bool] = None) -> None:
        """Turn techniques off for ablations and invariance tests."""
        self._core.set_options(table=table, bounds=bounds, merge=merge, partition=partition,
                               scan=scan, abstract=abstract, similar=similar)

    # Loading ------------------------------------------------------------------

    def _load(self, state: PlayState) -> None:
        if state.over:
            raise ValueError("the game is over: nothing to solve")
        self._core.set_position(*position_args(state), deal_tricks=state.variant.tricks)
        self._core.reset_counters()
        self._camps = state.camps
        self.status = None

    def _stats(self) -> SearchStats:
        c = self._core
        return SearchStats(c.nodes, c.tt_probes, c.tt_hits, c.tt_stores, c.tt_shifted,
                           c.run_shifts)

    # Probing ----------------------------------------------------------------------

    def _probe(self, beta: int, budget: _Budget, tree_ok: bool = False) -> Tuple[int, bool]:
        """Fail-soft null-window test of "value >= beta" from the core's position.

        With ``tree_ok`` (a question asked once, as make/fail), the defence is
        first limited to its two first cards at each node (``_DEFENCE_MOVES``:
        a failure then is proven); then a probe the
        depth-first search has not answered within its first share hands over
        to a proof tree near the root for a fifth of that share, each leaf
        probed with a tenth of it (the tree's answer brings no fail-soft
        bound: ``beta`` or ``beta - 1``), then the depth-first search goes on
        with the table both have filled, and so on.  Not for the probes of an
        exact margin after the first: near the value the tree cost more (14
        tricks left: 20 M nodes became 51 M on one position, 99 M more than
        150 M on another).
        """
        core = self._core
        if not tree_ok:
            return budget.probe(core, beta)
        v, ok = budget.probe(core, beta, defence_moves=_DEFENCE_MOVES)
        if not ok or v < beta:
            return v, ok
        share = _PLAIN_SHARE
        tree: Optional[ProofSearch] = None
        while True:
            v, ok = budget.probe(core, beta, core.nodes + share)
            if ok or budget.spent(core):
                return v, ok
            if tree is None:
                tree = ProofSearch(core, self._camps, beta)
            if not tree.full:
                settled = tree.run(budget.until(core.nodes + int(share * _TREE_RATIO)),
                                   max(LEAF_NODES, share // _LEAF_SHARE))
                if settled is not None:
                    return (beta if settled else beta - 1), True
                if budget.spent(core):
                    return 0, False
            share *= _SHARE_GROWTH

    def _exact(self, budget: _Budget, track: bool = False) -> Tuple[int, int]:
        """Proven (low, high) bounds on the value; equal when the search completed.

        The first probe is at 0 (make/fail), then bisection of the proven
        interval from the static bounds: the sure bounds are tighter, but
        bisecting from them took more nodes (157 M against 145 M on 17
        positions with 12 tricks left; probes far from the value are cheap).
        Once the interval is within ``_DESCEND`` half-points, a failed probe
        is followed by a probe at the upper bound it returned: a failed
        probe's fail-soft bound is often the value itself, while a probe
        that succeeds returns little more than its target, and proofs of
        "at least" cost more than refutations; so the descent needs one such
        proof, at the value, where bisection needs several below it.
        But where the proofs of "at least" have been far cheaper (see
        ``_ASCEND_RATIO``), the next probe is just above the proven low bound
        instead: on some full deals the descent creeps a half-point per
        probe (deal 36: 21 probes, each failing just below its target).
        Under a limit, while the interval is wider than that, the first
        probe gets ``_FIRST_SHARE`` of the budget and a later one half of
        what remains.  A probe the limit stops marks its target as hard, and
        the next ones squeeze the value from both sides: halfway from the
        hard targets to the upper bound, then to the lower, in turn (far
        from the value, probes are cheap); where neither side leaves room,
        the rest goes to the first hard target.  So one probe near the value
        no longer takes the whole budget.  A search stopped by a limit still
        reports the sure bounds where they are tighter.  With ``track`` (the
        request's own position), :attr:`status` follows the probes.
        """
        lo, hi = self._core.bounds(sure=False)
        sure_lo, sure_hi = self._core.bounds()
        beta = first_target = min(max(0, lo + 1), hi)
        whole = False  # the next probe may use all that remains
        tree = True  # the make/fail question (first, or again): it may hand over to a proof tree
        up = False
        hard: Optional[Tuple[int, int, int]] = None  # targets a limit stopped: lowest, highest, first
        failed = False
        failed_cost = success_cost = 0  # nodes of the last probe of each kind
        while lo < hi:
            if track:
                self.status = SearchStatus((max(lo, sure_lo) / 2, min(hi, sure_hi) / 2), beta / 2)
            capped = not whole and budget.limited and hi - lo > _DESCEND
            share = _FIRST_SHARE if tree else 0.5
            nodes = self._core.nodes
            v, ok = self._probe(beta, budget.part(self._core, share) if capped else budget, tree)
            whole = tree = False
            if not ok:
                if not capped or budget.spent(self._core):
                    lo, hi = max(lo, sure_lo), min(hi, sure_hi)
                    break
                hard = (beta, beta, beta) if hard is None else (min(hard[0], beta), max(hard[1], beta), hard[2])
            else:
                failed = v < beta
                if failed:
                    hi = v
                    failed_cost = self._core.nodes - nodes
                else:
                    lo = v
                    success_cost = self._core.nodes - nodes
                if hard is not None and not lo < hard[0] <= hard[1] <= hi:
                    hard = None  # a hard target is settled: back to bisection
            if hard is not None:
                # squeeze: the next probe halfway from the hard targets to one
                # proven bound, the upper and the lower in turn; once neither
                # way leaves room, the rest goes to the first hard target
                hard_lo, hard_hi, first_hard = hard
                up = not up
                if (up or hard_lo - lo < 2) and hi - hard_hi >= 2:
                    up = True
                    beta = hard_hi + (hi - hard_hi + 1) // 2
                elif hard_lo - lo >= 2:
                    up = False
                    beta = lo + (hard_lo - lo) // 2
                else:
                    beta = first_hard
                    whole, tree, hard = True, first_hard == first_target, None
            elif hi - lo > _DESCEND:
                beta = lo + (hi - lo + 1) // 2
            elif success_cost >= _ASCEND_MIN and _ASCEND_RATIO * success_cost < failed_cost:
                beta = lo + 1
            elif failed:
                beta = hi
            else:
                beta = lo + (hi - lo + 1) // 2
        if track:
            self.status = SearchStatus((lo / 2, hi / 2))
        return lo, hi

    def _card_values(self, budget: _Budget) -> Tuple[Dict[int, SolveResult], int, int]:
        """Each legal card's result, with the nodes and seconds of its own search,
        and the position's bounds derived from them (the best card's for the side
        on turn), with :attr:`status` following.

        Under a limit each card gets an equal share of what remains, so every
        card is searched, and no budget goes to searching the position itself.
        A Ctrl-C after the first card raises :class:`Interrupted` whose ``partial``
        is (the cards finished, every legal card, the bounds the finished ones prove,
        the root's static bounds)."""
        core = self._core
        moves = core.legal_moves()
        maximizing = self._taker_to_play()
        root_lo, root_hi = core.bounds()
        self.status = SearchStatus((root_lo / 2, root_hi / 2))
        cards: Dict[int, SolveResult] = {}
        los: List[int] = []
        his: List[int] = []
        lo, hi = root_lo, root_hi
        for i, card in enumerate(moves):
            nodes, start = core.nodes, time.perf_counter()
            core.play(card)
            with keeping_partial(lambda: (cards, moves, lo, hi, root_lo, root_hi), lambda: len(cards), len(moves)):
                try:
                    clo, chi = self._exact(budget.part(core, 1 / (len(moves) - i)))
                finally:
                    core.undo()
            # no card is worth more to the side on turn than the position, so the
            # position's static bound on that side bounds every card too
            if maximizing:
                chi = min(chi, root_hi)
            else:
                clo = max(clo, root_lo)
            cards[card] = SolveResult(
                margin=clo / 2 if clo == chi else None,
                margin_bounds=(clo / 2, chi / 2),
                complete=clo == chi,
                made=_decided(clo, chi),
                nodes=core.nodes - nodes,
                seconds=time.perf_counter() - start,
            )
            los.append(clo)
            his.append(chi)
            done = len(los) == len(moves)
            if maximizing:
                lo, hi = max(los), (max(his) if done else root_hi)
            else:
                lo, hi = (min(los) if done else root_lo), min(his)
            lo, hi = max(lo, root_lo), min(hi, root_hi)
            self.status = SearchStatus((lo / 2, hi / 2))
        return cards, lo, hi

    def _interrupted_cards(self, partial: Tuple[Dict[int, SolveResult], List[int], int, int, int, int],
                           start: float) -> SolveResult:
        """What :meth:`solve` with ``all_cards`` had proven when a Ctrl-C stopped it
        (:meth:`_card_values`' partial): the cards finished, the best among them only
        where it is proven against the others' static bounds too."""
        cards, moves, lo, hi, root_lo, root_hi = partial
        unsearched = SolveResult(margin=None, margin_bounds=(root_lo / 2, root_hi / 2), complete=False,
                                 made=_decided(root_lo, root_hi))
        every = {card: cards.get(card, unsearched) for card in moves}
        return SolveResult(margin=None, margin_bounds=(lo / 2, hi / 2), complete=False, made=_decided(lo, hi),
                           nodes=self._core.nodes, seconds=time.perf_counter() - start, cards=cards,
                           best=tuple(c for c in _proven_best(every, self._taker_to_play()) if c in cards))

    def _principal_variation(self, value: int, budget: _Budget) -> Tuple[List[int], int, int]:
        """A line reaching ``value``, with the taker's half-points and oudlers at its end
        (an empty line when a limit stops it)."""
        core = self._core
        line: List[int] = []
        while core.value_if_over() is None:
            maximizing = self._taker_to_play()
            moves = core.legal_moves()
            tm = core.table_move()
            if tm in moves:
                moves.remove(tm)
                moves.insert(0, tm)
            for card in moves:
                core.play(card)
                if maximizing:
                    v, ok = self._probe(value, budget)
                    good = ok and v >= value
                else:
                    v, ok = self._probe(value + 1, budget)
                    good = ok and v <= value
                if good:
                    line.append(card)
                    break
                core.undo()
                if not ok:
                    for _ in line:
                        core.undo()
                    return [], 0, 0
            else:  # pragma: no cover - a value proven exact always has a line
                raise AssertionError("no move reaches the proven value")
        taker_hp, oudlers = core.taker_hp, core.fixed_oudlers
        for _ in line:
            core.undo()
        return line, taker_hp, oudlers

    def _taker_to_play(self) -> bool:
        return bool(self._camps[self._core.to_play])

    # Public API -----------------------------------------------------------------------

    def made(self, state: PlayState, *, time_limit: Optional[float] = None,
             node_limit: Optional[int] = None) -> SolveResult:
        """Whether the contract is made under double-dummy play (one null-window probe)."""
        return self.at_least(state, 0.0, time_limit=time_limit, node_limit=node_limit)

    @_one_at_a_time
    def at_least(self, state: PlayState, margin: float, *, time_limit: Optional[float] = None,
                 node_limit: Optional[int] = None) -> SolveResult:
        """Whether the margin is at least ``margin`` points (one null-window probe).

        The answer is in ``margin_bounds``: its low end reaches ``margin``, or
        its high end stays below it, unless a limit stopped the probe
        (``complete`` false).  Probes far from the value are cheap, so they
        bracket a margin that an exact solve cannot reach within its limits;
        ``made(state)`` is ``at_least(state, 0)``.  The result's ``made`` still
        answers the contract (margin at least 0), where the bounds decide it.
        """
        _check_state(state)
        if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
            raise TypeError(f"margin must be a number of points, not {spelled(repr(margin))}")
        if not (math.isfinite(margin) and float(2 * margin).is_integer()):
            raise ValueError(f"margin must be a finite number of points, a multiple of 0.5, not {margin!r}")
        if state.over:
            return _finished(state)
        start = time.perf_counter()
        self._load(state)
        budget = _Budget(self._core, time_limit, node_limit)
        target = round(2 * margin)
        lo, hi = self._core.bounds()
        ok = True
        if hi >= target > lo:
            self.status = SearchStatus((lo / 2, hi / 2), target / 2)
            v, ok = self._probe(target, budget, True)
            if ok:
                lo, hi = (max(lo, v), hi) if v >= target else (lo, min(hi, v))
        self.status = SearchStatus((lo / 2, hi / 2))
        self.last_stats = self._stats()
        return SolveResult(
            margin=lo / 2 if lo == hi else None,
            margin_bounds=(lo / 2, hi / 2),
            complete=ok,
            made=_decided(lo, hi),  # (proven bounds, even where a limit stopped the probe)
            nodes=self._core.nodes,
            seconds=time.perf_counter() - start,
        )

    @_one_at_a_time
    def solve(self, state: PlayState, *, time_limit: Optional[float] = None,
              node_limit: Optional[int] = None, all_cards: bool = False,
              pv: bool = True) -> SolveResult:
        """Exact double-dummy margin from ``state`` (the position after its plays).

        With ``all_cards`` the result's ``cards`` maps every legal card of the
        player on turn to the result after playing it, and ``best`` lists those
        proven optimal (:class:`SolveResult`); the position's own
        bounds are then those of its best card, with no search of their own
        (exact values of every card on 20 positions with 12 tricks left:
        2,250 M nodes against 2,746 M with the position searched first).
        Limits apply to the whole request; under one, each card gets an
        equal share of what remains.  A game already over has its margin as
        played (and no card to value).  A Ctrl-C after the first card of
        ``all_cards`` raises :class:`~tarot_solver.errors.Interrupted` with the
        result over the cards finished as its ``partial`` (``complete`` false).
        """
        _check_state(state)
        if state.over:
            return replace(_finished(state), cards={} if all_cards else None, best=() if all_cards else None)
        start = time.perf_counter()
        self._load(state)
        budget = _Budget(self._core, time_limit, node_limit)
        cards = None
        if all_cards:
            try:
                cards, lo, hi = self._card_values(budget)
            except Interrupted as stop:
                raise Interrupted(self._interrupted_cards(stop.partial, start), stop.done, stop.total) from stop
        else:
            lo, hi = self._exact(budget, track=True)
        complete = lo == hi
        line: List[int] = []
        taker_points = oudlers = None
        if complete and pv:
            line, end_hp, end_oudlers = self._principal_variation(lo, budget)
            if line:
                taker_points, oudlers = end_hp / 2, end_oudlers
        if cards is not None:
            complete = complete and all(r.complete for r in cards.values())
        self.last_stats = self._stats()
        return SolveResult(
            margin=lo / 2 if lo == hi else None,
            margin_bounds=(lo / 2, hi / 2),
            complete=complete,
            made=_decided(lo, hi),
            taker_points=taker_points,
            oudlers=oudlers,
            pv=line,
            nodes=self._core.nodes,
            seconds=time.perf_counter() - start,
            cards=cards,
            best=None if cards is None else _proven_best(cards, state.taker_to_play),
        )


# Many positions ---------------------------------------------------------------------------

_worker = threading.local()


def worker_solver(table_mb: int = WORKER_TABLE_MB) -> Solver:
    """This thread's solver, created on first use and kept for the next tasks.

    One table per worker thread (a Solver serves one request at a time): allocating and
    faulting in a large table per task would cost more than clearing it.
    """
    cached = getattr(_worker, "solver", None)
    if cached is None or cached[0] != table_mb:
        cached = _worker.solver = (table_mb, Solver(table_mb))
    return cached[1]


@dataclass(frozen=True)
class _Request:
    made_only: bool
    all_cards: bool
    time_limit: Optional[float]
    node_limit: Optional[int]
    table_mb: int


def _solve_task(item: Tuple[PlayState, _Request]) -> SolveResult:
    """One position of :func:`solve_many`, on a worker (module level: picklable)."""
    state, request = item
    solver = worker_solver(request.table_mb)
    solver.clear()
    if request.made_only:
        return solver.made(state, time_limit=request.time_limit, node_limit=request.node_limit)
    return solver.solve(state, time_limit=request.time_limit, node_limit=request.node_limit,
                        all_cards=request.all_cards)


def solve_many(states: Iterable[PlayState], *, made_only: bool = False, all_cards: bool = False,
               time_limit: Optional[float] = None, node_limit: Optional[int] = None,
               table_mb: int = WORKER_TABLE_MB, jobs: int = 1, scheduler: Optional[str] = None,
               progress: Optional[str] = None, total: Optional[int] = None) -> Iterator[SolveResult]:
    """Solve each position of ``states`` (any iterable, read lazily), yielding the
    results in input order: :meth:`Solver.made` with ``made_only``, else
    :meth:`Solver.solve`.

    The limits apply to each position (None: none; 0: no search, its static
    bounds).  ``jobs`` worker processes (0: all cores; 1, the default, runs here)
    or a Dask ``scheduler`` (``tcp://HOST:PORT``) share the work, each worker with one table of ``table_mb``.  Every position is
    solved from a cleared table, so with complete solves or a node limit the
    results do not depend on the workers or on the order.  ``progress`` labels a
    counter on stderr, out of ``total`` positions when the caller knows about how
    many.  Each position is copied as it is read, so the iterable may go on
    changing the state it yielded.  The arguments are checked at the call.
    """
    if made_only and all_cards:
        raise ValueError("made_only and all_cards exclude each other")
    _check_table_mb(table_mb)
    _check_jobs(jobs)
    _check_limits(time_limit, node_limit)
    _check_total(total)
    if not isinstance(states, Iterable):
        raise TypeError(f"states must be an iterable of PlayState, not {type(states).__name__}")
    request = _Request(made_only, all_cards, time_limit, node_limit, table_mb)
    def tasks() -> Iterator[Tuple[PlayState, _Request]]:
        for state in states:
            _check_state(state)
            yield state.copy(), request

    return map_ordered(_solve_task, tasks(), jobs=jobs, scheduler=scheduler, progress=progress, total=total)
