"""Monte Carlo bid, discard and play advice from one seat's view (PIMC).

The seat's unknown cards are dealt many times (:mod:`tarot_solver.sampling`); each
sampled *world* is solved double-dummy for every option, and the results are averaged.
Every option is evaluated on the same worlds (common random numbers), so differences
between options are measured far more precisely than the options themselves.

One *question* is one contract played in one world from a given discard:

* prise and garde: the taker takes the dog and discards with the simple policy of
  :func:`tarot_solver.handcount.simple_discard` (bid advice) or with the candidate
  discard (discard advice); both contracts play the same, so one question serves both;
* garde sans: the taker plays the cards he was dealt and the dog counts for him;
* garde contre: the same, with the dog counted for the defence (the same card play as
  the garde sans, whose value differs from it by the dog's points and what the dog's
  oudlers do to the target: each of the two narrows the other's bracket, and one that
  the other's decides is not searched; :func:`ask_world`);
* play advice: one card (of each class of cards that play alike) played by the
  player on turn at a position of the play, the world's hands being dealt as the
  player's knowledge allows (the play so far, the dog, the discard's trumps, the
  poignées).

A question is first the null-window make/fail probe under ``node_budget`` nodes, then,
if decided, more null-window probes bracketing the margin under ``margin_budget``
(:meth:`tarot_solver.solver.Solver.solve` with a node limit); if undecided, two probes
halfway from its proven ends towards 0, a fifth of ``margin_budget`` each
(:meth:`tarot_solver.solver.Solver.at_least`).  A world the solver cannot decide is never
guessed: it counts as failed for the low end and as made for the high end of every
interval, and the reports say how many there were.

The expected score (the taker's 3U; 2U at three players; at five players 2U in a
world where his called partner is another player, 4U where he plays alone; FFT scale,
petit au bout, poignées and slams left out) is estimated per world from the margin
bracket [lo, hi] proven by the probes: the score at each end (a margin of ``m`` points
scores ``±(25 + |m|)`` times the multiplier, rounded as the FFT rounds), and the
midpoint of the two as the estimate; an undecided world is estimated at 0 (made or
failed by a hair, at even odds).  The 95 % interval runs from the mean low score minus
1.96 standard errors to the mean high score plus 1.96 standard errors;
``docs/advice.md`` says how far the estimate strays from exact margins.

Worlds run in batches of fixed size on worker processes (:func:`parallel.map_ordered`).
Each worker keeps one :class:`~tarot_solver.solver.Solver`, whose table is reused by
all the questions of a batch and cleared at the start of each batch: with node budgets,
whether a probe finishes depends on what the table holds, so a batch must always start
from the same table for the results not to depend on the number of processes.

The batches come back in order, so a run stopped early covers worlds 0..n-1, as a
run asked for n worlds would: by its ``time_budget``, the advice says so
(``run.worlds`` < ``run.requested``); by a Ctrl-C after some worlds have finished,
:class:`~tarot_solver.errors.Interrupted` (a ``KeyboardInterrupt``) carries that
advice as its ``partial``.
"""

from __future__ import annotations

import itertools
import math
import time
import warnings
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

from . import rules
from .cards import (EXCUSE_SUIT, OUDLERS, TRUMPS, TRUMPS_MASK, card_token, cards_of, count, half_points, is_king,
                    is_oudler, mask_of, suit_mask, suit_of)
from .cards import CardsLike, parse_cards
from .errors import RecordError, TarotError, duration, integer, keeping_partial, spelled
from .notation import parse_hand
from .handcount import contract_for, hand_count, simple_call, simple_discard
from .parallel import chunks, map_ordered
from .records import VARIANT, DealRecord, card_sequence, play_setup
from .sampling import Constraints, Sampler, View, World, hand_constraints, have_played, world_rng
from .scoring import margin_points, score_margin
from .solver import Solver, _check_table_mb, worker_solver
from .variant import CONTRACTS, VARIANTS, Contract, Variant, contract_argument, seat_argument, variant_for

DEFAULT_WORLDS = 100
DEFAULT_SEED = 0
DEFAULT_NODE_BUDGET = 175_000
DEFAULT_CANDIDATES = 8
#: table size (MiB) of each worker's solver by default; a budgeted question stores far
#: fewer entries than a full solve
DEFAULT_TABLE_MB = 64
#: worlds per task: fixed, so that results never depend on the number of processes
BID_WORLDS_PER_TASK = 4
DISCARD_WORLDS_PER_TASK = 1
Z95 = 1.959964
#: the advice a run's worlds give (:func:`_run`)
AdviceT = TypeVar("AdviceT")
#: the contract whose question prise and garde share in the bid advice
DOG_QUESTION = Contract.GARDE


# One question ------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One question in one world: make/fail (None: undecided) and the margin bracket in points."""

    made: Optional[bool]
    low: float
    high: float
    nodes: int
    partner: bool = False  # five players: the taker has a partner in this world (else he plays alone)


def ask(solver: Solver, state: rules.PlayState, node_budget: Optional[int], margin_budget: Optional[int],
        known: Tuple[float, float] = (-math.inf, math.inf)) -> Outcome:
    """Make/fail under ``node_budget`` nodes, then the margin bracket under ``margin_budget``
    (None: no limit; 0: no search).

    A decided question brackets its margin by the bisection probes of an exact
    solve.  An undecided one spends a fifth of ``margin_budget`` on each of two
    probes halfway from its proven ends (those of ``known`` where tighter: a
    bracket proven elsewhere) towards 0: far from the value they are cheap, so
    they narrow a bracket that no exact search would (and may decide the
    question).  The bracket returned lies within ``known``, and is decided where
    that decides it.
    """
    first = solver.made(state, node_limit=node_budget)
    low, high = max(first.margin_bounds[0], known[0]), min(first.margin_bounds[1], known[1])
    results = [first]
    if margin_budget != 0 and first.complete:
        results.append(solver.solve(state, node_limit=margin_budget, pv=False))
    elif margin_budget != 0:
        share = None if margin_budget is None else margin_budget // 5
        results += [solver.at_least(state, round(end) / 2, node_limit=share) for end in (low, high)]
    for r in results:
        low, high = max(low, r.margin_bounds[0]), min(high, r.margin_bounds[1])
    # each end of the bracket comes from one search, whose verdict it carries
    made = next((r.made for r in results if r.made is not None), None)
    return _narrowed(Outcome(made=made, low=low, high=high, nodes=sum(r.nodes for r in results),
                             partner=sum(state.camps) > 1), *known)


