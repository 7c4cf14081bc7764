"""The rules of play, the Excuse and slam rulings, the discard, poignées and bidding.

Hands and tricks are written as card tokens; each case names the rule it checks.
"""

from __future__ import annotations

import random
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest

from tarot_solver.cards import (
    EXCUSE,
    FULL_DECK,
    NUM_CARDS,
    PETIT,
    TOTAL_HALF_POINTS,
    TRUMP21,
    TRUMPS_MASK,
    cards_of,
    count,
    is_trump,
    mask_of,
    parse_card,
    parse_cards,
    sorted_tokens,
    suit_mask,
    suit_of,
)
from tarot_solver.errors import CardError, IllegalMoveError, RecordError
from tarot_solver.rules import (
    PlayState,
    Trick,
    bidding_result,
    check_discard,
    discardable,
    is_petit_sec,
    legal_plays,
    midgame_state,
    opening_state,
    partner_of,
    poignee_level,
    trick_winner,
)
from tarot_solver.scoring import score, slam_outcome
from tarot_solver.variant import CONTRACTS, FIVE_PLAYERS, FOUR_PLAYERS, THREE_PLAYERS, Contract, Variant


def hand(tokens: str) -> int:
    """A card set from tokens, e.g. ``hand("KS 7S T3")``."""
    return mask_of(parse_cards(tokens))


def legal_tokens(hand_tokens: str, trick_tokens: str) -> List[str]:
    return sorted_tokens(legal_plays(hand(hand_tokens), parse_cards(trick_tokens)))


def new_state(hands: Sequence[str], *, taker: int = 0, leader: int = 0) -> PlayState:
    """A play state with the given hands (any equal size) and the taker's camp."""
    return PlayState(hands=[hand(h) for h in hands], camps=FOUR_PLAYERS.camps(taker), leader=leader)


def play(state: PlayState, tokens: str) -> PlayState:
    for c in parse_cards(tokens):
        state.play(c)
    return state


# Legal plays -------------------------------------------------------------------

LEGAL_CASES = [
    # follow suit, no need to beat
    pytest.param("2S KS T3 5H", "QS", "2S KS", id="follow-suit-no-need-to-beat"),
    pytest.param("2S 5H T3", "KS", "2S", id="follow-suit-even-when-losing"),
    pytest.param("2S T3 EX", "QS", "2S EX", id="follow-suit-or-excuse"),
    pytest.param("2S 5H", "QS EX", "2S", id="excuse-second-does-not-change-suit"),
    # void: must trump
    pytest.param("5H T3 T10", "QS", "T3 T10", id="void-must-trump"),
    pytest.param("5H T3 T10 EX", "QS", "T3 T10 EX", id="void-must-trump-or-excuse"),
    pytest.param("5H T3 T15", "QS T12", "T15", id="void-must-overtrump"),
    pytest.param("5H T3 T16 T20", "QS T15 T9", "T16 T20", id="overtrump-the-highest-not-the-last"),
    pytest.param("5H T3 T5", "QS T12", "T3 T5", id="cannot-overtrump-any-trump"),
    pytest.param("5H T3 T5 EX", "QS T12", "T3 T5 EX", id="cannot-overtrump-any-trump-or-excuse"),
    # no suit card and no trump: any card
    pytest.param("5H 7D EX", "QS T12", "5H 7D EX", id="no-suit-no-trump-any-card"),
    pytest.param("5H 7D KC", "QS", "5H 7D KC", id="no-suit-no-trump-discard"),
    # trump led
    pytest.param("T3 T10 T20 KS", "T8", "T10 T20", id="trump-led-must-overtrump"),
    pytest.param("T3 T10 KS", "T8 T15", "T3 T10", id="trump-led-cannot-overtrump-any-trump"),
    pytest.param("KS 5H", "T8", "KS 5H", id="trump-led-no-trump-any-card"),
    pytest.param("T3 T10 EX", "T8", "T10 EX", id="trump-led-overtrump-or-excuse"),
    pytest.param("EX KS 5H", "T8", "KS 5H EX", id="only-excuse-on-trump-lead-forces-nothing"),
    pytest.param("EX KS 5H", "T8 T12", "KS 5H EX", id="only-excuse-after-trumps-forces-nothing"),
    # the Excuse led: the next card sets the suit
    pytest.param("2H KS T4 EX", "", "2H KS T4 EX", id="lead-anything"),
    pytest.param("2H KS T4", "EX", "2H KS T4", id="excuse-led-anything"),
    pytest.param("2H KS T4", "EX 5H", "2H", id="excuse-led-next-card-sets-suit"),
    pytest.param("KS T4", "EX 5H", "T4", id="excuse-led-void-must-trump"),
    pytest.param("T3 T7 KS", "EX T5", "T7", id="excuse-led-then-trump-must-overtrump"),
]


@pytest.mark.parametrize("hand_tokens, trick, expected", LEGAL_CASES)
def test_legal_plays(hand_tokens: str, trick: str, expected: str) -> None:
    assert legal_tokens(hand_tokens, trick) == sorted_tokens(parse_cards(expected))


def test_must_overtrump_even_over_a_partner() -> None:
    # taker at seat 0 leads a spade, defender 1 trumps, defender 2 (his partner) must overtrump
    state = new_state(["KS 2H", "T12 3H", "T3 T15 5H", "2S 4H"])
    play(state, "KS T12")
    assert sorted_tokens(state.legal()) == ["T15"]
    with pytest.raises(IllegalMoveError) as info:
        state.play(parse_card("T3"))
    assert "'T3'" in str(info.value) and "T15" in str(info.value)


def test_play_rejects_cards_not_held_and_after_the_end() -> None:
    state = new_state(["KS", "2S", "3S", "4S"])
    with pytest.raises(IllegalMoveError, match="'QS'"):
        state.play(parse_card("QS"))
    play(state, "KS 2S 3S 4S")
    assert state.over
    with pytest.raises(IllegalMoveError, match="after the end"):
        state.play(parse_card("KS"))


