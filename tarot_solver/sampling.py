"""Sampling the unknown cards: the deals one seat cannot tell apart.

A seat knows its own cards and whatever the table has shown: the dog of a prise or
garde, the cards played, the trumps of a poignée, the trumps put in a discard.  Play
reveals more: a player who does not follow suit is void in it, one who neither follows
nor trumps holds no trump, one who does not overtrump holds no trump above the highest
in the trick.  Everything else is unknown, and the Monte Carlo advice needs the unknown
cards dealt *uniformly among the deals consistent with that knowledge*.

The knowledge is a :class:`Constraints`: one *location* per seat (its current hand)
and one for the cards set aside (the dog or the discard: six cards, three at five
players), each with a size, the cards
known to be there and the cards it cannot hold.  :class:`Sampler` draws from it exactly
uniformly: the unknown cards fall into a few classes of cards allowed in the same
locations; it counts the deals by dynamic programming over the classes, draws how many
cards of each class go to each location with the right weights, then shuffles within
each class.  A deal in which some seat was dealt the Petit sec would have been void, and at
five players the taker's call must fit his hand as dealt (a king called shows he was not
dealt all four); other worlds are redrawn, which keeps the draw uniform over the playable
deals.

Worlds are reproducible: world ``i`` of seed ``k`` is drawn from its own generator
(:func:`world_rng`, the ``i``-th child of ``SeedSequence(k)``), so it is the same world
whichever process draws it and however many worlds are drawn.
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from dataclasses import dataclass
from math import factorial
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Tuple

if TYPE_CHECKING:
    import numpy as np

from . import rules
from .cards import (
    EXCUSE,
    FULL_DECK,
    OUDLERS_MASK,
    TRUMP_BASE,
    TRUMPS,
    TRUMPS_MASK,
    card_token,
    cards_of,
    count,
    is_king,
    mask_of,
    suit_mask,
    suit_of,
)
from .errors import RecordError, TarotError
from .parallel import import_holding_ctrl_c
from .records import VARIANT, DealRecord
from .variant import Contract, Variant, variant_for

KINGS_MASK = mask_of(c for c in range(TRUMP_BASE) if is_king(c))
#: draws of void deals (Petit sec, or a call the taker's hand did not allow) in a row after
#: which the constraints are taken to force one
MAX_REDRAWS = 1000


class ConstraintError(TarotError):
    """No deal is consistent with what the seat knows."""


def location_name(loc: int, players: int) -> str:
    return "the cards set aside" if loc == players else f"seat {loc}"


@dataclass(frozen=True)
class Constraints:
    """What one seat knows of where the cards are.

    Per location (the seats, then the aside cards): ``sizes`` the number of cards it
    holds now, ``known`` the cards known to be there, ``forbidden`` the cards it cannot
    hold.  ``played_by``: per seat, the cards it has played (they are in no location).
    ``dog_taken``: (taker, dog) once a taker has taken the dog and discarded; his dealt
    hand was then his hand plus his played cards plus the aside cards, minus the dog.
    ``played_by`` also takes the played cards out of the unknown ones; ``dog_taken``
    only serves to rebuild the dealt hands (the Petit sec check).  ``call``: (taker, card
    called) at five players: his hand as dealt must allow that call
    (:func:`~tarot_solver.rules.callable_cards`).
    """

    sizes: Tuple[int, ...]
    known: Tuple[int, ...]
    forbidden: Tuple[int, ...]
    played_by: Tuple[int, ...] = ()
    dog_taken: Optional[Tuple[int, int]] = None
    call: Optional[Tuple[int, int]] = None

    @property
    def players(self) -> int:
        """The number of seats, which is also the index of the aside location (after the seats)."""
        return len(self.sizes) - 1

    @property
    def variant(self) -> Variant:
        return variant_for(self.players)

    @property
    def gone(self) -> int:
        """The cards already played."""
        out = 0
        for p in self.played_by:
            out |= p
        return out

    @property
    def unknown(self) -> int:
        """The cards whose place is not known."""
        held = 0
        for k in self.known:
            held |= k
        return FULL_DECK & ~held & ~self.gone

    def dealt_hands(self, world: "World") -> Tuple[int, ...]:
        """The hands as dealt that lead to ``world``."""
        hands = [h | p for h, p in zip(world.hands, self.played_by or (0,) * self.players)]
        if self.dog_taken is not None:
            taker, dog = self.dog_taken
            hands[taker] = (hands[taker] | world.aside) & ~dog
        return tuple(hands)


@dataclass(frozen=True)
class World:
    """One full assignment of the cards: current hands by seat and the aside cards."""

    hands: Tuple[int, ...]
    aside: int


def _numpy() -> Any:
    """numpy, imported only where worlds are drawn (at module level it added 0.12 s to
    every command's start; `tarot-solve solve` draws none), holding Ctrl-C as a local
    pool needs (:func:`~tarot_solver.parallel.import_holding_ctrl_c`)."""
    return import_holding_ctrl_c("numpy")


def have_played(leader: Optional[int], count: int, players: int) -> Set[int]:
    """The seats that have played a card once ``count`` cards are played from the first
    lead by ``leader``: those whose poignées are shown by then (a poignée is shown just
    before its holder's first card; a record holds the whole deal's)."""
    if leader is None:
        return set(range(players)) if count else set()
    return {(leader + i) % players for i in range(min(count, players))}


def world_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of world ``index``: child ``index`` of ``SeedSequence(seed)``."""
    np = _numpy()
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))


