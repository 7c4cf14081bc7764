"""An independent card-play engine and FFT scorer, a second oracle for the rules.

Written from the rules as stated (docs/rules.md), without reading ``tarot_solver.rules``,
``scoring`` or ``variant``, and importing nothing of ``tarot_solver``: an
interpretation error in either this module or the project shows up as a
disagreement in tests/test_rules_independent.py.  Readability over speed: cards
are numbers 0..77 (``TOKENS`` is the layout; the test checks it is the
project's), hands are Python sets, points are half-points (total 182).
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

SUITS = "SHDC"
RANK_NAMES = ("", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")
# (suit, rank) per card: the four suits 1..14 (14 the king), the trumps ("T") 1..21, the Excuse
CARDS: List[Tuple[str, int]] = (
    [(s, r) for s in SUITS for r in range(1, 15)] + [("T", r) for r in range(1, 22)] + [("EX", 0)]
)
TOKENS = ["EX" if s == "EX" else f"T{r}" if s == "T" else RANK_NAMES[r] + s for s, r in CARDS]
EXCUSE, PETIT, TRUMP21 = TOKENS.index("EX"), TOKENS.index("T1"), TOKENS.index("T21")
OUDLERS = {EXCUSE, PETIT, TRUMP21}
HONOUR_HALF_POINTS = {14: 9, 13: 7, 12: 5, 11: 3}  # king, queen, knight, jack


def suit(card: int) -> str:
    """'S', 'H', 'D' or 'C'; 'T' for a trump; 'EX' for the Excuse."""
    return CARDS[card][0]


def rank(card: int) -> int:
    return CARDS[card][1]


def is_trump(card: int) -> bool:
    return suit(card) == "T"


def half_points(card: int) -> int:
    """Oudler or king 9, queen 7, knight 5, jack 3, any other card 1."""
    if card in OUDLERS:
        return 9
    return HONOUR_HALF_POINTS.get(rank(card), 1) if suit(card) in SUITS else 1


def legal(hand: Set[int], trick: Sequence[int]) -> Set[int]:
    """The cards of ``hand`` that may be played to ``trick`` (its cards so far, in order)."""
    led = [c for c in trick if c != EXCUSE]
    if not led:  # leading, or after the Excuse led: the next card sets the suit
        return set(hand)
    excuse = hand & {EXCUSE}  # may always be played instead
    if not is_trump(led[0]):
        follow = {c for c in hand if suit(c) == suit(led[0])}
        if follow:
            return follow | excuse
    # trump led, or void in the suit led: a trump higher than any in the trick if able,
    # else any trump, else any card
    trumps = {c for c in hand if is_trump(c)}
    if not trumps:
        return set(hand)
    top = max((rank(c) for c in trick if is_trump(c)), default=0)
    higher = {c for c in trumps if rank(c) > top}
    return (higher or trumps) | excuse


def winning_index(cards: Sequence[int], excuse_slam_lead: bool = False) -> int:
    """Index in ``cards`` (a complete trick) of the winning card: the highest trump, else
    the highest card of the suit led; the Excuse only when led for a slam."""
    if excuse_slam_lead:
        return 0
    trumps = [i for i, c in enumerate(cards) if is_trump(c)]
    if trumps:
        return max(trumps, key=lambda i: rank(cards[i]))
    led = suit(next(c for c in cards if c != EXCUSE))
    return max((i for i, c in enumerate(cards) if suit(c) == led), key=lambda i: rank(cards[i]))


class Trick(NamedTuple):
    seats: List[int]  # who played, in order
    cards: List[int]
    winner: int  # seat
    excuse_slam_lead: bool  # the Excuse led to the last trick by a side that won all others


class Result(NamedTuple):
    taker_hp: int
    defence_hp: int
    taker_oudlers: int
    petit_au_bout: Optional[bool]  # camp (True: taker's) credited with it
    slam: Optional[bool]  # camp that won every trick


class Game:
    """One deal's card play from the first lead; ``camps[s]`` is True for the taker's camp."""

    def __init__(self, hands: Sequence[Set[int]], dog: Set[int], taker: int, contract: str,
                 leader: int, discard: Optional[Sequence[int]] = None,
                 partner: Optional[int] = None) -> None:
        self.hands = [set(h) for h in hands]
        self.camps = [s in (taker, partner) for s in range(len(hands))]
        self.aside: Dict[bool, Set[int]] = {True: set(), False: set()}  # cards credited unplayed
        if contract in ("prise", "garde"):  # the taker takes the dog and discards
            assert discard is not None and len(discard) == len(dog)
            self.hands[taker] |= dog
            self.hands[taker] -= set(discard)
            self.aside[True] = set(discard)
        else:  # garde sans: the dog counts for the taker; garde contre: for the defence
            self.aside[contract == "garde_sans"] = set(dog)
        self.total_tricks = len(hands[0])
        self.to_play = leader
        self.trick: List[Tuple[int, int]] = []  # (seat, card) of the trick in progress
        self.tricks: List[Trick] = []

    @property
    def over(self) -> bool:
        return len(self.tricks) == self.total_tricks

    def legal(self) -> Set[int]:
        return legal(self.hands[self.to_play], [c for _, c in self.trick])

    def won_all(self, camp: bool) -> bool:
        """Whether ``camp`` won every completed trick."""
        return all(self.camps[t.winner] == camp for t in self.tricks)

    def play(self, card: int) -> None:
        seat = self.to_play
        assert card in self.legal()
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.to_play = (seat + 1) % len(self.hands)
        if len(self.trick) < len(self.hands):
            return
        seats, cards = [s for s, _ in self.trick], [c for _, c in self.trick]
        slam_lead = (len(self.tricks) == self.total_tricks - 1 and cards[0] == EXCUSE
                     and self.won_all(self.camps[seats[0]]))
        winner = seats[winning_index(cards, slam_lead)]
        self.tricks.append(Trick(seats, cards, winner, slam_lead))
        self.trick = []
        self.to_play = winner

    def result(self) -> Result:
        """The count at the end of the play."""
        assert self.over
        hp = {True: 0, False: 0}
        oudlers = {True: 0, False: 0}

        def credit(camp: bool, card: int) -> None:
            hp[camp] += half_points(card)
            oudlers[camp] += card in OUDLERS

        for camp, cards in self.aside.items():
            for card in cards:
                credit(camp, card)
        for t in self.tricks:
            winners = self.camps[t.winner]
            for seat, card in zip(t.seats, t.cards):
                owners = self.camps[seat]
                if card != EXCUSE or t.excuse_slam_lead:
                    credit(winners, card)
                elif t is self.tricks[-1]:  # the Excuse to the last trick changes camp
                    credit(not owners, card)
                else:  # kept by its owners, who give the winners a half-point card
                    credit(owners, card)
                    hp[owners] -= 1
                    hp[winners] += 1
        last = self.tricks[-1]
        petit_au_bout = None
        if PETIT in last.cards:
            petit_au_bout = self.camps[last.winner]
        elif last.excuse_slam_lead and PETIT in self.tricks[-2].cards:
            petit_au_bout = self.camps[self.tricks[-2].winner]
        slam = next((camp for camp in (True, False) if self.won_all(camp)), None)
        return Result(hp[True], hp[False], oudlers[True], petit_au_bout, slam)


def callable_cards(hand: Set[int]) -> Set[int]:
    """What a five-player taker may call: the kings; the queens if he holds the four
    kings; the knights if he holds the queens too; and so on down."""
    of_rank = [{c for c, (s, r) in enumerate(CARDS) if s in SUITS and r == n} for n in range(14, 0, -1)]
    return next(cards for cards in of_rank if not cards <= hand)


MULTIPLIER = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
TARGET_POINTS = (56, 51, 41, 36)  # by the taker's oudlers
POIGNEE_BONUS = (20, 30, 40)  # simple, double, triple
SLAM_BONUS = {None: 0, "announced-made": 400, "unannounced-made": 200,
              "announced-failed": -200, "defence": -200}


def margin_hp(taker_hp: int, oudlers: int) -> int:
    """The taker's half-points minus his target."""
    return taker_hp - 2 * TARGET_POINTS[oudlers]


