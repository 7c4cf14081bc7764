"""Deal records: the JSON form of a deal, fully validated, and the record-file readers.

A :class:`DealRecord` holds a deal as dealt (hands by seat, the dog) and whatever
is known of its play: bids, taker, contract, discard, poignées, the cards played.
Constructing one validates all of it against the rules (:mod:`tarot_solver.rules`),
so a record that exists is a legal deal; every problem is a
:class:`~tarot_solver.errors.TarotError` naming the key and the offending token.

Files hold one JSON object (possibly spread over many lines) or JSON Lines (one
object per line, blank lines skipped).  :func:`read_records` stops at the first bad
record; :func:`iter_records` reports each bad record and goes on, for batch work.
The key-by-key contract is in ``docs/formats.md``.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import copy
import io
import itertools
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import rules
from .cards import NUM_CARDS, card_token, mask_of, parse_cards, split_tokens, tokens
from .errors import RecordError, TarotError, spelled
from .scoring import ScoreResult, score, slam_outcome
from .variant import FOUR_PLAYERS, VARIANTS, Contract, Variant, check_seat, variant_for

#: the game a record without a ``players`` key is
VARIANT = FOUR_PLAYERS
#: the record keys, in the order :meth:`DealRecord.to_json` writes them
KEYS = ("id", "players", "dealer", "hands", "dog", "bids", "taker", "contract", "called", "discard", "slam",
        "poignees", "leader", "played")
PASS = "pass"

Poignee = Tuple[int, List[int]]
PathLike = Union[str, "os.PathLike[str]"]


def _card_list(value: Any, key: str, allow_duplicates: bool = False) -> List[int]:
    """Cards of one key (a list of tokens, or one string of tokens), sorted; a card given
    twice is an error unless ``allow_duplicates`` (the deal's keys: the deck check names
    it with the cards missing)."""
    if not isinstance(value, (list, tuple, str)):
        raise wrong_type("a list of card tokens", value, key)
    try:
        return sorted(parse_cards(value, allow_duplicates=allow_duplicates))
    except TarotError as e:
        raise e.located(key=key)


def card_sequence(value: Any, key: str) -> List[int]:
    """The cards of a key whose order counts (a list of tokens or card numbers, or one
    string of tokens), in that order; an unknown token is named by its place,
    ``key[i]``.  Duplicates are left to the caller, which knows what they break."""
    if not isinstance(value, (list, tuple, str)):
        raise wrong_type("a list of card tokens", value, key)
    cards = []
    for i, tok in enumerate(split_tokens(value) if isinstance(value, str) else value):
        try:
            cards.append(parse_cards([tok])[0])
        except TarotError as e:
            raise e.located(key=f"{key}[{i}]")
    return cards


def one_card(value: Any, key: str) -> int:
    """The one card of a key (a token, or an int); raise :class:`RecordError` naming the key otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise wrong_type("a card token", value, key)
    cards = _card_list([value] if isinstance(value, int) else value, key)
    if len(cards) != 1:
        raise RecordError(f"expected one card, got {len(cards)}", key=key, token=spelled(value))
    return cards[0]