def test_a_card_played_again_is_named_with_its_trick() -> None:
    state = new_state(["KS 5H", "2S 6H", "3S 7H", "4S 8H"])
    play(state, "KS 2S 3S 4S 5H")
    with pytest.raises(IllegalMoveError, match=r"seat 1 does not hold '2S' \(trick 2\): it was played in trick 1$"):
        state.play("2S")
    with pytest.raises(IllegalMoveError, match=r"it was played in trick 2$"):
        state.play("5H")  # on the table
    with pytest.raises(IllegalMoveError, match=r"does not hold 'QS' \(trick 2\)$"):
        state.play("QS")  # never dealt to anyone here


# Trick winners -----------------------------------------------------------------


@pytest.mark.parametrize(
    "trick, winner",
    [
        ("QS 2S KS 5S", 2),  # highest of the led suit
        ("2S KH QH 3S", 3),  # off-suit cards never win
        ("QS 5H 2S T1", 3),  # any trump beats the suit
        ("QS T5 T15 T2", 2),  # highest trump
        ("T2 T21 T20 KS", 1),
        ("EX 5H KH 2H", 2),  # the Excuse led: the next card sets the suit
        ("2H EX 5H 3H", 2),  # the Excuse never wins
        ("EX T3 5S T4", 3),
        ("EX 5H KH T21", 3),
    ],
)
def test_trick_winner(trick: str, winner: int) -> None:
    assert trick_winner(parse_cards(trick)) == winner


def test_trick_winner_slam_excuse_lead() -> None:
    trick = parse_cards("EX 5H KH T21")
    assert trick_winner(trick, excuse_slam_lead=True) == 0
    assert trick_winner(trick, excuse_slam_lead=False) == 3
    # the flag only matters when the Excuse is led
    assert trick_winner(parse_cards("5H EX KH 2H"), excuse_slam_lead=True) == 2


# The Excuse --------------------------------------------------------------------


def test_excuse_exchange_defence_owner_taker_wins() -> None:
    state = play(new_state(["KS 5H", "EX 6H", "2S 7H", "3S 8H"]), "KS EX 2S 3S")
    assert state.tricks[0].winner == 0
    # taker: KS 9 + 2S 1 + 3S 1 + the half-point card given in exchange 1; defence keeps EX as 8
    assert (state.taker_hp, state.defence_hp) == (12, 8)
    assert state.oudler_camp[EXCUSE] is False
    play(state, "5H 6H 7H 8H")
    assert state.tricks[1].winner == 3
    assert (state.taker_hp, state.defence_hp) == (12, 12)


def test_excuse_exchange_taker_owner_defence_wins() -> None:
    state = play(new_state(["EX 5H", "KS 6H", "2S 7H", "3S 8H"], leader=1), "KS 2S 3S EX")
    assert (state.taker_hp, state.defence_hp) == (8, 12)
    assert state.oudler_camp[EXCUSE] is True


def test_excuse_exchange_when_own_camp_wins() -> None:
    state = play(new_state(["5S 5H", "EX 6H", "KS 7H", "3S 8H"]), "5S EX KS 3S")
    assert state.tricks[0].winner == 2
    assert (state.taker_hp, state.defence_hp) == (0, 20)
    assert state.oudler_camp[EXCUSE] is False


def test_excuse_to_last_trick_changes_camp_even_when_own_camp_wins() -> None:
    state = play(new_state(["KS 2H", "2S EX", "3S KH", "4S 3H"]), "KS 2S 3S 4S  2H EX KH 3H")
    assert state.tricks[-1].winner == 2  # the defence wins the last trick ...
    assert state.oudler_camp[EXCUSE] is True  # ... but its Excuse goes to the taker
    assert (state.taker_hp, state.defence_hp) == (12 + 9, 11)
    assert state.taker_oudlers() == 1


def test_taker_excuse_to_last_trick_goes_to_the_defence() -> None:
    state = play(new_state(["2S EX", "KS 2H", "3S KH", "4S 3H"], leader=1), "KS 3S 4S 2S  2H KH 3H EX")
    assert state.oudler_camp[EXCUSE] is False
    assert (state.taker_hp, state.defence_hp) == (0, 32)


def test_excuse_led_to_last_trick_without_slam_changes_camp() -> None:
    state = new_state(["2S KH EX", "KS 2H 5D", "3S 3H 6D", "4S 4H 7D"], leader=1)
    play(state, "KS 3S 4S 2S  2H 3H 4H KH  EX 5D 6D 7D")
    assert [t.winner for t in state.tricks] == [1, 0, 3]
    assert state.oudler_camp[EXCUSE] is False
    assert (state.taker_hp, state.defence_hp) == (12, 24)
    assert state.slam() is None


@pytest.mark.parametrize(
    "hands, leader, cards, camp",
    [
        pytest.param(["KS EX", "2S 2H", "3S 3H", "4S 4H"], 0, "KS 2S 3S 4S  EX 2H 3H 4H", True, id="taker"),
        pytest.param(["2S 2H", "KS EX", "3S 3H", "4S 4H"], 1, "KS 3S 4S 2S  EX 3H 4H 2H", False, id="defence"),
        pytest.param(
            ["2S 2H 5C", "KS 3H 6C", "3S KH EX", "4S 4H 7C"], 0, "2S KS 3S 4S  3H KH 4H 2H  EX 7C 5C 6C", False,
            id="defence-other-player",
        ),
    ],
)
def test_slam_excuse_lead_wins_the_last_trick(hands: List[str], leader: int, cards: str, camp: bool) -> None:
    state = play(new_state(hands, leader=leader), cards)
    assert state.tricks[-1].winner == state.tricks[-1].leader
    assert state.oudler_camp[EXCUSE] is camp
    assert state.slam() is camp
    assert (state.defence_hp if camp else state.taker_hp) == 0


