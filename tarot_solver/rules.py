"""The FFT rules of card play, in plain Python.

This module is the reference semantics of the project: the record validator,
replay, scoring and the test-suite's reference minimax all use it, and the compiled
core is checked against it.  Rulings (see docs/rules.md):

* the Excuse stays with its owner's camp before the last trick (owner +4, trick
  winners +0.5, in half-points +8/+1, whoever wins the trick);
* played to the last trick it goes to the other camp (4.5 points and an oudler),
  even when its own camp wins that trick;
* a camp that has won every earlier trick and *leads* the Excuse to the last trick
  wins that trick (either camp, slam announced or not);
* a discard holds trumps only when the taker has fewer other discardable cards than
  the dog's size (six; three at five players), and then exactly as many trumps as
  are needed to make it up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Type, Union

from .cards import (
    EXCUSE,
    HALF_POINTS,
    OUDLERS,
    PETIT,
    TOTAL_HALF_POINTS,
    TRUMP_BASE,
    TRUMPS,
    TRUMPS_MASK,
    CardsLike,
    card_argument,
    card_token,
    cards_of,
    count,
    is_king,
    is_oudler,
    mask_of,
    parse_cards,
    points,
    rank_of,
    shown_set,
    shown_tokens,
    suit_mask,
    suit_of,
)
from .errors import IllegalMoveError, RecordError, TarotError, integer
from .notation import parse_hand
from .variant import FOUR_PLAYERS, VARIANTS, Contract, Variant, contract_argument, seat_argument

EXCUSE_BIT = 1 << EXCUSE


def led_suit(trick: Sequence[int]) -> Optional[int]:
    """The suit that must be followed: that of the first card that is not the Excuse."""
    for c in trick:
        if c != EXCUSE:
            return suit_of(c)
    return None


def highest_trump(trick: Sequence[int]) -> int:
    """The highest trump in the trick, or -1."""
    best = -1
    for c in trick:
        if TRUMP_BASE <= c < EXCUSE and c > best:
            best = c
    return best


def legal_plays(hand: int, trick: Sequence[int]) -> int:
    """The set of cards of ``hand`` (a card set) that may be played to ``trick``."""
    suit = led_suit(trick)
    if suit is None:
        return hand
    excuse = hand & EXCUSE_BIT
    if suit != TRUMPS:
        follow = hand & suit_mask(suit)
        if follow:
            return follow | excuse
    trumps = hand & TRUMPS_MASK
    if trumps:
        top = highest_trump(trick)
        over = trumps & ~((1 << (top + 1)) - 1) if top >= 0 else trumps
        return (over or trumps) | excuse
    return hand


def trick_winner(trick: Sequence[int], *, excuse_slam_lead: bool = False) -> int:
    """Index in ``trick`` of the winning card.

    ``excuse_slam_lead`` is the slam case: the Excuse led to the last trick by a
    camp that has won every earlier trick wins it.
    """
    if excuse_slam_lead and trick and trick[0] == EXCUSE:
        return 0
    top = highest_trump(trick)
    if top >= 0:
        return list(trick).index(top)
    suit = led_suit(trick)
    best_i, best = -1, -1
    for i, c in enumerate(trick):
        if c != EXCUSE and suit_of(c) == suit and c > best:
            best_i, best = i, c
    return best_i


@dataclass(repr=False)
class Trick:
    """A completed trick (its ``cards`` empty for one played before a position that
    :func:`midgame_state` built: only its winner is known)."""

    leader: int
    cards: List[int]
    winner: int  # seat

    def seat_of(self, i: int, players: int) -> int:
        """The seat that played ``cards[i]`` (the leader played ``cards[0]``)."""
        return (self.leader + i) % players

    def __repr__(self) -> str:
        """The trick with its cards as tokens: ``Trick(leader=3, cards=['KS', '5S', 'T3', '2S'], winner=1)``."""
        return f"Trick(leader={self.leader!r}, cards={shown_tokens(self.cards)!r}, winner={self.winner!r})"


@dataclass(repr=False)
class PlayState:
    """The card play of one deal, from the first lead to the end.

    ``hands[s]`` is seat ``s``'s card set (a bitmask: :func:`cards.mask_of`), ``trick``
    the cards (numbers) on the table, led by ``leader``.  ``camps[s]`` is True for the
    taker's camp.  Points are in half-points, those of the tricks won so far and of the
    dog or discard: :func:`opening_state` credits the dog or the discard (a record's
    ``state()`` and ``position()`` build through it).  ``oudler_camp`` maps each
    oudler already settled (in a completed trick, the dog or the discard) to the
    camp that holds it for the count.  ``variant`` is the game of ``len(hands)``
    players (``variant.VARIANTS[len(hands)]``; the solver refuses another).
    """

    hands: List[int]
    camps: Tuple[bool, ...]
    leader: int
    variant: Variant = FOUR_PLAYERS
    trick: List[int] = field(default_factory=list)
    tricks: List[Trick] = field(default_factory=list)
    taker_hp: int = 0
    defence_hp: int = 0
    oudler_camp: Dict[int, bool] = field(default_factory=dict)

    @property
    def players(self) -> int:
        """The number of seats at the table (3, 4 or 5)."""
        return len(self.hands)

    @property
    def tricks_done(self) -> int:
        """Completed tricks (the trick on the table, if any, is number ``tricks_done + 1``)."""
        return len(self.tricks)

    @property
    def total_tricks(self) -> int:
        """The tricks of the whole deal (18 at four players)."""
        return self.tricks_done + count(self.hands[self.leader]) + (1 if self.trick else 0)

    @property
    def to_play(self) -> int:
        """The seat on turn (:attr:`taker_to_play`: whether it plays for the taker)."""
        return (self.leader + len(self.trick)) % self.players

    @property
    def taker_to_play(self) -> bool:
        """Whether the seat on turn plays for the taker's camp (``camps[to_play]``): it wants
        the margin as high as it can be, the defence as low."""
        return self.camps[self.to_play]

    @property
    def over(self) -> bool:
        """Whether every card has been played."""
        return not self.trick and not any(self.hands)

    def won_all(self, camp: bool) -> bool:
        """Whether ``camp`` has won every completed trick (vacuously true at the start)."""
        return all(self.camps[t.winner] == camp for t in self.tricks)

    def legal(self) -> int:
        """The cards the seat on turn may play, as a card set (:func:`cards.cards_of` lists it)."""
        return legal_plays(self.hands[self.to_play], self.trick)

    def __repr__(self) -> str:
        """The position in card tokens: the seat on turn, the seats of the taker's camp, the
        trick on the table, each hand, the tricks done, the points so far (those of the
        dog or discard included) and the oudlers the taker's camp holds for the count."""
        return (f"PlayState(to_play={self.to_play}, taker_camp={[s for s, c in enumerate(self.camps) if c]},"
                f" trick={shown_tokens(self.trick)!r}, hands={[shown_set(h) for h in self.hands]!r},"
                f" tricks_done={self.tricks_done}, taker_points={points(self.taker_hp)!r},"
                f" defence_points={points(self.defence_hp)!r},"
                f" taker_oudlers={[card_token(c) for c in OUDLERS if self.oudler_camp.get(c) is True]!r})")

    def copy(self) -> "PlayState":
        """An independent copy, to play on without changing this position."""
        return PlayState(
            hands=list(self.hands),
            camps=self.camps,
            leader=self.leader,
            variant=self.variant,
            trick=list(self.trick),
            tricks=list(self.tricks),
            taker_hp=self.taker_hp,
            defence_hp=self.defence_hp,
            oudler_camp=dict(self.oudler_camp),
        )

    def play(self, card: Union[int, str]) -> None:
        """Play ``card`` (a number or a token) for the seat on turn; raises
        :class:`IllegalMoveError`, :class:`CardError` for a token or number that is not a
        card, and TypeError for a value of another type."""
        card = card_argument(card)  # (numpy's integers as ints: shifted within 64 bits, the cards above T7 were lost)
        seat = self.to_play
        if self.over:
            raise IllegalMoveError(f"card '{card_token(card)}' played after the end of the game",
                                   token=card_token(card))
        if not self.hands[seat] >> card & 1:
            played_in = next((n for n, t in enumerate(self.tricks, 1) if card in t.cards),
                             self.tricks_done + 1 if card in self.trick else None)
            raise IllegalMoveError(
                f"seat {seat} does not hold '{card_token(card)}' (trick {self.tricks_done + 1})"
                + (f": it was played in trick {played_in}" if played_in else ""),
                token=card_token(card),
            )
        if not self.legal() >> card & 1:
            raise IllegalMoveError(
                f"seat {seat} may not play '{card_token(card)}' in trick {self.tricks_done + 1}"
                f" (must play one of {' '.join(card_token(c) for c in cards_of(self.legal()))})",
                token=card_token(card),
            )
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) == self.players:
            self._finish_trick()

    def _finish_trick(self) -> None:
        n = self.players
        last = not any(self.hands)
        leader_camp = self.camps[self.leader]
        slam_lead = last and self.trick[0] == EXCUSE and self.won_all(leader_camp)
        wi = trick_winner(self.trick, excuse_slam_lead=slam_lead)
        winner = (self.leader + wi) % n
        wcamp = self.camps[winner]
        for i, c in enumerate(self.trick):
            owner_camp = self.camps[(self.leader + i) % n]
            if c == EXCUSE and not slam_lead:
                if last:
                    self._credit(not owner_camp, c, 9)
                else:
                    self._credit(owner_camp, c, 8)
                    self._credit(wcamp, None, 1)
            else:
                self._credit(wcamp, c, HALF_POINTS[c])
        self.tricks.append(Trick(self.leader, self.trick, winner))
        self.trick = []
        self.leader = winner

    def _credit(self, camp: bool, card: Optional[int], hp: int) -> None:
        if camp:
            self.taker_hp += hp
        else:
            self.defence_hp += hp
        if card is not None and is_oudler(card):
            self.oudler_camp[card] = camp

    # Results -----------------------------------------------------------------

    def taker_oudlers(self) -> int:
        return sum(1 for c in OUDLERS if self.oudler_camp.get(c) is True)

    def margin_hp(self) -> int:
        """Taker's half-points minus the target for the oudlers he holds (game over)."""
        return self.taker_hp - self.variant.target_half_points(self.taker_oudlers())

    def petit_au_bout(self) -> Optional[bool]:
        """Camp (True: taker's) credited with the petit au bout, or None."""
        if not self.tricks:
            return None
        last = self.tricks[-1]
        if PETIT in last.cards:
            return self.camps[last.winner]
        if last.cards[:1] == [EXCUSE] and len(self.tricks) >= 2 and all(  # (a trick midgame_state made has none)
            self.camps[t.winner] == self.camps[last.winner] for t in self.tricks
        ):
            prev = self.tricks[-2]
            if PETIT in prev.cards:
                return self.camps[prev.winner]
        return None

    def slam(self) -> Optional[bool]:
        """The camp that won every trick, or None."""
        if not self.tricks:
            return None
        first = self.camps[self.tricks[0].winner]
        if all(self.camps[t.winner] == first for t in self.tricks):
            return first
        return None


