"""Monte Carlo advice: statistics, candidates, reproducibility, -j independence, the CLI."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import statistics
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, List, Tuple

import pytest
from click.testing import CliRunner

from tarot_solver import Solver, advice, read_record, rules, sampling
from tarot_solver.advice import Outcome, ask, margin_score, summarize, wilson
from tarot_solver.cards import OUDLERS, cards_of, mask_of, parse_cards, tokens
from tarot_solver.cli import main
from tarot_solver.errors import Interrupted, RecordError, TarotError
from tarot_solver.handcount import best_taker, contract_for, hand_count, simple_discard
from tarot_solver.notation import format_hand, parse_hand
from tarot_solver.records import DealRecord, read_records
from tarot_solver.solver import SolveResult
from tarot_solver.variant import CONTRACTS, Contract

from conftest import EXAMPLES, ctrl_c_at_call

# a hand that makes everything and one that fails everything: the solver decides both fast
STRONG = parse_cards("T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 EX KS KH KD KC T1")
WEAK = parse_cards("1S 2S 3S 4S 5S 1H 2H 3H 4H 5H 1D 2D 3D 4D 1C 2C 3C T2")
EXAMPLE_HAND = (EXAMPLES / "hand.txt").read_text().strip()
EXAMPLE_DOG = "9S KS 5C CC QC T4"
FAST = dict(worlds=4, node_budget=20_000, progress=None, jobs=1)
CLI_FAST = ["--worlds", "4", "--node-budget", "20000", "-j", "1"]


# Statistics --------------------------------------------------------------------------------


@pytest.mark.parametrize("contract, margin, expected", [
    (Contract.PRISE, 0, 75), (Contract.PRISE, -0.5, -78), (Contract.GARDE, 10, 210),
    (Contract.GARDE_SANS, 10.5, 432), (Contract.GARDE_CONTRE, -56, -1458), (Contract.GARDE_CONTRE, 55, 1440),
])
def test_margin_score_is_the_fft_score(contract: Contract, margin: float, expected: int) -> None:
    assert margin_score(contract, margin) == expected


def test_wilson_interval() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_wilson_interval_stays_within_0_and_1() -> None:
    # the ends are 0 and 1 exactly where the formula's rounding would step just past them
    assert wilson(0, 7)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def test_undecided_worlds_widen_the_intervals_and_count_as_even() -> None:
    outcomes = [Outcome(True, 4.0, 10.0, 0), Outcome(False, -20.0, -10.0, 0),
                Outcome(None, -50.0, 55.0, 0), Outcome(None, -40.0, 30.0, 0)]
    s = summarize(outcomes, Contract.GARDE)
    assert (s.made, s.failed, s.undecided, s.worlds) == (1, 1, 2, 4)
    assert s.p_make == 0.5
    assert s.p_make_ci == (wilson(1, 4)[0], wilson(3, 4)[1])
    assert s.expected_margin == pytest.approx((7 - 15) / 4)
    assert s.expected_margin_bounds == (-106 / 4, 85 / 4)
    decided = (margin_score(Contract.GARDE, 4) + margin_score(Contract.GARDE, 10)) / 2 \
        + (margin_score(Contract.GARDE, -20) + margin_score(Contract.GARDE, -10)) / 2
    assert s.expected_score == pytest.approx(decided / 4)
    # a 95 % normal interval: the mean of the low scores less 1.96 standard errors, the high ones' plus
    lows = [margin_score(Contract.GARDE, o.low) for o in outcomes]
    highs = [margin_score(Contract.GARDE, o.high) for o in outcomes]
    assert s.expected_score_ci == (pytest.approx(statistics.mean(lows) - 1.959964 * statistics.stdev(lows) / 2),
                                   pytest.approx(statistics.mean(highs) + 1.959964 * statistics.stdev(highs) / 2))


def test_two_worlds_have_a_standard_error() -> None:
    # two worlds at garde, made by 10 and failed by 10: the scores 210 and -210, whose sample
    # standard deviation is 210 * sqrt(2), a standard error of 210
    s = summarize([Outcome(True, 10.0, 10.0, 0), Outcome(False, -10.0, -10.0, 0)], Contract.GARDE)
    assert s.expected_score == 0
    assert s.expected_score_ci == (pytest.approx(-1.959964 * 210), pytest.approx(1.959964 * 210))


def _example_deal_cut(seed: int, tricks_left: int) -> rules.PlayState:
    """examples/deal.json after a random legal prefix, ``tricks_left`` tricks to play."""
    state = read_record(EXAMPLES / "deal.json").state()
    rng = random.Random(seed)
    for _ in range(state.variant.players * (state.total_tricks - tricks_left)):
        state.play(rng.choice(cards_of(state.legal())))
    return state


def test_undecided_question_is_bracketed_by_probes() -> None:
    state = _example_deal_cut(0, 10)
    exact = Solver(64).solve(state, pv=False).margin
    first = Solver(16).made(state, node_limit=2000)
    assert not first.complete
    o = ask(Solver(16), state, 2000, 500_000)
    assert o.low <= exact <= o.high
    assert o.high - o.low < first.margin_bounds[1] - first.margin_bounds[0]
    assert o.made in (None, exact >= 0)


def test_a_question_without_limits_is_exact() -> None:
    state = _example_deal_cut(1, 8)
    exact = Solver(64).solve(state, pv=False).margin
    o = ask(Solver(16), state, None, None)
    assert (o.low, o.high, o.made) == (exact, exact, exact >= 0)
    assert ask(Solver(16), state, 0, 0).nodes == 0  # (0: no search)


class _StandInSolver:
    """A solver whose make/fail probe proves ``bounds`` (decided where they meet) and whose
    other searches answer for a margin of ``margin``; ``calls`` records each search's target
    and node limit."""

    def __init__(self, bounds: Tuple[float, float], margin: float) -> None:
        self.bounds, self.margin = bounds, margin
        self.calls: List[Any] = []

    def made(self, state: Any, *, node_limit: int) -> SolveResult:
        self.calls.append(("made", node_limit))
        low, high = self.bounds
        return SolveResult(low if low == high else None, (low, high), low == high,
                           True if low >= 0 else False if high < 0 else None, nodes=node_limit)

    def at_least(self, state: Any, margin: float, *, node_limit: int) -> SolveResult:
        self.calls.append((margin, node_limit))
        low, high = (margin, self.bounds[1]) if self.margin >= margin else (self.bounds[0], margin - 0.5)
        return SolveResult(None, (low, high), True, True if low >= 0 else False if high < 0 else None,
                           nodes=node_limit)

    def solve(self, state: Any, *, node_limit: int, pv: bool) -> SolveResult:
        self.calls.append(("solve", node_limit))
        return SolveResult(self.margin, (self.margin, self.margin), True, self.margin >= 0, nodes=node_limit)


def test_an_undecided_question_probes_halfway_from_its_proven_ends_on_a_fifth_of_the_budget() -> None:
    # the make/fail probe leaves [-40, 30] open, the margin is 7; with [-30, 10] proven
    # elsewhere, the probes ask for -15 and 5 on 1000 // 5 nodes each, and the second (at
    # least 5) decides the question
    solver: Any = _StandInSolver((-40.0, 30.0), 7.0)
    four: Any = SimpleNamespace(camps=(True, False, False, False))
    assert ask(solver, four, 3000, 1000, (-30.0, 10.0)) == Outcome(True, 5.0, 10.0, 3400, partner=False)
    assert solver.calls == [("made", 3000), (-15.0, 200), (5.0, 200)]
    # the taker has a partner where another seat plays in his camp (five players)
    five: Any = SimpleNamespace(camps=(True, False, True, False, False))
    assert ask(solver, five, 3000, 1000, (-30.0, 10.0)).partner


def test_a_related_question_shifted_to_a_margin_of_0_is_made_without_a_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first question's margin is exactly 0, and the second's is the same (a shift of 0):
    # a margin of 0 makes the contract, so the second is decided by its static bounds alone
    monkeypatch.setattr(advice, "credit_shift", lambda a, b: (0, 0))
    solver: Any = _StandInSolver((0.0, 0.0), 0.0)
    state: Any = SimpleNamespace(camps=(True, False, False, False))
    first, second = advice.ask_world(solver, [state, state], 3000, 1000)
    assert solver.calls == [("made", 3000), ("solve", 1000), ("made", 0)]
    assert (second.made, second.low, second.high, second.nodes) == (True, 0.0, 0.0, 0)


def _sans_and_contre(rng: random.Random, dog_oudlers: int, tricks_left: int) -> List[rules.PlayState]:
    """A random deal's garde sans and garde contre, with ``dog_oudlers`` oudlers in the dog,
    played alike by a random legal prefix to ``tricks_left`` tricks left (and some cards of
    the next trick)."""
    deck = [c for c in range(78) if c not in OUDLERS]
    rng.shuffle(deck)
    chosen = rng.sample(OUDLERS, dog_oudlers)
    dog_cards = chosen + deck[:6 - dog_oudlers]
    rest = [c for c in OUDLERS if c not in chosen] + deck[6 - dog_oudlers:]
    rng.shuffle(rest)
    hands = [mask_of(rest[18 * i: 18 * (i + 1)]) for i in range(4)]
    taker, leader = rng.randrange(4), rng.randrange(4)
    states = [rules.opening_state(hands, mask_of(dog_cards), taker, c, leader)
              for c in (Contract.GARDE_SANS, Contract.GARDE_CONTRE)]
    for _ in range(4 * (18 - tricks_left) + rng.randrange(4)):
        card = rng.choice(cards_of(states[0].legal()))
        for st in states:
            st.play(card)
    return states


@pytest.mark.parametrize("dog_oudlers", [0, 1, 2, 3])
def test_garde_sans_and_contre_differ_by_the_dog_within_the_shift(dog_oudlers: int) -> None:
    # the same play, the dog credited to one camp or the other: each exact pair of values
    # lies within the proven shift, and the shift is one value but with one oudler there
    rng = random.Random(20261206 + dog_oudlers)
    solver, wide = Solver(16), 0
    for _ in range(25):
        sans, contre = _sans_and_contre(rng, dog_oudlers, rng.choice((1, 2, 3)))
        low, high = advice.credit_shift(sans, contre)
        assert advice.credit_shift(contre, sans) == (-high, -low)
        assert low >= 0 and (low == high or dog_oudlers == 1)
        wide += low != high
        diff = 2 * (solver.solve(sans, pv=False).margin - solver.solve(contre, pv=False).margin)
        assert low <= diff <= high, (low, diff, high)
    assert bool(wide) == (dog_oudlers == 1)


def test_a_world_s_related_questions_narrow_each_other_soundly() -> None:
    # tiny budgets leave questions undecided; what one proves cuts the other's bracket,
    # and a garde sans that fails decides its garde contre without a search
    rng = random.Random(7)
    exact_solver, skipped, narrowed = Solver(16), 0, 0
    for i in range(40):
        sans, contre = _sans_and_contre(rng, i % 4, rng.choice((3, 6, 8)))
        both = advice.ask_world(Solver(16), [sans, contre], 200, 200)
        alone = ask(Solver(16), sans, 200, 200)
        assert both[0].nodes == alone.nodes  # (the first is asked as it would be alone)
        for st, o in zip((sans, contre), both):
            exact = exact_solver.solve(st, pv=False).margin
            assert o.low <= exact <= o.high
            assert o.made in (None, exact >= 0)
        if both[1].nodes == 0:  # (its sure bounds only)
            skipped += 1
            assert both[1].made is not None
        narrowed += (both[0].low, both[0].high) != (alone.low, alone.high)
    assert skipped and narrowed


def test_a_bracket_cut_to_a_margin_of_zero_or_more_is_made() -> None:
    # a margin of exactly 0 makes the contract: a bracket proven elsewhere that starts at 0 decides it
    undecided = Outcome(None, -5.0, 10.0, 7)
    assert advice._narrowed(undecided, 0.0, 20.0) == Outcome(True, 0.0, 10.0, 7)
    assert advice._narrowed(undecided, -20.0, -0.5) == Outcome(False, -5.0, -0.5, 7)
    assert advice._narrowed(undecided, -0.5, 20.0).made is None
    assert advice._narrowed(undecided, -20.0, 0.0).made is None  # (a margin of 0 would make it)


# Bid advice ----------------------------------------------------------------------------------


def test_strong_hand_bids_the_highest_contract_and_weak_hand_passes() -> None:
    strong = advice.bid_advice(STRONG, **FAST)
    assert strong.recommendation is Contract.GARDE_CONTRE
    assert all(a.summary.made == 4 for a in strong.contracts)
    weak = advice.bid_advice(WEAK, **FAST)
    assert weak.recommendation is None
    assert all(a.summary.failed == 4 and a.summary.p_make_ci[1] < 0.5 for a in weak.contracts)
    assert weak.run.undecided_worlds == 0


def test_prior_bids_restrict_the_contracts() -> None:
    res = advice.bid_advice(STRONG, seat=2, dealer=0, bids=["pass"], **FAST)  # no bid yet: the prise too
    assert [a.allowed for a in res.contracts] == [True, True, True, True]
    res = advice.bid_advice(STRONG, seat=2, dealer=0, bids=["garde"], **FAST)
    assert [a.allowed for a in res.contracts] == [False, False, True, True]
    res = advice.bid_advice(STRONG, seat=2, bids=["pass", "garde_contre"], **FAST)
    assert res.dealer == 3 and res.recommendation is None
    assert not any(a.allowed for a in res.contracts)


def test_each_contract_is_scored_from_its_own_question_and_0_is_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # prise and garde share each world's first question (the dog taken), garde sans and garde
    # contre have the second and the third.  Made by 10 in every world: prise 35 x 3 = 105,
    # garde 210; the garde sans failed by 5: -30 x 4 x 3 = -360; the garde contre undecided: 0
    row = [Outcome(True, 10.0, 10.0, 1), Outcome(False, -5.0, -5.0, 1), Outcome(None, -20.0, 20.0, 1)]
    monkeypatch.setattr(advice, "_run_task", lambda task: ([list(row) for _ in task.worlds], 0.0))
    res = advice.bid_advice(STRONG, worlds=8, progress=None, jobs=1)
    assert [a.summary.expected_score for a in res.contracts] == [105, 210, -360, 0]
    assert res.advice(Contract.GARDE_CONTRE).summary.undecided == 8
    assert res.recommendation is Contract.GARDE
    assert (res.run.worlds, res.run.undecided_worlds, res.run.nodes) == (8, 8, 24)
    # every question undecided: every expected score 0, none positive, a pass
    row[:] = [Outcome(None, -20.0, 20.0, 1)] * 3
    res = advice.bid_advice(STRONG, worlds=8, progress=None, jobs=1)
    assert [a.summary.expected_score for a in res.contracts] == [0, 0, 0, 0]
    assert res.recommendation is None


def test_contracts_that_tie_recommend_the_lowest(monkeypatch: pytest.MonkeyPatch) -> None:
    # the garde made by 25 in every world scores (25 + 25) x 2 x 3 = 300, the garde sans
    # made by 0 scores 25 x 4 x 3 = 300 too: the lower stake is recommended
    row = [Outcome(True, 25.0, 25.0, 1), Outcome(True, 0.0, 0.0, 1), Outcome(False, -30.0, -30.0, 1)]
    monkeypatch.setattr(advice, "_run_task", lambda task: ([list(row) for _ in task.worlds], 0.0))
    res = advice.bid_advice(STRONG, worlds=4, progress=None, jobs=1)
    assert [a.summary.expected_score for a in res.contracts][1:3] == [300, 300]
    assert res.recommendation is Contract.GARDE


@pytest.mark.parametrize("kwargs, message", [
    (dict(seat=2, dealer=0, bids=["pass", "garde"]), "seat 2 speaks after 1 bid(s) when seat 0 deals"),
    (dict(bids=["garde", "prise"]), "does not beat the previous bid"),
    (dict(bids=["gardez"]), "unknown contract 'gardez'"),
    # as many bids as players would count the seat's own among them
    (dict(bids=["pass", "pass", "prise", "garde"]), "at most 3 bids come before a seat's own at 4 players, but 4"),
    (dict(worlds=0), "at least 1"),
])
def test_bad_bid_arguments(kwargs: Any, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        advice.bid_advice(STRONG, **{**FAST, **kwargs})


def test_bad_hands() -> None:
    with pytest.raises(RecordError, match="holds 18 cards, got 17"):
        advice.bid_advice(STRONG[:17], **FAST)
    with pytest.raises(RecordError, match="duplicate card 'T21'"):
        advice.bid_advice(STRONG[:17] + STRONG[:1], **FAST)
    sec = parse_cards("T1 1S 2S 3S 4S 5S 6S 1H 2H 3H 4H 5H 6H 1D 2D 3D 4D 5D")
    with pytest.raises(RecordError, match="Petit sec"):
        advice.bid_advice(sec, **FAST)


def test_seed_reproducibility_and_jobs_independence() -> None:
    hand = parse_hand(EXAMPLE_HAND)
    kw = dict(worlds=6, node_budget=30_000, progress=None)
    one = advice.bid_advice(hand, jobs=1, seed=3, **kw)
    two = advice.bid_advice(hand, jobs=2, seed=3, **kw)
    again = advice.bid_advice(hand, jobs=1, seed=3, **kw)
    other = advice.bid_advice(hand, jobs=1, seed=4, **kw)
    assert one.contracts == two.contracts == again.contracts
    assert one.run.nodes == two.run.nodes
    assert other.contracts != one.contracts


def test_time_budget_keeps_a_prefix_of_the_worlds() -> None:
    # however short the budget, world 0 is solved; the report equals a run asked for that many
    res = advice.bid_advice(WEAK, worlds=3 * advice.BID_WORLDS_PER_TASK, node_budget=20_000, jobs=1,
                            time_budget=1e-9, progress=None)
    assert res.run.worlds == 1 and res.run.requested == 3 * advice.BID_WORLDS_PER_TASK
    one = advice.bid_advice(WEAK, worlds=1, node_budget=20_000, jobs=1, progress=None)
    assert one.contracts == res.contracts


def test_an_infinite_time_budget_is_no_budget() -> None:
    # (it reached Solver.stop_after as inf: a traceback from the command line)
    res = invoke(["bid", EXAMPLE_HAND, "--time-budget", "inf", "--json"] + CLI_FAST)
    assert res.exit_code == 0, res.stderr
    same = invoke(["bid", EXAMPLE_HAND, "--json"] + CLI_FAST)
    a, b = json.loads(res.stdout), json.loads(same.stdout)
    assert a["worlds"] == b["worlds"] == 4 and a["contracts"] == b["contracts"]


def test_a_batch_cut_short_ends_the_run_at_its_last_world(monkeypatch: pytest.MonkeyPatch) -> None:
    # the worlds reported are a prefix: once a batch comes back without its last worlds (its
    # searches stopped by the time budget), the batches after it are not taken
    def batch(task: Any) -> Any:
        worlds = task.worlds[:2] if task.worlds[0] == 4 else task.worlds
        return [[Outcome(True, float(w), float(w), 1)] * 3 for w in worlds], 0.0

    monkeypatch.setattr(advice, "_run_task", batch)
    res = advice.bid_advice(STRONG, worlds=12, time_budget=3600, progress=None, jobs=1)
    assert (res.run.worlds, res.run.requested) == (6, 12)
    assert res.advice(Contract.PRISE).summary.expected_margin == pytest.approx((0 + 1 + 2 + 3 + 4 + 5) / 6)


@pytest.mark.parametrize("jobs", [1, 2])
def test_time_budget_stops_the_searches_running_and_drops_their_worlds(jobs: int) -> None:
    # searches of up to a million nodes: the budget ends inside a batch, in the middle of a world;
    # that world is dropped, and the ones reported are those of a run without a budget
    kw = dict(node_budget=500_000, margin_budget=500_000, seed=5, progress=None)
    hand = parse_hand(EXAMPLE_HAND)
    res = advice.bid_advice(hand, worlds=40, jobs=jobs, time_budget=2.0, **kw)
    assert 1 <= res.run.worlds < 40
    same = advice.bid_advice(hand, worlds=res.run.worlds, jobs=1, **kw)
    assert same.contracts == res.contracts and same.run.nodes == res.run.nodes


ADVICE_CALLS: Any = {  # each asks 40 worlds, one task = 4 worlds for bid, 1 for discard and play
    "bid": lambda **kw: advice.bid_advice(EXAMPLE_HAND, **kw),
    "discard": lambda **kw: advice.discard_advice(EXAMPLE_HAND, EXAMPLE_DOG, "garde", candidates=2, **kw),
    "play": lambda **kw: advice.play_advice(_prefix(25), **kw),
}


@pytest.mark.parametrize("name", ADVICE_CALLS)
def test_a_ctrl_c_raises_the_advice_over_the_worlds_finished(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a KeyboardInterrupt (as before) carrying what a run asked for those worlds gives
    call = ADVICE_CALLS[name]
    kw = dict(node_budget=20_000, seed=2, progress=None, jobs=1)
    ctrl_c_at_call(monkeypatch, advice, "_run_task", 3)
    with pytest.raises(KeyboardInterrupt) as info:
        call(worlds=40, **kw)
    stop = info.value
    assert isinstance(stop, Interrupted)
    n = 2 * (advice.BID_WORLDS_PER_TASK if name == "bid" else advice.DISCARD_WORLDS_PER_TASK)
    assert (stop.done, stop.total) == (n, 40)
    monkeypatch.undo()
    same = call(worlds=n, **kw)
    assert (stop.partial.run.worlds, stop.partial.run.requested) == (n, 40)
    timeless = dict(seconds=0.0, cpu_seconds=0.0, requested=n)
    assert (dataclasses.replace(stop.partial, run=dataclasses.replace(stop.partial.run, **timeless))
            == dataclasses.replace(same, run=dataclasses.replace(same.run, **timeless)))


def test_a_ctrl_c_before_any_world_has_finished_is_raised_as_it_came(monkeypatch: pytest.MonkeyPatch) -> None:
    ctrl_c_at_call(monkeypatch, advice, "_run_task", 1)
    with pytest.raises(KeyboardInterrupt) as info:
        advice.bid_advice(EXAMPLE_HAND, **FAST)
    assert type(info.value) is KeyboardInterrupt


# Discard advice ------------------------------------------------------------------------------


def test_discard_candidates_are_legal_distinct_and_start_with_the_policy() -> None:
    full = mask_of(parse_hand(EXAMPLE_HAND) + parse_cards(EXAMPLE_DOG))
    cands = advice.discard_candidates(full, limit=20)
    assert cands[0] == tuple(simple_discard(full))
    assert len(set(cands)) == len(cands) > 3
    for c in cands:
        rules.check_discard(full, c)
    assert advice.discard_candidates(full, limit=2) == cands[:2]


def test_banking_fills_with_the_most_valuable_cards_of_the_kingless_suits() -> None:
    # hearts (one card) voided, five places left: the queens of diamonds and clubs and the
    # club knight first (spades hold their king), then the lowest diamonds (the shorter suit)
    full = mask_of(parse_hand(EXAMPLE_HAND) + parse_cards(EXAMPLE_DOG))
    assert tuple(sorted(parse_cards("7H QD QC CC 1D 2D"))) in advice.discard_candidates(full, limit=20)


@pytest.mark.parametrize("hand, count", [
    # trumps 6x2, the 21 10, the Excuse 8, the Petit with six trumps 7, majors T20 T16 2;
    # spades: king with its queen 10, five cards 5; hearts: a bare king 6; diamonds:
    # queen 3, knight 2, jack 1; clubs: a singleton 3
    ("T21 T20 T16 T15 T2 T1 EX KS QS 2S 3S 4S KH 1H QD CD JD 1C", 69),
    # trumps 5x2, the Petit with five trumps 5, seven spades 9, a club void 6
    ("T1 T3 T5 T7 T9 1S 2S 3S 4S 5S 6S 7S 1H 2H 3H 1D 2D 3D", 30),
    # the Petit with four trumps counts nothing; six hearts 7, two voids
    ("T1 T2 T3 T4 1S 2S 3S 4S 5S 6S 1H 2H 3H 4H 5H 6H 7H 8H", 8 + 7 + 9 + 12),
    # trumps 8x2, the Petit with seven trumps or more 9, a club void 6
    ("T1 T2 T3 T4 T5 T6 T7 T8 1S 2S 3S 1H 2H 3H 1D 2D 3D 4D", 16 + 9 + 6),
])
def test_hand_count_follows_the_documented_scale(hand: str, count: int) -> None:
    # the scale of tarot_solver/handcount.py's docstring, counted by hand
    assert hand_count(mask_of(parse_cards(hand))) == count


def test_hand_count_thresholds_and_ties() -> None:
    # pass under 40, prise 40-55, garde 56-70, garde sans 71-80, garde contre above 80
    assert [contract_for(p) for p in (39, 40, 55, 56, 70, 71, 80, 81)] == [
        None, Contract.PRISE, Contract.PRISE, Contract.GARDE, Contract.GARDE, Contract.GARDE_SANS,
        Contract.GARDE_SANS, Contract.GARDE_CONTRE]
    strong, weak = mask_of(STRONG), mask_of(WEAK)
    assert best_taker([weak, strong, strong, weak]) == 1  # the lowest seat on ties


def test_simple_discard_voids_the_shortest_suits_then_banks_points() -> None:
    # handcount.simple_discard: spades (2) then hearts (3) are voided, shortest first; the
    # clubs (4) no longer fit, the diamonds hold a king; the last card is the most valuable
    # of the shortest suit left, the queen of clubs
    hand_and_dog = parse_cards("1S 2S 3H 4H 5H KD QD CD JD 1D 2D 3D QC 1C 2C 3C T21 T1 EX T5 T6 T7 T8 T9")
    discard = simple_discard(mask_of(hand_and_dog))
    assert discard == sorted(parse_cards("1S 2S 3H 4H 5H QC"))
    rules.check_discard(mask_of(hand_and_dog), discard)
    # a kingless suit of exactly six cards fits, and is voided whole; the shorter suits
    # hold their kings and are kept
    hand_and_dog = parse_cards("KS 1S KH 2H 3H KD 2D 3D 4D 1C 2C 3C 4C 5C 6C T21 T1 T2 T3 T4 T5 T6 T7 T8")
    assert simple_discard(mask_of(hand_and_dog)) == sorted(parse_cards("1C 2C 3C 4C 5C 6C"))


def test_a_kingless_suit_of_the_dogs_size_is_voided() -> None:
    hand_and_dog = mask_of(parse_cards("1S 2S 4H 8H JH CH 2D 8D JD 1C 3C 4C 5C 9C 10C T3 T8 T9"
                                       " T10 T16 T19 T20 T21 EX"))
    assert tuple(parse_cards("1C 3C 4C 5C 9C 10C")) in advice.discard_candidates(hand_and_dog, limit=20)


def test_equal_expected_scores_rank_the_likelier_make_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two discards of the same expected score (0 points at garde): the one that makes more often first."""
    margins = [(35, 5), (-5, 5), (-5, -35)]  # (first candidate, second) in three worlds

    def run(constraints: Any, questions: Any, *, advise: Any, **kwargs: Any) -> Any:
        assert len(questions) == 2
        rows = [[Outcome(m >= 0, m, m, 1) for m in world] for world in margins]
        return advise(rows, advice.RunInfo(worlds=3, requested=3, seed=0, node_budget=1, margin_budget=1, nodes=6,
                                    seconds=0.0, cpu_seconds=0.0, undecided_worlds=0))

    monkeypatch.setattr(advice, "_run", run)
    res = advice.discard_advice("1S 2S 4H 8H JH CH 2D 8D JD 1C 3C 4C 5C 9C 10C T3 T8 T9", "T10 T16 T19 T20 T21 EX",
                                "garde", candidates=2, progress=None)
    assert [c.summary.expected_score for c in res.candidates] == [0, 0]
    assert [c.summary.p_make for c in res.candidates] == [pytest.approx(2 / 3), pytest.approx(1 / 3)]
    assert not res.candidates[0].policy and res.recommendation == res.candidates[0].discard