# Petit au bout ------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, leader, cards, expected",
    [
        pytest.param(["KS T5", "2S T1", "3S 2H", "4S 3H"], 0, "KS 2S 3S 4S  T5 T1 2H 3H", True, id="taker-captures"),
        pytest.param(["KS T1", "2S T5", "3S 2H", "4S 3H"], 0, "KS 2S 3S 4S  T1 T5 2H 3H", False, id="defence-captures"),
        pytest.param(["KS T1", "2S 5H", "3S 2H", "4S 3H"], 0, "KS 2S 3S 4S  T1 5H 2H 3H", True, id="taker-keeps"),
        pytest.param(["KS 5H", "2S T1", "3S T4", "4S 3H"], 0, "KS 2S 3S 4S  5H T1 T4 3H", False, id="defence-keeps"),
        pytest.param(["T1 5H", "2S 6H", "3S 2H", "4S 3H"], 1, "2S 3S 4S T1  5H 6H 2H 3H", None, id="not-last"),
        pytest.param(
            ["KS T1 EX", "2S 2H 2D", "3S 3H 3D", "4S 4H 4D"], 0, "KS 2S 3S 4S  T1 2H 3H 4H  EX 2D 3D 4D", True,
            id="taker-slam-second-to-last",
        ),
        pytest.param(
            ["2S 2H 2D", "KS T1 EX", "3S 3H 3D", "4S 4H 4D"], 1, "KS 3S 4S 2S  T1 3H 4H 2H  EX 3D 4D 2D", False,
            id="defence-slam-second-to-last",
        ),
        pytest.param(
            ["2S T1 EX", "KS 2H 2D", "3S 3H 3D", "4S 4H 4D"], 1, "KS 3S 4S 2S  2H 3H 4H T1  EX 2D 3D 4D", None,
            id="excuse-led-last-without-slam",
        ),
    ],
)
def test_petit_au_bout(hands: List[str], leader: int, cards: str, expected: Optional[bool]) -> None:
    state = play(new_state(hands, leader=leader), cards)
    assert state.over
    assert state.petit_au_bout() is expected


# Whole deals built to end in a slam --------------------------------------------


def deal_around(taker_hand: str, seat: int, dog: str) -> List[int]:
    """Hands with ``taker_hand`` at ``seat``; the other seats share what is left after the dog."""
    fixed = hand(taker_hand)
    rest = cards_of(FULL_DECK & ~fixed & ~hand(dog))
    others = [mask_of(rest[i * 18:(i + 1) * 18]) for i in range(3)]
    others.insert(seat, fixed)
    return others


def play_leads(state: PlayState, lead_order: str, prefer_excuse: bool = False) -> None:
    """Play to the end: the leader's seat plays ``lead_order``, the others their lowest legal card
    (or the Excuse first if ``prefer_excuse``)."""
    leads = iter(parse_cards(lead_order))
    while not state.over:
        legal = state.legal()
        if not state.trick:
            card = next(leads)
        elif prefer_excuse and legal >> EXCUSE & 1:
            card = EXCUSE
        else:
            card = cards_of(legal)[0]
        state.play(card)


def test_taker_slam_with_the_defence_keeping_the_excuse() -> None:
    trumps = " ".join(f"T{n}" for n in range(21, 3, -1))  # T21 .. T4
    dog = "1S 2S 3S 4S 5S 6S"
    hands = deal_around(trumps, 0, dog)
    state = opening_state(hands, hand(dog), 0, Contract.GARDE_SANS, leader=0)
    play_leads(state, trumps, prefer_excuse=True)
    assert state.tricks[0].cards.count(EXCUSE) == 1  # the defence gave the Excuse up at once
    assert state.slam() is True
    assert state.taker_hp == 174 and state.defence_hp == 8
    assert state.oudler_camp == {PETIT: True, TRUMP21: True, EXCUSE: False}
    r = score(Contract.GARDE_SANS, state.taker_hp, state.taker_oudlers(), slam=slam_outcome(False, state.slam()))
    assert r.margin == 87 - 41 and r.unit == (25 + 46) * 4 + 200


def test_taker_announced_slam_with_petit_au_bout_before_the_excuse() -> None:
    leads = " ".join(f"T{n}" for n in range(21, 5, -1)) + " T1 EX"
    dog = "1S 2S 3S 4S 5S 6S"
    state = opening_state(deal_around(leads, 0, dog), hand(dog), 0, Contract.GARDE_SANS, leader=0)
    play_leads(state, leads)
    assert state.tricks[-2].cards[0] == PETIT and state.tricks[-1].cards[0] == EXCUSE
    assert state.slam() is True and state.petit_au_bout() is True
    assert (state.taker_hp, state.taker_oudlers()) == (TOTAL_HALF_POINTS, 3)
    r = score(Contract.GARDE_SANS, state.taker_hp, 3, petit_au_bout=True, slam=slam_outcome(True, True))
    assert r.unit == (25 + 55) * 4 + 40 + 400


def test_defence_slam_with_petit_au_bout_before_the_excuse() -> None:
    leads = " ".join(f"T{n}" for n in range(17, 1, -1)) + " T1 EX"
    dog = "T18 T19 T20 T21 KS QS"
    rest = cards_of(FULL_DECK & ~hand(leads) & ~hand(dog))
    hands = [mask_of(rest[:18]), hand(leads), mask_of(rest[18:36]), mask_of(rest[36:])]
    state = opening_state(hands, hand(dog), 0, Contract.GARDE_CONTRE, leader=1)
    play_leads(state, leads)
    assert state.slam() is False and state.petit_au_bout() is False
    assert (state.taker_hp, state.defence_hp, state.taker_oudlers()) == (0, TOTAL_HALF_POINTS, 0)
    r = score(Contract.GARDE_CONTRE, 0, 0, petit_au_bout=False, slam=slam_outcome(False, False))
    assert r.unit == -(25 + 56) * 6 - 60 - 200