def credit_shift(a: rules.PlayState, b: rules.PlayState) -> Optional[Tuple[int, int]]:
    """How far ``a``'s value lies above ``b``'s (low, high, in half-points) where the two are
    the same card play and differ only in the camp credited with cards set aside (a
    world's garde sans and garde contre: the dog); else None.

    Every line of play then gives the taker the same points more in one of them, and
    the oudlers credited apart change his target by what they are worth against the
    oudlers he wins in play; so the difference lies between the extremes of that over
    the oudlers still in play.
    """
    if (a.hands != b.hands or a.camps != b.camps or a.leader != b.leader or a.trick != b.trick
            or a.tricks != b.tricks or a.variant != b.variant or a.oudler_camp.keys() != b.oudler_camp.keys()
            or a.taker_hp + a.defence_hp != b.taker_hp + b.defence_hp):
        return None
    both = sum(a.oudler_camp[c] and b.oudler_camp[c] for c in a.oudler_camp)  # the taker's in both
    only_a, only_b = a.taker_oudlers() - both, b.taker_oudlers() - both
    target = a.variant.target_half_points
    shifts = [target(both + only_b + won) - target(both + only_a + won)
              for won in range(len(OUDLERS) - len(a.oudler_camp) + 1)]
    return a.taker_hp - b.taker_hp + min(shifts), a.taker_hp - b.taker_hp + max(shifts)


def _narrowed(o: Outcome, low: float, high: float) -> Outcome:
    """``o`` with its bracket cut to [``low``, ``high``] proven elsewhere, decided if that decides it."""
    low, high = max(o.low, low), min(o.high, high)
    made = o.made if o.made is not None else True if low >= 0 else False if high < 0 else None
    return replace(o, made=made, low=low, high=high)


def ask_world(solver: Solver, states: Sequence[rules.PlayState], node_budget: Optional[int],
              margin_budget: Optional[int]) -> List[Outcome]:
    """Every question of one world (:func:`ask`, in order), where two are the same card
    play with the dog credited to one camp or the other (:func:`credit_shift`: a garde
    sans and a garde contre), each narrowed by what the other proved: a question those
    bounds decide is not searched (a failed garde sans makes its garde contre fail), and
    a bracket searched is cut by the other's, shifted."""
    out: List[Outcome] = []
    for j, state in enumerate(states):
        # (i, low, high): question i's value less this one's lies in [low, high] half-points
        related = []
        for i, other in enumerate(states[:j]):
            shift = credit_shift(other, state)
            if shift is not None:
                related.append((i, *shift))
        low, high = -math.inf, math.inf
        for i, lo, hi in related:
            low, high = max(low, out[i].low - hi / 2), min(high, out[i].high - lo / 2)
        # decided by the others: no search, the position's sure bounds only (a shifted end may pass them)
        decided = low >= 0 or high < 0
        o = ask(solver, state, 0 if decided else node_budget, 0 if decided else margin_budget, (low, high))
        for i, lo, hi in related:
            out[i] = _narrowed(out[i], o.low + lo / 2, o.high + hi / 2)
        out.append(o)
    return out


def margin_score(contract: Contract, margin: float, variant: Variant = VARIANT, partner: bool = False) -> int:
    """The taker's score (3U; 2U at three players; at five 2U with a partner, 4U alone) for a
    margin in points, without bonuses (FFT rounding)."""
    oudlers = 3 if margin >= 0 else 0  # any count works; these keep the half-points in range
    taker_hp = variant.target_half_points(oudlers) + int(round(2 * margin))
    return score_margin(contract, margin_points(taker_hp, oudlers, variant), variant=variant, partner=partner).taker


# Statistics --------------------------------------------------------------------------


def wilson(successes: int, n: int) -> Tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _mean_se(xs: Sequence[float]) -> Tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


@dataclass(frozen=True)
class Summary:
    """One option (a contract, or a discard) over the worlds."""

    made: int
    failed: int
    undecided: int
    p_make: float  # an undecided world counts one half
    p_make_ci: Tuple[float, float]  # undecided worlds failed at the low end, made at the high end
    expected_margin: float
    expected_margin_bounds: Tuple[float, float]  # mean of the proven brackets' ends
    expected_score: float
    expected_score_ci: Tuple[float, float]

    @property
    def worlds(self) -> int:
        return self.made + self.failed + self.undecided


def summarize(outcomes: Sequence[Outcome], contract: Contract, variant: Variant = VARIANT) -> Summary:
    """Statistics of one option from its outcomes in every world.

    A decided world counts at the midpoint of its proven bracket (of margins, and of
    scores); an undecided world counts as made or failed by a hair with even odds (a
    margin of 0, a score of 0, one half of a make), so it pushes no option up or down,
    while the intervals take in its whole bracket.
    """
    n = len(outcomes)
    made = sum(1 for o in outcomes if o.made is True)
    undecided = sum(1 for o in outcomes if o.made is None)
    low_scores = [margin_score(contract, o.low, variant, o.partner) for o in outcomes]
    high_scores = [margin_score(contract, o.high, variant, o.partner) for o in outcomes]
    decided = [o.made is not None for o in outcomes]
    low_mean, low_se = _mean_se(low_scores)
    high_mean, high_se = _mean_se(high_scores)
    return Summary(
        made=made,
        failed=n - made - undecided,
        undecided=undecided,
        p_make=(made + undecided / 2) / n,
        p_make_ci=(wilson(made, n)[0], wilson(made + undecided, n)[1]),
        expected_margin=sum((o.low + o.high) / 2 for o, d in zip(outcomes, decided) if d) / n,
        expected_margin_bounds=(sum(o.low for o in outcomes) / n, sum(o.high for o in outcomes) / n),
        expected_score=sum((lo + hi) / 2 for lo, hi, d in zip(low_scores, high_scores, decided) if d) / n,
        expected_score_ci=(low_mean - Z95 * low_se, high_mean + Z95 * high_se),
    )


