"""FFT scoring of a finished deal.

The taker's result is turned into a per-defender unit ``U`` (from the taker's
side): each defender scores ``-U`` and the taker's camp the rest (the taker
``variant.taker_units(partner) * U``, a called partner at five ``U``), so the table
always sums to zero.  Card points come in half-points, as everywhere
in the project; the margin is rounded to whole points in favour of the camp that
wins the contract (see docs/rules.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Union

from .cards import OUDLERS, TOTAL_HALF_POINTS
from .errors import RecordError
from .variant import FOUR_PLAYERS, Contract, Variant

#: points every contract is worth before the margin is added
BASE_POINTS = 25
#: petit au bout, before the contract multiplier
PETIT_AU_BOUT_POINTS = 10
#: poignée bonus by level (simple, double, triple); never multiplied
POIGNEE_POINTS = (20, 30, 40)

SLAM_OUTCOMES = ("announced-made", "unannounced-made", "announced-failed", "defence")
#: slam bonus to U (taker's side view) for each outcome
SLAM_POINTS = dict(zip(SLAM_OUTCOMES, (400, 200, -200, -200)))


@dataclass(frozen=True)
class ScoreResult:
    """The score of one deal; ``taker`` and ``defender`` are per-player scores."""

    made: bool
    margin: int  # signed whole points after the FFT rounding (>= 0 means made)
    unit: int  # U, per-defender unit from the taker's side
    taker: int  # variant.taker_units(partner) * U
    defender: int  # -U
    partner: Optional[int] = None  # the called partner's score (five players), U; None: no partner

    def scores(self, taker: int, players: int = 4, partner: Optional[int] = None) -> List[int]:
        """Scores by seat for a table of ``players`` with the taker at seat ``taker`` (and his
        called partner at ``partner``, five players)."""
        if isinstance(taker, bool) or not isinstance(taker, int) or not 0 <= taker < players:
            raise RecordError(f"taker seat '{taker}' is not in 0..{players - 1}", token=str(taker))
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


def _check_int(value: object, name: str, low: int, high: int) -> None:
    """Raise a :class:`RecordError` naming ``value`` unless it is an int in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RecordError(f"{name} '{value}' is not an integer in {low}..{high}", token=str(value))


def margin_points(taker_half_points: int, oudlers: int, variant: Variant = FOUR_PLAYERS) -> int:
    """The taker's signed margin in whole points, rounded FFT-style.

    The half-point margin against the target for ``oudlers`` has its size rounded
    up (the half point goes to the camp that wins the contract): 40.5 points with
    two oudlers fails by 1, 41.5 makes by 1, exactly 41 makes by 0.
    """
    _check_int(taker_half_points, "taker half-points", 0, TOTAL_HALF_POINTS)
    _check_int(oudlers, "oudlers", 0, len(OUDLERS))
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
    Raises :class:`RecordError` naming the bad value.
    """
    if partner and not variant.partner_share:
        raise RecordError(f"no called partner at {variant.players} players", key="partner")
    if isinstance(contract, str):
        contract = Contract.parse(contract)
    elif not isinstance(contract, Contract):
        raise RecordError(f"unknown contract '{contract}'", token=str(contract))
    if petit_au_bout is not None and not isinstance(petit_au_bout, bool):
        raise RecordError(f"petit au bout '{petit_au_bout}' must be True, False or None",
                          token=str(petit_au_bout))
    if isinstance(poignees, str) or not isinstance(poignees, Sequence):
        raise RecordError(f"poignées '{poignees}' must be a list of levels (0 simple, 1 double, 2 triple)",
                          token=str(poignees))
    for level in poignees:
        _check_int(level, "poignée level", 0, len(POIGNEE_POINTS) - 1)
    if slam is not None and slam not in SLAM_OUTCOMES:
        raise RecordError(f"unknown slam outcome '{slam}' (expected {', '.join(SLAM_OUTCOMES)})",
                          token=str(slam))

    margin = margin_points(taker_half_points, oudlers, variant)
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
                       defender=-unit, partner=variant.partner_share * unit if partner else None)