# Random whole games --------------------------------------------------------------


def random_discard(full: int, rng: random.Random) -> List[int]:
    """A legal discard: six non-trumps if possible, else all of them and the trumps needed."""
    plain = cards_of(discardable(full) & ~TRUMPS_MASK)
    if len(plain) >= 6:
        return rng.sample(plain, 6)
    return plain + rng.sample(cards_of(discardable(full) & TRUMPS_MASK), 6 - len(plain))


def assert_follows_the_rules(held: int, trick: List[int], card: int) -> None:
    """Each rule statement of RULES.md checked on one play, from the player's hand."""
    led = next((c for c in trick if c != EXCUSE), None)
    if card == EXCUSE or led is None:
        return
    led_suit = suit_of(led)
    has_suit = bool(held & suit_mask(led_suit)) and not is_trump(led)
    has_trump = bool(held & TRUMPS_MASK)
    if has_suit:
        assert suit_of(card) == led_suit, "must follow suit"
    elif has_trump:
        assert is_trump(card), "must trump"
    if is_trump(card):
        top = max((c for c in trick if is_trump(c)), default=-1)
        if card < top:
            assert not held & TRUMPS_MASK & ~((1 << (top + 1)) - 1), "must overtrump when able"


@pytest.mark.parametrize("seed", range(40))
def test_random_whole_game(seed: int) -> None:
    rng = random.Random(seed)
    deck = list(range(NUM_CARDS))
    rng.shuffle(deck)
    hands = [mask_of(deck[18 * s:18 * (s + 1)]) for s in range(4)]
    dog = mask_of(deck[72:])
    taker, dealer = rng.randrange(4), rng.randrange(4)
    contract = CONTRACTS[seed % len(CONTRACTS)]
    discard = random_discard(hands[taker] | dog, rng) if contract.taker_takes_dog else None
    state = opening_state(hands, dog, taker, contract, (dealer + 1) % 4, discard)
    aside_hp = state.taker_hp + state.defence_hp
    assert aside_hp == (state.taker_hp if contract.dog_to_taker else state.defence_hp)
    assert all(count(h) == 18 for h in state.hands)

    played: List[int] = []
    while not state.over:
        held, trick = state.hands[state.to_play], list(state.trick)
        card = rng.choice(cards_of(state.legal()))
        assert held >> card & 1
        assert_follows_the_rules(held, trick, card)
        leader_before = state.leader
        state.play(card)
        played.append(card)
        if not state.trick:  # a trick was completed: its winner leads the next
            assert state.tricks[-1].leader == leader_before
            assert state.leader == state.tricks[-1].winner

    assert len(played) == 72 and len(set(played)) == 72
    assert len(state.tricks) == 18 and all(len(t.cards) == 4 for t in state.tricks)
    assert state.taker_hp + state.defence_hp == TOTAL_HALF_POINTS
    assert set(state.oudler_camp) == {PETIT, TRUMP21, EXCUSE}
    oudlers = state.taker_oudlers()
    r = score(
        contract, state.taker_hp, oudlers, petit_au_bout=state.petit_au_bout(),
        slam=slam_outcome(False, state.slam()),
    )
    assert r.made is (state.margin_hp() >= 0)
    assert sum(r.scores(taker)) == 0


# The discard --------------------------------------------------------------------

RICH = "KS KH KD KC T1 T21 EX 2S 3S 4S 5S 6S 7S 8S 9S 10S T2 T3 T4 T5 T6 T7 T8 T9"
POOR = "KS KH KD KC T1 T21 EX 2S 3S 4S T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15"


@pytest.mark.parametrize(
    "full, discard",
    [
        (RICH, "2S 3S 4S 5S 6S 7S"),
        (RICH, "5S 6S 7S 8S 9S 10S"),
        (POOR, "2S 3S 4S T2 T3 T4"),  # three plain cards: exactly three trumps
        (POOR, "4S 2S T15 3S T9 T10"),
    ],
)
def test_legal_discard(full: str, discard: str) -> None:
    assert count(hand(full)) == 24
    check_discard(hand(full), parse_cards(discard))