def _multinomial(parts: Sequence[int]) -> int:
    out = factorial(sum(parts))
    for p in parts:
        out //= factorial(p)
    return out


def _splits(k: int, caps: Sequence[int]) -> List[Tuple[int, ...]]:
    """Every way to write ``k`` as a sum of one part per cap, each part at most its cap."""
    if not caps:
        return [()] if k == 0 else []
    if len(caps) == 1:
        return [(k,)] if k <= caps[0] else []
    rest = sum(caps[1:])
    return [(first,) + tail for first in range(max(0, k - rest), min(k, caps[0]) + 1)
            for tail in _splits(k - first, caps[1:])]


class Sampler:
    """Uniform sampler of the deals consistent with a :class:`Constraints`.

    Raises :class:`ConstraintError` naming the clash when there is none.
    """

    def __init__(self, constraints: Constraints) -> None:
        self.constraints = constraints
        sizes, known, forbidden = constraints.sizes, constraints.known, constraints.forbidden
        n = len(sizes)
        for loc in range(n):
            bad = known[loc] & (forbidden[loc] | constraints.gone)
            if bad:
                tok = card_token(cards_of(bad)[0])
                raise ConstraintError(f"'{tok}' is known to be with {self._name(loc)}, which cannot hold it",
                                      token=tok)
            for other in range(loc + 1, n):
                both = known[loc] & known[other]
                if both:
                    tok = card_token(cards_of(both)[0])
                    raise ConstraintError(f"'{tok}' is known to be both with {self._name(loc)}"
                                          f" and with {self._name(other)}", token=tok)
        self.free = tuple(sizes[loc] - count(known[loc]) for loc in range(n))
        for loc, f in enumerate(self.free):
            if f < 0:
                raise ConstraintError(f"{self._name(loc)} holds {sizes[loc]} cards but {count(known[loc])}"
                                      " are known to be there")
        unknown = constraints.unknown
        if sum(self.free) != count(unknown):
            raise ConstraintError(f"{count(unknown)} unknown cards for {sum(self.free)} places")
        groups: Dict[int, List[int]] = {}
        for c in cards_of(unknown):
            allowed = sum(1 << loc for loc in range(n) if self.free[loc] and not forbidden[loc] >> c & 1)
            if not allowed:
                tok = card_token(c)
                raise ConstraintError(f"'{tok}' fits in no hand: every player who may still hold a card"
                                      " is known not to hold it", token=tok)
            groups.setdefault(allowed, []).append(c)
        self._check_room(groups)
        np = _numpy()

        # the largest class last: its split is then forced by the room left
        self.classes = sorted(((tuple(loc for loc in range(n) if allowed >> loc & 1), np.array(cards))
                               for allowed, cards in groups.items()), key=lambda g: (len(g[1]), g[0]))
        self._ways: Dict[Tuple[int, Tuple[int, ...]], int] = {}
        self._choices: Dict[Tuple[int, Tuple[int, ...]], Tuple[List[Tuple[int, ...]], List[float]]] = {}
        self.count = self._count(0, self.free)

    def _name(self, loc: int) -> str:
        return location_name(loc, self.constraints.players)

    def _check_room(self, groups: Dict[int, List[int]]) -> None:
        """Hall's condition: the cards confined to a set of locations fit in their room."""
        n = len(self.free)
        for subset in range(1, 1 << n):
            confined = sum(len(cards) for allowed, cards in groups.items() if allowed & ~subset == 0)
            room = sum(self.free[loc] for loc in range(n) if subset >> loc & 1)
            if confined > room:
                names = [self._name(loc) for loc in range(n) if subset >> loc & 1]
                raise ConstraintError(f"{confined} unknown cards can only be with {' and '.join(names)},"
                                      f" which {'has' if len(names) == 1 else 'have'} room for {room}")

    def _options(self, i: int, caps: Tuple[int, ...]) -> List[Tuple[Tuple[int, ...], int]]:
        """(split, number of deals) for each way class ``i`` can share out given ``caps``."""
        locs, cards = self.classes[i]
        out = []
        for split in _splits(len(cards), [caps[loc] for loc in locs]):
            rest = list(caps)
            for loc, k in zip(locs, split):
                rest[loc] -= k
            ways = _multinomial(split) * self._count(i + 1, tuple(rest))
            if ways:
                out.append((split, ways))
        return out

    def _count(self, i: int, caps: Tuple[int, ...]) -> int:
        """Number of ways to place classes ``i``.. into the room ``caps``."""
        if i == len(self.classes):
            return int(not any(caps))
        key = (i, caps)
        if key not in self._ways:
            self._ways[key] = sum(ways for _, ways in self._options(i, caps))
        return self._ways[key]

    def _choose(self, i: int, caps: Tuple[int, ...], u: float) -> Tuple[int, ...]:
        key = (i, caps)
        if key not in self._choices:
            options = self._options(i, caps)
            total = self._ways[key]
            cumulative = list(itertools.accumulate(ways / total for _, ways in options))
            self._choices[key] = ([split for split, _ in options], cumulative)
        splits, cumulative = self._choices[key]
        return splits[min(bisect.bisect_right(cumulative, u), len(splits) - 1)]

    def _draw(self, rng: np.random.Generator) -> Tuple[int, ...]:
        held = list(self.constraints.known)
        caps = self.free
        for i, (locs, cards) in enumerate(self.classes):
            split = self._choose(i, caps, rng.random())
            shuffled = cards[rng.permutation(len(cards))]
            start = 0
            rest = list(caps)
            for loc, k in zip(locs, split):
                held[loc] |= mask_of(int(c) for c in shuffled[start:start + k])
                start += k
                rest[loc] -= k
            caps = tuple(rest)
        return tuple(held)

    def _void(self, world: World) -> Optional[Tuple[str, str]]:
        """Why the deal leading to ``world`` cannot have been played (what, token), or None."""
        hands = self.constraints.dealt_hands(world)
        sec = [s for s, h in enumerate(hands) if rules.is_petit_sec(h)]
        if sec:
            return f"leave seat {sec[0]} with the Petit sec (a void deal)", "T1"
        call = self.constraints.call
        if call is not None and not rules.callable_cards(hands[call[0]]) >> call[1] & 1:
            tok = card_token(call[1])
            return f"deal seat {call[0]} every card of the rank of '{tok}', so that he could not call it", tok
        return None

    def sample(self, rng: np.random.Generator) -> World:
        """One world drawn uniformly (void deals redrawn: a Petit sec, a call the taker could not make)."""
        voids: Counter[Tuple[str, str]] = Counter()
        for _ in range(MAX_REDRAWS):
            held = self._draw(rng)
            aside = self.constraints.players
            world = World(hands=held[:aside], aside=held[aside])
            void = self._void(world)
            if void is None:
                return world
            voids[void] += 1
        (what, token), times = voids.most_common(1)[0]  # the reason most often met
        often = f"{MAX_REDRAWS} times" if times == MAX_REDRAWS else f"{times} times in {MAX_REDRAWS} void draws"
        raise ConstraintError(f"the deals that fit {what}, {often} in a row", token=token)


