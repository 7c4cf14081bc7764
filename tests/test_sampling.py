"""The world sampler: exact uniformity on small cases, constraints from play, seeds, errors."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections import Counter
from typing import Dict, List, Sequence, Tuple

import numpy as np
import pytest

from tarot_solver import rules
from tarot_solver.advice import view_of
from tarot_solver.cards import (
    EXCUSE,
    FULL_DECK,
    OUDLERS_MASK,
    TRUMPS,
    TRUMPS_MASK,
    cards_of,
    count,
    mask_of,
    parse_cards,
    suit_mask,
    suit_of,
)
from tarot_solver.errors import RecordError
from tarot_solver.records import DealRecord, read_record, read_records
from tarot_solver.sampling import (
    ConstraintError,
    Constraints,
    Sampler,
    View,
    World,
    hand_constraints,
    have_played,
    record_constraints,
    world_rng,
)
from tarot_solver.variant import Contract

from conftest import EXAMPLES, load_json

#: the aside location of the four-player game (after seats 0..3)
ASIDE = 4
LOCATIONS = ASIDE + 1


def small_case(unknown: Sequence[int], free: Sequence[int], forbidden: Dict[int, int]) -> Constraints:
    """Constraints of a full deal in which only ``unknown`` cards are unplaced.

    ``free[loc]`` unknown cards go to location ``loc``; every other card is known,
    dealt trumps first (the Petit goes with other trumps, so no Petit sec arises).
    """
    sizes = (18, 18, 18, 18, 6)
    rest = [c for c in range(56, 78)] + [c for c in range(56) if c not in unknown]
    known = []
    for loc in range(LOCATIONS):
        take = sizes[loc] - free[loc]
        known.append(mask_of(rest[:take]))
        rest = rest[take:]
    assert not rest
    return Constraints(sizes=sizes, known=tuple(known),
                       forbidden=tuple(forbidden.get(loc, 0) & mask_of(unknown) for loc in range(LOCATIONS)))


def all_deals(c: Constraints) -> List[Tuple[int, ...]]:
    """Every placement of the unknown cards allowed by ``c`` (brute force)."""
    unknown = cards_of(c.unknown)
    free = [c.sizes[loc] - count(c.known[loc]) for loc in range(LOCATIONS)]
    slots = [loc for loc in range(LOCATIONS) for _ in range(free[loc])]
    out = set()
    for perm in itertools.permutations(slots):
        if any(c.forbidden[loc] >> card & 1 for card, loc in zip(unknown, perm)):
            continue
        held = list(c.known)
        for card, loc in zip(unknown, perm):
            held[loc] |= 1 << card
        out.add(tuple(held))
    return sorted(out)


def as_tuple(w: World) -> Tuple[int, ...]:
    return tuple(w.hands) + (w.aside,)


SPADES = suit_mask(0)


@pytest.mark.parametrize("free, forbidden", [
    ((0, 3, 2, 2, 0), {}),                                    # no constraint: multinomial
    ((0, 3, 2, 1, 1), {1: SPADES}),                           # seat 1 void in spades
    ((0, 2, 2, 2, 1), {1: SPADES, ASIDE: 1 << 3}),            # and one spade never set aside
    ((0, 2, 3, 2, 0), {3: FULL_DECK & ~SPADES, 1: 1 << 1}),   # seat 3 only spades
])
def test_sampler_is_exactly_uniform_on_small_cases(free: Tuple[int, ...], forbidden: Dict[int, int]) -> None:
    unknown = [0, 1, 2, 3, 14, 15, 28][:sum(free)]  # spades 1-4, two hearts, a diamond
    c = small_case(unknown, free, forbidden)
    deals = all_deals(c)
    sampler = Sampler(c)
    assert sampler.count == len(deals) > 1
    draws = 200 * len(deals)
    seen = Counter(as_tuple(sampler.sample(world_rng(11, i))) for i in range(draws))
    assert set(seen) <= set(deals)
    expected = draws / len(deals)
    chi2 = sum((seen.get(d, 0) - expected) ** 2 / expected for d in deals)
    df = len(deals) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)


def test_world_i_depends_only_on_seed_and_index() -> None:
    sampler = Sampler(hand_constraints(2, mask_of(range(18))))
    forward = [sampler.sample(world_rng(5, i)) for i in range(6)]
    backward = [sampler.sample(world_rng(5, i)) for i in reversed(range(6))][::-1]
    assert forward == backward
    assert Sampler(hand_constraints(2, mask_of(range(18)))).sample(world_rng(5, 3)) == forward[3]
    assert len({as_tuple(w) for w in forward}) == 6
    assert sampler.sample(world_rng(6, 0)) != forward[0]
    # the documented contract (the same advice for a given --seed, release after release):
    # world i of seed k is drawn by the generator of child i of SeedSequence(k)
    child = np.random.SeedSequence(5).spawn(4)[3]
    assert world_rng(5, 3).random() == np.random.default_rng(child).random()


def test_bid_worlds_keep_the_hand_and_deal_everything() -> None:
    hand = mask_of(range(40, 58))
    sampler = Sampler(hand_constraints(1, hand))
    for i in range(50):
        w = sampler.sample(world_rng(0, i))
        assert w.hands[1] == hand
        assert [count(h) for h in w.hands] == [18] * 4 and count(w.aside) == 6
        total = w.aside
        for h in w.hands:
            assert not total & h
            total |= h
        assert total == FULL_DECK


def test_a_dog_shown_stays_aside_in_every_world() -> None:
    # a prise or garde shows the dog to all: only the 54 cards of the other three hands
    # are unknown, 18 to each (the hand holds T1 and T2: no Petit sec to redraw)
    hand, dog = mask_of(range(40, 58)), mask_of(range(6))
    sampler = Sampler(hand_constraints(1, hand, dog))
    assert sampler.count == math.factorial(54) // math.factorial(18) ** 3
    for i in range(20):
        w = sampler.sample(world_rng(0, i))
        assert w.aside == dog and w.hands[1] == hand
    assert Sampler(hand_constraints(1, hand)).count == math.factorial(60) // (math.factorial(18) ** 3
                                                                              * math.factorial(6))


def test_petit_sec_deals_are_redrawn() -> None:
    # seat 1 holds 17 plain cards; one of T1 1S 2S 3S completes it, the rest go aside:
    # the Petit would be its only trump, without the Excuse, so that deal is never drawn
    unknown = parse_cards("T1 1S 2S 3S")
    plain = list(range(3, 56))
    known = (mask_of(plain[17:35]), mask_of(plain[:17]), mask_of(plain[35:53]),
             mask_of(parse_cards("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19")),
             mask_of(parse_cards("T20 T21 EX")))
    c = Constraints(sizes=(18, 18, 18, 18, 6), known=known, forbidden=(0,) * LOCATIONS)
    sampler = Sampler(c)
    assert sampler.count == 4
    got = {sampler.sample(world_rng(3, i)).hands[1] & mask_of(unknown) for i in range(200)}
    assert got == {mask_of([card]) for card in parse_cards("1S 2S 3S")}


# Errors --------------------------------------------------------------------------------


def test_hall_violation_is_named() -> None:
    c = small_case([0, 1, 2, 14], (0, 1, 1, 2, 0), {2: SPADES, 3: SPADES})
    with pytest.raises(ConstraintError, match="3 unknown cards can only be with seat 1, which has room for 1"):
        Sampler(c)


def test_hall_violation_of_the_cards_set_aside_is_named() -> None:
    # seats 1 to 3 void in spades: the three spades can only go aside, which has room for two
    c = small_case([0, 1, 2, 14, 15], (0, 1, 1, 1, 2), {1: SPADES, 2: SPADES, 3: SPADES})
    with pytest.raises(ConstraintError,
                       match="3 unknown cards can only be with the cards set aside, which has room for 2"):
        Sampler(c)


def test_card_with_no_place_is_named() -> None:
    c = small_case([0, 14], (0, 1, 1, 0, 0), {1: 1, 2: 1})
    with pytest.raises(ConstraintError, match="'1S' fits in no hand"):
        Sampler(c)


def test_known_card_in_a_forbidden_place_is_named() -> None:
    c = small_case([0, 14], (0, 1, 1, 0, 0), {})
    card = cards_of(c.known[3])[0]
    bad = Constraints(sizes=c.sizes, known=c.known, forbidden=(0, 0, 0, 1 << card, 0))
    with pytest.raises(ConstraintError, match="known to be with seat 3, which cannot hold it"):
        Sampler(bad)


def test_sizes_that_do_not_add_up_are_refused() -> None:
    c = hand_constraints(0, mask_of(range(18)))
    with pytest.raises(ConstraintError, match="60 unknown cards for 59 places"):
        Sampler(Constraints(sizes=(18, 18, 18, 17, 6), known=c.known, forbidden=c.forbidden))
    # too many places is as wrong as too few
    with pytest.raises(ConstraintError, match="60 unknown cards for 61 places"):
        Sampler(Constraints(sizes=(18, 18, 18, 19, 6), known=c.known, forbidden=c.forbidden))


def test_more_known_cards_than_a_hand_holds_are_refused() -> None:
    # 19 cards known with seat 1 and 59 unknown for the 59 other places: the sizes add
    # up, the hand does not
    c = hand_constraints(0, mask_of(range(18)))
    known = (c.known[0], mask_of(range(18, 37)), 0, 0, 0)
    with pytest.raises(ConstraintError, match="seat 1 holds 18 cards but 19 are known to be there"):
        Sampler(Constraints(sizes=c.sizes, known=known, forbidden=c.forbidden))


def test_a_card_known_in_two_places_is_named() -> None:
    c = hand_constraints(0, mask_of(range(18)))
    known = (c.known[0], 0, 0, 1 << 20, 1 << 20)
    with pytest.raises(ConstraintError,
                       match="'7H' is known to be both with seat 3 and with the cards set aside"):
        Sampler(Constraints(sizes=c.sizes, known=known, forbidden=c.forbidden))


def test_a_card_known_in_a_hand_and_played_is_named() -> None:
    # seat 2 played the 1S, which seat 0 is said to hold (the sizes not lowered for the play,
    # so that the counts add up): no world may deal it again
    c = hand_constraints(0, mask_of(range(18)))
    played = Constraints(sizes=c.sizes, known=c.known, forbidden=c.forbidden, played_by=(0, 0, 1, 0))
    with pytest.raises(ConstraintError, match="'1S' is known to be with seat 0, which cannot hold it"):
        Sampler(played)


# Knowledge from a record ------------------------------------------------------------------


def check_world(c: Constraints, w: World) -> None:
    held = as_tuple(w)
    for loc in range(LOCATIONS):
        assert held[loc] & c.known[loc] == c.known[loc]
        assert not held[loc] & c.forbidden[loc]
        assert count(held[loc]) == c.sizes[loc]
    union = 0
    for h in held:
        assert not union & h
        union |= h
    assert union | c.gone == FULL_DECK and not union & c.gone


@pytest.mark.parametrize("played", [0, 9, 26, 47, 70])
def test_record_knowledge_holds_for_the_true_deal_and_every_world(played: int) -> None:
    obj = load_json("game.json")
    obj["played"] = obj["played"][:played]
    record = DealRecord.from_json(obj)
    state = record.state()
    truth = World(hands=tuple(state.hands), aside=mask_of(record.discard or record.dog))
    for seat in range(4):
        c = record_constraints(record, seat)
        check_world(c, truth)
        sampler = Sampler(c)
        for i in range(30):
            check_world(c, sampler.sample(world_rng(played, i)))


def test_knowledge_holds_for_the_true_deal_over_the_example_history() -> None:
    checked = 0
    for record in read_records(EXAMPLES / "history.jsonl"):
        for played in (0, 13, 30, 51, 71):
            cut = dataclasses.replace(record, played=(record.played or [])[:played])
            state = cut.state()
            truth = World(hands=tuple(state.hands), aside=mask_of(cut.discard or cut.dog))
            for seat in range(4):
                check_world(record_constraints(cut, seat), truth)
                checked += 1
    assert checked == 400


def test_play_reveals_voids_and_missing_trumps() -> None:
    game = load_json("game.json")
    record = DealRecord.from_json(game)
    state = record.opening_state()
    seen: Counter = Counter()
    for n, card in enumerate(record.played):
        player, trick = state.to_play, list(state.trick)
        state.play(card)
        led = rules.led_suit(trick)
        if led is None or card == EXCUSE:
            continue
        obj = dict(game, played=game["played"][:n + 1])
        forbidden = record_constraints(DealRecord.from_json(obj), (player + 1) % 4).forbidden[player]
        if led != TRUMPS and suit_of(card) != led:
            assert forbidden & suit_mask(led) == suit_mask(led)
            seen["void"] += 1
        if suit_of(card) != TRUMPS and suit_of(card) != led:
            assert forbidden & TRUMPS_MASK == TRUMPS_MASK
            seen["no trump"] += 1
        top = rules.highest_trump(trick)
        if suit_of(card) == TRUMPS and card < top:
            above = mask_of(range(top + 1, EXCUSE))
            assert forbidden & above == above
            seen["under-trump"] += 1
    assert seen["void"] and seen["no trump"]


def test_a_trump_under_the_highest_on_a_suit_lead_shows_none_above() -> None:
    # examples/deal.json seen by seat 0 (seat 1 takes a garde, seat 3 leads): a heart led,
    # seat 1 trumps with the T13, and seat 2, void in hearts too, plays the T2: he must have
    # overtrumped if able, so he holds no trump above the T13 (the T3..T12 he may hold)
    record = read_record(EXAMPLES / "deal.json")
    view = View(seat=0, hand=mask_of(record.hands[0]), taker=1, contract=Contract.GARDE, leader=3,
                dog=mask_of(record.dog), aside=0, played=tuple(parse_cards("8H 4H T13 T2")))
    forbidden = view.constraints().forbidden[2]
    above, below = mask_of(parse_cards("T14 T15 T16 T17 T18 T19 T20 T21")), mask_of(parse_cards("T3 T5 T11 T12"))
    assert forbidden & above == above and not forbidden & below
    assert forbidden & suit_mask(1) == suit_mask(1)  # (the hearts)


def trumpy_deal() -> Dict[str, object]:
    """A garde whose taker (seat 0) must put three trumps in the discard and shows a poignée."""
    taker = parse_cards("T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 KS KH KD")
    dog = parse_cards("1S 2S 3S T17 T18 T19")
    rest = [c for c in range(78) if c not in taker + dog]  # 50 plain cards, T1 T20 T21 EX
    return {
        "hands": [taker, rest[:18], rest[18:36], rest[36:54]],
        "dog": dog, "dealer": 3, "taker": 0, "contract": "garde",
        "discard": parse_cards("1S 2S 3S T2 T3 T4"),
        "poignees": [{"seat": 0, "trumps": parse_cards("T5 T6 T7 T8 T9 T10 T11 T12 T13 T14")}],
        "played": ["KS"],  # (a poignée is shown with its holder's first card)
    }


def test_discard_and_poignee_knowledge_of_a_defender() -> None:
    obj = trumpy_deal()
    record = DealRecord.from_json(obj)
    c = record_constraints(record, 2)
    discard = mask_of(record.discard)
    assert c.known[ASIDE] == discard & TRUMPS_MASK  # trumps in the discard are shown
    assert c.known[0] & mask_of(parse_cards("T5 T14")) == mask_of(parse_cards("T5 T14"))  # the poignée
    sampler = Sampler(c)
    for i in range(20):
        w = sampler.sample(world_rng(1, i))
        check_world(c, w)
        # the taker had no other discardable plain card: the dog's 1S 2S 3S must be in the discard
        assert w.aside == discard
    # the taker himself knows the discard
    assert record_constraints(record, 0).known[ASIDE] == discard


def test_the_dealt_hands_of_a_world_leave_the_dog_out_of_the_takers() -> None:
    # Constraints.dealt_hands (the hands the Petit sec check reads): the taker's hand now,
    # plus his played cards and the discard, less the dog he took (T17 T18 T19 kept here)
    record = DealRecord.from_json(trumpy_deal())
    dog = mask_of(record.dog)
    for seat in (0, 2):
        c = record_constraints(record, seat)
        sampler = Sampler(c)
        for i in range(10):
            dealt = c.dealt_hands(sampler.sample(world_rng(3, i)))
            assert [count(h) for h in dealt] == [18] * 4 and not dealt[0] & dog
            union = dog
            for h in dealt:
                assert not union & h
                union |= h
            assert union == FULL_DECK
            if seat == 0:  # the taker knows his hand as dealt
                assert dealt[0] == mask_of(record.hands[0])


def test_a_defender_never_sees_a_king_or_an_oudler_in_the_discard() -> None:
    """Kings and oudlers (the Excuse too) may not be discarded: no defender's world puts one aside."""
    never = mask_of(parse_cards("KS KH KD KC")) | OUDLERS_MASK
    checked = 0
    for record in read_records(EXAMPLES / "history.jsonl"):
        if record.discard is None or record.variant.players != 4:
            continue
        record = dataclasses.replace(record, played=[])
        for seat in range(4):
            if seat == record.taker:
                continue
            c = record_constraints(record, seat)
            assert c.forbidden[ASIDE] & never == never
            sampler = Sampler(c)
            for i in range(10):
                assert not sampler.sample(world_rng(0, i)).aside & never
                checked += 1
    assert checked >= 300


