"""The double-dummy table of a deal: what each seat would make as the taker of each contract.

Bridge players know it from DDS: for one deal, the result of every declarer in every
strain.  In Tarot a row is one seat taking, and its cells the four contracts, the card
play being double-dummy from the first lead (the dealer's right leads):

* prise and garde: the taker takes the dog and discards; both play the same, so one
  question serves both (their scores differ by the multiplier).  The discard is the
  record's where it gives one for this seat (its ``taker``), else the simple policy's
  (:func:`~tarot_solver.handcount.simple_discard`, the bid advice's); or, with
  ``discards`` above 1, the best of that many candidates
  (:func:`~tarot_solver.advice.discard_candidates`, the record's or the policy's
  first): the cell's bounds are those of the largest value among the candidates'
  (the largest low bound, the largest high bound), the discard shown the one with
  the best proven bounds;
* garde sans: the taker plays the cards he was dealt, the dog counting for him;
* garde contre: the same card play, the dog counting for the defence.

At five players the taker calls a card (the record's ``called`` for its taker, else the
simple policy's, :func:`~tarot_solver.handcount.simple_call`); its holder is his
partner, and he plays alone when it lies in the dog.

Each question is the bid advice's (:func:`tarot_solver.advice.ask`): make/fail
within the node limit, then the margin within the same number of nodes more, the garde
sans and the garde contre narrowing each other.  A question the limit stops is reported
with its proven bounds, never guessed.  Each row starts from a cleared table, so the
table does not depend on the number of workers.  Scores are the taker's (3U at four
players; bonuses left out), as the bid advice counts them (:func:`~tarot_solver.advice.margin_score`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from . import rules
from .advice import Outcome, _narrowed, ask, ask_world, call_for, discard_candidates, margin_score
from .cards import card_token, mask_of, tokens
from .errors import RecordError, integer, keeping_partial
from .parallel import Progress, map_ordered
from .records import DealRecord
from .solver import WORKER_TABLE_MB, _check_jobs, _check_limits, _check_table_mb, _check_total, worker_solver
from .variant import Contract, Variant, seat_argument, variant_for

#: nodes a question (make/fail, then as many for the margin) by default: about 0.4 s each
DEFAULT_NODES = 2_000_000


@dataclass(frozen=True)
class Cell:
    """One contract for one taker: the margin in points and the taker's score, each as
    proven bounds (equal when exact), and the verdict (None: the limit left it open)."""

    contract: Contract
    margin_bounds: Tuple[float, float]
    score_bounds: Tuple[int, int]
    made: Optional[bool]

    @property
    def margin(self) -> Optional[float]:
        """The exact margin, or None when only bounds are proven."""
        lo, hi = self.margin_bounds
        return lo if lo == hi else None

    @property
    def score(self) -> Optional[int]:
        """The taker's exact score, or None when only bounds are proven."""
        lo, hi = self.score_bounds
        return lo if lo == hi else None


@dataclass(frozen=True)
class Row:
    """One seat as the taker: the discard and call it plays with, a cell per contract
    (prise, garde, garde sans, garde contre), and the nodes and seconds of its search."""

    taker: int
    discard: Tuple[int, ...]
    called: Optional[int]
    partner: Optional[int]
    cells: Dict[Contract, Cell]
    nodes: int
    seconds: float

    @property
    def best(self) -> Tuple[Optional[Contract], ...]:
        """The bids that may score best for this seat (None: pass, which scores 0): one
        when the bounds decide it, more while the limit leaves them too close.  Never the
        prise: it plays as the garde does, which scores twice as much when made, and a
        failed prise scores below passing."""
        options: List[Tuple[Optional[Contract], Tuple[int, int]]] = [(None, (0, 0))]
        options += [(c, cell.score_bounds) for c, cell in self.cells.items() if c is not Contract.PRISE]
        floor = max(lo for _, (lo, _) in options)
        tops = [(c, hi) for c, (lo, hi) in options if hi >= floor]
        exact = [c for c, (lo, hi) in options if lo == hi == floor]
        if len(tops) > 1 and exact and all(hi <= floor for _, hi in tops):
            return (exact[0],)  # ties with an exact score: none can beat it
        return tuple(c for c, _ in tops)