# Setting up a deal -------------------------------------------------------------


def discardable(hand: int) -> int:
    """Cards that may ever be discarded: no king, no oudler."""
    return mask_of(c for c in cards_of(hand) if not is_king(c) and not is_oudler(c))


def _reject_duplicate(cards: Sequence[int], what: str, error: Type[TarotError]) -> None:
    """Raise ``error`` naming the first card that appears twice in ``cards``."""
    seen = 0
    for c in cards:
        if seen >> c & 1:
            raise error(f"card '{card_token(c)}' {what} twice", token=card_token(c))
        seen |= 1 << c


def check_discard(hand_and_dog: int, discard: Sequence[int], variant: Variant = FOUR_PLAYERS) -> None:
    """Raise :class:`IllegalMoveError` unless ``discard`` is legal from ``hand_and_dog``."""
    if len(discard) != variant.dog_size:
        raise IllegalMoveError(f"the discard must hold {variant.dog_size} cards, not {len(discard)}")
    _reject_duplicate(discard, "discarded", IllegalMoveError)
    others = count(discardable(hand_and_dog) & ~TRUMPS_MASK)
    trumps_needed = max(0, variant.dog_size - others)
    n_trumps = 0
    for c in discard:
        tok = card_token(c)
        if not hand_and_dog >> c & 1:
            raise IllegalMoveError(f"discarded card '{tok}' is neither in the taker's hand nor in the dog", token=tok)
        if is_king(c):
            raise IllegalMoveError(f"a king may not be discarded: '{tok}'", token=tok)
        if is_oudler(c):
            raise IllegalMoveError(f"an oudler may not be discarded: '{tok}'", token=tok)
        if suit_of(c) == TRUMPS:
            n_trumps += 1
    if n_trumps > trumps_needed:
        bad = next(c for c in discard if suit_of(c) == TRUMPS)
        raise IllegalMoveError(
            f"trump '{card_token(bad)}' discarded while the taker has {others} other discardable cards"
            f" (trumps only to make up {variant.dog_size}, here {trumps_needed})",
            token=card_token(bad),
        )
    # With distinct cards, at most ``others`` non-trumps pass the checks above, so a
    # discard that is not refused holds exactly ``trumps_needed`` trumps.


