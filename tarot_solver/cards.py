"""The 78 cards: integer encoding, canonical tokens, aliases, points and card sets.

A card is an ``int`` from 0 to 77, the encoding the compiled core uses too:

* suit cards ``suit * 14 + (rank - 1)`` with suits spades 0, hearts 1, diamonds 2,
  clubs 3 and ranks 1..10, jack 11, knight 12, queen 13, king 14;
* trumps ``56 + n - 1`` for trump ``n`` in 1..21 (56 is the Petit, 76 the 21);
* the Excuse 77.

A card set is a Python ``int`` used as a bitmask (bit ``c`` set for card ``c``).

Canonical tokens (always used on output): ``<rank><suit>`` with rank one of
``1..10 J C Q K`` and suit one of ``S H D C`` (``KS``, ``10H``, ``CC`` knight of
clubs), trumps ``T1``..``T21``, the Excuse ``EX``.  Input is case-insensitive and
accepts these aliases: suit symbols ``♠♥♦♣`` (and their white forms) for ``S H D C``;
French ranks ``R`` (roi) for K, ``D`` (dame) for Q, ``V`` (valet) for J, ``N`` or
``KN`` for the knight, ``A`` for the 1; trumps written ``21T``, ``T21``, ``A21``
(atout) or ``21A``; the Excuse as ``EX``, ``E``, ``EXC``, ``EXCUSE``, ``*`` or
``0T``.
"""

from __future__ import annotations

import numbers
import re
from typing import Iterable, List, Sequence, Union

from .errors import CardError, integer, spelled

NUM_CARDS = 78
SPADES, HEARTS, DIAMONDS, CLUBS, TRUMPS, EXCUSE_SUIT = range(6)
SUIT_LETTERS = "SHDC"
RANK_TOKENS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
TRUMP_BASE = 56
PETIT = TRUMP_BASE  # trump 1
TRUMP21 = TRUMP_BASE + 20
EXCUSE = 77
OUDLERS = (PETIT, TRUMP21, EXCUSE)

FULL_DECK = (1 << NUM_CARDS) - 1
TRUMPS_MASK = ((1 << 21) - 1) << TRUMP_BASE
OUDLERS_MASK = (1 << PETIT) | (1 << TRUMP21) | (1 << EXCUSE)


def suit_mask(suit: int) -> int:
    """The set of all cards of ``suit`` (0..3 plain suits, 4 trumps, 5 the Excuse)."""
    if suit < TRUMPS:
        return ((1 << 14) - 1) << (14 * suit)
    if suit == TRUMPS:
        return TRUMPS_MASK
    return 1 << EXCUSE


def suit_of(card: int) -> int:
    """0..3 for a plain suit, 4 (TRUMPS) for a trump, 5 (EXCUSE_SUIT) for the Excuse."""
    if card < TRUMP_BASE:
        return card // 14
    return TRUMPS if card < EXCUSE else EXCUSE_SUIT


def rank_of(card: int) -> int:
    """Rank within the suit: 1..14 for plain suits, 1..21 for trumps, 0 for the Excuse."""
    if card < TRUMP_BASE:
        return card % 14 + 1
    return card - TRUMP_BASE + 1 if card < EXCUSE else 0


def is_trump(card: int) -> bool:
    return TRUMP_BASE <= card < EXCUSE


def is_oudler(card: int) -> bool:
    return card in OUDLERS


def is_king(card: int) -> bool:
    return card < TRUMP_BASE and card % 14 == 13


def half_points(card: int) -> int:
    """Card value in half-points: oudler or king 9, queen 7, knight 5, jack 3, else 1."""
    if card >= TRUMP_BASE:
        return 9 if card in OUDLERS else 1
    return (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)[card % 14]


HALF_POINTS = tuple(half_points(c) for c in range(NUM_CARDS))
TOTAL_HALF_POINTS = sum(HALF_POINTS)  # 182

_CANON = tuple(
    [RANK_TOKENS[r] + SUIT_LETTERS[s] for s in range(4) for r in range(14)]
    + [f"T{n}" for n in range(1, 22)]
    + ["EX"]
)


def _card_number(card: object) -> int:
    """``card`` as an int (numpy's integers too): :class:`CardError` for a number that is
    not a card (0..77), TypeError for what is not an integer."""
    card = integer("card", card)
    if not 0 <= card < NUM_CARDS:
        raise CardError(f"'{card}' is not a card number (0..{NUM_CARDS - 1})", token=str(card))
    return card


def card_token(card: int) -> str:
    """Canonical token of a card (``KS``, ``T21``, ``EX``); raises :class:`CardError` for
    a number that is not a card (0..77), TypeError for what is not a number."""
    return _CANON[_card_number(card)]


_SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}
_RANK_ALIASES = {str(n): n for n in range(1, 11)}
_RANK_ALIASES.update({"A": 1, "J": 11, "V": 11, "C": 12, "N": 12, "KN": 12, "Q": 13, "D": 13, "K": 14, "R": 14})
_EXCUSE_ALIASES = {"EX", "E", "EXC", "EXCUSE", "*", "0T"}
_TRUMP_RE = re.compile(r"^(?:[TA](\d{1,2})|(\d{1,2})[TA])$", re.ASCII)  # (not another script's digits)

_LOOKUP = {tok: c for c, tok in enumerate(_CANON)}


