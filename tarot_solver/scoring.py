"""FFT scoring of a finished deal.

The taker's result is turned into a per-defender unit ``U`` (from the taker's
side): each defender scores ``-U`` and the taker's camp the rest (the taker
``variant.taker_units(partner) * U``, a called partner at five ``U``), so the table
always sums to zero.  Card points come in half-points, as everywhere
in the project; the margin is rounded to whole points in favour of the camp that
wins the contract (see docs/rules.md).
"""

from __future__ import annotations

import functools
import numbers
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from .cards import EXCUSE, FULL_DECK, HALF_POINTS, NUM_CARDS, OUDLERS, TOTAL_HALF_POINTS, TRUMP_BASE, cards_of, points
from .errors import RecordError, plural
from .rules import discardable
from .variant import FOUR_PLAYERS, Contract, Variant, contract_argument

#: points every contract is worth before the margin is added
BASE_POINTS = 25
#: petit au bout, before the contract multiplier
PETIT_AU_BOUT_POINTS = 10
#: poignée bonus by level (simple, double, triple); never multiplied
POIGNEE_POINTS = (20, 30, 40)
#: the poignées by level (0, 1, 2), as the command line names them
POIGNEE_NAMES = ("simple", "double", "triple")
#: what a poignée may show: the 21 trumps and the Excuse
TRUMPS_AND_EXCUSE = NUM_CARDS - TRUMP_BASE

SLAM_OUTCOMES = ("announced-made", "unannounced-made", "announced-failed", "defence")
#: slam bonus to U (taker's side view) for each outcome
SLAM_POINTS = dict(zip(SLAM_OUTCOMES, (400, 200, -200, -200)))


@dataclass(frozen=True)
class ScoreResult:
    """The score of one deal; ``taker`` and ``defender`` are per-player scores.

    ``margin`` is in whole points, rounded as the FFT scale rounds it (-0.5 counts as -1,
    +0.5 as +1); a solver's :attr:`SolveResult.margin` is the unrounded value."""

    made: bool
    margin: int  # signed whole points after the FFT rounding (>= 0 means made)
    unit: int  # U, per-defender unit from the taker's side
    taker: int  # variant.taker_units(partner) * U
    defender: int  # -U
    partner: Optional[int] = None  # the called partner's score (five players), U; None: no partner
    players: int = 4  # the table the deal was scored for (the variant's)

    def scores(self, taker: int, players: Optional[int] = None, partner: Optional[int] = None) -> List[int]:
        """Scores by seat for a table of ``players`` (by default :attr:`players`, the table the
        deal was scored for) with the taker at seat ``taker`` (and his called partner at
        ``partner``, five players)."""
        if players is None:
            players = self.players
        taker = _check_int(taker, "taker seat", 0, players - 1, key="taker")
        if partner is not None:  # (-1 was the last seat's)
            partner = _check_int(partner, "partner seat", 0, players - 1, key="partner")
        if (partner is None) != (self.partner is None) or partner == taker:
            raise RecordError("the partner's seat and the score's partner share do not agree", token=str(partner))
        out = [self.defender] * players
        out[taker] = self.taker
        if partner is not None and self.partner is not None:
            out[partner] = self.partner
        if sum(out) != 0:
            raise RecordError(
                f"a taker share of {self.taker} and defender scores of {self.defender} do not"
                f" balance at {players} players"
            )
        return out