def test_the_dog_of_a_garde_is_aside_until_the_taker_discards() -> None:
    # examples/deal.json cut before the discard: the dog was shown to all and is still the
    # aside cards, in every world of every seat
    obj = {k: v for k, v in load_json("deal.json").items() if k != "discard"}
    record = DealRecord.from_json(obj)
    dog = mask_of(record.dog)
    for seat in range(4):
        c = record_constraints(record, seat)
        assert c.known[ASIDE] == dog
        sampler = Sampler(c)
        assert all(sampler.sample(world_rng(0, i)).aside == dog for i in range(5))


def test_no_seat_sees_the_dog_of_a_garde_sans() -> None:
    obj = {**load_json("deal.json"), "contract": "garde_sans", "bids": ["pass", "pass", "garde_sans", "pass"]}
    del obj["discard"]
    record = DealRecord.from_json(obj)
    for seat in range(4):
        view = View.of_record(record, seat)
        assert view.dog is None and view.aside is None
        assert record_constraints(record, seat).known[ASIDE] == 0


def test_a_poignee_is_seen_once_its_holder_has_played() -> None:
    # a record holds the whole deal's poignées; cut before the holder's first card, the
    # others have not seen it (it is shown just before that card)
    shown = mask_of(parse_cards("T5 T6 T7 T8 T9 T10 T11 T12 T13 T14"))
    for played, seen in (([], ()), (["KS"], ((0, shown),))):
        record = DealRecord.from_json({**trumpy_deal(), "played": played})
        assert View.of_record(record, 2).poignees == seen
        assert record_constraints(record, 2).known[0] & shown == (shown if seen else 0)