#: the ranks a taker may call at five players, in order: king, then queen, knight, jack
CALL_RANKS = (14, 13, 12, 11)
_CALL_NAMES = {14: "king", 13: "queen", 12: "knight", 11: "jack"}


def _rank_cards(rank: int) -> int:
    return mask_of(suit * 14 + rank - 1 for suit in range(4))


def callable_cards(hand: int) -> int:
    """The cards a five-player taker holding ``hand`` (as dealt) may call: the kings; the
    queens if he holds the four kings; the knights if he holds the queens too; and so on."""
    for rank in CALL_RANKS:
        if hand & _rank_cards(rank) != _rank_cards(rank):
            return _rank_cards(rank)
    raise AssertionError("unreachable: a hand holds at most 15 of the 16 honours")


def call_reveals(called: int) -> int:
    """The cards a call shows the taker was dealt: every card of the ranks above the one
    called (calling a queen shows the four kings); raises :class:`IllegalMoveError` for a
    card no hand may call."""
    if called >= TRUMP_BASE or rank_of(called) not in CALL_RANKS:
        raise IllegalMoveError(f"the taker calls a king (a queen, knight or jack only when he holds every card"
                               f" above), not '{card_token(called)}'", token=card_token(called))
    return mask_of(c for rank in CALL_RANKS if rank > rank_of(called) for c in cards_of(_rank_cards(rank)))