def json_type(value: Any) -> str:
    """What a JSON value is, for a message: null, a boolean, a number, a string, a list, an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def wrong_type(expected: str, value: Any, key: Optional[str] = None) -> RecordError:
    """The error for a value of the wrong JSON type at ``key``: what was ``expected``,
    what it is, and the value itself as the token (cut short if long)."""
    return RecordError(f"expected {expected}, got {json_type(value)}", key=key, token=spelled(value))


def play_setup(taker: Optional[int], contract: Optional[Contract],
               leader: Optional[int], leader_key: str = "leader",
               key: Optional[str] = None) -> Tuple[int, Contract, int]:
    """(taker, contract, first leader) when all are known; raises :class:`RecordError` naming those
    missing, keyed as ``key`` or else by the first of them (the first leader's as ``leader_key``)."""
    if taker is None or contract is None or leader is None:
        missing = [(name, k) for name, k, value in (("taker", "taker", taker), ("contract", "contract", contract),
                                                    ("leader or dealer", leader_key, leader)) if value is None]
        raise RecordError(f"the deal cannot be played without {' and '.join(name for name, _ in missing)}",
                          key=key or missing[0][1])
    return taker, contract, leader


@dataclass
class DealRecord:
    """One deal, as dealt and as far as it was played; validated on construction.

    Cards are ints (see :mod:`tarot_solver.cards`); the card lists ``hands``, ``dog``,
    ``discard`` and the trumps of each poignée are kept sorted, ``played`` in playing
    order.  Tokens are accepted wherever cards are.  ``None`` means the key is absent.
    ``extra`` keeps the keys this version does not know, so they survive a round trip.
    """

    hands: List[List[int]]
    dog: List[int]
    taker: Optional[int] = None
    contract: Optional[Contract] = None
    discard: Optional[List[int]] = None
    dealer: Optional[int] = None
    leader: Optional[int] = None
    played: Optional[List[int]] = None
    slam: Optional[bool] = None
    poignees: Optional[List[Poignee]] = None
    bids: Optional[List[str]] = None
    id: Optional[str] = None
    #: table size: 3, 4 or 5; ``None`` (the key absent) is the four-player game
    players: Optional[int] = None
    #: the card the taker called (five players): its holder is his partner
    called: Optional[int] = None
    extra: Dict[str, Any] = field(default_factory=dict)
    #: (file, record label) the record was read from, for later error messages
    origin: Tuple[Optional[str], Optional[str]] = field(default=(None, None), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.players is not None:
            variant_for(self.players)
        n = self.variant.players
        if not isinstance(self.hands, (list, tuple)) or len(self.hands) != n:
            got = len(self.hands) if isinstance(self.hands, (list, tuple)) else json_type(self.hands)
            hint = f' (a deal of {got} hands says "players": {got})' if self.players is None and got in VARIANTS else ""
            raise RecordError(f"expected {n} hands, got {got}{hint}", key="hands")
        self.hands = [_card_list(h, f"hands[{s}]", allow_duplicates=True) for s, h in enumerate(self.hands)]
        self.dog = _card_list(self.dog, "dog", allow_duplicates=True)
        self._check_deck()
        for s, hand in enumerate(self.hands):
            if rules.is_petit_sec(mask_of(hand)):
                raise RecordError(f"seat {s} holds the Petit sec (its only trump, and no Excuse):"
                                  " the deal is void", key=f"hands[{s}]", token="T1")
        for key in ("dealer", "taker", "leader"):
            if getattr(self, key) is not None:
                check_seat(getattr(self, key), key, n)
        if self.contract is not None and not isinstance(self.contract, Contract):
            try:
                self.contract = Contract.parse(self.contract)
            except TarotError as e:
                raise e.located(key="contract")
        if self.slam is not None and not isinstance(self.slam, bool):
            raise wrong_type("true or false", self.slam, "slam")
        if self.slam and self.taker is None:
            raise RecordError("a slam is announced but the record names no taker", key="slam")
        self._check_leader()
        if self.id is not None:
            if isinstance(self.id, bool) or not isinstance(self.id, (str, int)):
                raise wrong_type("a string", self.id, "id")
            self.id = str(self.id)
        clash = [k for k in self.extra if k in KEYS]
        if clash:
            raise RecordError(f"'{clash[0]}' is a record key, not an extra one", key=clash[0])
        self._check_call()
        self._check_discard()
        self._check_bids()
        self._check_poignees()
        self._check_played()

    @property
    def variant(self) -> Variant:
        """The game played: the ``players`` key's, four players by default."""
        return VARIANT if self.players is None else variant_for(self.players)

    # Validation ------------------------------------------------------------------

    def _check_deck(self) -> None:
        """78 distinct cards: the hands and the dog of the variant (4 of 18 and 6; 3 of 24 and 6; 5 of 15 and 3)."""
        named = [(f"hands[{s}]", h, self.variant.hand_size) for s, h in enumerate(self.hands)]
        named.append(("dog", self.dog, self.variant.dog_size))
        wrong = [(key, f"{key} has {len(cards)} cards, expected {size}")
                 for key, cards, size in named if len(cards) != size]
        where: Dict[int, str] = {}
        duplicate: Optional[Tuple[int, str, str]] = None
        for key, cards, _ in named:
            for c in cards:
                if c in where and duplicate is None:
                    duplicate = (c, where[c], key)
                where.setdefault(c, key)
        missing = [card_token(c) for c in range(NUM_CARDS) if c not in where]
        notes = [text for _, text in wrong]
        if duplicate:
            card, first, second = card_token(duplicate[0]), duplicate[1], duplicate[2]
            notes.append(f"'{card}' is twice in {first}" if first == second else
                         f"'{card}' is in both {first} and {second}")
        if missing:
            notes.append("missing " + ", ".join(f"'{t}'" for t in missing[:6])
                         + (f" and {len(missing) - 6} more" if len(missing) > 6 else ""))
        if not notes:
            return
        token = card_token(duplicate[0]) if duplicate else (missing[0] if missing else None)
        bad_key = wrong[0][0] if wrong else (duplicate[2] if duplicate else None)
        total = sum(len(cards) for _, cards, _ in named)
        prefix = f"the deal holds {total} cards, not {NUM_CARDS}: " if total != NUM_CARDS else ""
        raise RecordError(prefix + "; ".join(notes), key=bad_key, token=token)

    def _check_call(self) -> None:
        if self.called is None:
            return
        rules.check_calls_here(self.variant)
        if self.taker is None:
            raise RecordError("a called card needs a taker", key="called")
        self.called = one_card(self.called, "called")
        try:
            rules.check_call(mask_of(self.hands[self.taker]), self.called)
        except TarotError as e:
            raise e.located(key="called")

    @property
    def partner(self) -> Optional[int]:
        """The taker's called partner (five players): the seat dealt the called card; None
        when he plays alone (he holds it, or it is in the dog) or nothing is called."""
        if self.taker is None:
            return None
        return rules.partner_of([mask_of(h) for h in self.hands], self.taker, self.called)

    def _check_discard(self) -> None:
        if self.discard is None:
            return
        if self.taker is None or self.contract is None:  # (the key named is the one to add)
            key = "taker" if self.taker is None else "contract"
            raise RecordError(f"a record with a discard names its {key}: it has none", key=key)
        if not self.contract.taker_takes_dog:
            raise RecordError(f"no discard in a {self.contract.value}: the taker does not take the dog",
                              key="discard")
        self.discard = _card_list(self.discard, "discard")
        try:
            rules.check_discard(mask_of(self.hands[self.taker]) | mask_of(self.dog), self.discard, self.variant)
        except TarotError as e:
            raise e.located(key="discard")

    def _check_bids(self) -> None:
        """Bids in order from the dealer's right; they must agree with taker and contract."""
        if self.bids is None:
            return
        if not isinstance(self.bids, (list, tuple)):
            raise wrong_type("a list of bids", self.bids, "bids")
        names = []
        for i, bid in enumerate(self.bids):
            try:
                if isinstance(bid, Contract):
                    names.append(bid.value)
                elif str(bid).strip().lower() == PASS:
                    names.append(PASS)
                else:
                    names.append(Contract.parse(bid).value)
            except TarotError as e:
                raise e.located(key=f"bids[{i}]")
        self.bids = names
        try:
            result = rules.bidding_result(names, self.variant.players)
        except TarotError as e:
            raise e.located(key="bids")
        if result is None:
            if self.taker is not None or self.contract is not None:
                raise RecordError("every player passed, yet the record names a taker or a contract",
                                  key="bids", token=PASS)
            return
        pos, contract = result
        if self.contract is not None and contract is not self.contract:
            raise RecordError(f"the bidding was won with '{names[pos]}' but the contract is"
                              f" '{self.contract.value}'", key="bids", token=names[pos])
        if self.taker is not None and self.dealer is not None:
            seat = (self.dealer + 1 + pos) % self.variant.players
            if seat != self.taker:
                raise RecordError(
                    f"the winning bid '{names[pos]}' (bids[{pos}]) is seat {seat}'s, bidding"
                    f" from seat {(self.dealer + 1) % self.variant.players} (the dealer's right),"
                    f" but the taker is seat {self.taker}", key="bids", token=names[pos])

    def playing_hand(self, seat: int) -> int:
        """The card set ``seat`` plays with: the taker's includes the dog minus the discard."""
        hand = mask_of(self.hands[seat])
        if seat == self.taker and self.contract is not None and self.contract.taker_takes_dog:
            if self.discard is None:
                raise RecordError("the taker's hand is not known without the discard")
            hand = (hand | mask_of(self.dog)) & ~mask_of(self.discard)
        return hand

    def _check_poignees(self) -> None:
        if self.poignees is None:
            return
        if not isinstance(self.poignees, (list, tuple)):
            raise wrong_type("a list of poignées", self.poignees, "poignees")
        checked: List[Poignee] = []
        for i, item in enumerate(self.poignees):
            key = f"poignees[{i}]"
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise RecordError("expected a seat and the trumps shown", key=key)
            seat = check_seat(item[0], f"{key}.seat", self.variant.players)
            if any(seat == s for s, _ in checked):
                raise RecordError(f"seat {seat} shows a second poignée", key=f"{key}.seat", token=str(seat))
            shown = _card_list(item[1], f"{key}.trumps")
            try:
                rules.poignee_level(self.playing_hand(seat), shown, self.variant)
            except TarotError as e:
                raise e.located(key=f"{key}.trumps")
            checked.append((seat, shown))
        self.poignees = checked

    def _check_played(self) -> None:
        """Replay ``played`` card by card: an unheld or illegal card is named with its index."""
        if self.played is None:
            return
        cards = self.played = card_sequence(self.played, "played")
        if not cards:
            return
        try:
            play_setup(self.taker, self.contract, self.first_leader, key="played")
            state = self.opening_state()
        except TarotError as e:
            raise e.located(key="played")
        for i, c in enumerate(cards):
            try:
                state.play(c)
            except TarotError as e:
                raise e.located(key=f"played[{i}]")

    def _check_leader(self) -> None:
        """A ``leader`` given must be who the rules say leads: the taker after an
        announced slam, else the dealer's right (when the dealer is known)."""
        if self.leader is None:
            return
        if self.slam:
            if self.leader != self.taker:
                raise RecordError(f"seat {self.leader} leads, but the taker (seat {self.taker}) leads the"
                                  " first trick after announcing a slam", key="leader", token=str(self.leader))
        elif self.dealer is not None and self.leader != (self.dealer + 1) % self.variant.players:
            right = (self.dealer + 1) % self.variant.players
            raise RecordError(f"seat {self.leader} leads, but the dealer's right (seat {right}) leads the"
                              f" first trick when no slam is announced", key="leader", token=str(self.leader))

    # Play ------------------------------------------------------------------------

    def _located(self, error: TarotError) -> TarotError:
        return error.located(file=self.origin[0], record=self.origin[1])

    @property
    def first_leader(self) -> Optional[int]:
        """Seat leading the first trick: ``leader``, else the taker after an announced
        slam, else the dealer's right; None when none of these is known."""
        if self.leader is not None:
            return self.leader
        if self.slam and self.taker is not None:
            return self.taker
        if self.dealer is not None:
            return (self.dealer + 1) % self.variant.players
        return None

    @property
    def is_complete(self) -> bool:
        """All the cards have been played: the record is a hand history."""
        return len(self.played or ()) == self.variant.players * self.variant.hand_size

    def play_setup(self) -> Tuple[int, Contract, int]:
        """(taker, contract, first leader): what playing the deal needs; raises if one is missing."""
        try:
            return play_setup(self.taker, self.contract, self.first_leader, "dealer")
        except RecordError as e:
            raise self._located(e)

    def opening_state(self) -> rules.PlayState:
        """The position before the first lead (dog or discard already credited)."""
        taker, contract, leader = self.play_setup()
        if self.variant.partner_share and self.called is None:
            raise self._located(RecordError("the five-player deal cannot be played without the called card",
                                            key="called"))
        try:
            return rules.opening_state([mask_of(h) for h in self.hands], mask_of(self.dog), taker,
                                       contract, leader, self.discard, self.variant, self.partner)
        except TarotError as e:
            raise self._located(e)

    def state(self) -> rules.PlayState:
        """The position after the cards of ``played``."""
        state = self.opening_state()
        for c in self.played or ():
            state.play(c)
        return state

    def position(self) -> rules.PlayState:
        """The position after ``played``, a card still to play; raises :class:`RecordError` if the game is over."""
        state = self.state()
        if state.over:
            raise self._located(RecordError("the game is over: no card is left to play", key="played"))
        return state

    def final_state(self) -> rules.PlayState:
        """The position at the end of a complete game; raises :class:`RecordError` otherwise."""
        if not self.is_complete:
            total = self.variant.players * self.variant.hand_size
            raise self._located(RecordError(
                f"the game is not complete: {len(self.played or ())} of {total} cards played", key="played"))
        return self.state()

    def poignee_levels(self) -> List[int]:
        """Level (0 simple, 1 double, 2 triple) of each poignée shown."""
        return [rules.poignee_level(self.playing_hand(s), shown, self.variant) for s, shown in self.poignees or ()]

    def score(self, state: Optional[rules.PlayState] = None) -> ScoreResult:
        """FFT score of a complete game (``state``: its :meth:`final_state`, if already at hand)."""
        if state is None:
            state = self.final_state()
        return score(self.play_setup()[1], state.taker_hp, state.taker_oudlers(),
                     petit_au_bout=state.petit_au_bout(), poignees=self.poignee_levels(),
                     slam=slam_outcome(bool(self.slam), state.slam()), variant=self.variant,
                     partner=self.partner is not None)

    # JSON ------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any, *, file: Optional[str] = None, record: Optional[str] = None) -> "DealRecord":
        """Build and validate a record from a parsed JSON object.

        ``file`` and ``record`` (e.g. ``"line 3"``) locate errors; the record's ``id``
        is added to the label.  A key whose value is ``null`` counts as absent.
        """
        ident = obj.get("id") if isinstance(obj, dict) else None
        label = record
        if isinstance(ident, (str, int)) and not isinstance(ident, bool):
            label = f"{record} (id '{spelled(ident)}')" if record else f"id '{spelled(ident)}'"
        try:
            if not isinstance(obj, dict):
                raise wrong_type("a JSON object", obj)
            for key in ("hands", "dog"):
                if obj.get(key) is None:
                    hint = ""
                    if isinstance(obj.get("deal_info"), dict):  # (the object of a TarotClub log: tarotclub.rebuild)
                        hint = " (a TarotClub log: 'tarot-solve convert' makes deal records of such logs)"
                    raise RecordError(f"missing required key '{key}'{hint}", key=key)
            known = {k: obj[k] for k in KEYS if obj.get(k) is not None}
            if "poignees" in known:
                known["poignees"] = _poignees_from_json(known["poignees"])
            extra = copy.deepcopy({k: v for k, v in obj.items() if k not in KEYS})  # (JSON: cheap; not shared)
            rec = cls(**known, extra=extra, origin=(file, label))
        except TarotError as e:
            raise e.located(file=file, record=label)
        return rec

    def to_json(self) -> Dict[str, Any]:
        """The canonical JSON object: canonical tokens, the keys present, in :data:`KEYS` order."""
        values: Dict[str, Any] = {
            "id": self.id,
            "players": self.players,
            "dealer": self.dealer,
            "hands": [tokens(h) for h in self.hands],
            "dog": tokens(self.dog),
            "bids": list(self.bids) if self.bids is not None else None,
            "taker": self.taker,
            "contract": self.contract.value if self.contract is not None else None,
            "called": card_token(self.called) if self.called is not None else None,
            "discard": tokens(self.discard) if self.discard is not None else None,
            "slam": self.slam,
            "poignees": None if self.poignees is None else
            [{"seat": s, "trumps": tokens(shown)} for s, shown in self.poignees],
            "leader": self.leader,
            "played": tokens(self.played) if self.played is not None else None,
        }
        out = {k: values[k] for k in KEYS if values[k] is not None}
        out.update(copy.deepcopy(self.extra))  # (as the lists above: editing the output leaves the record)
        return out


def _poignees_from_json(value: Any) -> Any:
    """``[{"seat": s, "trumps": [...]}, ...]`` as ``[(s, [...]), ...]``."""
    if not isinstance(value, list):
        raise wrong_type("a list of poignées", value, "poignees")
    out = []
    for i, item in enumerate(value):
        key = f"poignees[{i}]"
        if not isinstance(item, dict):
            raise wrong_type('an object {"seat": ..., "trumps": [...]}', item, key)
        unknown = [k for k in item if k not in ("seat", "trumps")]
        if unknown:
            raise RecordError(f"unknown key '{spelled(unknown[0])}' in a poignée", key=key, token=spelled(unknown[0]))
        for k in ("seat", "trumps"):
            if k not in item:
                raise RecordError(f"missing key '{k}'", key=key)
        out.append((item["seat"], item["trumps"]))
    return out


# Files -----------------------------------------------------------------------------

def _file_label(path: PathLike) -> str:
    """How messages name a file: its path as given, ``<stdin>`` for ``-``."""
    return "<stdin>" if os.fspath(path) == "-" else os.fspath(path)


class _Broken(ValueError):
    """Where a JSON value spanning lines does not parse: the json module's message, and the
    offset in the text read (a JSONDecodeError would count the lines up to it)."""

    def __init__(self, msg: str, pos: int) -> None:
        super().__init__(msg)
        self.msg, self.pos = msg, pos


class _DuplicateKey(ValueError):
    """A key twice in one JSON object: which value was meant is unknown."""


def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


#: the records' JSON reader: the json module's, but a key twice in an object is an error
_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys)


def duplicate_key(key: str, path: str = "") -> RecordError:
    """The error of a key twice in one JSON object (``path``: the object's own key, if
    any): which value was meant is unknown."""
    shown = spelled(key)
    return RecordError(f"duplicate key '{shown}' (which value is meant?)", key=f"{path}.{shown}" if path else shown)


def json_problem(e: json.JSONDecodeError, with_line: bool = False) -> str:
    """What is wrong with a line of JSON that does not parse, and at which column (and
    line, ``with_line``: for a whole document of many lines)."""
    # (the json module ends some messages with " at", meant for its own position suffix)
    msg = e.msg[:-3] if e.msg.endswith(" at") else e.msg
    where = f"line {e.lineno}, column {e.colno}" if with_line else f"column {e.colno}"
    return f"malformed JSON at {where}: {msg}"


def _malformed(e: ValueError, label: str, line: int) -> RecordError:
    """The error of a JSON document that does not parse (``e`` from :mod:`json`)."""
    if isinstance(e, _DuplicateKey):
        error = duplicate_key(str(e.args[0]))
        error.located(file=label, record=f"line {line}")
        return error
    if isinstance(e, json.JSONDecodeError):
        return RecordError(json_problem(e), file=label, record=f"line {line}")
    return RecordError(f"unreadable JSON: {str(e).split(';')[0]}", file=label, record=f"line {line}")


def _too_deep(label: str, line: int) -> RecordError:
    return RecordError("unreadable JSON: nested too deeply", file=label, record=f"line {line}")


def _loads(text: str, label: str, line: int) -> Any:
    """One JSON Lines document: its value, or its error."""
    try:
        return _DECODER.decode(text)
    except RecursionError:
        return _too_deep(label, line)
    except ValueError as e:  # a JSONDecodeError, or an integer too long to convert
        return _malformed(e, label, line)


def _codec(first_line: int) -> str:
    """UTF-8; for text from a file's first line, dropping the byte order mark that may open it."""
    return "utf-8-sig" if first_line == 1 else "utf-8"


def _decode(data: bytes, label: str, first_line: int = 1) -> str:
    """Text of a file, or of its line ``first_line``; a UTF-8 byte order mark that opens
    the file is dropped.  Raises :class:`RecordError` naming the line and column of a byte
    that is not UTF-8."""
    try:
        return data.decode(_codec(first_line))
    except UnicodeDecodeError as e:
        line = first_line + data.count(b"\n", 0, e.start)
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise RecordError(f"not UTF-8 text (bad byte at column {column})", file=label,
                          record=f"line {line}") from None


#: the byte order marks of the other Unicode encodings (UTF-32's first: one begins as UTF-16's)
_FOREIGN_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
                 (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


def _check_encoding(line: bytes, label: str, number: int) -> None:
    """Refuse with one error a whole file that is not UTF-8 text at all, rather than each
    of its lines: called on its lines up to the first not blank (``line``, line
    ``number``), it raises :class:`RecordError` if the file opens with the byte order mark
    of UTF-16 or UTF-32, or if that line holds NUL bytes (UTF-16 or UTF-32 without a byte
    order mark, or not text)."""
    if number == 1:
        for bom, name in _FOREIGN_BOMS:
            if line.startswith(bom):
                raise RecordError(f"{name} text: save it as UTF-8", file=label)
    if b"\0" in line:
        raise RecordError(f"not UTF-8 text: line {number} holds NUL bytes (UTF-16 without a byte order mark,"
                          " or not text?): save it as UTF-8", file=label)


def read_text(path: PathLike) -> str:
    """The whole text of a file (``-``: stdin), checked to be UTF-8 (a hand file, say)."""
    if os.fspath(path) == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    label = _file_label(path)
    for number, line in enumerate(io.BytesIO(data), 1):
        _check_encoding(line, label, number)
        if line.strip():
            break
    return _decode(data, label)


def _is_record_line(doc: Any) -> bool:
    """Whether a line parsed on its own is a deal record's object: what makes a file
    JSON Lines (a line inside a pretty-printed record never holds ``hands`` whole)."""
    return isinstance(doc, dict) and "hands" in doc


def _documents(lines: List[str], bad: Dict[int, TarotError], label: str, first: int) -> Iterator[Tuple[int, Any]]:
    """(line, parsed JSON value or the error) for each document of ``lines`` (the text of
    lines ``first``, ``first`` + 1, ...; ``bad``: by index, the errors of those that are
    not UTF-8, whose text has the bad bytes replaced), in order.

    A line that parses on its own, or that does not open an object or an array, is a
    document of its own (JSON Lines).  Otherwise a value opens there and may span lines
    (a pretty-printed record): it is read whole; if malformed, it is reported once, at
    the line and column where it breaks, and the next document starts at the next line
    that begins at its first column (a pretty-printed record's inner lines are
    indented).  So bad lines at the head of a JSON Lines file, a pretty-printed record
    before JSON Lines, and a malformed pretty-printed record each lose nothing else.  A
    document holding a line that is not UTF-8 (where it breaks, or before) is reported
    once too, as that line's error.
    """
    text = "\n".join(lines)
    starts = list(itertools.accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    i = 0
    while i < len(lines):
        piece = lines[i]
        if not piece.strip():
            i += 1
            continue
        number = first + i
        doc = _loads(piece, label, number)
        if not _opens_value(piece, doc):
            yield _undecoded(bad, first, i, i) or (number, doc)
            i += 1
            continue
        try:
            value, end = _value_from(text, starts, i, len(piece) - len(piece.lstrip()))
        except (ValueError, RecursionError) as e:
            stop = i + 1
            while stop < len(lines) and not _starts_document(lines[stop]):
                stop += 1
            at, found = i, (number, doc)  # (found: the error reported, but for a line not UTF-8)
            if isinstance(e, _Broken):
                while e.pos > starts[i] and text[e.pos - 1].isspace():  # at the end: the last line read
                    e.pos -= 1
                at = bisect.bisect_right(starts, e.pos) - 1
            line = first + at
            # an error past the next document's start: the value opened here is cut short
            spans = isinstance(e, _DuplicateKey) or number < line < first + stop
            if isinstance(e, RecursionError):
                found = (number, _too_deep(label, number))
            elif spans:
                if isinstance(e, _Broken):  # the line and column in the file
                    e = json.JSONDecodeError(e.msg, lines[at], e.pos - starts[at])
                found = (line, _malformed(e, label, line))
            yield _undecoded(bad, first, i, at if spans else i) or found
            i = stop
            continue
        last = bisect.bisect_right(starts, end) - 1  # the line where the value ends
        found = _undecoded(bad, first, i, last) or (number, value)
        yield found
        whole = lines[last]
        rest = whole[end - starts[last]:]
        if rest.strip() and found[0] != first + last:  # more on that line
            line = first + last
            at = len(whole) - len(rest.lstrip())
            yield line, _malformed(json.JSONDecodeError("Extra data", whole, at), label, line)
        i = last + 1


def _undecoded(bad: Dict[int, TarotError], first: int, low: int, high: int) -> Optional[Tuple[int, TarotError]]:
    """(line, error) of the first line that is not UTF-8 among ``low``..``high`` (indexes
    of :func:`_documents`' lines), if any."""
    k = min((k for k in bad if low <= k <= high), default=None)
    return None if k is None else (first + k, bad[k])


def _opens_value(line: str, doc: Any) -> bool:
    """Whether ``line`` (``doc``: it parsed on its own) opens a value that may go on in
    the next lines: an object or array that does not parse alone and fails only at the
    line's end (an error inside the line is the same whatever follows)."""
    if not isinstance(doc, TarotError) or not line.lstrip().startswith(("{", "[")):
        return False
    try:
        _DECODER.decode(line)
    except json.JSONDecodeError as e:
        return e.pos >= len(line.rstrip())
    except (ValueError, RecursionError):
        return False
    return False


def _value_from(text: str, starts: List[int], i: int, indent: int) -> Tuple[Any, int]:
    """The JSON value opening at line ``i`` of ``text`` (line offsets ``starts``) and the
    offset where it ends; raises :class:`_Broken` where it does not parse (or as the json
    module does: a key twice, nesting too deep).  The text
    read grows fourfold from 64 lines while the value runs on past it, so that the errors
    of many lines cut short cost each a few lines, not the rest of the file."""
    span = 64
    while True:
        k = min(len(starts), i + span)
        chunk = text[starts[i]: starts[k] - 1 if k < len(starts) else len(text)]
        try:
            value, end = _DECODER.raw_decode(chunk, indent)
            return value, starts[i] + end
        except json.JSONDecodeError as e:
            if e.pos < len(chunk.rstrip()) or k == len(starts):
                raise _Broken(e.msg, starts[i] + e.pos) from None
        span *= 4


def _starts_document(line: str) -> bool:
    """Whether a line may start a document after a malformed one: it begins at its first
    column (a pretty-printed record's inner lines are indented) and does not close one."""
    return bool(line) and not line[0].isspace() and line.strip() not in ("}", "]", "},", "],")


def _parse(doc: Any, label: str, line: int) -> Union[DealRecord, TarotError]:
    if isinstance(doc, TarotError):
        return doc
    try:
        return DealRecord.from_json(doc, file=label, record=f"line {line}")
    except TarotError as e:
        return e


def iter_records(path: PathLike, text: Optional[str] = None) -> Iterator[Tuple[int, Union[DealRecord, TarotError]]]:
    """Tolerant reader: ``(line, record or error)`` for every record of the file, in order
    (or of ``text``, the file's text already read: stdin read whole to tell a hand from a
    record).

    A bad record (malformed JSON, a line that is not UTF-8, a record that breaks a
    rule) is yielded as its error and reading goes on; only a file that cannot be
    read at all (missing, empty, or not UTF-8 text at all: UTF-16, say) raises.  Files,
    stdin included, are read one
    line at a time, so memory stays flat in the number of records: a line that
    parses on its own, or fails before its end, is a document of its own (JSON
    Lines); from a line that fails only at its end (an object that may go on: a
    pretty-printed record, or a line cut short), the lines up to the next one
    holding a whole record are read as :func:`_documents` says (a line that is not
    UTF-8 read with its bad bytes replaced, as it may be inside a record).
    """
    if text is not None and not isinstance(text, str):
        raise TypeError(f"text must be a string (the file's text), not {type(text).__name__}")
    label = _file_label(path)
    stdin = os.fspath(path) == "-"
    with contextlib.ExitStack() as stack:
        f: Iterable[bytes]
        if text is not None:
            f = io.BytesIO(text.encode("utf-8", "surrogatepass"))  # (a lone surrogate: bad UTF-8, said so)
        else:
            f = sys.stdin.buffer if stdin else stack.enter_context(open(path, "rb"))
        pending: List[str] = []  # the lines from one that may open a value spanning several
        bad: Dict[int, TarotError] = {}  # those of them (by index) that are not UTF-8, with the error
        base = 0  # the line number of pending[0]
        seen = False  # a line not blank

        def flush(lines: List[str],
                  errors: Dict[int, TarotError]) -> Iterator[Tuple[int, Union[DealRecord, TarotError]]]:
            for line, doc in _documents(lines, errors, label, base):
                yield line, _parse(doc, label, line)

        for number, raw in enumerate(f, 1):
            if not seen:
                _check_encoding(raw, label, number)
            error: Optional[RecordError] = None
            try:
                line = _decode(raw, label, number)
            except RecordError as e:
                line, error = raw.decode(_codec(number), "replace"), e
            if not line.strip():
                if pending:
                    pending.append("")
                continue
            seen = True
            doc = _loads(line, label, number)
            if pending:
                if not _is_record_line(doc):
                    if error is not None:
                        bad[len(pending)] = error
                    pending.append(line.rstrip("\r\n"))
                    continue
                yield from flush(pending, bad)
                pending, bad = [], {}
            if _opens_value(line, doc):
                pending, base = [line.rstrip("\r\n")], number
                if error is not None:
                    bad[0] = error
                continue
            yield number, _parse(error or doc, label, number)
        if pending:
            yield from flush(pending, bad)
        elif not seen:
            raise RecordError("empty file: no deal record", file=label)


#: bytes read at a time by :func:`count_records`
COUNT_BLOCK = 1 << 20


def count_records(path: PathLike) -> Optional[int]:
    """About how many records a file holds, for a progress counter: its lines that
    begin with ``{`` (a JSON line, or the first line of a pretty-printed record), read
    in large blocks without parsing; None for stdin or what is not a regular file."""
    if os.fspath(path) == "-" or not os.path.isfile(path):
        return None
    count, previous = 0, b"\n"
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(COUNT_BLOCK), b""):
            count += block.count(b"\n{") + (previous == b"\n" and block[:1] == b"{")
            previous = block[-1:]
    return count


def read_records(path: PathLike, text: Optional[str] = None) -> List[DealRecord]:
    """All records of a file (one JSON object, or JSON Lines; ``text``: its text already
    read); raises on the first bad one."""
    records = []
    for _, item in iter_records(path, text):
        if isinstance(item, TarotError):
            raise item
        records.append(item)
    return records


def read_record(path: PathLike, text: Optional[str] = None) -> DealRecord:
    """The one record of a file (``text``: its text already read); raises
    :class:`RecordError` if it holds several."""
    records = read_records(path, text)
    if len(records) != 1:
        raise RecordError(f"expected one deal record, found {len(records)}", file=_file_label(path))
    return records[0]


def write_records(records: Sequence[DealRecord]) -> str:
    """Records as JSON Lines text (one canonical object per line)."""
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records)