def test_the_seats_that_have_played_are_counted_from_the_first_leader() -> None:
    # (their poignées are shown): seat 2 leads, then 3, 0 and 1, a card each
    assert have_played(2, 0, 4) == set()
    assert have_played(2, 3, 4) == {2, 3, 0}
    assert have_played(2, 4, 4) == have_played(2, 40, 4) == {0, 1, 2, 3}
    assert have_played(1, 2, 3) == {1, 2} and have_played(4, 2, 5) == {4, 0}
    assert have_played(None, 0, 4) == set()  # no card played: no seat, leader known or not


def test_excuse_in_a_poignee_means_no_other_trump() -> None:
    plain = list(range(56))
    trumps = list(range(56, 77))
    hands = [plain[:18], plain[18:36], plain[36:45] + trumps[12:21], trumps[:9] + plain[45:53] + [EXCUSE]]
    obj = {"hands": hands, "dog": plain[53:56] + trumps[9:12], "dealer": 2, "taker": 0,
           "contract": "garde_sans", "poignees": [{"seat": 3, "trumps": trumps[:9] + [EXCUSE]}],
           "played": plain[45:46]}  # (seat 3 leads: his poignée is shown with his first card)
    c = record_constraints(DealRecord.from_json(obj), 1)
    assert c.forbidden[3] & TRUMPS_MASK == TRUMPS_MASK & ~mask_of(trumps[:9])
    assert c.known[3] == mask_of(trumps[:9] + [EXCUSE])
    sampler = Sampler(c)
    for i in range(20):
        check_world(c, sampler.sample(world_rng(2, i)))