# What a seat knows -----------------------------------------------------------------


def hand_constraints(seat: int, hand: int, dog: Optional[int] = None, variant: Variant = VARIANT) -> Constraints:
    """Knowledge before any card is played: ``seat`` holds ``hand``; the dog (the aside
    location) is known when given (a prise or garde shows it to everyone)."""
    n, size = variant.players, variant.hand_size
    known = [0] * (n + 1)
    known[seat] = hand
    if dog is not None:
        known[n] = dog
    return Constraints(sizes=(size,) * n + (variant.dog_size,), known=tuple(known), forbidden=(0,) * (n + 1))


def _held_clash(held: Sequence[Tuple[int, str]], forbidden: int) -> Optional[str]:
    """Why a player cannot lack the cards ``forbidden`` (a card of them he is known to
    hold, ``held``: (cards, how the seat knows)); or None."""
    for cards, why in held:
        if cards & forbidden:
            return f"he holds '{card_token(cards_of(cards & forbidden)[0])}' (he {why})"
    return None


def _forbidden_by_play(trick: Sequence[int], card: int) -> int:
    """Cards the player cannot hold, having played ``card`` to ``trick``."""
    suit = rules.led_suit(trick)
    if suit is None or card == EXCUSE:
        return 0
    out = 0
    played_suit = suit_of(card)
    if suit != TRUMPS and played_suit != suit:
        out |= suit_mask(suit)
    if played_suit != TRUMPS and (suit == TRUMPS or played_suit != suit):
        out |= TRUMPS_MASK
    top = rules.highest_trump(trick)
    if played_suit == TRUMPS and top > card:
        out |= TRUMPS_MASK & ~((1 << (top + 1)) - 1)
    return out