@pytest.mark.parametrize(
    "full, discard, token",
    [
        (RICH, "KS 3S 4S 5S 6S 7S", "KS"),  # never a king
        (RICH, "T1 3S 4S 5S 6S 7S", "T1"),  # never an oudler
        (RICH, "2S 3S 4S 5S 6S T21", "T21"),
        (RICH, "2S 3S 4S 5S 6S EX", "EX"),
        (RICH, "2S 3S 4S 5S 6S T2", "T2"),  # a trump while six other cards could go
        (RICH, "2S 3S 4S 5S 6S QH", "QH"),  # not held
        (POOR, "2S 3S T2 T3 T4 T5", "T2"),  # more trumps than needed
        (POOR, "2S 3S 4S T2 T3 KS", "KS"),
        (POOR, "2S 2S 3S T2 T3 T4", "2S"),  # a card twice
        (RICH, "2S 3S 4S 5S 6S 6S", "6S"),
    ],
)
def test_illegal_discard(full: str, discard: str, token: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        check_discard(hand(full), parse_cards(discard, allow_duplicates=True))
    assert info.value.token == token and f"'{token}'" in str(info.value)


@pytest.mark.parametrize("discard", ["2S 3S 4S 5S 6S", "2S 3S 4S 5S 6S 7S 8S"])
def test_discard_must_hold_six_cards(discard: str) -> None:
    with pytest.raises(IllegalMoveError, match="6 cards"):
        check_discard(hand(RICH), parse_cards(discard))


def test_discardable_excludes_kings_and_oudlers() -> None:
    assert sorted_tokens(discardable(hand("KS QS T1 T21 EX T2 5H"))) == ["QS", "5H", "T2"]


def test_opening_state_credits_the_discard_or_the_dog() -> None:
    dog = hand("5S 6S 7S 8S 9S 10S")
    hands = [hand(RICH) & ~dog, 0, 0, 0]
    # garde: the taker takes the dog and discards; the discard counts for him
    state = opening_state(hands, dog, 0, Contract.GARDE, 1, parse_cards("2S 3S 4S 5S 6S 7S"))
    assert (state.taker_hp, state.defence_hp) == (6, 0)
    assert state.hands[0] == hand(RICH) & ~hand("2S 3S 4S 5S 6S 7S")
    with pytest.raises(RecordError):
        opening_state(hands, dog, 0, Contract.PRISE, 1)
    with pytest.raises(IllegalMoveError):
        opening_state(hands, dog, 0, Contract.PRISE, 1, parse_cards("KS 3S 4S 5S 6S 7S"))
    # garde sans: the unseen dog counts for the taker; garde contre: for the defence
    assert opening_state(hands, dog, 0, Contract.GARDE_SANS, 1).taker_hp == 6
    state = opening_state(hands, dog, 0, Contract.GARDE_CONTRE, 1)
    assert (state.taker_hp, state.defence_hp, state.hands[0]) == (0, 6, hands[0])


@pytest.mark.parametrize("change, error, message", [
    # a taker who is no seat gave a position with no taker's camp, which the solver solved
    ({"taker": 7}, RecordError, "key 'taker': bad seat '7': seats are integers 0..3"),
    ({"taker": -1}, RecordError, "key 'taker': bad seat '-1'"),
    ({"leader": 9}, RecordError, "key 'leader': bad seat '9'"),
    ({"leader": None}, TypeError, "leader must be a seat (an integer 0..3), not None"),
    # a dog card still in a hand was credited and played: its points counted twice
    ({"dog": hand("2S 6S 7S 8S 9S 10S")}, RecordError, "key 'dog': '2S' is in hands[0] and in dog"),
    ({"hands": [hand("2S 3S"), hand("3S 4S"), 0, 0]}, RecordError,
     "key 'hands[1]': '3S' is in hands[0] and in hands[1]"),
    ({"contract": 2}, TypeError, "contract must be a Contract or its name, not 2"),
    ({"contract": "gard"}, RecordError, "key 'contract': unknown contract 'gard'"),
])
def test_opening_state_refuses_seats_and_cards_that_cannot_be(change: Dict[str, Any], error: Any,
                                                               message: str) -> None:
    args: Dict[str, Any] = dict(hands=[hand("2S 3S"), hand("4S 5S"), hand("2H 3H"), hand("4H 5H")],
                                dog=hand("5D 6S 7S 8S 9S 10S"), taker=0, contract=Contract.GARDE_SANS, leader=1)
    assert opening_state(**args).taker_hp == 6
    args.update(change)
    with pytest.raises(error, match=re.escape(message)):
        opening_state(**args)


def test_partner_of_takes_a_token_and_refuses_what_is_no_card() -> None:
    # a called number that is no card (99) was "no partner", the taker alone; a token a
    # TypeError of '>>'
    hands = [hand("2S 3S"), hand("KS 5S"), hand("2H 3H"), hand("4H 5H"), hand("6H 7H")]
    assert partner_of(hands, 0, "KS") == partner_of(hands, 0, parse_card("KS")) == 1
    assert partner_of(hands, 1, "ks") is None and partner_of(hands, 0, None) is None
    with pytest.raises(CardError, match=re.escape("'99' is not a card number (0..77)")):
        partner_of(hands, 0, 99)
    with pytest.raises(CardError, match="unknown card 'K'"):
        partner_of(hands, 0, "K")


def test_opening_state_takes_the_hands_and_the_dog_as_cards_too() -> None:
    # as midgame_state does: tokens, numbers or the hand notation (a list of tokens was
    # "TypeError: '<' not supported between instances of 'list' and 'int'")
    hands, dog = [hand("2S 3S"), hand("4S 5S"), hand("2H 3H"), hand("4H 5H")], hand("5D 6S 7S 8S 9S 10S")
    typed = opening_state([["2S", "3S"], "S:54", cards_of(hands[2]), hands[3]], "5D 6S 7S 8S 9S 10S", 0,
                          "garde sans", 1)
    assert typed == opening_state(hands, dog, 0, Contract.GARDE_SANS, 1)
    with pytest.raises(CardError, match=re.escape("key 'hands[1]': unknown card 'ZZ'")):
        opening_state([hands[0], ["ZZ"], hands[2], hands[3]], dog, 0, Contract.GARDE_SANS, 1)
    with pytest.raises(TypeError, match="hands must be a sequence with one hand per seat, not a string"):
        opening_state("2S 3S", dog, 0, Contract.GARDE_SANS, 1)


def test_opening_state_takes_numpy_seats_and_a_contract_by_name() -> None:
    import numpy as np

    hands, dog = [hand("2S 3S"), hand("4S 5S"), hand("2H 3H"), hand("4H 5H")], hand("5D 6S 7S 8S 9S 10S")
    typed = opening_state(hands, dog, np.int64(2), "garde contre", np.int8(1))
    assert typed == opening_state(hands, dog, 2, Contract.GARDE_CONTRE, 1) and type(typed.leader) is int


# Poignées -----------------------------------------------------------------------

TRUMPS_1_TO = {n: " ".join(f"T{i}" for i in range(1, n + 1)) for n in range(1, 22)}


@pytest.mark.parametrize(
    "held, shown, level",
    [
        (TRUMPS_1_TO[10] + " KS", TRUMPS_1_TO[10], 0),
        (TRUMPS_1_TO[12] + " KS", TRUMPS_1_TO[10], 0),  # more trumps than shown: fine
        (TRUMPS_1_TO[13], TRUMPS_1_TO[13], 1),
        (TRUMPS_1_TO[15] + " EX", TRUMPS_1_TO[15], 2),
        (TRUMPS_1_TO[9] + " EX KS", TRUMPS_1_TO[9] + " EX", 0),  # 9 trumps + the Excuse
        (TRUMPS_1_TO[12] + " EX", TRUMPS_1_TO[12] + " EX", 1),
        (TRUMPS_1_TO[14] + " EX", TRUMPS_1_TO[14] + " EX", 2),
    ],
)
def test_poignee_level(held: str, shown: str, level: int) -> None:
    assert poignee_level(hand(held), parse_cards(shown)) == level


@pytest.mark.parametrize(
    "held, shown, token",
    [
        (TRUMPS_1_TO[10] + " EX", TRUMPS_1_TO[9] + " EX", "EX"),  # 10 trumps: the Excuse may not be shown
        (TRUMPS_1_TO[14] + " EX", TRUMPS_1_TO[12] + " EX", "EX"),
        (TRUMPS_1_TO[9] + " KS", TRUMPS_1_TO[9] + " KS", "KS"),  # not a trump
        (TRUMPS_1_TO[9] + " KS", TRUMPS_1_TO[9] + " T21", "T21"),  # not held
        (TRUMPS_1_TO[10], "T1 T1 T2 T3 T4 T5 T6 T7 T8 T9", "T1"),  # a card twice
        (TRUMPS_1_TO[12], TRUMPS_1_TO[11], None),  # exactly 10 / 13 / 15
        (TRUMPS_1_TO[12], TRUMPS_1_TO[9], None),
        (TRUMPS_1_TO[21], TRUMPS_1_TO[16], None),
    ],
)
def test_bad_poignee(held: str, shown: str, token: Optional[str]) -> None:
    with pytest.raises(RecordError) as info:
        poignee_level(hand(held), parse_cards(shown, allow_duplicates=True))
    assert info.value.token == token


@pytest.mark.parametrize("variant, sizes", [(THREE_PLAYERS, (13, 15, 18)), (FOUR_PLAYERS, (10, 13, 15)),
                                             (FIVE_PLAYERS, (8, 10, 13))])
def test_poignee_sizes_of_each_table(variant: Variant, sizes: Tuple[int, int, int]) -> None:
    # RULES.md: simple, double and triple poignées of 13 / 15 / 18 trumps at three players, 8 / 10 / 13 at five
    for level, size in enumerate(sizes):
        assert poignee_level(hand(TRUMPS_1_TO[21]), parse_cards(TRUMPS_1_TO[size]), variant) == level
        with pytest.raises(RecordError, match=f"exactly {', '.join(map(str, sizes))} trumps, not {size - 1}$"):
            poignee_level(hand(TRUMPS_1_TO[21]), parse_cards(TRUMPS_1_TO[size - 1]), variant)


# Petit sec and bidding ----------------------------------------------------------


@pytest.mark.parametrize(
    "held, sec",
    [
        ("T1 KS 2H 3D", True),
        ("T1 EX KS", False),
        ("T1 T2 KS", False),
        ("KS 2H", False),
        ("T2 KS", False),
    ],
)
def test_is_petit_sec(held: str, sec: bool) -> None:
    assert is_petit_sec(hand(held)) is sec


@pytest.mark.parametrize(
    "bids, result",
    [
        ([], None),
        (["pass"] * 4, None),
        (["prise", "pass", "pass", "pass"], (0, Contract.PRISE)),
        (["pass", "garde", "pass", "garde_contre"], (3, Contract.GARDE_CONTRE)),
        (["PASS", "Garde-Sans"], (1, Contract.GARDE_SANS)),
        (["pass", "Petite"], (1, Contract.PRISE)),  # the prise's other name
        (["prise", "garde", "garde_sans", "garde_contre"], (3, Contract.GARDE_CONTRE)),
    ],
)
def test_bidding_result(bids: List[str], result: object) -> None:
    assert bidding_result(bids) == result


@pytest.mark.parametrize(
    "bids, token",
    [
        (["prise", "prise"], "prise"),  # must beat the previous bid
        (["garde", "pass", "prise"], "prise"),
        (["garde_contre", "garde_sans"], "garde_sans"),
        (["pass", "pass", "pass", "pass", "garde"], "garde"),  # each player speaks once
        (["pass", "misere"], "misere"),
    ],
)
def test_bad_bidding(bids: List[str], token: str) -> None:
    with pytest.raises(RecordError) as info:
        bidding_result(bids)
    assert info.value.token == token and f"'{token}'" in str(info.value)



def test_play_takes_a_token_and_refuses_what_is_not_a_card() -> None:
    from tarot_solver.cards import card_token
    from tarot_solver.errors import CardError
    from tarot_solver.records import read_records
    from conftest import EXAMPLES
    st = read_records(EXAMPLES / "endgames.jsonl")[0].position()
    card = cards_of(st.legal())[0]
    twin = st.copy()
    st.play(card_token(card).lower())
    twin.play(card)
    assert st == twin
    for bad in ("ZZ", 100, -1):
        with pytest.raises(CardError):
            st.play(bad)


# The camp of the seat on turn ---------------------------------------------------


def test_taker_to_play_is_the_camp_of_the_seat_on_turn() -> None:
    state = new_state(["KS 2H", "2S 3H", "3S 4H", "4S 5H"], taker=2, leader=1)
    seen = []
    for card in parse_cards("2S 3S 4S KS  2H 3H 4H 5H"):
        assert state.taker_to_play == state.camps[state.to_play]
        seen.append(state.taker_to_play)
        state.play(card)
    assert seen == [False, True, False, False, False, False, True, False]


# Reprs --------------------------------------------------------------------------


def test_reprs_show_tokens_and_equality_is_unchanged() -> None:
    trick = Trick(3, parse_cards("KS 5S T3 2S"), 1)
    assert repr(trick) == "Trick(leader=3, cards=['KS', '5S', 'T3', '2S'], winner=1)"
    assert trick == Trick(3, parse_cards("KS 5S T3 2S"), 1) and trick != Trick(3, parse_cards("KS 5S T3 2S"), 0)
    state = play(new_state(["KS 2H T21", "2S 3H EX", "3S 4H 7D", "4S 5H 8D"]), "KS 2S 3S 4S  2H")
    assert repr(state) == ("PlayState(to_play=1, taker_camp=[0], trick=['2H'], hands=['T21', '3H EX', '4H 7D',"
                           " '5H 8D'], tricks_done=1, taker_points=6, defence_points=0, taker_oudlers=[])")
    assert repr(state.tricks[0]) == "Trick(leader=0, cards=['KS', '2S', '3S', '4S'], winner=0)"
    assert state == state.copy() and state != play(state.copy(), "3H") and str(state) == repr(state)
    # a position built wrong still shows what it holds
    wrong = PlayState(hands=[[1, 2], -1], camps=(True, False), leader=0, trick=[200, 13])  # type: ignore[list-item]
    assert "hands=[[1, 2], -1]" in repr(wrong) and "trick=[200, 'KS']" in repr(wrong)
    assert repr(Trick(0, [], 0)) == "Trick(leader=0, cards=[], winner=0)"


# Positions without their history ----------------------------------------------


def _known(state: PlayState, taker: int, partner: Optional[int] = None) -> PlayState:
    """``state`` rebuilt by :func:`midgame_state` from what a player at the table knows."""
    return midgame_state(state.hands, taker, state.leader, trick=state.trick, taker_hp=state.taker_hp,
                         taker_oudlers=[c for c, camp in state.oudler_camp.items() if camp],
                         taker_tricks=sum(state.camps[t.winner] for t in state.tricks), partner=partner)


@pytest.mark.parametrize("name", ["midgame.json", "three-midgame.json", "five-midgame.json", "play.json"])
def test_midgame_state_is_the_position_a_whole_deal_reaches(name: str) -> None:
    from conftest import EXAMPLES
    from tarot_solver.records import read_record
    from tarot_solver.solver import Solver, position_args

    record = read_record(EXAMPLES / name)
    state = record.state()
    built = _known(state, record.taker, record.partner)
    # what the solver and the rules read of a position is the same; only the tricks' cards are unknown
    assert position_args(built) == position_args(state) and built.variant == state.variant
    assert (built.defence_hp, built.oudler_camp, built.tricks_done, built.to_play, built.total_tricks) == (
        state.defence_hp, state.oudler_camp, state.tricks_done, state.to_play, state.total_tricks)
    assert [state.camps[t.winner] for t in built.tricks] == sorted((state.camps[t.winner] for t in state.tricks),
                                                                    reverse=True)
    assert all(t.cards == [] for t in built.tricks)
    assert (built.petit_au_bout(), built.slam()) == (None, None)  # (tricks without their cards)
    assert Solver(16).solve(built, pv=False).margin == Solver(16).solve(state, pv=False).margin
    for card in cards_of(state.legal()):  # and play goes on alike
        a, b = state.copy(), built.copy()
        a.play(card)
        b.play(card)
        assert (a.hands, a.trick, a.taker_hp, a.defence_hp, a.leader) == (b.hands, b.trick, b.taker_hp, b.defence_hp,
                                                                          b.leader)


def test_midgame_state_takes_tokens_and_the_tricks_won_decide_the_excuse_led_last() -> None:
    # the Excuse led to the last trick wins it only for a camp that has won every trick
    hands = ["EX", "2S", "3S", "4S"]
    gone = TOTAL_HALF_POINTS - 12
    for taker_tricks, taker_gain in ((17, 12), (16, 0)):
        state = midgame_state(hands, 0, 0, taker_hp=100, taker_oudlers="T1 T21", taker_tricks=taker_tricks)
        assert (state.tricks_done, state.defence_hp, state.won_all(True)) == (17, gone - 100, taker_tricks == 17)
        state.play("EX")
        play(state, "2S 3S 4S")
        assert state.taker_hp == 100 + taker_gain


def test_midgame_state_takes_the_least_points_the_oudlers_held_are_worth() -> None:
    # seat 0 holds EX; T1 and T21 are gone: 170 half-points, 9 of them the defence's T21 at least
    for taker_hp in (9, 161):
        state = midgame_state(["EX", "2S", "3S", "4S"], 0, 0, taker_hp=taker_hp, taker_oudlers="T1", taker_tricks=3)
        assert (state.taker_hp, state.defence_hp) == (taker_hp, 170 - taker_hp)
    # the Excuse kept before the last trick is worth 4 to its camp
    state = midgame_state(["T1", "2S", "3S", "4S"], 0, 0, taker_hp=8, taker_oudlers="EX", taker_tricks=0)
    assert state.oudler_camp[EXCUSE] is True


def test_midgame_state_takes_card_sets_and_a_trick_in_progress() -> None:
    state = midgame_state(["KS 7S", "2S 3H", "4S 5H", mask_of(parse_cards("QS"))], 0, 3, trick=["10S"],
                          taker_hp=120, taker_oudlers=["T21"], taker_tricks=10)
    assert (state.to_play, state.tricks_done, state.total_tricks, state.trick) == (0, 16, 18, parse_cards("10S"))
    assert (state.taker_hp, state.defence_hp, state.oudler_camp) == (120, 40, {PETIT: False, TRUMP21: True,
                                                                                EXCUSE: False})
    assert [t.winner for t in state.tricks] == [0] * 10 + [1] * 6


def test_midgame_state_takes_hands_in_the_hand_notation() -> None:
    from conftest import EXAMPLES
    from tarot_solver.cards import tokens
    from tarot_solver.notation import format_hand
    from tarot_solver.records import read_record

    state = read_record(EXAMPLES / "midgame.json").state()
    known = dict(taker=0, leader=state.leader, trick=state.trick, taker_hp=state.taker_hp,
                 taker_tricks=sum(state.camps[t.winner] for t in state.tricks))
    oudlers = [c for c, camp in state.oudler_camp.items() if camp]
    from_tokens = midgame_state([tokens(cards_of(h)) for h in state.hands], taker_oudlers=oudlers, **known)
    written = [format_hand(cards_of(h)) for h in state.hands]
    assert any(":" in h and "-" in h for h in written)  # (groups, and a void)
    for hands in (written, [h.lower() for h in written]):   # (canonical and lenient)
        assert midgame_state(hands, taker_oudlers=format_hand(oudlers), **known) == from_tokens
    assert from_tokens.hands == state.hands


def test_midgame_state_takes_numpy_seats_as_the_ints_they_are() -> None:
    # a bot's seats often come out of numpy arrays: np.int64(0) was 'bad seat "np.int64(0)"'
    import numpy as np

    plain = midgame_state(["EX", "2S", "3S", "4S", "5S"], 0, 1, taker_hp=100, taker_oudlers="T1", taker_tricks=3,
                          partner=2)
    typed = midgame_state(["EX", "2S", "3S", "4S", "5S"], np.int64(0), np.int8(1), taker_hp=100,
                          taker_oudlers="T1", taker_tricks=3, partner=np.int32(2))
    assert typed == plain and type(typed.leader) is int and typed.camps == (True, False, True, False, False)


@pytest.mark.parametrize("change, error, message", [
    ({"hands": ["2S", "3S"]}, RecordError, "key 'hands': 2 hands: a table has 3, 4 or 5 players"),
    ({"taker": 4}, RecordError, "key 'taker': bad seat '4': seats are integers 0..3"),
    ({"leader": True}, TypeError, "leader must be a seat (an integer 0..3), not True"),
    ({"taker": None}, TypeError, "taker must be a seat (an integer 0..3), not None"),
    ({"hands": ["2S", "3S", "4S", "5S", "6S"], "partner": "1"}, TypeError,
     "partner must be a seat (an integer 0..4), not '1'"),
    ({"partner": 2}, RecordError, "key 'partner': no partner at 4 players (only at five)"),
    ({"hands": ["2S", "3S", "4S", "5S", "6S"], "partner": 0}, RecordError,
     "key 'partner': the partner must be another seat than the taker (0)"),
    ({"hands": ["2S", "2S", "4S", "5S"]}, RecordError, "key 'hands[1]': '2S' is in hands[0] and in hands[1]"),
    ({"hands": ["2S", "3S 3H", "4S", "5S"], "trick": ["3H"]}, RecordError, "'3H' is in hands[1] and in trick"),
    ({"hands": ["2S", "3S", "4S", "5S"], "trick": "6S 7S 8S 9S"}, RecordError,
     "key 'trick': 4 cards on the table: a trick in progress holds fewer than 4"),
    ({"hands": ["2S", "3S 3H", "4S", "5S"]}, RecordError,
     "key 'hands': hands of 1, 2, 1, 1 cards with 0 on the table (led by seat 0): every seat holds as many, less"
     " the card it played to the trick"),
    ({"hands": [""] * 4}, RecordError, "key 'hands': the hands are empty: no card is left to play"),
    ({"taker_hp": 171}, RecordError, "key 'taker_hp': taker_hp 171 is not within 0..170, the half-points of the"
     " cards gone"),
    ({"taker_hp": -1}, RecordError, "taker_hp -1"),
    ({"taker_hp": 1.5}, TypeError, "taker_hp must be an integer, not 1.5"),
    # a camp holding an oudler gone has won its points (the Excuse, kept before the last trick: 4)
    ({"taker_hp": 17, "taker_oudlers": "T1 T21"}, RecordError,
     "key 'taker_hp': taker_hp 17 leaves the taker's camp 17 half-points, but it holds T1 T21, worth 18 at least"),
    ({"taker_hp": 162}, RecordError,
     "key 'taker_hp': taker_hp 162 leaves the defence 8 half-points, but it holds T21, worth 9 at least"),
    ({"hands": ["T1", "2S", "3S", "4S"], "taker_hp": 7, "taker_oudlers": "EX"}, RecordError,
     "taker_hp 7 leaves the taker's camp 7 half-points, but it holds EX, worth 8 at least"),
    ({"taker_oudlers": "KH"}, RecordError, "key 'taker_oudlers': 'KH' is not an oudler (T1, T21, EX)"),
    ({"taker_oudlers": "T1 EX"}, RecordError, "key 'taker_oudlers': 'EX' is still in hands[0]"),
    ({"taker_oudlers": "T99"}, CardError, "key 'taker_oudlers': unknown card 'T99': trumps run from 1 to 21"),
    ({"taker_tricks": 18}, RecordError, "key 'taker_tricks': taker_tricks 18: 17 tricks have been played"),
    ({"hands": [True, 0, 0, 0]}, TypeError, "hands[0] must be a card set or cards, not True"),
    ({"hands": "EX 2S 3S 4S"}, TypeError, "hands must be a sequence with one hand per seat, not a string"),
    ({"hands": [1 << 80, 0, 0, 0]}, CardError, "is not a card set"),
    ({"hands": ["EX", "S:2", "S:3", "S:4Z"]}, CardError, "key 'hands[3]': unknown rank 'Z' in 'S:4Z'"),
    ({"hands": ["EX", "Q:2", "S:3", "S:4"]}, CardError, "key 'hands[1]': unknown suit 'Q' in 'Q:2'"),
    ({"hands": ["EX", "S:2", "S:33", "S:4"]}, CardError, "key 'hands[2]': duplicate card '3S'"),
])
def test_midgame_state_refuses_a_position_that_cannot_be(change: Dict[str, Any], error: Any, message: str) -> None:
    args: Dict[str, Any] = dict(hands=["EX", "2S", "3S", "4S"], taker=0, leader=0, taker_hp=100, taker_oudlers="T1",
                                taker_tricks=3)
    args.update(change)
    with pytest.raises(error, match=re.escape(message)):
        midgame_state(**args)