def expected_unit(outcomes: Sequence[Outcome], contract: Contract, variant: Variant = VARIANT) -> float:
    """The mean unit U of one option over the worlds, each estimated as :func:`summarize`
    estimates its score (a decided world at its bracket's midpoint, an undecided one at
    0): a defender's stake, since he scores -U in every world while the taker's share of
    U differs between worlds at five players (2U with a partner, 4U alone)."""
    return sum((margin_score(contract, o.low, variant, o.partner) + margin_score(contract, o.high, variant, o.partner))
               / 2 / variant.taker_units(o.partner) for o in outcomes if o.made is not None) / len(outcomes)


# Running the worlds ------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """What to solve in each world: a contract played from the opening (``discard``
    None means the simple policy's), or ``card`` played at the position of the task's
    view (play advice)."""

    contract: Contract
    discard: Optional[Tuple[int, ...]] = None
    card: Optional[int] = None


@dataclass(frozen=True)
class _Task:
    constraints: Constraints
    seed: int
    worlds: Tuple[int, ...]
    taker: int
    leader: int
    questions: Tuple[Question, ...]
    node_budget: int
    margin_budget: int
    table_mb: int
    view: Optional[View] = None  # play advice: the position the cards are played at
    called: Optional[int] = None  # five players: the card the taker calls (its holder is his partner)
    stop_at: Optional[float] = None  # the time budget's end (time.time()): worlds unfinished then are dropped


def _run_task(task: _Task) -> Tuple[List[List[Outcome]], float]:
    """Outcomes of every question in each world of the task, and the CPU seconds spent
    (module level: picklable).

    At ``task.stop_at`` the searches stop, and the world they were in is dropped
    with those after it: a world is reported as a run without a time budget
    would give it, or not at all.  World 0 is always solved, so every run has one."""
    cpu = time.process_time()
    solver = worker_solver(task.table_mb)
    solver.clear()
    sampler = Sampler(task.constraints)
    variant = task.constraints.variant
    out = []
    try:
        for index in task.worlds:
            solver.stop_after(None if task.stop_at is None or index == 0 else task.stop_at - time.time())
            world = sampler.sample(world_rng(task.seed, index))
            now = None if task.view is None else world_position(task.view, task.constraints, world)
            states = []
            for q in task.questions:
                if now is not None and q.card is not None:
                    state = now.copy()
                    state.play(q.card)
                else:
                    discard: Optional[Sequence[int]] = None
                    if q.contract.taker_takes_dog:
                        discard = q.discard or simple_discard(world.hands[task.taker] | world.aside, variant)
                    partner = rules.partner_of(world.hands, task.taker, task.called)
                    state = rules.opening_state(world.hands, world.aside, task.taker, q.contract, task.leader,
                                                discard, variant, partner)
                states.append(state)
            row = ask_world(solver, states, task.node_budget, task.margin_budget)
            if solver.past_stop:  # (past it, each search ends at once)
                break
            out.append(row)
    finally:
        solver.stop_after(None)  # (the solver stays with this worker for its next tasks)
    return out, time.process_time() - cpu


@dataclass(frozen=True)
class RunInfo:
    """How a Monte Carlo run went."""

    worlds: int  # worlds solved (fewer than requested when the time budget ran out, or a Ctrl-C came)
    requested: int
    seed: int
    node_budget: int
    margin_budget: int
    nodes: int
    seconds: float  # wall clock
    cpu_seconds: float  # summed over the workers: what the run costs on an idle machine
    undecided_worlds: int  # worlds with at least one undecided question


def _variant_arg(players: object) -> Variant:
    """The variant of the argument ``players``: TypeError if not an integer,
    :class:`RecordError` if no such game is played."""
    return variant_for(integer("players", players))


def _check_count(key: str, value: int, low: int) -> int:
    """An integer argument ``key`` of at least ``low``, as an int: TypeError if not an
    integer, :class:`RecordError` naming it if too small."""
    value = integer(key, value)
    if value < low:
        raise RecordError(f"{key} must be at least {low}, not {value}", key=key, token=str(value))
    return value


def _run(constraints: Constraints, questions: Sequence[Question], *, taker: int, leader: int, worlds: int,
         seed: int, jobs: int, time_budget: Optional[float], node_budget: int, margin_budget: int,
         table_mb: int, worlds_per_task: int, progress: Optional[str],
         advise: Callable[[List[List[Outcome]], RunInfo], AdviceT],
         view: Optional[View] = None, called: Optional[int] = None) -> AdviceT:
    """Solve ``questions`` in worlds 0..worlds-1 (a prefix of them if time runs out), and
    return ``advise(rows, info)``: the outcomes of each world, and how the run went.

    A Ctrl-C after some worlds have finished raises :class:`Interrupted` with ``advise``
    over those worlds (a prefix too: the batches come back in order); before any, it
    is raised as it came."""
    worlds, seed, jobs, node_budget, margin_budget = (
        _check_count(key, value, low) for key, value, low in (
            ("worlds", worlds, 1), ("seed", seed, 0), ("jobs", jobs, 0),
            ("node_budget", node_budget, 1), ("margin_budget", margin_budget, 0)))
    if time_budget is not None and not duration("time_budget", time_budget) > 0:
        raise RecordError(f"time_budget must be a positive number of seconds (or None), not {time_budget!r}",
                          key="time_budget", token=str(time_budget))
    if time_budget == math.inf:  # no stop in sight: as without a budget
        time_budget = None
    try:
        _check_table_mb(table_mb)
    except ValueError as e:
        raise RecordError(str(e), key="table_mb", token=str(table_mb)) from None
    Sampler(constraints)  # raises here, before any process starts, if no deal fits
    start = time.monotonic()
    stop_at = None if time_budget is None else time.time() + time_budget
    # (a generator: a long run stopped by its time budget builds only the tasks it starts)
    tasks = (_Task(constraints, seed, tuple(ws), taker, leader, tuple(questions), node_budget, margin_budget,
                   table_mb, view, called, stop_at) for ws in chunks(range(worlds), worlds_per_task))
    rows: List[List[Outcome]] = []
    cpu = 0.0

    def advised() -> AdviceT:
        """The advice over the worlds in ``rows``."""
        return advise(rows, RunInfo(
            worlds=len(rows),
            requested=worlds,
            seed=seed,
            node_budget=node_budget,
            margin_budget=margin_budget,
            nodes=sum(o.nodes for row in rows for o in row),
            seconds=time.monotonic() - start,
            cpu_seconds=cpu,
            undecided_worlds=sum(1 for row in rows if any(o.made is None for o in row)),
        ))

    results: Iterator[Tuple[List[List[Outcome]], float]] = map_ordered(
        _run_task, tasks, jobs=jobs, progress=progress, total=-(-worlds // worlds_per_task))
    with keeping_partial(advised, lambda: len(rows), worlds):
        try:
            for i, (batch, seconds) in enumerate(results):
                rows.extend(batch)
                cpu += seconds
                cut = len(batch) < min(worlds_per_task, worlds - i * worlds_per_task)  # its last worlds dropped
                if cut or (time_budget is not None and time.monotonic() - start >= time_budget):
                    break
        finally:
            with warnings.catch_warnings():  # joblib warns that it cancels the tasks left
                warnings.filterwarnings("ignore", message=".*have been cancelled", category=UserWarning)
                results.close()  # type: ignore[attr-defined]
    return advised()


# Bid advice --------------------------------------------------------------------------


@dataclass(frozen=True)
class ContractAdvice:
    contract: Contract
    allowed: bool  # the prior bids leave it open
    summary: Summary


@dataclass(frozen=True)
class BidAdvice:
    seat: int
    dealer: int
    hand: Tuple[int, ...]
    bids: Tuple[str, ...]  # the bids made before this seat, in bidding order
    hand_count: Optional[int]  # None at three and five players: the count is for hands of 18
    hand_count_contract: Optional[Contract]  # what the classic count bids (None: pass)
    contracts: Tuple[ContractAdvice, ...]
    recommendation: Optional[Contract]  # None: pass
    run: RunInfo
    called: Optional[int] = None  # five players: the card the taker calls in the worlds

    def advice(self, contract: Contract) -> ContractAdvice:
        return next(a for a in self.contracts if a.contract is contract)


def _cards_arg(cards: CardsLike, key: str, *, ordered: bool = False) -> List[int]:
    """Cards given as numbers or tokens (a list, or one string: tokens, or the grouped
    notation where order does not matter), an error naming the argument ``key``."""
    if ordered and isinstance(cards, (str, list, tuple)):
        return card_sequence(cards, key)  # (a bad token named by its place)
    try:
        if ordered or not isinstance(cards, str):
            return parse_cards(cards, allow_duplicates=True, name=key)
        return parse_hand(cards)
    except TarotError as e:
        raise e.located(key=key)


def _hand_arg(hand: CardsLike, variant: Variant) -> int:
    """The card set of the argument ``hand``, a hand as dealt (:func:`check_hand`), an
    error naming the argument."""
    try:
        return check_hand(_cards_arg(hand, "hand"), variant=variant)
    except TarotError as e:
        raise e.located(key="hand")


def _card_arg(card: Union[None, int, str], key: str) -> Optional[int]:
    """One card given as a number or a token (None stays None)."""
    return None if card is None else _cards_arg([card], key)[0]


def check_hand(hand: Sequence[int], variant: Variant = VARIANT) -> int:
    """The card set of a hand as dealt (18 cards; 24 at three players, 15 at five); raises
    :class:`RecordError` otherwise."""
    if len(hand) != variant.hand_size:
        at = "" if variant is VARIANT else f" at {variant.players} players"
        other = [v for v in VARIANTS.values() if v.hand_size == len(hand)]
        hint = f" (hands of {len(hand)} are the {other[0].players}-player game's)" if other else ""
        raise RecordError(f"a hand holds {variant.hand_size} cards{at}, got {len(hand)}{hint}")
    mask = mask_of(hand)
    if count(mask) != len(hand):
        dup = next(c for i, c in enumerate(hand) if c in hand[:i])
        raise RecordError(f"duplicate card '{card_token(dup)}' in the hand", token=card_token(dup))
    if rules.is_petit_sec(mask):
        raise RecordError("the hand holds the Petit sec (its only trump, and no Excuse): the deal is void",
                          token="T1")
    return mask


def call_for(hand: int, called: Optional[int], variant: Variant) -> Optional[int]:
    """The card the taker calls: at five players ``called`` (checked against his hand as
    dealt) or else the simple policy's (:func:`~tarot_solver.handcount.simple_call`);
    None at other tables, where ``called`` is an error."""
    if not variant.partner_share:
        if called is not None:
            rules.check_calls_here(variant, card_token(called))
        return None
    if called is None:
        return simple_call(hand)
    try:
        rules.check_call(hand, called)
    except TarotError as e:
        raise e.located(key="called")
    return called


def check_dog(hand: int, dog: Sequence[int], variant: Variant = VARIANT) -> int:
    """The card set of the dog, the variant's number of distinct cards (six; three at five players) outside
    ``hand``; raises :class:`RecordError` otherwise."""
    dog_mask = mask_of(dog)
    if len(dog) != variant.dog_size:
        raise RecordError(f"the dog holds {variant.dog_size} cards, got {len(dog)}", key="dog")
    if count(dog_mask) != len(dog):
        dup = card_token(next(c for i, c in enumerate(dog) if c in dog[:i]))
        raise RecordError(f"duplicate card '{dup}' in the dog", key="dog", token=dup)
    clash = hand & dog_mask
    if clash:
        tok = card_token(cards_of(clash)[0])
        raise RecordError(f"'{tok}' is both in the hand and in the dog", key="dog", token=tok)
    return dog_mask


def bidding_position(seat: int, dealer: Optional[int], bids: Optional[Sequence[str]],
                     players: int = VARIANT.players) -> Tuple[int, Tuple[str, ...]]:
    """(dealer, the bids before ``seat`` in canonical form) once checked against each other.

    ``bids`` are the bids made before ``seat`` spoke, from the dealer's right; None
    means everyone before passed.  Without a dealer, the dealer is the seat that makes
    the count right (with no bids: ``seat`` speaks first).
    """
    n = players
    if dealer is not None:
        dealer = seat_argument(dealer, "dealer", players)
    if bids is None:
        bids = ["pass"] * ((seat - dealer - 1) % n if dealer is not None else 0)
    elif isinstance(bids, (str, bytes)) or not isinstance(bids, Iterable):
        raise TypeError(f"bids must be a sequence of bids ('pass', 'garde'...), not {type(bids).__name__}")
    try:
        names = tuple("pass" if str(b).strip().lower() == "pass" else Contract.parse(b).value for b in bids)
        rules.bidding_result(names, n)
    except TarotError as e:
        raise e.located(key="bids")
    if dealer is None:
        if len(names) >= n:
            raise RecordError(f"at most {n - 1} bids come before a seat's own at {n} players, but {len(names)}"
                              " were given", key="bids")
        return (seat - 1 - len(names)) % n, names
    expected = (seat - dealer - 1) % n
    if len(names) != expected:
        raise RecordError(f"seat {seat} speaks after {expected} bid(s) when seat {dealer} deals,"
                          f" but {len(names)} were given", key="bids")
    return dealer, names


def bid_advice(hand: CardsLike, *, seat: int = 0, dealer: Optional[int] = None,
               bids: Optional[Sequence[str]] = None,
               worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED, jobs: int = 0,
               time_budget: Optional[float] = None, node_budget: int = DEFAULT_NODE_BUDGET,
               margin_budget: Optional[int] = None, table_mb: int = DEFAULT_TABLE_MB, progress: Optional[str] = "bid",
               players: int = VARIANT.players, called: Union[None, int, str] = None) -> BidAdvice:
    """Which contract ``seat`` should bid with ``hand`` (cards: numbers or tokens), by Monte Carlo.

    ``margin_budget`` defaults to ``node_budget``; ``table_mb`` is each worker's table
    (MiB), so memory is about ``jobs`` times it.  ``players``: 4, 3 (hands of 24) or
    5 (hands of 15; ``called`` is the card the taker would call, by default the simple
    policy's); the classic count, made for hands of 18, is given at four players only.
    Raises :class:`RecordError` on bad input and
    :class:`~tarot_solver.sampling.ConstraintError` if no deal fits; a Ctrl-C after
    some worlds, :class:`~tarot_solver.errors.Interrupted` with the advice over them.
    """
    variant = _variant_arg(players)
    players = variant.players
    seat = seat_argument(seat, "seat", players)
    mask = _hand_arg(hand, variant)
    called = call_for(mask, _card_arg(called, "called"), variant)
    dealer, names = bidding_position(seat, dealer, bids, players)
    prior = rules.bidding_result(names, players)
    floor = prior[1].rank if prior else 0
    questions = (Question(DOG_QUESTION), Question(Contract.GARDE_SANS), Question(Contract.GARDE_CONTRE))
    column = {DOG_QUESTION: 0, Contract.GARDE_SANS: 1, Contract.GARDE_CONTRE: 2}
    count_points = hand_count(mask) if variant is VARIANT else None

    def advise(rows: List[List[Outcome]], info: RunInfo) -> BidAdvice:
        advice = []
        for contract in CONTRACTS:
            j = column[DOG_QUESTION if contract.taker_takes_dog else contract]
            advice.append(ContractAdvice(contract, contract.rank > floor,
                                         summarize([r[j] for r in rows], contract, variant)))
        best = max((a for a in advice if a.allowed), key=lambda a: a.summary.expected_score, default=None)
        return BidAdvice(
            seat=seat,
            dealer=dealer,
            hand=tuple(cards_of(mask)),
            bids=names,
            hand_count=count_points,
            hand_count_contract=None if count_points is None else contract_for(count_points),
            contracts=tuple(advice),
            recommendation=best.contract if best is not None and best.summary.expected_score > 0 else None,
            run=info,
            called=called,
        )

    return _run(hand_constraints(seat, mask, variant=variant), questions, taker=seat,
                leader=(dealer + 1) % players,
                worlds=worlds, seed=seed, jobs=jobs, time_budget=time_budget, node_budget=node_budget,
                margin_budget=node_budget if margin_budget is None else margin_budget,
                table_mb=table_mb, worlds_per_task=BID_WORLDS_PER_TASK, progress=progress, advise=advise,
                called=called)


# Discard advice ----------------------------------------------------------------------


def discard_candidates(hand_and_dog: int, limit: int = DEFAULT_CANDIDATES,
                       variant: Variant = VARIANT) -> List[Tuple[int, ...]]:
    """A few sensible legal discards from the taker's cards and the dog, the simple policy's first.

    When the rules leave no choice of plain cards (as many as the dog's size or fewer
    may be discarded, so the lowest trumps make up the rest), the policy's discard is
    the only candidate.  Otherwise, for each set of suits that can be voided (no king,
    the dog's size in cards at most), most voids first, the places left are filled
    two ways: *banking* (the most valuable cards of suits without their king first:
    points in the discard are safe) and *shortening* (the lowest cards of the shortest
    suits, keeping honours).  Duplicates are dropped and the first ``limit`` kept.
    """
    size = variant.dog_size
    out = [tuple(simple_discard(hand_and_dog, variant))]
    plain = rules.discardable(hand_and_dog) & ~TRUMPS_MASK
    if count(plain) <= size:
        return out
    suits = range(4)
    length = {s: count(hand_and_dog & suit_mask(s)) for s in suits}
    kinged = {s for s in suits if any(is_king(c) for c in cards_of(hand_and_dog & suit_mask(s)))}
    voidable = [s for s in suits if 0 < length[s] <= size and s not in kinged]
    fills = (lambda c: (c // 14 in kinged, -half_points(c), length[c // 14], c),  # bank
             lambda c: (length[c // 14], half_points(c), c))  # shorten
    for k in range(len(voidable), -1, -1):
        for voids in itertools.combinations(voidable, k):
            base = [c for s in voids for c in cards_of(hand_and_dog & suit_mask(s))]
            if len(base) > size:
                continue
            rest = [c for c in cards_of(plain) if c // 14 not in voids]
            for key in fills:
                cand = tuple(sorted(base + sorted(rest, key=key)[:size - len(base)]))
                if cand not in out:
                    rules.check_discard(hand_and_dog, cand, variant)
                    out.append(cand)
    return out[:limit]


@dataclass(frozen=True)
class DiscardCandidate:
    discard: Tuple[int, ...]
    summary: Summary
    policy: bool  # the simple policy's discard


@dataclass(frozen=True)
class DiscardAdvice:
    seat: int
    dealer: int
    hand: Tuple[int, ...]
    dog: Tuple[int, ...]
    contract: Contract
    candidates: Tuple[DiscardCandidate, ...]  # best first
    run: RunInfo
    called: Optional[int] = None  # five players: the card the taker called

    @property
    def recommendation(self) -> Tuple[int, ...]:
        return self.candidates[0].discard


def discard_advice(hand: CardsLike, dog: CardsLike, contract: Union[Contract, str], *, seat: int = 0,
                   dealer: Optional[int] = None, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
                   jobs: int = 0, time_budget: Optional[float] = None, node_budget: int = DEFAULT_NODE_BUDGET,
                   margin_budget: Optional[int] = None, candidates: int = DEFAULT_CANDIDATES,
                   table_mb: int = DEFAULT_TABLE_MB, progress: Optional[str] = "discard",
                   players: int = VARIANT.players,
                   called: Union[None, int, str] = None) -> DiscardAdvice:
    """Which cards (six; three at five players) the taker at ``seat`` should put aside, by Monte Carlo.

    Every candidate of :func:`discard_candidates` is played in the same worlds; the
    ranking is by expected score.  ``dealer`` defaults to the seat before the taker (the
    taker leads).  ``players``: 4, 3 or 5 (``called``: the card the taker called, by
    default the simple policy's).  Raises :class:`RecordError` on bad input; a Ctrl-C
    after some worlds, :class:`~tarot_solver.errors.Interrupted` with the advice over them.
    """
    variant = _variant_arg(players)
    players = variant.players
    seat = seat_argument(seat, "seat", players)
    contract = contract_argument(contract)
    if not contract.taker_takes_dog:
        raise RecordError(f"no discard in a {contract.value}: the taker does not take the dog", key="contract",
                          token=contract.value)
    mask = _hand_arg(hand, variant)
    dog_mask = check_dog(mask, _cards_arg(dog, "dog"), variant)
    called = call_for(mask, _card_arg(called, "called"), variant)
    candidates = _check_count("candidates", candidates, 1)
    dealer = seat_argument((seat - 1) % players if dealer is None else dealer, "dealer", players)
    cands = discard_candidates(mask | dog_mask, candidates, variant)
    questions = [Question(contract, c) for c in cands]

    def advise(rows: List[List[Outcome]], info: RunInfo) -> DiscardAdvice:
        ranked = [DiscardCandidate(c, summarize([r[j] for r in rows], contract, variant), j == 0)
                  for j, c in enumerate(cands)]
        ranked.sort(key=lambda d: (-d.summary.expected_score, -d.summary.p_make))
        return DiscardAdvice(seat=seat, dealer=dealer, hand=tuple(cards_of(mask)), dog=tuple(cards_of(dog_mask)),
                             contract=contract, candidates=tuple(ranked), run=info, called=called)

    return _run(hand_constraints(seat, mask, dog_mask, variant), questions, taker=seat,
                leader=(dealer + 1) % players, worlds=worlds, seed=seed, jobs=jobs,
                time_budget=time_budget, node_budget=node_budget,
                margin_budget=node_budget if margin_budget is None else margin_budget,
                table_mb=table_mb, worlds_per_task=DISCARD_WORLDS_PER_TASK, progress=progress,
                advise=advise, called=called)


# Play advice -------------------------------------------------------------------------


def world_position(view: View, constraints: Constraints, world: World) -> rules.PlayState:
    """The position ``view`` reached, in ``world``: the hands as dealt there, then the cards played."""
    taker, contract, leader = play_setup(view.taker, view.contract, view.leader)
    hands = constraints.dealt_hands(world)
    if view.took_dog:
        dog, discard = view.dog or 0, cards_of(world.aside)
    else:
        dog, discard = world.aside, None
    partner = rules.partner_of(hands, taker, view.called)
    state = rules.opening_state(hands, dog, taker, contract, leader, discard, constraints.variant, partner)
    for card in view.played:
        state.play(card)
    return state


def view_of(seat: int, hand: CardsLike, *, taker: int, contract: Union[Contract, str], leader: int,
            dog: Optional[CardsLike] = None, discard: Optional[CardsLike] = None,
            played: CardsLike = (), poignees: Sequence[Tuple[int, CardsLike]] = (),
            players: int = VARIANT.players, called: Union[None, int, str] = None) -> View:
    """What ``seat`` knows, checked: its ``hand`` as dealt, the ``dog`` of a prise or garde,
    the ``discard`` (the taker's whole discard; for the others, the trumps shown from it),
    the cards ``played`` from the first lead and the poignées shown, at a table of
    ``players`` (at five, the card the taker ``called``).  Raises :class:`RecordError`
    naming the key and the card that do not fit, the play checked against what the seat
    holds and has seen (the seat need not be on turn: :func:`play_advice` asks that).
    Cards are numbers or tokens; ``poignees`` holds (seat, cards) pairs."""
    variant = _variant_arg(players)
    players = variant.players
    seat, taker, leader = (seat_argument(value, key, players)
                           for key, value in (("seat", seat), ("taker", taker), ("leader", leader)))
    for i, item in enumerate(poignees):
        if isinstance(item, str) or not (isinstance(item, Sequence) and len(item) == 2):
            raise TypeError(f"poignees[{i}] must be a (seat, cards) pair, not {spelled(item)}")
    contract = contract_argument(contract)
    called = _card_arg(called, "called")
    dog_cards = None if dog is None else _cards_arg(dog, "dog")
    discard_cards = None if discard is None else _cards_arg(discard, "discard")
    plays = _cards_arg(played, "played", ordered=True)
    shows = [(seat_argument(shower, f"poignees[{i}]", players), _cards_arg(cards, f"poignees[{i}]"))
             for i, (shower, cards) in enumerate(poignees)]
    mask = _hand_arg(hand, variant)
    if variant.partner_share and called is None:
        raise RecordError("at five players the card the taker called is needed", key="called")
    if called is not None and (seat == taker or not variant.partner_share):
        call_for(mask, called, variant)  # (no call but at five players)
    elif called is not None:
        try:
            revealed = rules.call_reveals(called) & mask
        except TarotError as e:
            raise e.located(key="called")
        if revealed:
            raise RecordError(f"calling '{card_token(called)}' shows the taker holds every card above it,"
                              f" but seat {seat} holds '{card_token(cards_of(revealed)[0])}'", key="called",
                              token=card_token(called))
    dog_mask = None
    if dog_cards is None and contract.taker_takes_dog:
        raise RecordError(f"a {contract.value} shows the dog to all: it is needed", key="dog")
    if dog_cards is not None:
        if not contract.taker_takes_dog:
            raise RecordError(f"the dog of a {contract.value} is not shown", key="dog")
        dog_mask = check_dog(mask, dog_cards, variant)
    aside = None
    if discard_cards is not None:
        if not contract.taker_takes_dog:
            raise RecordError(f"no discard in a {contract.value}: the taker does not take the dog", key="discard")
        aside = mask_of(discard_cards)
        if seat == taker:
            try:
                rules.check_discard(mask | (dog_mask or 0), discard_cards, variant)
            except TarotError as e:
                raise e.located(key="discard")
        else:
            for c in discard_cards:
                if suit_of(c) != TRUMPS or is_oudler(c) or (mask | (dog_mask or 0)) >> c & 1:
                    raise RecordError(f"'{card_token(c)}' cannot be a trump shown from the taker's discard",
                                      key="discard", token=card_token(c))
            # the dog's plain discardable cards are the taker's too: trumps only make up the rest
            plain = count(rules.discardable(dog_mask or 0) & ~TRUMPS_MASK)
            if count(aside) > max(0, variant.dog_size - plain):
                tok = card_token(discard_cards[0])
                raise RecordError(f"'{tok}' cannot be a trump shown from the taker's discard: the dog alone gave"
                                  f" him {plain} other cards to discard (trumps only to make up {variant.dog_size},"
                                  f" here at most {max(0, variant.dog_size - plain)})", key="discard", token=tok)
    elif contract.taker_takes_dog:
        if seat == taker:
            raise RecordError("the taker knows his discard: it is needed", key="discard")
        aside = 0  # no trump shown from it
    # the hand the seat plays from: the taker's after the dog and the discard
    playing = (mask | (dog_mask or 0)) & ~(aside or 0) if seat == taker and aside is not None else mask
    shown: List[Tuple[int, int]] = []
    before = have_played(leader, len(plays), players)
    for i, (shower, cards) in enumerate(shows):
        if shower != seat and shower not in before:
            raise RecordError(f"seat {shower} has played no card yet: his poignée is not shown (it is, just before"
                              " his first card)", key=f"poignees[{i}]", token=str(shower))
        if any(other == shower for other, _ in shown):  # as a record refuses it
            raise RecordError(f"seat {shower} shows a second poignée", key=f"poignees[{i}]", token=str(shower))
        try:
            rules.poignee_level(playing if shower == seat else mask_of(cards), cards, variant)
        except RecordError as e:
            raise e.located(key="poignees")
        others = 0  # what the other seats' poignées showed
        for other, other_cards in shown:
            others |= other_cards if other != shower else 0
        for clash, holder in ((mask_of(cards) & mask if shower != seat else 0, f"seat {seat} holds it"),
                              (mask_of(cards) & others, "another seat showed it"),
                              (mask_of(cards) & (aside or 0), "it is in the taker's discard")):
            if clash:
                tok = card_token(cards_of(clash)[0])
                raise RecordError(f"seat {shower} shows '{tok}' in a poignée, but {holder}", key=f"poignees[{i}]",
                                  token=tok)
        shown.append((shower, mask_of(cards)))
    for i, c in enumerate(plays):
        if c in plays[:i]:
            raise RecordError(f"'{card_token(c)}' is played twice", key=f"played[{i}]", token=card_token(c))
    view = View(seat=seat, hand=mask, taker=taker, contract=contract, leader=leader, dog=dog_mask, aside=aside,
                played=tuple(plays), poignees=tuple(shown), players=players, called=called)
    view.constraints()  # the play against the seat's cards (a card of his played by another...): refused now
    return view


def equivalent_cards(state: rules.PlayState) -> List[Tuple[int, ...]]:
    """The legal cards of the player on turn, in classes of cards that play alike.

    Two cards of one suit are alike when they are worth the same and every card
    between them lies in a completed trick or in this hand: then whoever holds the
    other cards, swapping the two changes no trick's winner nor any count.  (The
    cards on the table separate, the oudlers stand alone, and the Excuse is a class
    of its own.)  Classes are listed lowest card first.
    """
    seat = state.to_play
    gone = state.hands[seat]
    for t in state.tricks:
        gone |= mask_of(t.cards)
    classes: List[List[int]] = []
    for card in cards_of(state.legal()):
        last = classes[-1][-1] if classes else None
        if (last is not None and suit_of(last) == suit_of(card) < EXCUSE_SUIT and not is_oudler(card)
                and not is_oudler(last) and half_points(last) == half_points(card)
                and all(gone >> c & 1 for c in range(last + 1, card))):
            classes[-1].append(card)
        else:
            classes.append([card])
    return [tuple(c) for c in classes]


@dataclass(frozen=True)
class CardChoice:
    cards: Tuple[int, ...]  # a class of cards that play alike, lowest first
    summary: Summary  # the taker's outcome after playing one of them

    @property
    def card(self) -> int:
        return self.cards[0]


@dataclass(frozen=True)
class PlayAdvice:
    seat: int  # the player on turn, whose knowledge the worlds respect
    taker: int
    contract: Contract
    trick: Tuple[int, ...]  # cards on the table, from the lead
    tricks_done: int
    hand: Tuple[int, ...]
    taker_camp: bool  # the seat plays for the taker's camp (and wants his score high)
    choices: Tuple[CardChoice, ...]  # best first for the seat's camp
    run: RunInfo

    @property
    def recommendation(self) -> int:
        return self.choices[0].card


def play_advice(position: Union[DealRecord, View], *, worlds: int = DEFAULT_WORLDS, seed: int = DEFAULT_SEED,
                jobs: int = 0, time_budget: Optional[float] = None, node_budget: int = DEFAULT_NODE_BUDGET,
                margin_budget: Optional[int] = None, table_mb: int = DEFAULT_TABLE_MB,
                progress: Optional[str] = "play") -> PlayAdvice:
    """Which card to play, by Monte Carlo, from what the player on turn knows.

    ``position``: a deal record (the player on turn at its position decides; only
    what he can see is used), or a :class:`~tarot_solver.sampling.View` of the seat
    on turn.  The worlds deal the cards that player cannot see, consistently with
    everything the table has shown him; each class of cards that play alike
    (:func:`equivalent_cards`) is played in every world and the rest of the deal
    solved double-dummy.  The ranking is by the taker's expected score, highest
    first for the taker's camp, lowest first for the defence; at five players a
    defender's by the expected unit U (:func:`expected_unit`), his own stake.  Raises
    :class:`RecordError` if the position cannot be played on or is over, and
    :class:`~tarot_solver.sampling.ConstraintError` if no deal fits the view; a
    Ctrl-C after some worlds, :class:`~tarot_solver.errors.Interrupted` with the
    advice over them.
    """
    if isinstance(position, DealRecord):
        view = View.of_record(position, position.position().to_play)
    elif isinstance(position, View):
        view = position
        check_hand(cards_of(view.hand), variant=variant_for(view.players))
    else:
        raise TypeError(f"position must be a DealRecord or a View, not {type(position).__name__}")
    constraints = view.constraints()
    seed = _check_count("seed", seed, 0)  # (world 0 is drawn here, before _run checks the rest)
    state = world_position(view, constraints, Sampler(constraints).sample(world_rng(seed, 0)))
    if state.over:
        raise RecordError("the game is over: no card is left to play", key="played")
    if state.to_play != view.seat:
        raise RecordError(f"seat {state.to_play} is on turn after the cards played, not seat {view.seat}",
                          key="seat", token=str(view.seat))
    taker, contract, leader = play_setup(view.taker, view.contract, view.leader)
    classes = equivalent_cards(state)
    sign = 1 if state.camps[view.seat] else -1

    by_unit = sign < 0 and bool(constraints.variant.partner_share)

    def advise(rows: List[List[Outcome]], info: RunInfo) -> PlayAdvice:
        outcomes = [[r[j] for r in rows] for j in range(len(classes))]
        choices = [CardChoice(c, summarize(o, contract, constraints.variant)) for c, o in zip(classes, outcomes)]
        units = {c: expected_unit(o, contract, constraints.variant) for c, o in zip(classes, outcomes) if by_unit}
        choices.sort(key=lambda ch: ((units[ch.cards] if by_unit else -sign * ch.summary.expected_score),
                                     -sign * ch.summary.p_make))
        return PlayAdvice(seat=view.seat, taker=taker, contract=contract, trick=tuple(state.trick),
                          tricks_done=state.tricks_done, hand=tuple(cards_of(state.hands[view.seat])),
                          taker_camp=state.camps[view.seat], choices=tuple(choices), run=info)

    return _run(constraints, [Question(contract, card=c[0]) for c in classes], taker=taker,
                leader=leader, worlds=worlds, seed=seed, jobs=jobs, time_budget=time_budget,
                node_budget=node_budget, margin_budget=node_budget if margin_budget is None else margin_budget,
                table_mb=table_mb, worlds_per_task=DISCARD_WORLDS_PER_TASK, progress=progress, advise=advise,
                view=view)