def test_a_card_played_from_the_discard_or_from_another_s_poignee_is_named() -> None:
    # examples/deal.json seen by seat 0: seat 1 takes a garde, seat 3 leads; a trump shown
    # in the discard, or shown in seat 3's poignée, cannot then be played by another seat
    record = read_record(EXAMPLES / "deal.json")
    known = dict(seat=0, hand=mask_of(record.hands[0]), taker=1, contract=Contract.GARDE, leader=3,
                 dog=mask_of(record.dog))
    discarded = View(aside=mask_of(parse_cards("T4")), played=tuple(parse_cards("T4")), **known)
    with pytest.raises(RecordError, match=re.escape("seat 3 plays 'T4' in trick 1, but it is in the discard")):
        discarded.constraints()
    poignee = mask_of(parse_cards("T1 T2 T3 T5 T6 T9 T11 T13 T15 T18"))
    shown = View(aside=0, played=tuple(parse_cards("T15 T16 T18")), poignees=((3, poignee),), **known)
    with pytest.raises(RecordError, match=re.escape("seat 1 plays 'T18' in trick 1, but seat 3 showed it in a"
                                                    " poignée")):
        shown.constraints()


def test_contradictory_knowledge_is_an_error() -> None:
    c = hand_constraints(0, mask_of(range(18)))
    impossible = Constraints(sizes=c.sizes, known=c.known, forbidden=(0, TRUMPS_MASK, TRUMPS_MASK, TRUMPS_MASK,
                                                                      TRUMPS_MASK))
    with pytest.raises(ConstraintError, match="'T1' fits in no hand"):
        Sampler(impossible)


