"""The one-line notation: canonical output, lenient input, errors, round-trip properties."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Dict, List

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarot_solver.cards import card_token, parse_cards
from tarot_solver.errors import CardError, RecordError, TarotError
from tarot_solver.notation import format_deal, format_hand, parse_deal, parse_hand
from tarot_solver.records import DealRecord
from tarot_solver.variant import Contract

from conftest import EXAMPLES

CANONICAL = "S:KQ73 H:CJ10 D:- C:984 T:21.15.3.1 EX"
CARDS = parse_cards("KS QS 7S 3S CH JH 10H 9C 8C 4C T21 T15 T3 T1 EX")


def test_canonical_hand() -> None:
    assert parse_hand(CANONICAL) == sorted(CARDS)
    assert format_hand(CARDS) == CANONICAL
    assert format_hand([]) == "S:- H:- D:- C:- T:-"
    assert format_hand("1D 10D") == "S:- H:- D:101 C:- T:-"


@pytest.mark.parametrize("text", [
    "s:kq73 h:cj10 d:- c:984 t:21.15.3.1 ex",
    "T:1,3,15,21 C:9.8.4 S:K.Q.7.3 H:CJ10 EXCUSE",
    "♠:RD73 ♥:NV10 ♣:984 T:21.15.3.1 *",
    "KS QS 7S 3S CH JH 10H 9C 8C 4C T21 T15 T3 T1 EX",
    "ks,qs,7s,3s ch jh 10h 9c 8c 4c 21t 15t 3t 1t ex",
    "S:KQ73 H:CJ10 C:984 T:21.15.3 T1 E",
    "  S:KQ73   H:CJ10 D: C:984 T:21.15.3.1.EX  ",
    "S:KQ73 H:CJ10 C:984 T:EX.21.15.3.1",  # the Excuse first in the trump group
    "R♤ D♤ 7♤ 3♤ KN♡ V♡ 10♡ 9♧ 8♧ 4♧ A21 15A T3 1T 0T",  # the white suits, KN, the trumps as atouts
])
def test_lenient_input(text: str) -> None:
    assert parse_hand(text) == sorted(CARDS)
    assert format_hand(parse_hand(text)) == CANONICAL


def test_a_list_of_tokens_is_a_hand() -> None:
    assert parse_hand(["ks", "21t", "ex"]) == parse_cards("KS T21 EX")
    assert parse_hand(list(reversed(CARDS))) == sorted(CARDS)


def test_cards_of_the_wrong_type_are_named() -> None:
    for odd in (18, 1.5, None):
        with pytest.raises(TypeError, match=f"cards must be a string of tokens or a sequence of cards"
                                            rf" \(tokens or numbers\), not {type(odd).__name__}"):
            parse_cards(odd)  # type: ignore[arg-type]


def test_ten_and_one_are_unambiguous() -> None:
    assert format_hand(parse_hand("S:101 H:110 D:10 C:1")) == "S:101 H:101 D:10 C:1 T:-"


@pytest.mark.parametrize("text, error, fragment", [
    ("S:KX3", CardError, "unknown rank 'X' in 'S:KX3'"),
    ("Z:KQ", CardError, "unknown suit 'Z' in 'Z:KQ'"),
    ("T:21.22", CardError, "unknown trump '22' in 'T:21.22'"),
    ("T:21.KS", CardError, "'KS' in 'T:21.KS' is not a trump"),
    ("S:K0", CardError, "unknown rank '0' in 'S:K0'"),
    ("S:KQ KS", CardError, "duplicate card 'KS'"),
    ("KS QS zz", CardError, "unknown card 'zz'"),
    # a trump's number in ASCII digits only: an Arabic-Indic three or a fullwidth one is no card
    ("T:21.\u0663", CardError, "unknown trump '\u0663' in 'T:21.\u0663'"),
    ("KS T\uff11", CardError, "unknown card 'T\uff11'"),
    ("KS T0", CardError, "unknown card 'T0': trumps run from 1 to 21"),  # (not the card before T1, KC)
])
def test_hand_errors_name_the_token(text: str, error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        parse_hand(text)
    assert fragment in str(info.value)


def test_deal_with_options(deal_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(deal_obj)
    text = format_deal(record.hands, record.dog, dealer=record.dealer, taker=record.taker,
                       contract=record.contract, discard=record.discard)
    options, *parts = text.split(" / ")
    assert options == (f"dealer={record.dealer} taker={record.taker} contract=garde discard="
                       + ",".join(card_token(c) for c in record.discard))
    assert len(parts) == 5
    fields = parse_deal(text)
    assert DealRecord(**fields) == DealRecord.from_json({k: v for k, v in deal_obj.items()
                                                         if k not in ("id", "bids")})
    assert format_deal(**fields) == text


@pytest.mark.parametrize("name, players", [("deal.json", 4), ("five.json", 5)])
def test_a_deal_without_its_dog_says_so(name: str, players: int) -> None:
    # the hands alone, of 18 (15) cards: not read as a smaller table's deal whose count is off
    record = DealRecord.from_json(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
    hands = format_deal(record.hands, record.dog, dealer=record.dealer).split(" / ")[:-1]
    with pytest.raises(RecordError) as info:
        parse_deal(" / ".join(hands))
    size = len(record.hands[0])
    assert str(info.value).startswith(f"key 'dog': {players} hands of {size} cards and no dog")
    assert f"({players + 1} parts at {players} players)" in str(info.value)


def test_format_deal_writes_the_leader(deal_obj: Dict[str, Any]) -> None:
    # the last option format_deal writes, and parse_deal reads back
    record = DealRecord.from_json(deal_obj)
    right = (record.dealer + 1) % 4
    text = format_deal(record.hands, record.dog, dealer=record.dealer, leader=right)
    assert text.startswith(f"dealer={record.dealer} leader={right} / ")
    fields = parse_deal(text)
    assert fields["leader"] == right and DealRecord(**fields).first_leader == right
    assert format_deal(**fields) == text


def test_format_deal_writes_the_options_in_the_documented_order() -> None:
    # dealer, taker, contract, called, discard, leader (docs/notation.md), whatever the order given
    record = DealRecord.from_json(json.loads((EXAMPLES / "five.json").read_text(encoding="utf-8")))
    text = format_deal(record.hands, record.dog, leader=0, discard=parse_cards("3C 2C 8H"), called="KS",
                       contract="garde", taker=2, dealer=4)
    assert text.startswith("dealer=4 taker=2 contract=garde called=KS discard=8H,2C,3C leader=0 / ")
    assert format_deal(**parse_deal(text)) == text


def test_deal_options_may_share_the_first_part(deal_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(deal_obj)
    text = format_deal(record.hands, record.dog, dealer=1, contract="garde_sans", taker=2)
    assert parse_deal(text.replace(" / ", " ", 1)) == parse_deal(text)
    assert parse_deal(text.upper().replace("GARDE_SANS", "garde-sans"))["contract"] is Contract.GARDE_SANS


def test_format_deal_writes_only_what_parse_deal_reads(deal_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(deal_obj)
    for hands in (record.hands[:2], [*record.hands, *record.hands[:2]]):
        with pytest.raises(RecordError, match="bad number of players"):
            format_deal(hands, record.dog)
    # the number of hands is the number of players: a players that disagrees is refused
    with pytest.raises(RecordError, match="4 hands for 3 players"):
        format_deal(record.hands, record.dog, players=3)
    assert format_deal(record.hands, record.dog, players=4) == format_deal(record.hands, record.dog)
    # and a seat it writes is one of the table's, as parse_deal reads it back
    for key, seat, says in (("dealer", 4, "bad seat '4': seats are integers 0..3"),
                            ("taker", -1, "bad seat '-1': seats are integers 0..3"),
                            ("leader", 4, "bad seat '4': seats are integers 0..3")):
        with pytest.raises(RecordError, match=f"^key '{key}': {says}"):
            format_deal(record.hands, record.dog, **{key: seat})


def test_format_deal_writes_the_discard_in_card_order(deal_obj: Dict[str, Any]) -> None:
    # canonical whatever the order given: examples/deal.json's discard as docs/notation.md writes it
    record = DealRecord.from_json(deal_obj)
    text = format_deal(record.hands, record.dog, dealer=2, taker=1, contract="garde",
                       discard=parse_cards("8D 2D 1D 7H CS 9S"))
    assert text.startswith("dealer=2 taker=1 contract=garde discard=9S,CS,7H,1D,2D,8D / ")


def test_the_example_hand_file() -> None:
    text = (EXAMPLES / "hand.txt").read_text(encoding="utf-8").strip()
    assert len(parse_hand(text)) == 18
    assert format_hand(parse_hand(text)) == text


@pytest.mark.parametrize("text, error, fragment", [
    ("S:K / S:Q", RecordError, "a deal is 4 (or 3, or 5) hands and the dog separated by '/', found 2 parts"),
    ("- / - / - / - / - / - / -", RecordError, "a deal is 4 (or 3, or 5) hands and the dog separated by '/',"
                                               " found 7 parts"),
    ("dealer=x / a / b / c / d / e", RecordError, "key 'dealer': bad seat"),
    ("dealer=5 / - / - / - / - / -", RecordError, "key 'dealer': bad seat '5'"),
    # the range is the deal's table's (four hands: 0..3), the value shown as typed
    ("taker=4 / - / - / - / - / -", RecordError, "key 'taker': bad seat '4': seats are integers 0..3"),
    ("leader=-1 / - / - / - / - / -", RecordError, "key 'leader': bad seat '-1': seats are integers from 0"),
    ("taker=5 / - / - / - / - / - / -", RecordError, "key 'taker': bad seat '5': seats are integers 0..4"),
    # a digit that is not a decimal one ('²'.isdigit() but int('²') fails)
    ("dealer=\u00b2 / a / b / c / d / e", RecordError, "key 'dealer': bad seat"),
    # ASCII digits only, as for a trump's number: a fullwidth one ('１'.isdecimal(), int('１') == 1) is no seat
    ("dealer=\uff11 / - / - / - / - / -", RecordError, "key 'dealer': bad seat"),
    ("contract=gard / a / b / c / d / e", RecordError, "key 'contract': unknown contract 'gard'"),
    ("seat=1 / a / b / c / d / e", RecordError, "unknown deal option 'seat'"),
    # an option twice is refused, as a JSON record's key twice is (which value is meant?)
    ("dealer=2 Dealer=3 / a / b / c / d / e", RecordError, "key 'dealer': option 'dealer' given twice"),
    ("S:K / S:Q / S:J / S:KX / -", CardError, "key 'hands[3]': unknown rank 'X'"),
    ("S:K / S:Q / S:J / S:C / S:KX", CardError, "key 'dog': unknown rank 'X'"),
    ("S:K / S:Q / S:J / S:C / KS", CardError, None),
])
def test_deal_errors(text: str, error: type, fragment: Any) -> None:
    if fragment is None:  # a syntactically fine deal that DealRecord rejects
        fields = parse_deal(text)
        with pytest.raises(TarotError, match="the deal holds 5 cards"):
            DealRecord(**fields)
        return
    with pytest.raises(error) as info:
        parse_deal(text)
    assert fragment in str(info.value)


# Properties --------------------------------------------------------------------------

shuffles = st.randoms(use_true_random=False).map(lambda r: r.sample(range(78), 78))


def split(deck: List[int]) -> Dict[str, Any]:
    return {"hands": [sorted(deck[18 * s:18 * s + 18]) for s in range(4)], "dog": sorted(deck[72:])}


@given(shuffles, st.integers(0, 78))
def test_hand_round_trip(deck: List[int], size: int) -> None:
    cards = sorted(deck[:size])
    text = format_hand(cards)
    assert parse_hand(text) == cards
    assert format_hand(parse_hand(text)) == text


@given(shuffles, st.randoms(use_true_random=False))
def test_lenient_forms_parse_to_the_same_hand(deck: List[int], rnd: random.Random) -> None:
    cards = sorted(deck[:18])
    groups = format_hand(cards).split()
    rnd.shuffle(groups)
    variants = [
        " ".join(groups).lower(),
        " ".join(card_token(c) for c in rnd.sample(cards, len(cards))),
        ",".join(card_token(c).lower() for c in cards),
    ]
    for text in variants:
        assert parse_hand(text) == cards


@given(shuffles, st.integers(0, 3), st.integers(0, 3), st.sampled_from(list(Contract)))
def test_deal_round_trip(deck: List[int], dealer: int, taker: int, contract: Contract) -> None:
    fields = split(deck)
    bare = format_deal(**fields)
    assert parse_deal(bare) == fields
    text = format_deal(**fields, dealer=dealer, taker=taker, contract=contract)
    parsed = parse_deal(text)
    assert parsed == dict(fields, dealer=dealer, taker=taker, contract=contract)
    assert format_deal(**parsed) == text


def test_numbers_that_are_not_cards_are_refused() -> None:
    from tarot_solver.cards import card_token, cards_of, sorted_tokens, tokens
    from tarot_solver.errors import CardError
    for bad in (lambda: card_token(-1), lambda: card_token(78),
                lambda: cards_of(-1), lambda: cards_of(1 << 78), lambda: tokens([-1]), lambda: sorted_tokens(-1)):
        with pytest.raises(CardError, match="is not a card"):
            bad()
    assert card_token(77) == "EX" and cards_of(1 << 77) == [77]
    with pytest.raises(CardError, match=r"^'78' is not a card number \(0\.\.77\)$"):
        card_token(78)
    for number in (78, -1):  # as numbers among the cards
        with pytest.raises(CardError, match=f"^card number {number} out of range 0..77 "):
            parse_cards([0, number])
    assert parse_cards([77, 0]) == [77, 0]


def test_the_excuse_has_rank_0_and_a_suit_of_its_own() -> None:
    from tarot_solver.cards import EXCUSE, EXCUSE_SUIT, TRUMPS, rank_of, suit_mask, suit_of
    assert (suit_of(EXCUSE), rank_of(EXCUSE), suit_mask(EXCUSE_SUIT)) == (EXCUSE_SUIT, 0, 1 << EXCUSE)
    assert [rank_of(c) for c in (0, 13, 56, 76)] == [1, 14, 1, 21] and suit_mask(TRUMPS) >> 56 == (1 << 21) - 1


def test_mask_of_refuses_what_is_not_a_card() -> None:
    # mask_of([78]) was a set with bit 78, refused only later by whatever read it; a float
    # or a bool was truncated to a card, a token an int() ValueError
    from tarot_solver.cards import mask_of
    from tarot_solver.errors import CardError
    for bad in ([78], [-1], [3, 1 << 70]):
        with pytest.raises(CardError, match="is not a card number"):
            mask_of(bad)
    for bad, shown in (([1.5], "1.5"), ([True], "True"), (["KS"], "'KS'")):
        with pytest.raises(TypeError, match=re.escape(f"card must be an integer, not {shown}")):
            mask_of(bad)
    assert mask_of([77, 0, 0]) == 1 << 77 | 1


def test_cards_of_takes_a_numpy_integer_and_refuses_what_is_no_set() -> None:
    # np.int64(5) was "AttributeError: 'numpy.int64' object has no attribute 'bit_length'"
    import numpy as np

    from tarot_solver.cards import cards_of
    assert cards_of(np.int64(5)) == [0, 2] and all(type(c) is int for c in cards_of(np.uint64(5)))
    for bad, shown in ((5.0, "5.0"), ([0, 2], r"\[0, 2\]"), (None, "None")):
        with pytest.raises(TypeError, match=f"mask must be a card set \\(an int: mask_of\\), not {shown}"):
            cards_of(bad)


def test_numpy_integers_are_cards() -> None:
    """A bot's cards from numpy (``rng.choice(cards_of(...))``): the same cards, the trumps
    above T7 (bits 63 and up) included."""
    import numpy as np

    from tarot_solver.cards import mask_of
    from tarot_solver.records import read_record

    assert mask_of(np.array([5, 76])) == mask_of([5, 76]) == (1 << 5) | (1 << 76)
    assert parse_cards([np.int64(76), np.int16(3)]) == [76, 3]
    with pytest.raises(CardError, match="card number 99 out of range"):
        parse_cards([np.int64(99)])
    state = read_record(EXAMPLES / "deal.json").state()
    expected = state.copy()
    expected.play(70)
    state.play(np.int64(70))  # (seat 3 leads the T15: bit 70)
    assert state == expected


@pytest.mark.parametrize("call, says", [
    (lambda: card_token("KS"), "card must be an integer, not 'KS'"),
    (lambda: card_token(True), "card must be an integer, not True"),
    (lambda: card_token(None), "card must be an integer, not None"),
    (lambda: card_token("X" * 100_000), "card must be an integer, not '" + "X" * 36 + "..."),
    (lambda: parse_deal(None), "text must be a string (a deal in the one-line notation), not NoneType"),
    (lambda: format_deal(None, None), "hands must be a sequence of card lists (one a seat), not NoneType"),
    (lambda: format_deal("S:K / S:Q", None), "hands must be a sequence of card lists (one a seat), not str"),
    (lambda: format_deal([[], 5, [], []], []), "hands[1] must be a string of tokens or a sequence of cards"),
    (lambda: format_deal([[]] * 4, None), "dog must be a string of tokens or a sequence of cards"),
    (lambda: format_deal([[]] * 4, [], discard=3), "discard must be a string of tokens or a sequence of cards"),
])
def test_a_value_of_the_wrong_type_is_a_type_error_naming_it(call: Any, says: str) -> None:
    with pytest.raises(TypeError) as info:
        call()
    assert str(info.value).startswith(says)


HUGE = "X" * 100_000


@pytest.mark.parametrize("call", [
    lambda: parse_hand(HUGE),
    lambda: parse_hand("S:K" + HUGE),
    lambda: parse_hand(HUGE + ":K"),
    lambda: parse_hand("T:21." + HUGE),
    lambda: parse_hand("T:21.KS" + "." * 100_000),
    lambda: parse_cards(["KS", "ks" + " " * 100_000]),
    lambda: parse_deal(HUGE + "=1 / a / b / c / d / e"),
    lambda: parse_deal("called=" + HUGE + " / a / b / c / d / e"),
    lambda: parse_cards([HUGE]),
])
def test_a_huge_token_is_cut_short_in_messages(call: Any) -> None:
    with pytest.raises(TarotError) as info:
        call()
    assert len(str(info.value)) < 200 and len(info.value.token or "") <= 40, str(info.value)[:500]