def parse_card(token: str) -> int:
    """Parse one card token (canonical or alias, any case); raises :class:`CardError`."""
    if not isinstance(token, str):
        raise CardError(f"card token must be a string, got {spelled(token)}", token=spelled(token))
    if not token.strip().isprintable():  # shown with escapes: an invisible character would read as nothing
        shown = spelled(token.strip().encode("unicode_escape").decode("ascii"))
        raise CardError(f"unknown card '{shown}' (it holds a character that does not print)", token=shown)
    t = token.strip().upper()
    hit = _LOOKUP.get(t)
    if hit is not None:
        return hit
    if t in _EXCUSE_ALIASES:
        return EXCUSE
    m = _TRUMP_RE.match(t)
    if m:
        n = int(m.group(1) or m.group(2))
        if 1 <= n <= 21:
            return TRUMP_BASE + n - 1
        raise CardError(f"unknown card '{spelled(token)}': trumps run from 1 to 21", token=spelled(token))
    rank, suit = t[:-1], t[-1:]
    if suit in _SUIT_ALIASES and rank in _RANK_ALIASES:
        return _SUIT_ALIASES[suit] * 14 + _RANK_ALIASES[rank] - 1
    raise CardError(f"unknown card '{spelled(token)}'", token=spelled(token))


CardsLike = Union[str, Iterable[Union[str, int]]]


def split_tokens(text: str) -> List[str]:
    """The tokens of one string of cards, separated by spaces or commas."""
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def card_argument(card: Union[int, str]) -> int:
    """A card given as a number (numpy's integers too) or a token, as an int; raises
    :class:`CardError` for a token or number that is not a card, TypeError for a value of
    another type."""
    return parse_card(card) if isinstance(card, str) else _card_number(card)


def parse_cards(cards: CardsLike, *, allow_duplicates: bool = False, name: str = "cards") -> List[int]:
    """Parse tokens given as a list or as one string separated by spaces or commas.

    Integers are accepted as already-encoded cards.  Duplicates raise
    :class:`CardError` unless ``allow_duplicates``.  ``name``: the argument, as a
    TypeError names it.
    """
    if isinstance(cards, str):
        items: Sequence[Union[str, int]] = split_tokens(cards)
    else:
        try:
            items = list(cards)
        except TypeError:
            raise TypeError(f"{name} must be a string of tokens or a sequence of cards (tokens or numbers),"
                            f" not {type(cards).__name__}") from None
    out: List[int] = []
    seen = 0
    for item in items:
        if isinstance(item, numbers.Integral) and not isinstance(item, bool):  # (numpy's integers too)
            if not 0 <= item < NUM_CARDS:
                raise CardError(f"card number {spelled(int(item))} out of range 0..77", token=spelled(int(item)))
            c = int(item)
        elif isinstance(item, str):
            c = parse_card(item)
        else:
            raise CardError(f"card token must be a string, got {spelled(item)}", token=spelled(item))
        if not allow_duplicates and seen >> c & 1:
            raise CardError(f"duplicate card '{spelled(item)}'", token=spelled(item))
        seen |= 1 << c
        out.append(c)
    return out


def mask_of(cards: Iterable[int]) -> int:
    """The card set (bitmask) of an iterable of card numbers (Python's or numpy's
    integers); raises :class:`CardError` for a number that is not a card (0..77), and
    TypeError for what is not an integer (a token: :func:`parse_cards` first)."""
    m = 0
    for c in cards:
        if type(c) is not int or not 0 <= c < NUM_CARDS:  # (a card as an int: the sampler's fast path)
            c = _card_number(c)  # (a numpy integer would shift within 64 bits: the trumps above T7 lost)
        m |= 1 << c
    return m


def cards_of(mask: int) -> List[int]:
    """The cards of a set in increasing order; raises :class:`CardError` for a mask that
    is not a set of cards (negative, or bits beyond the 78 cards), TypeError for what is
    not an integer."""
    if type(mask) is not int:
        mask = integer("mask", mask, "a card set (an int: mask_of)")  # (numpy's: an int, for bit_length)
    if mask < 0 or mask >> NUM_CARDS:
        raise CardError(f"'{mask!r}' is not a card set (bits 0..{NUM_CARDS - 1})", token=repr(mask))
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    return bin(mask).count("1")


def points(half_points: int) -> Union[int, float]:
    """Half-points as points for output: an int when whole, else x.5."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def tokens(cards: Iterable[int]) -> List[str]:
    """Canonical tokens of cards, in the order given."""
    return [card_token(c) for c in cards]


def shown_tokens(cards: Iterable[object]) -> List[object]:
    """The tokens of ``cards``, in the order given, for a repr: what is not a card number
    stays as it is, so that the repr of a position built wrong still shows it."""
    return [_CANON[int(c)] if isinstance(c, numbers.Integral) and not isinstance(c, bool) and 0 <= int(c) < NUM_CARDS
            else c for c in cards]


def shown_set(cards: object) -> object:
    """A card set as its tokens in canonical order, in one string, for a repr (what is not
    a card set stays as it is)."""
    if isinstance(cards, int) and not isinstance(cards, bool) and 0 <= cards < 1 << NUM_CARDS:
        return " ".join(sorted_tokens(cards))
    return cards


def sorted_tokens(cards: Union[int, Iterable[int]]) -> List[str]:
    """Canonical tokens in canonical order (spades, hearts, diamonds, clubs, trumps, Excuse)."""
    if isinstance(cards, int):
        return [_CANON[c] for c in cards_of(cards)]
    return [card_token(c) for c in sorted(cards)]
