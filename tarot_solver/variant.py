"""Game variants and contracts as data.

The number of players, hand and dog sizes, poignée sizes and the score shares are
fields of a :class:`Variant`, never constants baked into the rules or the core, so
the three- and five-player games are new instances, not a rewrite.  The
three- and four-player games are played today (:func:`variant_for`); the five-player
game's called partner, a camp hidden until his king falls, is not modelled yet.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Tuple

from .errors import RecordError


class Contract(enum.Enum):
    """A contract; ``value`` is the record/CLI name."""

    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"

    @property
    def multiplier(self) -> int:
        return _MULTIPLIER[self]

    @property
    def rank(self) -> int:
        """Bidding strength: prise 1 .. garde contre 4."""
        return _ORDER.index(self) + 1

    @property
    def taker_takes_dog(self) -> bool:
        """True where the taker takes the dog and discards (prise, garde)."""
        return self in (Contract.PRISE, Contract.GARDE)

    @property
    def dog_to_taker(self) -> bool:
        """Whether the dog (or the discard) ends with the taker's camp."""
        return self is not Contract.GARDE_CONTRE

    @classmethod
    def parse(cls, name: str) -> "Contract":
        """Parse a contract name (``garde-sans`` and spaces are accepted as ``garde_sans``)."""
        key = str(name).strip().lower().replace("-", "_").replace(" ", "_")
        key = _CONTRACT_ALIASES.get(key, key)
        for c in cls:
            if c.value == key:
                return c
        raise RecordError(
            f"unknown contract '{name}' (expected prise, garde, garde_sans or garde_contre)",
            token=str(name),
        )


_ORDER = (Contract.PRISE, Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE)
_MULTIPLIER = {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}
_CONTRACT_ALIASES = {"petite": "prise", "take": "prise", "guard": "garde"}
CONTRACTS: Tuple[Contract, ...] = _ORDER


@dataclass(frozen=True)
class Variant:
    """Table size and the numbers that depend on it."""

    players: int
    hand_size: int
    dog_size: int
    poignee_sizes: Tuple[int, int, int]
    #: target in points by number of oudlers held at the end (0..3)
    targets: Tuple[int, int, int, int] = (56, 51, 41, 36)
    #: taker's share of the unit U (4 players: 3U; 3 players: 2U)
    taker_share: int = 3

    @property
    def tricks(self) -> int:
        return self.hand_size

    def camps(self, taker: int) -> Tuple[bool, ...]:
        """Per seat: True for the taker's camp (5 players would add the called partner)."""
        return tuple(s == taker for s in range(self.players))

    def target_half_points(self, oudlers: int) -> int:
        return 2 * self.targets[oudlers]


FOUR_PLAYERS = Variant(players=4, hand_size=18, dog_size=6, poignee_sizes=(10, 13, 15))
THREE_PLAYERS = Variant(players=3, hand_size=24, dog_size=6, poignee_sizes=(13, 15, 18), taker_share=2)

VARIANTS = {v.players: v for v in (THREE_PLAYERS, FOUR_PLAYERS)}


def variant_for(players: object) -> Variant:
    """The variant of a table of ``players``; :class:`RecordError` (key ``players``) if none is played."""
    if isinstance(players, int) and not isinstance(players, bool) and players in VARIANTS:
        return VARIANTS[players]
    if players == 5:
        raise RecordError("the five-player game is not supported yet (its called partner is not modelled):"
                          " players is 3 or 4", key="players", token="5")
    raise RecordError(f"bad number of players '{players}': 3 or 4", key="players", token=str(players))