def slam_outcome(announced: bool, slam_camp: Optional[bool]) -> Optional[str]:
    """The key of ``SLAM_BONUS``; a defence slam is a defence slam even when announced."""
    if slam_camp is None:
        return "announced-failed" if announced else None
    if slam_camp:
        return "announced-made" if announced else "unannounced-made"
    return "defence"


class Score(NamedTuple):
    made: bool
    margin: int  # whole points, signed
    unit: int  # U, what each defender pays
    taker: int
    partner: Optional[int]  # five players with a called partner
    defender: int


def score(contract: str, taker_hp: int, oudlers: int, petit_au_bout: Optional[bool] = None,
          poignees: Sequence[int] = (), slam: Optional[str] = None, players: int = 4,
          partner: bool = False) -> Score:
    """The FFT score: U = ±(25 + |m|) × mult + petit au bout ± poignées + slam."""
    mult = MULTIPLIER[contract]
    m = margin_hp(taker_hp, oudlers)
    sign = 1 if m >= 0 else -1
    points = (abs(m) + 1) // 2  # |m| in whole points, a half point rounded up
    unit = sign * (25 + points) * mult + sign * sum(POIGNEE_BONUS[p] for p in poignees) + SLAM_BONUS[slam]
    if petit_au_bout is not None:
        unit += (10 if petit_au_bout else -10) * mult
    if players == 5 and partner:
        return Score(m >= 0, sign * points, unit, 2 * unit, unit, -unit)
    return Score(m >= 0, sign * points, unit, (players - 1) * unit, None, -unit)


def seat_scores(s: Score, players: int, taker: int, partner: Optional[int]) -> List[int]:
    """Each seat's score; they sum to zero."""
    out = [s.defender] * players
    out[taker] = s.taker
    if partner is not None:
        assert s.partner is not None
        out[partner] = s.partner
    assert sum(out) == 0
    return out