def check_calls_here(variant: Variant, token: Optional[str] = None) -> None:
    """Raise :class:`RecordError` (key ``called``) unless a card is called at this table:
    only the five-player game has a called partner."""
    if not variant.partner_share:
        raise RecordError(f"no card is called at {variant.players} players (only at five)", key="called",
                          token=token)


def check_call(hand: int, called: int) -> None:
    """Raise :class:`IllegalMoveError` unless ``called`` may be called from ``hand`` (as dealt)."""
    allowed = callable_cards(hand)
    if not allowed >> called & 1:
        rank = _CALL_NAMES[rank_of(cards_of(allowed)[0])]
        why = "" if rank == "king" else " (he holds every card of the ranks above)"
        raise IllegalMoveError(f"the taker calls a {rank}{why}, not '{card_token(called)}'",
                               token=card_token(called))


def partner_of(hands: Sequence[int], taker: int, called: Union[None, int, str]) -> Optional[int]:
    """The seat holding the called card (a number or a token) as dealt, the taker's
    partner; None when the taker holds it himself or it lies in the dog (he then plays
    alone), or nothing is called.  Raises :class:`CardError` for what is not a card."""
    if called is None:
        return None
    called = card_argument(called)
    holder = next((s for s, h in enumerate(hands) if h >> called & 1), None)
    return None if holder == taker else holder