def test_the_worlds_are_played_from_the_dealer_s_right(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first lead is the dealer's right, for the bid advice and the discard advice alike
    seen = []

    def run(constraints: Any, questions: Any, *, taker: int, leader: int, **kwargs: Any) -> Any:
        seen.append((taker, leader))

    monkeypatch.setattr(advice, "_run", run)
    advice.bid_advice(STRONG, seat=2, dealer=0, bids=["pass"], progress=None)
    advice.discard_advice(EXAMPLE_HAND, EXAMPLE_DOG, "garde", seat=2, dealer=0, progress=None)
    advice.discard_advice(EXAMPLE_HAND, EXAMPLE_DOG, "garde", seat=1, progress=None)  # dealt by seat 0
    assert seen == [(2, 1), (2, 1), (1, 1)]


def test_forced_discard_has_one_candidate() -> None:
    hand = parse_cards("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 KS KH KD")
    full = mask_of(hand + parse_cards("1S 2S 3S T17 T18 T19"))
    assert advice.discard_candidates(full) == [tuple(parse_cards("1S 2S 3S T2 T3 T4"))]


def test_discard_advice_ranks_candidates_on_the_same_worlds() -> None:
    res = advice.discard_advice(parse_hand(EXAMPLE_HAND), parse_cards(EXAMPLE_DOG), Contract.GARDE, candidates=4,
                                **FAST)
    assert len(res.candidates) == 4
    assert all(c.summary.worlds == 4 for c in res.candidates)
    scores = [c.summary.expected_score for c in res.candidates]
    assert scores == sorted(scores, reverse=True)
    assert res.recommendation == res.candidates[0].discard
    assert sum(c.policy for c in res.candidates) == 1
    two = advice.discard_advice(parse_hand(EXAMPLE_HAND), parse_cards(EXAMPLE_DOG), Contract.GARDE, candidates=4,
                                **{**FAST, "jobs": 2})
    assert two.candidates == res.candidates


@pytest.mark.parametrize("dog, contract, message", [
    ("9S KS 5C CC QC", Contract.GARDE, "the dog holds 6 cards, got 5"),
    ("9S KS 5C CC QC QC", Contract.GARDE, "duplicate card 'QC' in the dog"),
    ("CS KS 5C CC QC T4", Contract.GARDE, "'CS' is both in the hand and in the dog"),
    (EXAMPLE_DOG, Contract.GARDE_SANS, "no discard in a garde_sans"),
])
def test_bad_discard_arguments(dog: str, contract: Contract, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        advice.discard_advice(parse_hand(EXAMPLE_HAND), parse_cards(dog, allow_duplicates=True), contract, **FAST)


# Command line --------------------------------------------------------------------------------


def invoke(args: List[str]) -> Any:
    return CliRunner().invoke(main, args)


def assert_one_line_error(result: Any, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tarot-solve: error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_bid_json_follows_the_contract() -> None:
    result = invoke(["bid", " ".join(tokens(STRONG)), "--seed", "2", "--json"] + CLI_FAST)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out["contracts"]) == {c.value for c in CONTRACTS}
    for entry in out["contracts"].values():
        assert {"p_make", "p_make_ci", "expected_score", "expected_margin", "undecided"} <= set(entry)
        assert entry["p_make_ci"][0] <= entry["p_make"] <= entry["p_make_ci"][1]
    assert out["recommendation"] == "garde_contre"
    assert (out["worlds"], out["seed"], out["undecided_worlds"]) == (4, 2, 0)
    # every key docs/advice.md lists
    assert {"seat", "dealer", "hand", "bids", "hand_count", "hand_count_contract", "contracts", "recommendation",
            "discard_policy", "worlds", "worlds_requested", "seed", "undecided_worlds", "node_budget", "margin_budget",
            "nodes", "seconds", "cpu_seconds"} <= set(out)
    assert out["discard_policy"] == "simple"


def test_bid_text_marks_the_contracts_below_the_bids() -> None:
    text = invoke(["bid", EXAMPLE_HAND, "--seat", "1", "--dealer", "3", "--bids", "garde"] + CLI_FAST).stdout
    rows = {line.split()[0]: line for line in text.splitlines() if line.split()[:1] in (["prise"], ["garde"],
                                                                                      ["garde_sans"], ["garde_contre"])}
    assert [name for name, row in rows.items() if row.endswith("  (below the bids)")] == ["prise", "garde"]
    assert len(rows) == 4 and text.startswith("seat 1 (dealer 3, after garde): ")


def test_bid_from_a_text_file_and_from_a_record(write: Callable[[str, str], Path]) -> None:
    from_text = invoke(["bid", str(EXAMPLES / "hand.txt"), "--seat", "1", "--dealer", "2", "--json"] + CLI_FAST)
    from_record = invoke(["bid", str(EXAMPLES / "deal.json"), "--json"] + CLI_FAST)
    typed = invoke(["bid", EXAMPLE_HAND, "--seat", "1", "--dealer", "2", "--bids", "pass pass", "--json"] + CLI_FAST)
    assert from_text.exit_code == from_record.exit_code == typed.exit_code == 0, from_record.output
    a, b, c = (json.loads(r.stdout) for r in (from_text, from_record, typed))
    assert b["seat"] == 1 and b["dealer"] == 2 and b["bids"] == ["pass", "pass"]  # the record's taker
    assert (a["id"], b["id"], c["id"]) == (None, "example-deal", None)  # a record's id is echoed
    assert a["hand"] == b["hand"] == c["hand"]
    assert b["contracts"] == c["contracts"]
    stdin = CliRunner().invoke(main, ["bid", "-", "--json"] + CLI_FAST, input=format_hand(STRONG))
    assert json.loads(stdin.stdout)["recommendation"] == "garde_contre"


def test_bid_text_report() -> None:
    result = invoke(["bid", " ".join(tokens(WEAK))] + CLI_FAST)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("seat 0 (dealer 3): ")
    assert any(line.startswith("garde_contre") for line in lines)
    assert lines[-1] == "recommendation: pass (no open contract has a positive expected score)"
    blind = invoke(["bid", " ".join(tokens(WEAK)), "--worlds", "2", "--node-budget", "1", "--margin-budget", "0",
                    "-j", "1"])
    assert blind.stdout.splitlines()[-1] == ("recommendation: pass (no world decided for any open contract"
                                             " within the node budget: not measured)")
    closed = invoke(["bid", str(EXAMPLES / "hand.txt"), "--bids", "garde_contre", "--worlds", "2",
                     "--node-budget", "1", "--margin-budget", "0", "-j", "1"])
    assert closed.stdout.splitlines()[-1] == "recommendation: pass (no contract is left to bid above a garde contre)"


def test_the_run_line_counts_one_world_in_the_singular() -> None:
    one = invoke(["bid", str(EXAMPLES / "hand.txt"), "--worlds", "1", "--node-budget", "1", "--margin-budget", "0",
                  "-j", "1"])
    assert one.exit_code == 0, one.output
    lines = one.stdout.splitlines()
    assert lines[2].startswith("1 world (seed 0), budgets 1 + 0 nodes per question, ")
    assert lines[3].startswith("1 of 1 world has a question the solver left undecided within its budget: it counts"
                               " as made or failed by a hair")


def test_discard_cli_from_tokens_and_record() -> None:
    typed = invoke(["discard", EXAMPLE_HAND, "--dog", EXAMPLE_DOG, "--contract", "garde", "--seat", "1",
                    "--dealer", "2", "--candidates", "3", "--json"] + CLI_FAST)
    record = invoke(["discard", str(EXAMPLES / "deal.json"), "--candidates", "3", "--json"] + CLI_FAST)
    assert typed.exit_code == record.exit_code == 0, typed.output + record.output
    a, b = json.loads(typed.stdout), json.loads(record.stdout)
    assert a["candidates"] == b["candidates"] and len(a["candidates"]) == 3
    assert (a["id"], b["id"]) == (None, "example-deal")
    assert a["recommendation"] == a["candidates"][0]["discard"]
    text = invoke(["discard", EXAMPLE_HAND, "--dog", EXAMPLE_DOG, "--contract", "prise", "--candidates", "2"]
                  + CLI_FAST)
    assert text.exit_code == 0 and text.stdout.splitlines()[-1].startswith("recommendation: discard ")
    # the simple policy's discard is marked among the candidates
    policy = [c["discard"] for c in json.loads(invoke(["discard", EXAMPLE_HAND, "--dog", EXAMPLE_DOG, "--contract",
                                                       "prise", "--candidates", "2", "--json"] + CLI_FAST).stdout)[
        "candidates"] if c["policy"]]
    assert [line.split()[1:7] for line in text.stdout.splitlines() if line.endswith("  (simple policy)")] == policy
    # options given with a record stand for its values
    given = json.loads(invoke(["discard", str(EXAMPLES / "deal.json"), "--dealer", "0", "--contract", "prise",
                               "--candidates", "1", "--json"] + CLI_FAST).stdout)
    assert (b["dealer"], b["contract"], given["dealer"], given["contract"]) == (2, "garde", 0, "prise")


def test_discard_says_when_its_recommendation_rests_on_no_decided_world() -> None:
    args = ["discard", EXAMPLE_HAND, "--dog", EXAMPLE_DOG, "--contract", "prise", "--candidates", "2",
            "--worlds", "2", "-j", "1"]
    blind = invoke(args + ["--node-budget", "1", "--margin-budget", "0"])
    assert blind.exit_code == 0, blind.output
    assert blind.stdout.splitlines()[-1].endswith("(no world decided for it within the node budget:"
                                                  " its rank is not measured)")
    strong = invoke(["discard", "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T1 EX KS KH KD KC QS",
                     "--dog", "1S 2S 3S 4S 5S 6S", "--contract", "garde", "--candidates", "2", "--worlds", "2",
                     "-j", "1", "--node-budget", "20000"])
    assert strong.exit_code == 0, strong.output
    assert strong.stdout.splitlines()[-1] == "recommendation: discard 1S 2S 3S 4S 5S 6S"


@pytest.mark.parametrize("args, fragments", [
    (["bid", "KS QS ZZ"], ("key 'HAND'", "unknown card 'ZZ'")),
    (["play", "KS QS ZZ", "--seat", "1", "--taker", "1", "--contract", "garde", "--dealer", "0"],
     ("key 'POSITION'", "unknown card 'ZZ'")),
    (["bid", "KS QS 7H"], ("key 'HAND'", "holds 18 cards, got 3",)),
    (["bid", "KS Q\u200bS 7H"], ("key 'HAND'", "unknown card 'Q\\u200bS' (it holds a character that does not print)")),
    (["bid", EXAMPLE_HAND, "--seat", "4"], ("key '--seat'", "bad seat '4'")),
    (["bid", EXAMPLE_HAND, "--players", "6"], ("'--players': 6 is not in the range 3<=x<=5", "(see 'tarot-solve bid --help')")),
    (["discard", EXAMPLE_HAND, "--dog", "9S KS 5C CC QC", "--contract", "garde"],
     ("key '--dog'", "the dog holds 6 cards, got 5")),
    (["play", "KS QS 7H", "--seat", "1", "--taker", "1", "--contract", "garde", "--dealer", "0"],
     ("key 'POSITION'", "holds 18 cards, got 3")),
    (["play", EXAMPLE_HAND, "--seat", "1", "--taker", "4", "--contract", "garde", "--dealer", "0"],
     ("key '--taker'", "bad seat '4'")),
    (["bid", "nofile.txt"], ("key 'HAND'", "'nofile.txt' is neither a file nor a hand",)),
    (["bid", "x" * 1000], ("key 'HAND'", "'" + "x" * 37 + "...' is neither a file nor a hand",)),  # cut short
    (["bid", EXAMPLE_HAND, "--bids", "pass,gardez"], ("unknown contract 'gardez'",)),
    (["bid", EXAMPLE_HAND, "--dealer", "0", "--bids", "pass"], ("speaks after 3 bid(s)",)),
    (["discard", EXAMPLE_HAND, "--dog", "9S KS 5C CC QC ZZ", "--contract", "garde"], ("--dog", "'ZZ'")),
    (["discard", EXAMPLE_HAND, "--dog", EXAMPLE_DOG, "--contract", "garde_contre"], ("no discard",)),
    (["discard", EXAMPLE_HAND, "--dog", "9S KS 5C CC QC CS", "--contract", "prise"], ("'CS'",)),
    (["discard", str(EXAMPLES / "game.json"), "--contract", "garde_sans"],
     ("key '--contract'", "no discard in a garde_sans")),
    (["bid", EXAMPLE_HAND, "--bids", "foo"], ("key '--bids'", "unknown contract 'foo'")),
    (["bid", EXAMPLE_HAND, "--bids", "garde,prise"], ("key '--bids'", "does not beat the previous bid")),
    # an empty bid between two commas is not dropped
    (["bid", EXAMPLE_HAND, "--bids", "pass,,garde"], ("key '--bids'", "unknown contract ''")),
    (["discard", EXAMPLE_HAND, "--dog", EXAMPLE_DOG, "--contract", "gard"], ("key '--contract'", "'gard'")),
    (["bid", EXAMPLE_HAND, "--called", "KS"], ("key '--called'", "no card is called at 4 players")),
])
def test_bad_input_is_one_line_and_exit_2(args: List[str], fragments: Any) -> None:
    assert_one_line_error(invoke(args + CLI_FAST), *fragments)


def test_a_hand_file_of_the_wrong_size_is_named(write: Callable[[str, str], Path]) -> None:
    path = write("hand17.txt", "S:C H:7 D:Q9821 C:1094 T:21.20.19.17.14.13.3\n")
    assert_one_line_error(invoke(["bid", str(path)] + CLI_FAST), f"{path}: a hand holds 18 cards, got 17")


def test_a_hand_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"S:C H:7 D:Q9821 C:1094 T:21.20.19.17.14.13.3.\xe9\n")
    for command in ("bid", "play"):
        assert_one_line_error(invoke([command, str(path)] + CLI_FAST), str(path),
                              "line 1: not UTF-8 text (bad byte at column 46)")


def test_bad_record_file_names_the_file(write: Callable[[str, str], Path]) -> None:
    path = write("bad.json", '{"hands": [["KS"]], "dog": []}\n')
    assert_one_line_error(invoke(["bid", str(path), "--seat", "0"] + CLI_FAST), "bad.json")
    hand = write("hand.txt", "KS QS ZZ\n")
    assert_one_line_error(invoke(["bid", str(hand)] + CLI_FAST), "hand.txt", "'ZZ'")


def test_discard_needs_a_dog_and_a_contract() -> None:
    for args in (["--contract", "garde"], ["--dog", EXAMPLE_DOG]):
        result = invoke(["discard", EXAMPLE_HAND, *args] + CLI_FAST)
        assert result.exit_code == 2 and result.stdout == ""
        assert "missing option" in result.stderr


# Play advice ---------------------------------------------------------------------------------


def _prefix(k: int) -> Any:
    """The example game with its first ``k`` cards played."""
    game = read_record(EXAMPLES / "game.json")
    return dataclasses.replace(game, played=game.played[:k])


def _random_endgames(seed: int, n: int) -> List[rules.PlayState]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [mask_of(deck[18 * i: 18 * i + 18]) for i in range(4)]
        state = rules.opening_state(hands, mask_of(deck[72:]), rng.randrange(4), Contract.GARDE_SANS,
                                    rng.randrange(4))
        for _ in range(4 * rng.choice((14, 15)) + rng.randrange(4)):
            state.play(rng.choice(cards_of(state.legal())))
        out.append(state)
    return out


def test_equivalent_cards_have_equal_values() -> None:
    solver = Solver(16)
    merged = 0
    for state in _random_endgames(45, 300):
        classes = advice.equivalent_cards(state)
        assert sorted(c for cls in classes for c in cls) == cards_of(state.legal())
        if all(len(cls) == 1 for cls in classes):
            continue
        values = solver.solve(state, all_cards=True, pv=False).cards
        assert values is not None
        for cls in classes:
            assert len({values[c].margin for c in cls}) == 1, (tokens(cls), [values[c].margin for c in cls])
            merged += len(cls) - 1
    assert merged > 50, merged


def test_equivalent_cards_are_separated_by_live_cards_values_and_oudlers() -> None:
    state = _prefix(25).state()  # the taker ruffs 1S with T8-T11, T18, T20, T21 (T12-T17, T19 out)
    assert [tokens(c) for c in advice.equivalent_cards(state)] == [["T8", "T9", "T10", "T11"], ["T18"], ["T20"],
                                                                   ["T21"]]
    state = _prefix(22).state()  # 4C 6C on the table: the defender follows T4, T12, T16 (not alike)
    assert [tokens(c) for c in advice.equivalent_cards(state)] == [["T4"], ["T12"], ["T16"]]


def test_play_advice_averages_the_worlds_the_player_cannot_tell_apart() -> None:
    record = _prefix(52)  # five tricks left, a defender to lead
    res = advice.play_advice(record, worlds=6, seed=5, jobs=1, progress=None)
    state = record.state()
    assert res.seat == state.to_play and not res.taker_camp and res.run.undecided_worlds == 0
    assert {c for ch in res.choices for c in ch.cards} == set(cards_of(state.legal()))
    constraints = sampling.record_constraints(record, res.seat)
    sampler = sampling.Sampler(constraints)
    solver = Solver(16)
    expected = {}
    for ch in res.choices:
        margins = []
        for i in range(6):
            world = sampler.sample(sampling.world_rng(5, i))
            assert world.hands[res.seat] == state.hands[res.seat]
            position = advice.world_position(sampling.View.of_record(record, res.seat), constraints, world)
            position.play(ch.card)
            margins.append(solver.solve(position, pv=False).margin)
        expected[ch.card] = sum(margins) / 6
        assert ch.summary.expected_margin == pytest.approx(expected[ch.card])
    # a defender wants the taker's score low: the ranking is by expected score, lowest first
    scores = [ch.summary.expected_score for ch in res.choices]
    assert scores == sorted(scores) and res.recommendation == res.choices[0].card


def test_play_advice_for_the_taker_ranks_highest_first_and_is_reproducible() -> None:
    record = _prefix(25)
    kw = dict(worlds=4, node_budget=50_000, progress=None)
    one = advice.play_advice(record, jobs=1, seed=2, **kw)
    two = advice.play_advice(record, jobs=2, seed=2, **kw)
    assert one.taker_camp and one.seat == one.taker == 1
    assert one.choices == two.choices and one.run.nodes == two.run.nodes
    scores = [ch.summary.expected_score for ch in one.choices]
    assert scores == sorted(scores, reverse=True)


def test_equal_expected_scores_rank_the_card_likelier_to_go_the_players_way_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # in three worlds, the first class of cards lets the taker make by 35 and fail by 5 twice,
    # every other class make by 5 twice and fail by 35: an expected score of 0 for each; the
    # taker plays the likelier make first, a defender the likelier fail
    def run(constraints: Any, questions: Any, *, advise: Any, **kwargs: Any) -> Any:
        first = [Outcome(m >= 0, m, m, 1) for m in (35, -5, -5)]
        other = [Outcome(m >= 0, m, m, 1) for m in (5, 5, -35)]
        rows = [[first[w]] + [other[w]] * (len(questions) - 1) for w in range(3)]
        return advise(rows, advice.RunInfo(3, 3, 0, 1, 1, 0, 0.0, 0.0, 0))

    monkeypatch.setattr(advice, "_run", run)
    for k, taker_camp in ((25, True), (52, False)):
        res = advice.play_advice(_prefix(k), progress=None)
        assert res.taker_camp is taker_camp and len(res.choices) > 1
        assert [ch.summary.expected_score for ch in res.choices] == [0] * len(res.choices)
        p_make = [ch.summary.p_make for ch in res.choices]
        assert p_make == sorted(p_make, reverse=taker_camp) and len(set(p_make)) == 2


def test_the_takers_poignee_may_show_trumps_from_the_dog() -> None:
    # h04: seat 0 takes, shows a poignée holding trumps of the dog, plays after the first lead
    game = next(r for r in read_records(EXAMPLES / "history.jsonl") if r.id == "h04")
    record = dataclasses.replace(game, played=(game.played or [])[:1])
    assert record.poignees and mask_of(record.poignees[0][1]) & mask_of(record.dog)
    view = advice.view_of(0, record.hands[0], taker=0, contract=record.contract, leader=record.first_leader,
                          dog=record.dog, discard=record.discard, played=record.played or [],
                          poignees=record.poignees)
    assert advice.play_advice(view, **FAST).choices == advice.play_advice(record, **FAST).choices


def test_play_advice_on_the_last_card_of_a_deal() -> None:
    game = read_record(EXAMPLES / "game.json")
    last = dataclasses.replace(game, played=(game.played or [])[:71])
    res = advice.play_advice(last, **FAST)
    assert res.recommendation == (game.played or [])[71] and len(res.choices) == 1
    final = game.final_state().margin_hp() / 2
    assert res.choices[0].summary.expected_margin == final  # every world ends the same: the cards are all known


def test_play_advice_needs_a_card_to_play() -> None:
    with pytest.raises(RecordError, match="the game is over"):
        advice.play_advice(read_record(EXAMPLES / "game.json"), **FAST)
    obj = _prefix(4).to_json()
    for key in ("taker", "contract", "discard"):
        del obj[key]
    with pytest.raises(RecordError, match="without taker and contract"):
        advice.play_advice(DealRecord.from_json(obj), **FAST)


def test_play_cli() -> None:
    path = EXAMPLES / "play.json"
    assert read_record(path).played == _prefix(25).played
    out = invoke(["play", str(path), "--json"] + CLI_FAST)
    assert out.exit_code == 0, out.output
    r = json.loads(out.stdout)
    assert (r["seat"], r["taker"], r["contract"], r["camp"], r["trick_number"]) == (1, 1, "garde", "taker", 7)
    assert r["trick"] == ["1S"] and r["recommendation"] == r["choices"][0]["cards"][0]
    assert {"cards", "p_make", "p_make_ci", "expected_score", "expected_margin", "undecided"} <= set(r["choices"][0])
    text = invoke(["play", str(path)] + CLI_FAST).stdout.splitlines()
    assert r["id"] == "example-play"
    assert text[0] == "deal example-play: seat 1 to play (the taker, garde), trick 7, on the table: 1S"
    assert text[-1].startswith(f"recommendation: play {r['recommendation']} (the highest expected score")
    midgame = invoke(["play", str(EXAMPLES / "midgame.json")] + CLI_FAST).stdout.splitlines()
    assert midgame[0] == ("deal example-midgame: seat 3 to play (a defender, seat 1's garde), trick 10,"
                          " on the table: JC T3")
    assert midgame[-1] == "recommendation: play T16 (the only legal card)"  # (no club, one trump, no Excuse)
    # a class of many cards widens the card column: every row stays aligned
    long = invoke(["play", "S:K H:K D:K72 C:K5 T:21.20.16.15.14.13.12.11.10.1 EX", "--seat", "0", "--taker", "0",
                   "--contract", "garde_sans", "--dealer", "3", *CLI_FAST]).stdout.splitlines()
    start = next(i for i, x in enumerate(long) if x.startswith("rank"))
    table = long[start:long.index("", start)]
    assert any("T10 T11 T12 T13 T14 T15 T16" in row for row in table)
    assert len({row.index("[") for row in table[1:]}) == 1


def test_play_cli_bad_input(bad_input: Any, write: Callable[[str, str], Path]) -> None:
    path = write(bad_input.name, bad_input.text)
    assert_one_line_error(invoke(["play", str(path)] + CLI_FAST), *bad_input.fragments)
    assert_one_line_error(invoke(["play", str(EXAMPLES / "game.json")] + CLI_FAST), "game.json",
                          "key 'played'", "the game is over")


def _typed_view(record: DealRecord, seat: int) -> List[str]:
    """The options of `tarot-solve play` saying what ``seat`` has seen of ``record``."""
    args = [" ".join(tokens(record.hands[seat])), "--seat", str(seat), "--taker", str(record.taker),
            "--contract", record.contract.value, "--dealer", str(record.dealer), "--dog", " ".join(tokens(record.dog)),
            "--played", " ".join(tokens(record.played))]
    discard = [c for c in record.discard if seat == record.taker or c >= 56]
    return args + (["--discard", " ".join(tokens(discard))] if discard else [])


@pytest.mark.parametrize("k", [22, 25])
def test_play_from_a_typed_view_equals_play_from_the_record(k: int, write: Callable[[str, str], Path]) -> None:
    record = _prefix(k)
    seat = record.state().to_play
    from_record = invoke(["play", str(write("p.json", json.dumps(record.to_json()))), "--json"] + CLI_FAST)
    typed = invoke(["play", *_typed_view(record, seat), "--json"] + CLI_FAST)
    assert from_record.exit_code == typed.exit_code == 0, typed.output
    a, b = json.loads(from_record.stdout), json.loads(typed.stdout)
    for key in ("seconds", "cpu_seconds", "id"):  # (a typed view has no id)
        del a[key], b[key]
    assert a == b and a["seat"] == seat


@pytest.mark.parametrize("command, example", [("bid", "deal.json"), ("discard", "deal.json"), ("play", "play.json")])
def test_a_record_on_stdin_is_read_as_from_its_file(command: str, example: str) -> None:
    """'-' takes a deal record as well as a hand, for each command taking either."""
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    from_file = invoke([command, str(EXAMPLES / example), "--json"] + CLI_FAST)
    from_stdin = CliRunner().invoke(main, [command, "-", "--json"] + CLI_FAST, input=text)
    assert from_file.exit_code == from_stdin.exit_code == 0, from_stdin.output
    a, b = json.loads(from_file.stdout), json.loads(from_stdin.stdout)
    for key in ("seconds", "cpu_seconds"):
        del a[key], b[key]
    assert a == b and a["id"] is not None


def test_play_takes_a_hand_on_stdin() -> None:
    record = _prefix(25)
    view = _typed_view(record, record.state().to_play)
    typed = invoke(["play", *view, "--json"] + CLI_FAST)
    stdin = CliRunner().invoke(main, ["play", "-", *view[1:], "--json"] + CLI_FAST, input=view[0])
    assert typed.exit_code == stdin.exit_code == 0, stdin.output
    a, b = json.loads(typed.stdout), json.loads(stdin.stdout)
    for key in ("seconds", "cpu_seconds"):
        del a[key], b[key]
    assert a == b


TAKER_0 = "S:C H:7 D:Q9821 C:1094 T:21.20.19.17.14.13.3.1"


@pytest.mark.parametrize("command, hand, options", [
    ("bid", TAKER_0, []),
    ("discard", TAKER_0, ["--dog", "9S KS 5C CC QC T4", "--contract", "garde"]),
    ("play", "S:Q53 H:C52 D:CJ8 C:7653 T:17.14.5.3.1", ["--seat", "2", "--taker", "1", "--contract", "garde",
                                                       "--dealer", "2", "--dog", "9H JC T6 T8 T11 T20",
                                                       "--played", "KD 2D T6"]),
])
def test_a_hand_typed_without_quotes_is_the_same_hand(command: str, hand: str, options: List[str]) -> None:
    """A hand typed as several words (the shell split it) is read as when quoted."""
    quoted = invoke([command, hand, "--json"] + options + CLI_FAST)
    split = invoke([command, *hand.split(), "--json"] + options + CLI_FAST)
    assert quoted.exit_code == split.exit_code == 0, split.output
    a, b = json.loads(quoted.stdout), json.loads(split.stdout)
    for key in ("seconds", "cpu_seconds"):
        del a[key], b[key]
    assert a == b


PLAYED_22 = "KD 2D T6 8D KH 2H EX 8H KC 3C 9C 2C 1C 5C 10C T2 KS T7 3S 2S 4C 6C"
DEFENDER_3 = ["2S 7S CS 1H 3H 4H 4D 5D 7D 9D QD KD 9C 10C T4 T12 T16 EX", "--seat", "3", "--taker", "1",
              "--contract", "garde", "--dealer", "2"]
DOG = ["--dog", "9H JC T6 T8 T11 T20"]


@pytest.mark.parametrize("args, fragments", [
    (DOG + ["--played", PLAYED_22[:-3]], ("key '--seat'", "seat 2 is on turn")),
    (["--played", "KD 2D"], ("key '--dog'", "a garde shows the dog")),
    (DOG + ["--played", PLAYED_22[:-6] + " 7S"], ("key '--played[20]'", "seat 1 plays '7S'", "seat 3 holds it")),
    (DOG + ["--played", PLAYED_22[:-3] + " 9H"], ("key '--played[21]'", "in the dog")),
    (DOG + ["--played", PLAYED_22 + " T5"], ("key '--played[22]'", "seat 3 plays 'T5'", "does not hold it")),
    (DOG + ["--played", PLAYED_22 + " T4 T13", "--discard", "T3"], ("key '--played[12]'", "discarded a trump")),
    (DOG + ["--played", PLAYED_22 + " KD"], ("key '--played[22]'", "'KD' is played twice")),
    (DOG + ["--played", "KD 2D T6 ZZ"], ("key '--played[3]'", "unknown card 'ZZ'")),
    # seat 0 trumped the clubs of trick 4 with T2 (a void), then leads a club
    (DOG + ["--played", PLAYED_22 + " T4 T13 8C"], ("key '--played[24]'", "seat 0 plays '8C'", "rules it out")),
    (DOG + ["--discard", "JS"], ("key '--discard'", "'JS' cannot be a trump shown")),
    (DOG + ["--discard", "T21"], ("key '--discard'", "'T21' cannot be a trump shown")),  # oudlers stay
    (DOG + ["--discard", "T1"], ("key '--discard'", "'T1' cannot be a trump shown")),
    # the dog's five plain cards leave the taker room for one trump at most in his discard (the
    # sampler found no deal, and said so naming neither the key nor the card)
    (["--dog", "5S 6S 8S 9S 10S T20", "--discard", "T3 T5"],
     ("key '--discard'", "'T3' cannot be a trump shown", "the dog alone gave him 5 other cards to discard")),
    (["--contract", "garde_sans"] + DOG, ("key '--dog'", "not shown")),
    (["--dog", "9H JC T6 T8 T11 ZZ"], ("key '--dog'", "'ZZ'")),
    (["--seat", "1"] + DOG, ("key '--discard'", "the taker knows his discard")),
    (DOG + ["--played", "KD 2D T6 8D", "--poignee", "2", "T1 T2 T3"], ("key '--poignee'", "exactly 10, 13, 15")),
    # the taker discards on a diamond lead: he has no trump, yet he took four from the dog
    (DOG + ["--played", "KD 2D 9H"], ("key '--played[2]'", "seat 1 plays '9H' in trick 1",
                                      "he holds 'T6' (he took it from the dog and may not discard it unseen)")),
    # a poignée's trumps are held until played: no discard on a trump lead
    (DOG + ["--played", "T4 2D", "--poignee", "0", "T1 T2 T3 T5 T7 T9 T10 T13 T14 T15"],
     ("key '--played[1]'", "seat 0 plays '2D'", "he holds 'T1' (he showed it in a poignée)")),
    # a poignée is shown just before its holder's first card: not before
    (DOG + ["--poignee", "2", "T1 T2 T3 T5 T7 T9 T10 T13 T14 T15"],
     ("key '--poignee[0]'", "seat 2 has played no card yet: his poignée is not shown")),
    # a trump shown from the discard is in no hand: no poignée shows it (the sampler found no deal,
    # naming neither the key nor the card's poignée)
    (DOG + ["--discard", "T3", "--played", "KD 2D T6 8D", "--poignee", "0", "T1 T2 T3 T5 T7 T9 T10 T13 T14 T15"],
     ("key '--poignee[0]'", "seat 0 shows 'T3' in a poignée, but it is in the taker's discard")),
    # a seat shows one poignée at most, as in a record
    (DOG + ["--played", "KD 2D T6 8D"] + ["--poignee", "0", "T1 T2 T3 T5 T7 T9 T10 T13 T14 T15"] * 2,
     ("key '--poignee[1]'", "seat 0 shows a second poignée")),
])
def test_play_view_errors_name_the_key_and_the_card(args: List[str], fragments: Any) -> None:
    assert_one_line_error(invoke(["play", *DEFENDER_3, *args] + CLI_FAST), *fragments)


def test_a_trump_shown_from_the_discard_fits_the_dogs_plain_cards() -> None:
    # with five plain cards in the dog, one trump shown is possible (the taker had no other)
    result = invoke(["play", *DEFENDER_3, "--dog", "5S 6S 8S 9S 10S T20", "--discard", "T3", "--json"] + CLI_FAST)
    assert result.exit_code == 0, result.output


def test_a_poignee_with_the_excuse_and_the_dogs_trumps_contradict() -> None:
    # the Excuse shown says the taker holds no other trump, but he kept the dog's T20
    hand = ["S:Q53 H:C52 D:CJ8 C:7653 T:17.14.5.3.1", "--seat", "2", "--taker", "1", "--contract", "garde",
            "--dealer", "2"]
    shown = ["--poignee", "1", "T2 T4 T6 T7 T8 T9 T10 T11 T12 EX"]
    assert_one_line_error(invoke(["play", *hand, *DOG, "--played", "KD 2D 4D", *shown] + CLI_FAST),
                          "key '--poignee[0]'", "seat 1 shows 'EX' in a poignée, so holds no other trump",
                          "he holds 'T20' (he took it from the dog")


def test_play_refuses_a_leader_the_dealer_contradicts() -> None:
    # seat 2 deals: seat 3, his right, leads the first trick (or the taker, seat 1, after a slam
    # announced); --dealer was silently ignored for --leader, the error then came later and elsewhere
    played = DOG  # (seat 3 on lead to the first trick)
    assert_one_line_error(invoke(["play", *DEFENDER_3, "--leader", "0", *played] + CLI_FAST),
                          "key '--leader'", "seat 0 leads, but the dealer's right (seat 3) leads the first trick",
                          "or the taker (seat 1) after announcing a slam")
    agreeing = invoke(["play", *DEFENDER_3, "--leader", "3", *played, "--json"] + CLI_FAST)
    alone = invoke(["play", *DEFENDER_3, *played, "--json"] + CLI_FAST)
    assert agreeing.exit_code == alone.exit_code == 0, agreeing.output
    assert json.loads(agreeing.stdout)["choices"] == json.loads(alone.stdout)["choices"]
    # the taker leads after announcing a slam: seat 1, then seat 2, and seat 3 is on turn
    slam = invoke(["play", *DEFENDER_3, "--leader", "1", *DOG, "--played", "KS 3S", "--json"] + CLI_FAST)
    assert slam.exit_code == 0, slam.output
    assert json.loads(slam.stdout)["trick"] == ["KS", "3S"]


def test_play_options_go_with_a_hand_not_a_record() -> None:
    for args in (["--seat", "1"], ["--played", "KD"]):
        result = invoke(["play", str(EXAMPLES / "play.json"), *args] + CLI_FAST)
        assert result.exit_code == 2 and result.stdout == "" and "go with a hand" in result.stderr
    missing = invoke(["play", DEFENDER_3[0], "--seat", "3", "--taker", "1", "--contract", "garde"] + CLI_FAST)
    assert missing.exit_code == 2 and "missing option '--dealer' or '--leader'" in missing.stderr


def test_view_of_checks_the_play_against_the_seats_cards() -> None:
    record = read_record(EXAMPLES / "deal.json")
    known = dict(taker=1, contract="garde", leader=3, dog=record.dog, discard=[])
    for played, says in ((["3S"], "key 'played[0]': seat 3 plays '3S' in trick 1, but seat 0 holds it"),
                         (["6S", "KS"], "key 'played[1]': seat 0 plays 'KS' in trick 1, but does not hold it"),
                         # he holds the QH, but a spade is led and he holds spades
                         (["6S", "QH"], "key 'played[1]': seat 0 plays 'QH' in trick 1, but may not play it")):
        with pytest.raises(RecordError, match=re.escape(says)):
            advice.view_of(0, record.hands[0], played=played, **known)  # type: ignore[arg-type]
    assert advice.view_of(0, record.hands[0], **known).played == ()  # (seat 3 is on turn: a view all the same)
    with pytest.raises(TypeError, match=r"poignees\[0\] must be a \(seat, cards\) pair, not 0"):
        advice.view_of(0, record.hands[0], poignees=[0], **known)  # type: ignore[arg-type, list-item]


def test_the_advice_takes_cards_as_tokens_and_contracts_by_name() -> None:
    hand = parse_hand(EXAMPLE_HAND)
    by_numbers = advice.discard_advice(hand, parse_cards(EXAMPLE_DOG), Contract.GARDE, candidates=2, **FAST)
    by_tokens = advice.discard_advice(EXAMPLE_HAND, EXAMPLE_DOG.split(), "garde", candidates=2, **FAST)
    assert by_numbers.candidates == by_tokens.candidates and by_numbers.hand == by_tokens.hand
    assert advice.bid_advice(EXAMPLE_HAND, **FAST).hand == tuple(hand)
    view = advice.view_of(3, DEFENDER_3[0], taker=1, contract="garde", leader=3, dog=DOG[1], played="KD 2D T6")
    assert view.played == tuple(parse_cards("KD 2D T6"))
    for call, key in ((lambda: advice.bid_advice("KS QS ZZ", **FAST), "key 'hand'"),
                      (lambda: advice.bid_advice("S:C", **FAST), "key 'hand': a hand holds 18 cards, got 1"),
                      (lambda: advice.discard_advice("S:C", EXAMPLE_DOG, "garde", **FAST), "key 'hand'"),
                      (lambda: advice.bid_advice(EXAMPLE_HAND, **{**FAST, "jobs": -1}), "key 'jobs'"),
                      (lambda: advice.discard_advice(hand, EXAMPLE_DOG, "garde", candidates=0, **FAST),
                       "key 'candidates': candidates must be at least 1, not 0"),
                      (lambda: advice.view_of(3, DEFENDER_3[0], taker=1, contract="garde", leader=3, dog=DOG[1],
                                              played=[99]), r"key 'played\[0\]': card number 99"),
                      (lambda: advice.bid_advice(EXAMPLE_HAND, seat=4, **FAST), "key 'seat': bad seat '4'")):
        with pytest.raises(TarotError, match=key):
            call()
    # a seat of another type is the caller's error, not bad input: a TypeError naming the argument
    for call, says in ((lambda: advice.view_of(3, DEFENDER_3[0], taker=1, contract="garde", dog=DOG[1],
                                               leader=None), "leader must be a seat \\(an integer 0..3\\), not None"),
                       (lambda: advice.view_of(3, DEFENDER_3[0], contract="garde_sans", leader=3, taker=None),
                        "taker must be a seat"),
                       (lambda: advice.bid_advice(EXAMPLE_HAND, seat="0", **FAST), "seat must be a seat .*, not '0'"),
                       (lambda: advice.discard_advice(hand, EXAMPLE_DOG, "garde", dealer=True, **FAST),
                        "dealer must be a seat .*, not True"),
                       (lambda: advice.bid_advice(EXAMPLE_HAND, players="4", **FAST),
                        "players must be an integer, not '4'"),
                       (lambda: advice.bid_advice(EXAMPLE_HAND, **{**FAST, "time_budget": "1"}),
                        "time_budget must be a number of seconds, not '1'"),
                       (lambda: advice.bid_advice(EXAMPLE_HAND, **{**FAST, "time_budget": True}),
                        "time_budget must be a number of seconds, not True")):
        with pytest.raises(TypeError, match=says):
            call()  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="hand must be a string of tokens or a sequence of cards"):
        advice.bid_advice(12345, **FAST)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dog must be a string of tokens or a sequence of cards"):
        advice.discard_advice(hand, None, "garde", **FAST)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="contract must be a Contract or its name"):
        advice.discard_advice(hand, EXAMPLE_DOG, 2, **FAST)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position must be a DealRecord or a View, not dict"):
        advice.play_advice({"hands": []}, **FAST)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"bids must be a sequence of bids \('pass', 'garde'...\), not str"):
        advice.bid_advice(EXAMPLE_HAND, seat=2, dealer=0, bids="pass", **FAST)