@dataclass(frozen=True)
class DDTable:
    """The double-dummy table of one deal: a :class:`Row` per seat as the taker (those asked
    for, in seat order).  ``taker`` and ``contract`` are the record's (None where absent),
    for reference; ``seconds`` is the rows' search time, summed (several workers take
    less wall time)."""

    id: Optional[str]
    variant: Variant
    dealer: Optional[int]
    leader: int
    taker: Optional[int]
    contract: Optional[Contract]
    rows: List[Row]
    node_limit: Optional[int]
    discards: int

    @property
    def nodes(self) -> int:
        return sum(r.nodes for r in self.rows)

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.rows)

    @property
    def complete(self) -> bool:
        """Whether every margin is exact."""
        return all(cell.margin is not None for r in self.rows for cell in r.cells.values())

    def row(self, seat: int) -> Row:
        """The row of ``seat`` as the taker (KeyError if it was not asked for)."""
        for r in self.rows:
            if r.taker == seat:
                return r
        raise KeyError(f"no row for seat {seat!r} in this table")

    def as_json(self) -> Dict[str, Any]:
        """The table as the JSON object of ``tarot-solve table --json`` (docs/formats.md)."""
        rows = []
        for row in self.rows:
            contracts = {c.value: {"margin": cell.margin, "margin_bounds": list(cell.margin_bounds),
                                   "made": cell.made, "score": cell.score, "score_bounds": list(cell.score_bounds)}
                         for c, cell in row.cells.items()}
            rows.append({"seat": row.taker, "discard": tokens(row.discard),
                         "called": None if row.called is None else card_token(row.called),
                         "partner": row.partner, "contracts": contracts,
                         "best": ["pass" if c is None else c.value for c in row.best], "nodes": row.nodes,
                         "seconds": round(row.seconds, 4)})
        return {"id": self.id, "players": self.variant.players, "dealer": self.dealer, "leader": self.leader,
                "taker": self.taker, "contract": None if self.contract is None else self.contract.value,
                "node_limit": self.node_limit, "discards": self.discards, "complete": self.complete,
                "rows": rows, "nodes": self.nodes, "seconds": round(self.seconds, 4)}


@dataclass(frozen=True)
class _RowTask:
    hands: Tuple[int, ...]
    dog: int
    taker: int
    leader: int
    players: int
    discards: Tuple[Tuple[int, ...], ...]  # the candidates for prise and garde, in order
    called: Optional[int]
    node_limit: Optional[int]
    table_mb: int


def _row(task: _RowTask) -> Row:
    """One seat's row, on a worker (module level: picklable), from a cleared table."""
    start = time.perf_counter()
    variant = variant_for(task.players)
    partner = rules.partner_of(task.hands, task.taker, task.called)

    def opening(contract: Contract, discard: Optional[Tuple[int, ...]] = None) -> rules.PlayState:
        return rules.opening_state(task.hands, task.dog, task.taker, contract, task.leader, discard, variant,
                                   partner)

    solver = worker_solver(task.table_mb)
    solver.clear()
    limit = task.node_limit
    tried = [ask(solver, opening(Contract.GARDE, d), limit, limit) for d in task.discards]
    # the taker keeps the best discard: its value is the largest of theirs, within these bounds
    low, high = max(o.low for o in tried), max(o.high for o in tried)
    chosen = max(range(len(tried)), key=lambda k: (tried[k].low, tried[k].high, -k))
    garde = _narrowed(Outcome(made=None, low=low, high=high, nodes=sum(o.nodes for o in tried)), low, high)
    sans, contre = ask_world(solver, [opening(Contract.GARDE_SANS), opening(Contract.GARDE_CONTRE)], limit, limit)
    cells: Dict[Contract, Cell] = {}
    for contract in Contract:
        o = garde if contract.taker_takes_dog else sans if contract is Contract.GARDE_SANS else contre
        scores = [margin_score(contract, m, variant, partner is not None) for m in (o.low, o.high)]
        cells[contract] = Cell(contract, (o.low, o.high), (scores[0], scores[1]), o.made)
    return Row(task.taker, task.discards[chosen], task.called, partner, cells,
               garde.nodes + sans.nodes + contre.nodes, time.perf_counter() - start)


def check_record(record: DealRecord, seats: Optional[Sequence[int]] = None, key: str = "seats") -> DealRecord:
    """``record``, if its table (for ``seats``, None: every seat) can be made: it says
    who deals (or, without an announced slam, who leads first), and has those seats;
    else a :class:`RecordError` located in it (a bad seat named as ``key``)."""
    if not isinstance(record, DealRecord):
        raise TypeError(f"expected a DealRecord, not {type(record).__name__}")
    if record.dealer is None and (record.leader is None or record.slam):
        why = ("after an announced slam the taker leads, not the dealer's right" if record.leader is not None
               else "or the first leader")
        raise record._located(RecordError(f"a double-dummy table needs the dealer ({why})", key="dealer"))
    try:
        for seat in seats or ():
            seat_argument(seat, key, record.variant.players)
    except RecordError as e:
        raise record._located(e)
    return record