def poignee_level(hand: int, shown: Sequence[int], variant: Variant = FOUR_PLAYERS) -> int:
    """Level (0 simple, 1 double, 2 triple) of a poignée; raises :class:`RecordError`."""
    sizes = variant.poignee_sizes
    if len(shown) not in sizes:
        raise RecordError(
            f"a poignée shows exactly {', '.join(map(str, sizes))} trumps, not {len(shown)}"
        )
    _reject_duplicate(shown, "shown in a poignée", RecordError)
    for c in shown:
        tok = card_token(c)
        if c != EXCUSE and suit_of(c) != TRUMPS:
            raise RecordError(f"'{tok}' shown in a poignée is not a trump", token=tok)
        if not hand >> c & 1:
            raise RecordError(f"'{tok}' shown in a poignée is not in the player's hand", token=tok)
    if EXCUSE in shown:
        hidden = (hand & TRUMPS_MASK) & ~mask_of(shown)
        if hidden:
            raise RecordError(
                "the Excuse may stand for a trump only when no trump is held back"
                f" (holds '{card_token(cards_of(hidden)[0])}')",
                token="EX",
            )
    return sizes.index(len(shown))


def is_petit_sec(hand: int) -> bool:
    """The Petit is the hand's only trump and the hand lacks the Excuse: the deal is void."""
    return hand & TRUMPS_MASK == 1 << PETIT and not hand & EXCUSE_BIT


def bidding_result(bids: Sequence[str], players: int = 4) -> Optional[Tuple[int, Contract]]:
    """(position in the bidding order, contract) of the winning bid, or None if all pass.

    Each player speaks once; every bid must beat the previous one.  Raises
    :class:`RecordError` naming the bad token.
    """
    if len(bids) > players:
        raise RecordError(f"{len(bids)} bids for {players} players: each player speaks once",
                          token=str(bids[players]))
    best: Optional[Tuple[int, Contract]] = None
    for i, b in enumerate(bids):
        if str(b).strip().lower() == "pass":
            continue
        c = Contract.parse(b)
        if best is not None and c.rank <= best[1].rank:
            raise RecordError(f"bid '{b}' does not beat the previous bid '{best[1].value}'", token=str(b))
        best = (i, c)
    return best


def _table_of(hands: Sequence[object]) -> Variant:
    """The game of ``len(hands)`` players (:class:`RecordError` keyed ``hands`` if none)."""
    if len(hands) not in VARIANTS:
        raise RecordError(f"{len(hands)} hands: a table has 3, 4 or 5 players", key="hands")
    return VARIANTS[len(hands)]


def _check_partner(variant: Variant, taker: int, partner: Optional[int]) -> Optional[int]:
    """The called partner as an int, or None (the taker plays alone); refused
    (:class:`RecordError` keyed ``partner``) where the game has none, or who is no seat or
    the taker himself, and a TypeError if not an integer."""
    if partner is None:
        return None
    if not variant.partner_share:
        raise RecordError(f"no partner at {variant.players} players (only at five)", key="partner")
    partner = seat_argument(partner, "partner", variant.players)
    if partner == taker:
        raise RecordError(f"the partner must be another seat than the taker ({taker})", key="partner")
    return partner