@pytest.mark.parametrize("seed, error, says", [
    (-1, RecordError, "key 'seed': seed must be at least 0, not -1"),
    (1.5, TypeError, "seed must be an integer, not 1.5"),
    ("1", TypeError, "seed must be an integer, not '1'"),
])
def test_play_advice_names_a_bad_seed_as_the_bid_advice_does(seed: Any, error: Any, says: str) -> None:
    # play_advice draws world 0 before the run checks its arguments: numpy's own errors
    # ("expected non-negative integer") came out, naming no argument
    record = read_record(EXAMPLES / "play.json")
    with pytest.raises(error, match=re.escape(says)):
        advice.play_advice(record, **{**FAST, "seed": seed})
    with pytest.raises(error, match=re.escape(says)):
        advice.bid_advice(EXAMPLE_HAND, **{**FAST, "seed": seed})


def test_numpy_integers_are_integers() -> None:
    # a bot's seats and counts often come out of numpy arrays: taken as the ints they are,
    # and the advice holds Python ints (it goes to json.dumps as it is)
    import numpy as np

    plain = advice.bid_advice(EXAMPLE_HAND, seat=1, dealer=0, **FAST)
    typed = advice.bid_advice(EXAMPLE_HAND, seat=np.int64(1), dealer=np.int8(0), players=np.int32(4),
                              **{**FAST, "worlds": np.int64(FAST["worlds"])})
    assert typed.contracts == plain.contracts and typed.run.nodes == plain.run.nodes
    assert (typed.seat, typed.dealer) == (1, 0) and type(typed.seat) is int and type(typed.dealer) is int
    view = advice.view_of(np.int64(3), DEFENDER_3[0], taker=np.int16(1), contract="garde", leader=np.int64(3),
                          dog=DOG[1])
    assert (view.seat, view.taker, view.leader) == (3, 1, 3) and type(view.seat) is int
    assert json.dumps(advice.bid_advice(EXAMPLE_HAND, seat=np.int64(1), **FAST).seat) == "1"


def test_the_workers_table_size_is_an_option() -> None:
    from tarot_solver import solver as _solver

    advice.bid_advice(EXAMPLE_HAND, table_mb=8, **FAST)
    assert _solver._worker.solver[0] == 8  # this thread's (jobs=1) solver has the table asked for
    with pytest.raises(TarotError, match=r"key 'table_mb': table_mb must be between 1 and"):
        advice.bid_advice(EXAMPLE_HAND, table_mb=0, **FAST)
    for args in (["bid", str(EXAMPLES / "hand.txt")], ["play", str(EXAMPLES / "play.json")]):
        result = invoke(args + CLI_FAST + ["--table-mb", "8", "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["worlds"] == 4
    refused = invoke(["bid", str(EXAMPLES / "hand.txt"), "--table-mb", "0"] + CLI_FAST)
    assert refused.exit_code == 2 and "--table-mb" in refused.stderr