def _tasks(record: DealRecord, node_limit: Optional[int], table_mb: int, seats: Optional[Sequence[int]],
           discards: int) -> Tuple[int, List[_RowTask]]:
    """The first leader and the tasks of the rows of ``seats`` (None: all) of ``record``,
    each with its first ``discards`` candidate discards (:func:`check_record`)."""
    check_record(record, seats)
    variant = record.variant
    leader = (record.dealer + 1) % variant.players if record.dealer is not None else record.leader
    assert leader is not None
    hands = tuple(mask_of(h) for h in record.hands)
    dog = mask_of(record.dog)
    tasks = []
    for seat in range(variant.players) if seats is None else sorted({int(s) for s in seats}):  # (numpy's too)
        own = seat == record.taker
        candidates = [tuple(sorted(record.discard))] if own and record.discard is not None else []
        for c in discard_candidates(hands[seat] | dog, discards, variant):
            if c not in candidates:
                candidates.append(c)
        tasks.append(_RowTask(hands, dog, seat, leader, variant.players, tuple(candidates[:discards]),
                              call_for(hands[seat], record.called if own else None, variant), node_limit, table_mb))
    return leader, tasks


def _table(record: DealRecord, leader: int, rows: List[Row], node_limit: Optional[int], discards: int) -> DDTable:
    return DDTable(record.id, record.variant, record.dealer, leader, record.taker, record.contract, rows,
                   node_limit, discards)


def _check_args(node_limit: Optional[int], seats: Optional[Sequence[int]], discards: int, table_mb: int,
                jobs: int) -> None:
    """The arguments of :func:`dd_tables` that do not depend on the deal (ValueError, TypeError)."""
    _check_limits(None, node_limit)
    if seats is not None:
        if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
            raise TypeError(f"seats must be a sequence of seats, or None for every seat, not {type(seats).__name__}")
        if not seats:
            raise ValueError("seats is empty: give the seats to tabulate, or None for every seat")
    integer("discards", discards)
    if discards < 1:
        raise ValueError(f"discards must be 1 or more, not {discards}")
    _check_table_mb(table_mb)
    _check_jobs(jobs)


def dd_tables(records: Iterable[DealRecord], *, node_limit: Optional[int] = DEFAULT_NODES,
              seats: Optional[Sequence[int]] = None, discards: int = 1, table_mb: int = WORKER_TABLE_MB,
              jobs: int = 1, scheduler: Optional[str] = None, progress: Optional[str] = None,
              total: Optional[int] = None) -> Iterator[DDTable]:
    """The double-dummy table of each deal of ``records`` (read lazily), in order.

    ``node_limit``: nodes for each question's make/fail and as many for its margin
    (None: no limit, exact but possibly very long; 0: no search, the static bounds).
    ``seats``: the takers to tabulate (None: every seat).  ``discards``: how many
    candidate discards each taker tries for prise and garde (the first of
    :func:`~tarot_solver.advice.discard_candidates`, the record's own discard first for
    its taker), keeping the best; each costs a question.  ``jobs`` worker processes (0:
    all cores; 1 runs here) or a Dask ``scheduler`` share the rows, each worker with a
    table of ``table_mb``; the results do not depend on them.  ``progress`` labels a
    counter of the deals done on stderr, out of ``total``.  A record is checked as it
    is read (:func:`check_record`); the other arguments at the call.
    """
    _check_args(node_limit, seats, discards, table_mb, jobs)
    _check_total(total)
    started: List[Tuple[DealRecord, int, int]] = []  # (record, leader, rows) of the deals not yet yielded

    def tasks() -> Iterator[_RowTask]:
        for record in records:
            leader, rows = _tasks(record, node_limit, table_mb, seats, discards)
            started.append((record, leader, len(rows)))
            yield from rows

    def tables() -> Iterator[DDTable]:
        bar = Progress(progress, total)
        rows: List[Row] = []
        try:
            for row in map_ordered(_row, tasks(), jobs=jobs, scheduler=scheduler):
                rows.append(row)
                record, leader, n = started[0]
                if len(rows) == n:
                    del started[0]
                    yield _table(record, leader, rows, node_limit, discards)
                    rows = []
                    bar.step()
        finally:
            bar.close()

    return tables()


def dd_table(record: DealRecord, *, node_limit: Optional[int] = DEFAULT_NODES,
             seats: Optional[Sequence[int]] = None, discards: int = 1, table_mb: int = WORKER_TABLE_MB,
             jobs: int = 1, scheduler: Optional[str] = None, progress: Optional[str] = None) -> DDTable:
    """The double-dummy table of one deal (as :func:`dd_tables`; ``progress`` counts its rows).

    A Ctrl-C after some rows have finished raises :class:`~tarot_solver.errors.Interrupted`
    (a ``KeyboardInterrupt``) whose ``partial`` is a table of those rows only: the rows of
    the first seats asked, in seat order, each as the whole table has it (the rows come
    back in order)."""
    _check_args(node_limit, seats, discards, table_mb, jobs)
    leader, tasks = _tasks(record, node_limit, table_mb, seats, discards)
    rows: List[Row] = []
    with keeping_partial(lambda: _table(record, leader, rows, node_limit, discards), lambda: len(rows), len(tasks)):
        for row in map_ordered(_row, tasks, jobs=jobs, scheduler=scheduler, progress=progress, total=len(tasks)):
            rows.append(row)
    return _table(record, leader, rows, node_limit, discards)
