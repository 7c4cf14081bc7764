"""The rules and the scorer against an independent engine (tests/independent_rules.py).

Seeded complete games at three, four and five players, in five play modes (uniform
random, the Excuse and the Petit held to the end, the Excuse led often, and one seat
holding the Excuse and the top trumps on the taker's side or the defence's, so that
slams and slam Excuse leads happen to both).  At every step the legal cards and the
seat on turn, after every trick its cards, winner and next leader, at the end the
count, the petit au bout and the slam must agree; then ``scoring.score`` on those
results and on random arguments.  The edge cases must have been reached.  A failure
names the game's seed and mode (and the trick and its cards so far).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterable, List, Optional, Sequence, Set

import pytest

import independent_rules as ind
from test_solver import random_deal
from tarot_solver import rules
from tarot_solver.cards import card_token, cards_of, mask_of
from tarot_solver.errors import RecordError
from tarot_solver.scoring import SLAM_OUTCOMES, check_possible, score, slam_outcome
from tarot_solver.variant import CONTRACTS, VARIANTS, Contract

PLAYERS = (3, 4, 5)
GAMES = 400  # per table size
SCORES = 400  # random score() calls per table size
MODES = ("uniform", "hold-excuse", "lead-excuse", "dominant-taker", "dominant-defence")
EDGE_CASES = (
    "overtrump", "overtrump a partner", "excuse led", "excuse to the last trick",
    "excuse slam lead by the taker", "excuse slam lead by the defence",
    "slam by the taker", "slam by the defence", "petit au bout",
    "petit au bout before an excuse slam lead", "half-point margin",
)
TOP_TRUMPS = list(range(ind.TRUMP21, ind.PETIT - 1, -1))  # T21 down to the Petit


def tokens(cards: Iterable[int]) -> List[str]:
    return [ind.TOKENS[c] for c in sorted(cards)]


def test_the_card_layout_is_the_projects() -> None:
    assert [card_token(c) for c in range(78)] == ind.TOKENS


def stack(places: List[Set[int]], seat: int, rng: random.Random) -> None:
    """Give ``places[seat]`` the Excuse and most of the top trumps (sometimes the Petit
    for the lowest), in exchange for random cards of his."""
    trumps = TOP_TRUMPS[:min(21, len(places[seat]) - rng.choice((1, 2, 3, 4)))]
    if rng.random() < 0.5:
        trumps[-1] = ind.PETIT
    wanted = {ind.EXCUSE, *trumps}
    spare = sorted(places[seat] - wanted)
    rng.shuffle(spare)
    for card in sorted(wanted - places[seat]):
        holder = next(p for p in places if card in p)
        given = spare.pop()
        holder.remove(card)
        holder.add(given)
        places[seat].remove(given)
        places[seat].add(card)


def choose(rng: random.Random, mode: str, game: ind.Game, dominant: int) -> int:
    """The next card in the play mode ``mode`` (``dominant``: the stacked seat, in a dominant mode)."""
    cards = sorted(game.legal())
    no_excuse = [c for c in cards if c != ind.EXCUSE] or cards
    kept = [c for c in no_excuse if c != ind.PETIT] or no_excuse
    if mode == "hold-excuse":
        return rng.choice(kept)
    if mode == "lead-excuse":
        if not game.trick and ind.EXCUSE in cards and rng.random() < 0.6:
            return ind.EXCUSE
        return rng.choice(no_excuse)
    if mode.startswith("dominant") and game.camps[game.to_play] == game.camps[dominant]:
        # card numbers rise with the rank, the trumps above the suits: the stacked seat
        # plays its best card, his partner his worst, both keeping the Excuse and the Petit
        return max(kept) if game.to_play == dominant else min(kept)
    return rng.choice(cards)


def note_step(seen: Counter[str], game: ind.Game, legal: Set[int]) -> None:
    """Count the overtrump obligations met before a play."""
    hand = game.hands[game.to_play]
    trumps = {c for c in legal if ind.is_trump(c)}
    if trumps and {c for c in hand if ind.is_trump(c)} - legal:
        seen["overtrump"] += 1
        top_seat = max((p for p in game.trick if ind.is_trump(p[1])), key=lambda p: p[1])[0]
        if game.camps[top_seat] == game.camps[game.to_play]:
            seen["overtrump a partner"] += 1


def note_end(seen: Counter[str], game: ind.Game, result: ind.Result) -> None:
    """Count the Excuse, petit au bout and slam cases of a finished game."""
    side = {True: "the taker", False: "the defence"}
    seen["excuse led"] += sum(t.cards[0] == ind.EXCUSE for t in game.tricks)
    last = game.tricks[-1]
    if last.excuse_slam_lead:
        seen["excuse slam lead by " + side[game.camps[last.winner]]] += 1
    elif ind.EXCUSE in last.cards:
        seen["excuse to the last trick"] += 1
    if ind.PETIT in last.cards:
        seen["petit au bout"] += 1
    elif result.petit_au_bout is not None:
        seen["petit au bout before an excuse slam lead"] += 1
    if result.slam is not None:
        seen["slam by " + side[result.slam]] += 1
    seen["half-point margin"] += ind.margin_hp(result.taker_hp, result.taker_oudlers) % 2


def assert_scores_agree(players: int, contract: Contract, taker_hp: int, oudlers: int,
                        petit_au_bout: Optional[bool], poignees: Sequence[int], slam: Optional[str],
                        taker: int, partner: Optional[int]) -> bool:
    """Whether the two scorers agree, asserted; False where no deal ends so (both refuse it)."""
    args = (players, contract.value, taker_hp, oudlers, petit_au_bout, poignees, slam, taker, partner)
    try:
        check_possible(contract, taker_hp, oudlers, petit_au_bout=petit_au_bout, poignees=poignees, slam=slam,
                       variant=VARIANTS[players])
    except RecordError:  # what no deal ends in (random values, a random poignée): not scored
        with pytest.raises(RecordError):
            score(contract, taker_hp, oudlers, petit_au_bout=petit_au_bout, poignees=poignees, slam=slam,
                  variant=VARIANTS[players], partner=partner is not None)
        return False
    mine = ind.score(contract.value, taker_hp, oudlers, petit_au_bout, poignees, slam, players,
                     partner is not None)
    theirs = score(contract, taker_hp, oudlers, petit_au_bout=petit_au_bout, poignees=poignees,
                   slam=slam, variant=VARIANTS[players], partner=partner is not None)
    assert {f: getattr(theirs, f) for f in ind.Score._fields} == mine._asdict(), args
    assert theirs.scores(taker, players, partner) == ind.seat_scores(mine, players, taker, partner), args
    return True


def play_game(players: int, seed: int, seen: Counter[str]) -> int:
    """Deal and play one seeded game in both engines, asserting they agree; its steps."""
    rng = random.Random(seed)
    mode = MODES[seed % len(MODES)]
    variant = VARIANTS[players]
    hand_masks, dog_mask, taker, contract, discard = random_deal(rng, variant)
    hands, dog = [set(cards_of(h)) for h in hand_masks], set(cards_of(dog_mask))
    leader = rng.randrange(players)
    if mode.startswith("dominant"):  # the stacked seat leads
        leader = taker if mode == "dominant-taker" else (taker + 1 + rng.randrange(players - 1)) % players
        stack(hands + [dog], leader, rng)
        if discard is not None:  # a new legal discard: plain cards first
            pool = cards_of(rules.discardable(mask_of(hands[taker] | dog)))
            discard = sorted(pool, key=lambda c: (ind.is_trump(c), rng.random()))[:variant.dog_size]
    partner = None
    if players == 5:
        callable_cards = ind.callable_cards(hands[taker])
        assert set(cards_of(rules.callable_cards(mask_of(hands[taker])))) == callable_cards, seed
        called = rng.choice(sorted(callable_cards))
        partner = next((s for s, h in enumerate(hands) if called in h and s != taker), None)
        assert rules.partner_of([mask_of(h) for h in hands], taker, called) == partner, seed
        seen["alone" if partner is None else "with a partner"] += 1

    state = rules.opening_state([mask_of(h) for h in hands], mask_of(dog), taker, contract, leader,
                                discard, variant, partner)
    game = ind.Game(hands, dog, taker, contract.value, leader, discard, partner)
    assert state.camps == tuple(game.camps), seed
    steps = 0
    while not game.over:
        where = (seed, mode, len(game.tricks) + 1, tokens(c for _, c in game.trick))
        assert state.to_play == game.to_play, where
        legal = game.legal()
        assert tokens(cards_of(state.legal())) == tokens(legal), where
        note_step(seen, game, legal)
        card = choose(rng, mode, game, leader)
        state.play(card)
        game.play(card)
        steps += 1
        if not game.trick:  # a trick is complete
            t = game.tricks[-1]
            assert (state.tricks[-1].cards, state.tricks[-1].winner) == (t.cards, t.winner), where
            assert state.leader == game.to_play == t.winner, where
    assert state.over, seed

    r = game.result()
    assert (state.taker_hp, state.defence_hp, state.taker_oudlers(), state.margin_hp(),
            state.petit_au_bout(), state.slam()) == (
        r.taker_hp, r.defence_hp, r.taker_oudlers, ind.margin_hp(r.taker_hp, r.taker_oudlers),
        r.petit_au_bout, r.slam), (seed, mode)
    note_end(seen, game, r)

    announced = rng.random() < 0.3
    slam = ind.slam_outcome(announced, r.slam)
    assert slam_outcome(announced, r.slam) == slam, seed
    # a game's end is never refused as what no deal ends in (the poignées below are drawn at random)
    check_possible(contract, r.taker_hp, r.taker_oudlers, petit_au_bout=r.petit_au_bout, slam=slam, variant=variant)
    poignees = [rng.randrange(3) for _ in range(rng.choice((0, 0, 1, 2)))]
    assert_scores_agree(players, contract, r.taker_hp, r.taker_oudlers, r.petit_au_bout, poignees,
                        slam, taker, partner)
    return steps


@pytest.mark.parametrize("players", PLAYERS)
def test_seeded_games_agree_with_the_independent_engine(players: int) -> None:
    seen: Counter[str] = Counter()
    steps = sum(play_game(players, 1000 * players + i, seen) for i in range(GAMES))
    assert steps == GAMES * players * VARIANTS[players].hand_size
    wanted = EDGE_CASES + (("alone", "with a partner") if players == 5 else ())
    assert [case for case in wanted if not seen[case]] == [], seen


@pytest.mark.parametrize("players", PLAYERS)
def test_random_scores_agree_with_the_independent_scorer(players: int) -> None:
    for announced in (False, True):
        for camp in (None, True, False):
            assert slam_outcome(announced, camp) == ind.slam_outcome(announced, camp)
    rng = random.Random(players)
    scored = 0
    for _ in range(20 * SCORES):  # (random values: those no deal ends in are drawn again)
        if scored == SCORES:
            break
        oudlers = rng.randrange(4)
        near = 2 * ind.TARGET_POINTS[oudlers] + rng.randint(-4, 4)  # half the time near the target
        # else anywhere the oudlers allow (an oudler is 9 half-points, the Excuse kept 8)
        taker_hp = near if rng.random() < 0.5 else rng.randint(max(0, 9 * oudlers - 1),
                                                                182 - max(0, 9 * (3 - oudlers) - 1))
        partner = None
        if players == 5 and rng.random() < 0.6:
            partner = rng.randrange(players)
        taker = rng.choice([s for s in range(players) if s != partner])
        scored += assert_scores_agree(players, rng.choice(CONTRACTS), taker_hp, oudlers,
                                      rng.choice((None, True, False)),
                                      [rng.randrange(3) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))],
                                      rng.choice((None, *SLAM_OUTCOMES)), taker, partner)
    assert scored == SCORES