def _check_int(value: object, name: str, low: int, high: int, key: Optional[str] = None) -> int:
    """``value`` as an int (numpy's integers too); a :class:`RecordError` naming it (keyed
    ``key``, the argument) unless it is an integer in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
        raise RecordError(f"{name} '{value}' is not an integer in {low}..{high}", key=key, token=str(value))
    return int(value)


def margin_points(taker_half_points: int, oudlers: int, variant: Variant = FOUR_PLAYERS) -> int:
    """The taker's signed margin in whole points, rounded FFT-style.

    The half-point margin against the target for ``oudlers`` has its size rounded
    up (the half point goes to the camp that wins the contract): 40.5 points with
    two oudlers fails by 1, 41.5 makes by 1, exactly 41 makes by 0.
    """
    return _rounded_margin(*_checked_points(taker_half_points, oudlers), variant)


def _checked_points(taker_half_points: int, oudlers: int) -> Tuple[int, int]:
    """The taker's half-points and oudlers as ints, each a :class:`RecordError` keyed by
    its argument unless an integer in its range."""
    return (_check_int(taker_half_points, "taker half-points", 0, TOTAL_HALF_POINTS, key="taker_half_points"),
            _check_int(oudlers, "oudlers", 0, len(OUDLERS), key="oudlers"))


def _rounded_margin(taker_half_points: int, oudlers: int, variant: Variant) -> int:
    """:func:`margin_points` of arguments already checked."""
    m = taker_half_points - variant.target_half_points(oudlers)
    whole = (abs(m) + 1) // 2
    return whole if m >= 0 else -whole


def slam_outcome(announced: bool, slam_camp: Optional[bool]) -> Optional[str]:
    """The slam outcome for :func:`score`.

    ``announced`` is the record's ``slam`` flag, ``slam_camp`` is
    ``PlayState.slam()`` (True: the taker's camp took every trick, False: the
    defence did, None: nobody).  A defence slam after the taker announced one
    scores as a defence slam (the same -200 as a failed announcement, not both).
    """
    if slam_camp is True:
        return "announced-made" if announced else "unannounced-made"
    if slam_camp is False:
        return "defence"
    return "announced-failed" if announced else None


def score(
    contract: Union[Contract, str],
    taker_half_points: int,
    oudlers: int,
    *,
    petit_au_bout: Optional[bool] = None,
    poignees: Sequence[int] = (),
    slam: Optional[str] = None,
    variant: Variant = FOUR_PLAYERS,
    partner: bool = False,
) -> ScoreResult:
    """Score a deal from the taker's card half-points and oudlers at the end.

    ``petit_au_bout``: True if the taker's camp won it, False the defence, None
    nobody.  ``poignees``: one level (0 simple, 1 double, 2 triple) per poignée
    declared, by anyone; each is paid to the camp that wins the contract.
    ``slam``: one of :data:`SLAM_OUTCOMES` or None.  ``partner``: the taker has a
    called partner (five players; else he plays alone).  A contract name is parsed.
    Raises :class:`RecordError` naming the bad value, or what no deal ends in
    (:func:`check_possible`).
    """
    if not isinstance(variant, Variant):
        raise TypeError(f"variant must be a Variant (variant_for(players)), not {type(variant).__name__}")
    if partner and not variant.partner_share:
        raise RecordError(f"no called partner at {variant.players} players", key="partner")
    if isinstance(contract, (str, Contract)):
        contract = contract_argument(contract)
    else:
        raise RecordError(f"unknown contract '{contract}'", key="contract", token=str(contract))
    if petit_au_bout is not None and not isinstance(petit_au_bout, bool):
        raise RecordError(f"petit au bout '{petit_au_bout}' must be True, False or None",
                          key="petit_au_bout", token=str(petit_au_bout))
    if isinstance(poignees, str) or not isinstance(poignees, Sequence):
        raise RecordError(f"poignées '{poignees}' must be a list of levels (0 simple, 1 double, 2 triple)",
                          key="poignees", token=str(poignees))
    poignees = [_check_int(level, "poignée level", 0, len(POIGNEE_POINTS) - 1, key="poignees") for level in poignees]
    if slam is not None and slam not in SLAM_OUTCOMES:
        raise RecordError(f"unknown slam outcome '{slam}' (expected {', '.join(SLAM_OUTCOMES)})",
                          key="slam", token=str(slam))
    taker_half_points, oudlers = _checked_points(taker_half_points, oudlers)
    margin = _rounded_margin(taker_half_points, oudlers, variant)
    check_possible(contract, taker_half_points, oudlers, petit_au_bout=petit_au_bout, poignees=poignees,
                   slam=slam, variant=variant, partner=partner)
    return score_margin(contract, margin, petit_au_bout=petit_au_bout, poignees=poignees, slam=slam,
                        variant=variant, partner=partner)


def score_margin(contract: Contract, margin: int, *, petit_au_bout: Optional[bool] = None,
                 poignees: Sequence[int] = (), slam: Optional[str] = None, variant: Variant = FOUR_PLAYERS,
                 partner: bool = False) -> ScoreResult:
    """:func:`score`'s arithmetic from a margin in whole points (:func:`margin_points`),
    with arguments already checked, and no check that a deal ends so: for a margin known
    only as a bound (the advice's), which need not be one a deal ends with."""
    made = margin >= 0
    sign = 1 if made else -1
    mult = contract.multiplier
    unit = sign * (BASE_POINTS + abs(margin)) * mult
    if petit_au_bout is not None:
        unit += (1 if petit_au_bout else -1) * PETIT_AU_BOUT_POINTS * mult
    unit += sign * sum(POIGNEE_POINTS[level] for level in poignees)
    if slam is not None:
        unit += SLAM_POINTS[slam]
    return ScoreResult(made=made, margin=margin, unit=unit, taker=variant.taker_units(partner) * unit,
                       defender=-unit, partner=variant.partner_share * unit if partner else None,
                       players=variant.players)


def check_possible(contract: Contract, taker_half_points: int, oudlers: int, *,
                   petit_au_bout: Optional[bool] = None, poignees: Sequence[int] = (), slam: Optional[str] = None,
                   variant: Variant = FOUR_PLAYERS, partner: Optional[bool] = None) -> None:
    """Refuse what no deal ends in (:class:`RecordError`, keyed by the argument): points
    that cannot hold the oudlers, a slam the points deny, a Petit au bout won by a camp
    that has not got the Petit or won no trick, poignées showing more trumps than there
    are.  ``partner``: at five players, whether the taker had a called partner (False:
    he played alone; None: either).  (The arguments' types are :func:`score`'s to check.)"""
    # an oudler is 4.5 points to its camp; the Excuse, kept, 4 (a half-point card
    # goes in exchange)
    half = taker_half_points
    low = max(0, 9 * oudlers - 1)
    high = TOTAL_HALF_POINTS - max(0, 9 * (len(OUDLERS) - oudlers) - 1)
    if not low <= half <= high:
        raise RecordError(f"{plural(points(half), 'point')} with {plural(oudlers, 'oudler')}: only {points(low)} to"
                          f" {points(high)} are possible", key="taker_half_points", token=f"{points(half)}")
    taker_slam = slam in ("announced-made", "unannounced-made")
    # what was put aside, half a point a card at least, and a trick of each camp that won
    # one (its cards but an Excuse, which may change camp in the last trick)
    garde_contre = contract is Contract.GARDE_CONTRE
    trick = variant.players - 1
    least = variant.dog_size * (not garde_contre) + trick * (slam != "defence")
    most = TOTAL_HALF_POINTS - variant.dog_size * garde_contre - trick * (not taker_slam)
    if not least <= half <= most:
        raise RecordError(f"{plural(points(half), 'point')}: the taker of a {contract.value} has {points(least)} to"
                          f" {points(most)} at {variant.players} players (half a point a card put aside,"
                          f" a trick won by each camp without a slam)", key="taker_half_points",
                          token=f"{points(half)}")
    two_players = bool(variant.partner_share) and partner is not False  # (the taker's camp)
    least, most = _slam_points(contract, variant, two_players) if slam is not None else (0, TOTAL_HALF_POINTS)
    if taker_slam and half < least:
        raise RecordError(f"a slam made by the taker leaves him {plural(points(least), 'point')} at least in a"
                          f" {contract.value}, not {points(half)}", key="slam", token=slam)
    if slam == "defence" and half > most:
        raise RecordError(f"after a defence slam the taker has {plural(points(most), 'point')} at most in a"
                          f" {contract.value}, not {points(half)}", key="slam", token=slam)
    # the camp of a Petit au bout won the trick holding the Petit: it has the Petit,
    # and a trick
    camp = None if petit_au_bout is None else "attack" if petit_au_bout else "defence"
    if petit_au_bout is True and (oudlers == 0 or slam == "defence"):
        why = "a defence slam leaves the taker no trick" if slam == "defence" else "the taker has no oudler"
        raise RecordError(f"a Petit au bout for the attack, but {why}", key="petit_au_bout", token=camp)
    if petit_au_bout is False and (oudlers == len(OUDLERS) or taker_slam):
        why = "the taker's slam leaves the defence no trick" if oudlers < len(OUDLERS) else \
            "the taker has all three oudlers"
        raise RecordError(f"a Petit au bout for the defence, but {why}", key="petit_au_bout", token=camp)
    shown = sum(variant.poignee_sizes[level] for level in poignees)
    if shown > TRUMPS_AND_EXCUSE:
        raise RecordError(f"poignées of {shown} trumps in all, but the game has {TRUMPS_AND_EXCUSE}"
                          " (21 trumps and the Excuse)", key="poignees",
                          token=" ".join(POIGNEE_NAMES[level] for level in poignees))


@functools.lru_cache(maxsize=None)  # (a dozen pairs; score() runs once a game of a history)
def _slam_points(contract: Contract, variant: Variant, two_players: bool) -> Tuple[int, int]:
    """The least a taker's slam leaves him and the most a defence slam leaves him, in
    half-points.  The cards put aside make most of the difference: the dog of a garde
    contre counts for the defence, the discard of a prise or garde (no king, no oudler)
    and the dog of a garde sans for the taker.  Then the Excuse: the camp that does not
    win a trick keeps 4 points of it if it is played before the last trick (a half-point
    card goes in exchange), and gets all 4.5 if the other camp plays it to the last trick
    (it changes camp, whoever wins that trick): a defender can play it there to another
    defender's trick, and at five players the taker or his partner to the other's
    (``two_players``: the taker's camp has two seats)."""
    whole = HALF_POINTS[EXCUSE]
    kept = whole - 1
    to_defence = whole if two_players else kept  # the Excuse a taker's slam leaves the defence
    to_taker = whole  # the Excuse a defence slam leaves the taker

    def most(cards: Iterable[int], excuse: int) -> int:
        """The most the dog's or discard's worth of these cards is worth, with ``excuse`` beside."""
        return sum(sorted((HALF_POINTS[c] for c in cards), reverse=True)[:variant.dog_size]) + excuse

    def dog(excuse: int) -> int:
        """The most a dog is worth, with the Excuse in it or ``excuse`` beside."""
        return max(most(range(NUM_CARDS), 0), most((c for c in range(NUM_CARDS) if c != EXCUSE), excuse))

    if contract is Contract.GARDE_CONTRE:
        return TOTAL_HALF_POINTS - dog(to_defence), to_taker
    if contract is Contract.GARDE_SANS:
        return TOTAL_HALF_POINTS - to_defence, dog(to_taker)
    return TOTAL_HALF_POINTS - to_defence, most(cards_of(discardable(FULL_DECK)), to_taker)
