"""The classic hand count and a simple discard policy.

The hand count is the evaluation French Tarot players learn: points for the
oudlers, trumps, honours and distribution, read against fixed thresholds to pick
a contract.  It is the baseline the Monte Carlo advice is measured against, and
it picks the taker and contract of the realistic benchmark deals.  The simple
policies a taker follows in the advice's worlds live here too: the discard, and at
five players the card he calls.

Scale used (one common form of it): the 21 10, the Excuse 8, the Petit 5/7/9
with 5/6/7+ trumps (0 with fewer), 2 per trump, 1 more per major trump (16-20),
king 6 (10 with its queen), queen 3, knight 2, jack 1, a suit of 5/6/7+ cards
5/7/9, a void 6, a singleton 3.  Pass under 40, prise 40-55, garde 56-70, garde
sans 71-80, garde contre above 80.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from .cards import (
    EXCUSE,
    PETIT,
    TRUMP21,
    TRUMP_BASE,
    TRUMPS_MASK,
    cards_of,
    count,
    half_points,
    is_king,
    rank_of,
    suit_mask,
)
from .rules import callable_cards, discardable
from .variant import Contract, FOUR_PLAYERS, Variant

THRESHOLDS = ((81, Contract.GARDE_CONTRE), (71, Contract.GARDE_SANS), (56, Contract.GARDE), (40, Contract.PRISE))


def hand_count(hand: int) -> int:
    """Classic evaluation of an 18-card hand (a card set)."""
    trumps = hand & TRUMPS_MASK
    n_trumps = count(trumps)
    pts = 2 * n_trumps
    if hand >> TRUMP21 & 1:
        pts += 10
    if hand >> EXCUSE & 1:
        pts += 8
    if hand >> PETIT & 1:
        pts += 0 if n_trumps < 5 else (5, 7, 9)[min(n_trumps, 7) - 5]
    pts += sum(1 for c in cards_of(trumps) if 16 <= rank_of(c) <= 20)
    for suit in range(4):
        cards = cards_of(hand & suit_mask(suit))
        ranks = {rank_of(c) for c in cards}
        if 14 in ranks:
            pts += 10 if 13 in ranks else 6
        if 13 in ranks and 14 not in ranks:
            pts += 3
        if 12 in ranks:
            pts += 2
        if 11 in ranks:
            pts += 1
        n = len(cards)
        if n >= 5:
            pts += (5, 7, 9)[min(n, 7) - 5]
        elif n == 0:
            pts += 6
        elif n == 1:
            pts += 3
    return pts


def contract_for(points: int) -> Optional[Contract]:
    """The contract the count suggests, or None to pass."""
    for threshold, contract in THRESHOLDS:
        if points >= threshold:
            return contract
    return None


def simple_discard(hand_and_dog: int, variant: Variant = FOUR_PLAYERS) -> List[int]:
    """A sensible legal discard: void the short suits without a king, then bank points.

    Suits are voided shortest first while they fit; the rest is filled with the
    most valuable discardable cards of the shortest remaining suits (points in
    the discard are the taker's for sure).  Trumps only when the rules force it,
    the lowest ones.
    """
    size = variant.dog_size
    pool = discardable(hand_and_dog)
    plain = pool & ~TRUMPS_MASK
    chosen: List[int] = []
    suits = sorted(range(4), key=lambda s: (count(hand_and_dog & suit_mask(s)), s))
    for s in suits:
        cards = cards_of(hand_and_dog & suit_mask(s))
        if cards and not any(is_king(c) for c in cards) and len(chosen) + len(cards) <= size:
            chosen.extend(cards)
    rest = [c for c in cards_of(plain) if c not in chosen]
    length = {s: count(hand_and_dog & suit_mask(s)) for s in range(4)}
    rest.sort(key=lambda c: (length[c // 14], -half_points(c), c))
    chosen.extend(rest[: size - len(chosen)])
    if len(chosen) < size:
        trumps = [c for c in cards_of(pool & TRUMPS_MASK) if c >= TRUMP_BASE]
        chosen.extend(trumps[: size - len(chosen)])
    return sorted(chosen)


def simple_call(hand: int) -> int:
    """The card a five-player taker calls (a king, unless he holds them all): of the callable
    cards he does not hold (calling his own would leave him alone), the one of his longest
    suit, the lowest suit on ties."""
    return max(cards_of(callable_cards(hand) & ~hand), key=lambda c: (count(hand & suit_mask(c // 14)), -c))


def best_taker(hands: Sequence[int]) -> int:
    """The seat with the highest count (lowest seat on ties)."""
    counts = [hand_count(h) for h in hands]
    return counts.index(max(counts))
