"""A compact one-line notation for a hand and for a whole deal.

In the spirit of PBN's deal tag and of chess FEN: lenient on input, canonical on
output (see ``docs/notation.md``).

A hand, grouped by suit, high cards first, trumps as numbers, the Excuse apart::

    S:KQ73 H:CJ10 D:- C:984 T:21.15.3.1 EX

A deal: optional ``key=value`` options, the hands by seat and the dog, all
separated by ``/``::

    dealer=0 taker=1 contract=garde / <hand 0> / <hand 1> / <hand 2> / <hand 3> / <dog>

Three hands before the dog make a three-player deal, five a five-player deal (``players``
in the record; ``called=KS`` names the card a five-player taker calls).

On input, case does not matter, groups come in any order (a missing group is a
void), ranks may be separated by ``.`` or ``,``, the aliases of
:mod:`tarot_solver.cards` are understood, and plain card tokens (``KS 10H T21 EX``)
may stand alone or make up the whole hand.
"""

from __future__ import annotations

import re
from collections import abc
from typing import Any, Dict, List, Optional, Sequence, Union

from .cards import (
    EXCUSE,
    RANK_TOKENS,
    SUIT_LETTERS,
    TRUMPS,
    CardsLike,
    card_token,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
    tokens,
)
from .errors import CardError, RecordError, TarotError, spelled
from .variant import VARIANTS, Contract, check_seat, variant_for

TRUMP_GROUP = "T"
#: deal options, in the order :func:`format_deal` writes them
OPTIONS = ("dealer", "taker", "contract", "called", "discard", "leader")
_SEAT_OPTIONS = ("dealer", "taker", "leader")
_RANK_RE = re.compile(r"10|.")


def _group_suit(letter: str, item: str) -> int:
    """Suit of a group key: ``T`` for trumps, else a suit letter or symbol of cards.py."""
    if letter == TRUMP_GROUP:
        return TRUMPS
    try:
        return suit_of(parse_card("K" + letter))  # the king of that suit, to reuse the suit aliases
    except CardError:
        raise CardError(f"unknown suit '{spelled(letter)}' in '{spelled(item)}'", token=spelled(letter)) from None


def _parse_group(item: str) -> List[int]:
    """The cards of one ``<suit>:<ranks>`` group."""
    letter, _, ranks = item.partition(":")
    suit = _group_suit(letter.upper(), item)
    if ranks in ("", "-"):
        return []
    if suit == TRUMPS:
        out = []
        for piece in filter(None, re.split(r"[.,]", ranks)):
            try:
                card = parse_card("T" + piece if piece.isdigit() else piece)
            except CardError:
                raise CardError(f"unknown trump '{spelled(piece)}' in '{spelled(item)}'",
                                token=spelled(piece)) from None
            if suit_of(card) != TRUMPS and card != EXCUSE:
                raise CardError(f"'{spelled(piece)}' in '{spelled(item)}' is not a trump", token=spelled(piece))
            out.append(card)
        return out
    out = []
    for rank in _RANK_RE.findall(re.sub(r"[.,]", "", ranks)):
        try:
            out.append(parse_card(rank + SUIT_LETTERS[suit]))
        except CardError:
            raise CardError(f"unknown rank '{rank}' in '{spelled(item)}'", token=rank) from None
    return out


def parse_hand(text: CardsLike) -> List[int]:
    """Parse a hand (grouped notation, plain tokens, or both mixed); sorted cards.

    A list of tokens (or of card ints) is accepted too.  Raises :class:`CardError`
    naming the bad or duplicate token.
    """
    if not isinstance(text, str):
        return sorted(parse_cards(text))
    cards: List[int] = []
    for item in text.split():
        if ":" in item:
            cards.extend(_parse_group(item))
        elif item != "-":
            cards.extend(parse_cards(item, allow_duplicates=True))
    seen = set()
    for c in cards:
        if c in seen:
            raise CardError(f"duplicate card '{card_token(c)}'", token=card_token(c))
        seen.add(c)
    return sorted(cards)


def format_hand(cards: CardsLike) -> str:
    """Canonical notation of a set of cards (ints or tokens): all four suits and the
    trumps, ``-`` for a void, then ``EX`` if held."""
    held = parse_cards(cards)
    groups = []
    for suit, letter in enumerate(SUIT_LETTERS):
        ranks = sorted((rank_of(c) for c in held if suit_of(c) == suit), reverse=True)
        groups.append(f"{letter}:" + ("".join(RANK_TOKENS[r - 1] for r in ranks) or "-"))
    trumps = sorted((rank_of(c) for c in held if suit_of(c) == TRUMPS), reverse=True)
    groups.append(f"{TRUMP_GROUP}:" + (".".join(map(str, trumps)) or "-"))
    if EXCUSE in held:
        groups.append(card_token(EXCUSE))
    return " ".join(groups)