def test_forced_petit_sec_is_an_error_not_a_hang() -> None:
    plain = list(range(56))
    known = (mask_of(plain[:18]), mask_of(plain[18:35] + [56]), mask_of(plain[35:53]),
             mask_of(range(57, 75)), mask_of(plain[53:56] + [75, 76]))
    c = Constraints(sizes=(18, 18, 18, 18, 6), known=known, forbidden=(0, 1 << EXCUSE, 0, 0, 0))
    with pytest.raises(ConstraintError, match=r"seat 1 with the Petit sec \(a void deal\), 1000 times in a row"):
        Sampler(c).sample(world_rng(0, 0))


# Five players: what the call shows -------------------------------------------------------


def test_a_king_called_shows_the_taker_was_not_dealt_all_four_kings() -> None:
    """Calling a king tells the table the taker was not dealt the four kings (he would have
    called a queen): no world may deal him the called king on top of the other three, and
    the worlds left are drawn uniformly."""
    kc = parse_cards("KC")[0]
    unknown = [kc] + parse_cards("1S 2S 3S 4S")
    free = (1, 1, 2, 1, 0, 0)  # five seats, then the aside
    sizes = (15, 15, 15, 15, 15, 3)
    rest = parse_cards("KS KH KD") + [c for c in range(56, 78)] + [c for c in range(56)
                                                                   if c not in unknown + parse_cards("KS KH KD")]
    known = []
    for loc in range(6):
        known.append(mask_of(rest[:sizes[loc] - free[loc]]))
        rest = rest[sizes[loc] - free[loc]:]
    c = Constraints(sizes=sizes, known=tuple(known), forbidden=(0,) * 6, call=(0, kc))
    slots = [loc for loc in range(6) for _ in range(free[loc])]
    deals = set()
    for perm in itertools.permutations(slots):
        held = list(known)
        for card, loc in zip(unknown, perm):
            held[loc] |= 1 << card
        if not held[0] >> kc & 1:  # seat 0 (the taker) may not hold all four kings
            deals.add(tuple(held))
    assert len(deals) == 48
    sampler = Sampler(c)
    draws = 200 * len(deals)
    seen = Counter(tuple(w.hands) + (w.aside,) for w in (sampler.sample(world_rng(4, i)) for i in range(draws)))
    assert set(seen) == deals
    expected = draws / len(deals)
    chi2 = sum((seen[d] - expected) ** 2 / expected for d in deals)
    df = len(deals) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)
    # only the taker could hold the called king: no deal fits, and the error says why
    forced = dataclasses.replace(c, forbidden=(0, 1 << kc, 1 << kc, 1 << kc, 0, 0))
    with pytest.raises(ConstraintError, match="deal seat 0 every card of the rank of 'KC'"):
        Sampler(forced).sample(world_rng(0, 0))