def opening_state(
    hands: Sequence[Union[int, CardsLike]],
    dog: Union[int, CardsLike],
    taker: int,
    contract: Union[Contract, str],
    leader: int,
    discard: Optional[Sequence[int]] = None,
    variant: Optional[Variant] = None,
    partner: Optional[int] = None,
) -> PlayState:
    """The position before the first lead: the dog or the discard credited as the rules say
    (``hands`` and ``dog``: card sets, as :func:`cards.mask_of` makes, or cards as
    :func:`midgame_state` takes them; ``contract``: a
    :class:`Contract` or its name; ``discard``: the cards; ``variant``: the game of
    ``len(hands)`` players when None; ``partner``: the taker's called partner at five
    players, None when he plays alone).  Raises
    :class:`RecordError` for a seat that is none, a card in two places (two hands, or a
    hand and the dog), or a variant or a partner that does not fit the hands."""
    hands = _card_sets(hands)
    dog = _card_set(dog, "dog")
    if variant is None:
        variant = _table_of(hands)
    elif len(hands) != variant.players:
        raise RecordError(f"{len(hands)} hands for the {variant.players}-player game", key="hands")
    taker = seat_argument(taker, "taker", variant.players)
    leader = seat_argument(leader, "leader", variant.players)
    partner = _check_partner(variant, taker, partner)
    contract = contract_argument(contract)
    _places([(f"hands[{s}]", cards_of(h)) for s, h in enumerate(hands)] + [("dog", cards_of(dog))])
    camps = variant.camps(taker, partner)
    state = PlayState(hands=hands, camps=camps, leader=leader, variant=variant)
    if contract.taker_takes_dog:
        if discard is None:
            raise RecordError("a discard is required for prise and garde", key="discard")
        full = hands[taker] | dog
        check_discard(full, discard, variant)
        aside = mask_of(discard)
        hands[taker] = full & ~aside
    else:
        aside = dog
    for c in cards_of(aside):
        state._credit(contract.dog_to_taker, c, HALF_POINTS[c])
    return state


def _places(named: Sequence[Tuple[str, Sequence[int]]]) -> Dict[int, str]:
    """Where each card of ``named`` (pairs of a key and its cards) is; a card in two
    places is refused (:class:`RecordError` keyed by the second)."""
    where: Dict[int, str] = {}
    for key, cards in named:
        for c in cards:
            if c in where:
                raise RecordError(f"'{card_token(c)}' is in {where[c]} and in {key}", key=key, token=card_token(c))
            where[c] = key
    return where


def _card_set(cards: Union[int, CardsLike], key: str) -> int:
    """A card set given as one (an int), as cards (tokens or numbers), or as a string in
    the hand notation (:func:`notation.parse_hand`: tokens, or groups such as
    ``S:KQ7 T:21.3``); errors name ``key``."""
    try:
        if isinstance(cards, int):
            integer(key, cards, "a card set or cards")  # (a bool is neither)
            cards_of(cards)  # (raises for what is not a card set)
            return cards
        return mask_of(parse_hand(cards) if isinstance(cards, str) else parse_cards(cards, name=key))
    except TarotError as e:
        raise e.located(key=key)


def _card_sets(hands: Sequence[Union[int, CardsLike]]) -> List[int]:
    """The card set of each seat's hand (:func:`_card_set`, keyed ``hands[s]``)."""
    if isinstance(hands, str):
        raise TypeError("hands must be a sequence with one hand per seat, not a string")
    return [_card_set(h, f"hands[{s}]") for s, h in enumerate(hands)]


