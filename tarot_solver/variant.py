"""Game variants and contracts as data.

The number of players, hand and dog sizes, poignée sizes and the score shares are
fields of a :class:`Variant`, never constants baked into the rules or the core, so
the three- and five-player games are new instances, not a rewrite
(:func:`variant_for`).  At five players the taker's camp has two seats when his
called partner is another player.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Optional, Tuple

from .errors import RecordError, TarotError, integer, spelled


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
            f"unknown contract '{spelled(name)}' (expected prise, garde, garde_sans or garde_contre)",
            token=spelled(name),
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
    #: the called partner's score in units U (five players; 0: the game has no partner)
    partner_share: int = 0

    @property
    def tricks(self) -> int:
        return self.hand_size

    def camps(self, taker: int, partner: Optional[int] = None) -> Tuple[bool, ...]:
        """Per seat: True for the taker's camp (the taker, and his called partner at five)."""
        return tuple(s == taker or s == partner for s in range(self.players))

    def taker_units(self, partner: bool = False) -> int:
        """The taker's score in units U: each defender pays U to his camp, less his partner's share
        (3U at four players, 2U at three; at five 2U with a partner, 4U alone)."""
        defenders = self.players - 1 - (1 if partner else 0)
        return defenders - (self.partner_share if partner else 0)

    def target_half_points(self, oudlers: int) -> int:
        return 2 * self.targets[oudlers]


FOUR_PLAYERS = Variant(players=4, hand_size=18, dog_size=6, poignee_sizes=(10, 13, 15))
THREE_PLAYERS = Variant(players=3, hand_size=24, dog_size=6, poignee_sizes=(13, 15, 18))
FIVE_PLAYERS = Variant(players=5, hand_size=15, dog_size=3, poignee_sizes=(8, 10, 13), partner_share=1)

VARIANTS = {v.players: v for v in (THREE_PLAYERS, FOUR_PLAYERS, FIVE_PLAYERS)}


def variant_for(players: object) -> Variant:
    """The variant of a table of ``players``; :class:`RecordError` (key ``players``) if none is played."""
    if isinstance(players, int) and not isinstance(players, bool) and players in VARIANTS:
        return VARIANTS[players]
    shown = spelled(players, quoted=True)
    raise RecordError(f"bad number of players '{shown}': 3, 4 or 5", key="players", token=shown)


def check_seat(value: Any, key: str, players: int) -> int:
    """Return ``value`` if it is a seat (an int in 0..players-1); raise :class:`RecordError` naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        shown = spelled(value, quoted=True)
        raise RecordError(f"bad seat '{shown}': seats are integers 0..{players - 1}",
                          key=key, token=shown)
    return value


def seat_argument(value: Any, key: str, players: int) -> int:
    """A seat argument ``key`` of the Python API as an int: TypeError if not an integer
    (numpy's are), :class:`RecordError` naming it if not a seat of ``players`` (records
    check their seats as bad input instead: :func:`check_seat`)."""
    return check_seat(integer(key, value, f"a seat (an integer 0..{players - 1})"), key, players)


def contract_argument(contract: Any) -> Contract:
    """A contract argument of the Python API, given as a :class:`Contract` or its name:
    TypeError if neither, :class:`RecordError` keyed ``contract`` for an unknown name."""
    if isinstance(contract, Contract):
        return contract
    if not isinstance(contract, str):
        raise TypeError(f"contract must be a Contract or its name, not {contract!r}")
    try:
        return Contract.parse(contract)
    except TarotError as e:
        raise e.located(key="contract")