def test_a_queen_the_taker_discarded_may_lie_aside_when_he_calls_a_knight() -> None:
    # a knight called shows the taker was dealt the four kings and the four queens; a queen
    # (unlike a king) may be discarded, so the defence cannot rule one out of the discard
    taker = parse_cards("KS QS KH QH KD QD KC QC T2 T3 T4 T5 T6 T7 T8")
    dog = parse_cards("1S 2S 3S")
    rest = [c for c in range(78) if c not in taker + dog]  # 45 plain cards, then T1 T9..T21 EX
    record = DealRecord.from_json({
        "players": 5, "hands": [rest[:15], rest[15:30], taker, rest[30:45], rest[45:]], "dog": dog,
        "dealer": 4, "taker": 2, "contract": "garde", "called": "CS", "discard": parse_cards("QH 1S 2S")})
    kings, queens = mask_of(parse_cards("KS KH KD KC")), mask_of(parse_cards("QS QH QD QC"))
    c = record_constraints(record, 0)
    assert all(c.forbidden[s] & (kings | queens) == kings | queens for s in (0, 1, 3, 4))
    assert c.forbidden[5] & (kings | queens) == kings
    assert not c.forbidden[5] & mask_of(record.discard)  # the true discard fits
    sampler = Sampler(c)
    for i in range(20):
        w = sampler.sample(world_rng(0, i))
        assert w.hands[2] & (kings | queens) | w.aside & queens == kings | queens