def midgame_state(
    hands: Sequence[Union[int, CardsLike]],
    taker: int,
    leader: int,
    *,
    trick: CardsLike = (),
    taker_hp: int,
    taker_oudlers: CardsLike,
    taker_tricks: int,
    partner: Optional[int] = None,
) -> PlayState:
    """The position a player at the table knows in the middle of a deal, without its history.

    ``hands``: each seat's cards now (a card set, tokens or numbers, or a string in the
    hand notation, ``S:KQ7 H:- D:J C:- T:21.3 EX``; their number is the table's size);
    ``trick``: the cards on the table, in order, led by ``leader`` (the seat on lead when
    it is empty).  What the taker's camp has so far: ``taker_hp``, its half-points (the
    dog or discard included where it goes to it); ``taker_oudlers``, the oudlers it holds
    for the count (given as a hand is); ``taker_tricks``, the tricks it has won (the
    Excuse led to the last trick by a camp that has won every trick wins it).  The defence
    has the rest of the cards gone.  ``partner``: the taker's called partner at five
    players (None: he plays alone).  The tricks played are there with their winners'
    camps but no cards (``Trick.cards`` empty).  Raises :class:`RecordError` naming the
    argument at fault (:class:`CardError` for a token that is no card), TypeError for a
    value of another type.
    """
    masks = _card_sets(hands)
    variant = _table_of(masks)
    n = variant.players
    taker = seat_argument(taker, "taker", n)
    leader = seat_argument(leader, "leader", n)
    partner = _check_partner(variant, taker, partner)
    try:
        table = parse_cards(trick, name="trick")
    except TarotError as e:
        raise e.located(key="trick")
    if len(table) >= n:
        raise RecordError(f"{len(table)} cards on the table: a trick in progress holds fewer than {n}", key="trick")
    where = _places([(f"hands[{s}]", cards_of(m)) for s, m in enumerate(masks)] + [("trick", table)])
    sizes = [count(m) for m in masks]
    for i in range(len(table)):
        sizes[(leader + i) % n] += 1
    if len(set(sizes)) != 1:
        raise RecordError(f"hands of {', '.join(str(count(m)) for m in masks)} cards with {len(table)} on the table"
                          f" (led by seat {leader}): every seat holds as many, less the card it played to the trick",
                          key="hands")
    done = variant.tricks - sizes[0]
    if done < 0:
        raise RecordError(f"hands of {sizes[0]} cards: a deal at {n} players has {variant.tricks} tricks", key="hands")
    if not sizes[0]:
        raise RecordError("the hands are empty: no card is left to play", key="hands")
    gone_hp = TOTAL_HALF_POINTS - sum(HALF_POINTS[c] for c in where)
    taker_hp = integer("taker_hp", taker_hp)
    if not 0 <= taker_hp <= gone_hp:
        raise RecordError(f"taker_hp {taker_hp} is not within 0..{gone_hp}, the half-points of the cards gone",
                          key="taker_hp", token=str(taker_hp))
    held = _card_set(taker_oudlers, "taker_oudlers")
    for c in cards_of(held):
        if not is_oudler(c):
            raise RecordError(f"'{card_token(c)}' is not an oudler (T1, T21, EX)", key="taker_oudlers",
                              token=card_token(c))
        if c in where:
            raise RecordError(f"'{card_token(c)}' is still in {where[c]}", key="taker_oudlers", token=card_token(c))
    # a camp holding an oudler gone has its points: 4.5, or 4 for the Excuse kept before the last trick
    for camp_holds, camp_hp, whose in ((True, taker_hp, "the taker's camp"),
                                       (False, gone_hp - taker_hp, "the defence")):
        oudlers = [c for c in OUDLERS if c not in where and bool(held >> c & 1) == camp_holds]
        least = sum(8 if c == EXCUSE else HALF_POINTS[c] for c in oudlers)
        if camp_hp < least:
            raise RecordError(f"taker_hp {taker_hp} leaves {whose} {camp_hp} half-points, but it holds"
                              f" {' '.join(card_token(c) for c in oudlers)}, worth {least} at least",
                              key="taker_hp", token=str(taker_hp))
    taker_tricks = integer("taker_tricks", taker_tricks)
    if not 0 <= taker_tricks <= done:
        raise RecordError(f"taker_tricks {taker_tricks}: {done} tricks have been played", key="taker_tricks",
                          token=str(taker_tricks))
    camps = variant.camps(taker, partner)
    defender = camps.index(False)
    winners = [taker] * taker_tricks + [defender] * (done - taker_tricks)
    return PlayState(hands=masks, camps=camps, leader=leader, variant=variant, trick=table,
                     tricks=[Trick(s, [], s) for s in winners], taker_hp=taker_hp, defence_hp=gone_hp - taker_hp,
                     oudler_camp={c: bool(held >> c & 1) for c in OUDLERS if c not in where})