def _parse_option(word: str) -> Dict[str, Any]:
    key, _, value = word.partition("=")
    key = key.lower()
    if key in _SEAT_OPTIONS:  # (its range checked once the parts give the table size)
        if not (value.isascii() and value.isdecimal()):
            raise RecordError(f"bad seat '{spelled(value)}': seats are integers from 0", token=spelled(value))
        return {key: int(value)}
    if key == "contract":
        return {key: Contract.parse(value)}
    if key == "called":
        return {key: parse_card(value)}
    if key == "discard":
        return {key: parse_hand(value.replace(",", " "))}
    raise RecordError(f"unknown deal option '{spelled(key)}' (expected one of {', '.join(OPTIONS)})",
                      token=spelled(key))


def parse_deal(text: str) -> Dict[str, Any]:
    """Parse a one-line deal into :class:`~tarot_solver.records.DealRecord` fields.

    Returns ``hands`` and ``dog`` and the options present; ``DealRecord(**fields)``
    validates the deal as a whole (78 cards, discard, ...).  Raises
    :class:`CardError` or :class:`RecordError` naming the bad token.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string (a deal in the one-line notation), not {type(text).__name__}")
    parts = [p.strip() for p in text.strip().split("/")]
    words = parts[0].split()
    count = next((i for i, w in enumerate(words) if "=" not in w), len(words))
    fields: Dict[str, Any] = {}
    for word in words[:count]:
        try:
            option = _parse_option(word)
            twice = [key for key in option if key in fields]
            if twice:
                raise RecordError(f"option '{twice[0]}' given twice (which value is meant?)", token=word)
            fields.update(option)
        except TarotError as e:
            raise e.located(key=spelled(word.partition("=")[0].lower()))
    if count:
        parts[0] = " ".join(words[count:])
        if not parts[0]:
            parts.pop(0)
    n = len(parts) - 1
    if n not in VARIANTS:
        raise RecordError(f"a deal is 4 (or 3, or 5) hands and the dog separated by '/', found {len(parts)} parts")
    if n != 4:
        fields["players"] = n
    keys = [f"hands[{s}]" for s in range(n)] + ["dog"]
    parsed = []
    for key, part in zip(keys, parts):
        try:
            parsed.append(parse_hand(part))
        except TarotError as e:
            raise e.located(key=key)
    sizes = {len(cards) for cards in parsed}
    alike = VARIANTS.get(len(parts))
    if alike is not None and sizes == {alike.hand_size}:  # (no deal has a dog the size of its hands)
        raise RecordError(f"{len(parts)} hands of {alike.hand_size} cards and no dog: a deal is the hands and then"
                          f" the dog, separated by '/' ({len(parts) + 1} parts at {len(parts)} players)", key="dog")
    for key in _SEAT_OPTIONS:
        if key in fields:
            check_seat(fields[key], key, n)
    fields["hands"], fields["dog"] = parsed[:n], parsed[n]
    return fields


def format_deal(
    hands: Sequence[CardsLike],
    dog: CardsLike,
    *,
    dealer: Optional[int] = None,
    taker: Optional[int] = None,
    contract: Union[Contract, str, None] = None,
    called: Union[int, str, None] = None,
    discard: Optional[CardsLike] = None,
    leader: Optional[int] = None,
    players: Optional[int] = None,
) -> str:
    """Canonical one-line notation of a deal; ``format_deal(**parse_deal(text))`` works.

    The number of hands says the number of players (``players``, if given, must agree).
    """
    if isinstance(hands, str) or not isinstance(hands, abc.Sequence):
        raise TypeError(f"hands must be a sequence of card lists (one a seat), not {type(hands).__name__}")
    cards = [parse_cards(h, name=f"hands[{s}]") for s, h in enumerate(hands)] + [parse_cards(dog, name="dog")]
    if players is not None and players != len(hands):
        raise RecordError(f"{len(hands)} hands for {players} players", key="players", token=str(players))
    n = variant_for(len(hands)).players  # 3, 4 or 5 hands, as parse_deal reads them
    options = [f"{key}={check_seat(value, key, n)}" for key, value in (("dealer", dealer), ("taker", taker))
               if value is not None]
    if contract is not None:
        options.append(f"contract={(contract if isinstance(contract, Contract) else Contract.parse(contract)).value}")
    if called is not None:
        options.append(f"called={card_token(parse_cards([called])[0])}")
    if discard is not None:
        options.append("discard=" + ",".join(tokens(sorted(parse_cards(discard, name="discard")))))
    if leader is not None:
        options.append(f"leader={check_seat(leader, 'leader', n)}")
    body = " / ".join(format_hand(c) for c in cards)
    return " ".join(options) + " / " + body if options else body