@dataclass(frozen=True)
class View:
    """What one seat knows at some point of a deal: the input of play advice.

    ``hand``: the seat's cards as dealt.  ``dog``: the dog when shown (a prise or
    garde shows it to all), else None.  ``aside``: what the seat knows of the
    discard once it is made, else None: all its cards for the taker, the trumps
    shown for the others (0 when none).  ``played``: the cards played from the first
    lead.  ``poignees``: (seat, cards shown).  ``players``: the table's size.
    ``called``: at five players, the card the taker called (announced to all).
    """

    seat: int
    hand: int
    taker: Optional[int] = None
    contract: Optional[Contract] = None
    leader: Optional[int] = None
    dog: Optional[int] = None
    aside: Optional[int] = None
    played: Tuple[int, ...] = ()
    poignees: Tuple[Tuple[int, int], ...] = ()
    players: int = VARIANT.players
    called: Optional[int] = None

    @classmethod
    def of_record(cls, record: DealRecord, seat: int) -> "View":
        """What ``seat`` knows at the point the record reached."""
        took_dog = record.taker is not None and record.contract is not None and record.contract.taker_takes_dog
        aside = None
        if took_dog and record.discard is not None:
            discard = mask_of(record.discard)
            aside = discard if seat == record.taker else discard & TRUMPS_MASK
        played = tuple(record.played or ())
        shown = have_played(record.first_leader, len(played), record.variant.players)
        return cls(seat=seat, hand=mask_of(record.hands[seat]), taker=record.taker, contract=record.contract,
                   leader=record.first_leader, dog=mask_of(record.dog) if took_dog else None, aside=aside,
                   played=played,
                   poignees=tuple((shower, mask_of(cards)) for shower, cards in record.poignees or ()
                                  if shower in shown),
                   players=record.variant.players, called=record.called)

    @property
    def took_dog(self) -> bool:
        return self.taker is not None and self.contract is not None and self.contract.taker_takes_dog

    def constraints(self) -> Constraints:
        """The :class:`Constraints` of this knowledge.

        A prise or garde shows the dog to all; its discard is known to the taker, and
        only its trumps (which are shown) to the others, who also know it holds no
        king and no oudler, and that the taker kept no other discardable card if it
        holds a trump.  A call below a king shows the taker holds every card of the ranks
        above it; any call, that he was not dealt every card of its rank (worlds where he
        was are redrawn: :attr:`Constraints.call`).  Poignées show trumps (and with the
        Excuse shown, that no other trump is held).  The cards played are public and
        reveal voids.  Raises :class:`RecordError` where the seat's own cards contradict
        the play.
        """
        n = self.players
        known = [0] * (n + 1)
        forbidden = [0] * (n + 1)
        taker, dog, aside = self.taker, self.dog, self.aside
        hand = self.hand
        dog_taken = None
        if self.took_dog and dog is not None:
            known[n] = dog  # shown to everyone before the discard is made
            if aside is not None:
                assert taker is not None
                dog_taken = (taker, dog)
                known[n] = aside
                if self.seat == taker:
                    hand = (hand | dog) & ~aside
                else:
                    forbidden[n] = KINGS_MASK | OUDLERS_MASK | (TRUMPS_MASK & ~aside)
                    for s in range(n):
                        if s != taker:
                            forbidden[s] |= dog
                    if aside & TRUMPS_MASK:
                        forbidden[taker] |= rules.discardable(FULL_DECK) & ~TRUMPS_MASK
        known[self.seat] = hand
        revealed = 0
        if self.called is not None and taker is not None:
            # a queen called: the four kings were dealt to the taker (with the dog taken, a
            # discardable card of them may lie in the discard)
            revealed = rules.call_reveals(self.called)
            for loc in range(n + 1):
                if loc != taker and not (loc == n and dog_taken is not None):
                    forbidden[loc] |= revealed
        # what other players are known to hold until they play it, and how the seat knows
        held: List[List[Tuple[int, str]]] = [[] for _ in range(n)]
        if dog_taken is not None and self.seat != taker:
            assert taker is not None and dog is not None and aside is not None
            kept = dog & (KINGS_MASK | OUDLERS_MASK | TRUMPS_MASK) & ~aside  # none of these is discarded unseen
            held[taker].append((kept, "took it from the dog and may not discard it unseen"))
        for shower, shown in self.poignees:
            known[shower] |= shown
            if shower != self.seat:
                held[shower].append((shown, "showed it in a poignée"))
            if shown >> EXCUSE & 1:
                forbidden[shower] |= TRUMPS_MASK & ~shown
        for i, (shower, shown) in enumerate(self.poignees):
            clash = _held_clash(held[shower], forbidden[shower])
            if clash:
                raise RecordError(f"seat {shower} shows 'EX' in a poignée, so holds no other trump, but {clash}",
                                  key=f"poignees[{i}]", token=card_token(EXCUSE))
        played_by = [0] * n
        if self.played:
            if self.leader is None:
                raise RecordError("the play cannot be followed without the first leader (or the dealer)",
                                  key="leader")
            leader = self.leader
            trick: List[int] = []
            for i, card in enumerate(self.played):
                player = (leader + len(trick)) % n
                clash = self._clash(player, card, hand)
                if not clash and player != self.seat and forbidden[player] >> card & 1:
                    clash = (f"the call of '{card_token(self.called)}' shows seat {taker} holds it"
                             if revealed >> card & 1 and player != taker and self.called is not None else
                             "what he showed earlier rules it out (a void, no trump or none above a trump)")
                if player == self.seat and not rules.legal_plays(hand & ~played_by[player], trick) >> card & 1:
                    clash = "does not hold it" if not hand >> card & 1 else "may not play it"
                if clash:
                    raise RecordError(f"seat {player} plays '{card_token(card)}' in trick {i // n + 1},"
                                      f" but {clash}", key=f"played[{i}]", token=card_token(card))
                forbidden[player] |= _forbidden_by_play(trick, card)
                played_by[player] |= 1 << card
                clash = _held_clash(held[player], forbidden[player] & ~played_by[player])
                if clash:
                    raise RecordError(f"seat {player} plays '{card_token(card)}' in trick {i // n + 1}, but {clash}",
                                      key=f"played[{i}]", token=card_token(card))
                trick.append(card)
                if len(trick) == n:
                    leader = (leader + rules.trick_winner(trick)) % n
                    trick = []
        gone = 0
        for p in played_by:
            gone |= p
        variant = variant_for(n)
        sizes = tuple(variant.hand_size - count(p) for p in played_by) + (variant.dog_size,)
        call = (taker, self.called) if self.called is not None and taker is not None else None
        return Constraints(sizes=sizes, known=tuple(k & ~gone for k in known), forbidden=tuple(forbidden),
                           played_by=tuple(played_by), dog_taken=dog_taken, call=call)

    def _clash(self, player: int, card: int, hand: int) -> Optional[str]:
        """Why ``player`` (not the seat) cannot play ``card``, from what the seat knows; or None."""
        if player == self.seat:
            return None
        if hand >> card & 1:
            return f"seat {self.seat} holds it"
        if self.aside is not None and self.aside >> card & 1:
            return "it is in the discard"
        if self.took_dog and self.dog is not None and self.dog >> card & 1 and player != self.taker:
            return "it is in the dog, which the taker took"
        if (player == self.taker and self.aside and self.aside & TRUMPS_MASK
                and rules.discardable(1 << card) & ~TRUMPS_MASK):
            return "he discarded a trump, so he kept no card he could discard instead"
        for shower, shown in self.poignees:
            if shown >> card & 1 and player != shower:
                return f"seat {shower} showed it in a poignée"
        return None


def record_constraints(record: DealRecord, seat: int) -> Constraints:
    """What ``seat`` knows at the point the record reached (:meth:`View.constraints`)."""
    return View.of_record(record, seat).constraints()