def test_a_defender_never_deals_the_taker_the_king_he_called_with_the_other_three() -> None:
    # the taker (seat 0) was dealt KS KH KD, calls KC (seat 2 holds it) and wins the first
    # three tricks with his kings; seat 3, who holds no king, has seen all three played
    hands = [
        "KS KH KD T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13",
        "1S 2S 3S 1H 2H 3H 1D 2D 3D 1C 2C 3C T14 T15 T16",
        "KC 4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C 6C T17 T18",
        "7S 8S 9S 10S 7H 8H 9H 7D 8D 9D 7C 8C 9C T19 T20",
        "10H 10D 10C JS JH JD JC CS CH CD CC QS T1 T21 EX",
    ]
    record = DealRecord.from_json({
        "players": 5, "hands": [h.split() for h in hands], "dog": ["QH", "QD", "QC"], "dealer": 4, "taker": 0,
        "contract": "prise", "called": "KC", "discard": ["QH", "QD", "QC"],
        "played": "KS 1S 4S 7S JS KH 1H 4H 7H JH KD 1D 4D 7D JD".split()})
    kc = parse_cards("KC")[0]
    sampler = Sampler(record_constraints(record, 3))
    holders = Counter(next(s for s, h in enumerate(w.hands) if h >> kc & 1)
                      for w in (sampler.sample(world_rng(7, i)) for i in range(400)))
    assert 0 not in holders  # before: a quarter of the worlds had the taker alone with all four kings
    assert set(holders) == {1, 2, 4}
    # seats 1, 2 and 4 then show no club: KC can only be the taker's, and no deal fits; the
    # error gives the reason met most often (some draws also deal the taker a Petit sec)
    view = view_of(3, hands[3], taker=0, contract="prise", leader=0, dog="QH QD QC", players=5, called="KC",
                   played="KS 1S 4S 7S JS KH 1H 4H 7H JH KD 1D 4D 7D JD 10C T14 T15 7C T16 2H 3H 5H 6H")
    with pytest.raises(ConstraintError, match=r"deal seat 0 every card of the rank of 'KC', so that he could not"
                                              r" call it, \d+ times in 1000 void draws in a row"):
        Sampler(view.constraints()).sample(world_rng(1, 0))
