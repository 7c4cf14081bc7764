"""Import TarotClub's played-deal logs as deal records.

TarotClub (https://www.tarotclub.fr) saves each finished deal as one JSON file
(format "version 3", described in ``docs/tarotclub-format.md``): the contract, the
taker, who led the first trick, the dog as dealt, the poignées shown, and the 18
tricks in playing order (24 in the three-player game).  It does not store the hands
as dealt nor the discard.  They follow from the tricks:

* each seat's playing hand is the cards it played (the leader of a trick is the
  winner of the previous one, recomputed with :func:`tarot_solver.rules.trick_winner`);
* the six cards never played are the taker's discard in a prise or a garde (then
  his hand as dealt is what he played, plus the discard, minus the dog), and the
  dog itself in a garde sans or a garde contre;
* the dealer is the seat before the first leader, unless a slam was announced
  (the taker leads, and the dealer is unknown);
* a defence poignée does not name its seat: it is the defender holding its cards.

The result goes through :class:`~tarot_solver.records.DealRecord`, so a log with an
illegal card or an impossible discard is refused with an error naming it.  Seats
map South 0, East 1, North 2, West 3 (TarotClub plays in that order too; at three
players, South, East and North).  Five-player logs are refused: they do not say which
king the taker called, so his partner is unknown.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import rules
from .cards import EXCUSE, FULL_DECK, NUM_CARDS, TRUMP_BASE, card_token, cards_of, mask_of
from .errors import RecordError, TarotError, spelled
from .records import VARIANT, DealRecord, duplicate_key, json_problem, json_type, read_text, wrong_type
from .variant import Contract, variant_for

SEATS = ("south", "east", "north", "west")
CONTRACTS = {
    "take": Contract.PRISE,
    "guard": Contract.GARDE,
    "guard without": Contract.GARDE_SANS,
    "guard against": Contract.GARDE_CONTRE,
}
_SUITS = "SHDC"
_TOKEN = re.compile(r"^(\d\d)-([SHDCT])$", re.ASCII)  # (not another script's digits, as cards.py)
_PLAYED_KEY = re.compile(r"^played\[(\d+)\]$")
_POIGNEE_KEY = re.compile(r"^poignees\[(\d+)\]")


def log_token(card: int) -> str:
    """A card as TarotClub spells it (``14-S``, ``01-T``, ``00-T``): the inverse of :func:`parse_card`."""
    if card == EXCUSE:
        return "00-T"
    if card >= TRUMP_BASE:
        return f"{card - TRUMP_BASE + 1:02d}-T"
    return f"{card % 14 + 1:02d}-{_SUITS[card // 14]}"


_LOG_TOKENS = {card_token(c): log_token(c) for c in range(NUM_CARDS)}
_CANON_TOKEN = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, _LOG_TOKENS), key=len, reverse=True))
                          + r")(?![\w-])")
_SEAT_WORD = re.compile(r"\bseat (\d)\b")


def _in_log_terms(message: str) -> str:
    """A record's message about a log in the log's own terms: its card tokens and seat names."""
    message = _CANON_TOKEN.sub(lambda m: _LOG_TOKENS[m.group(1)], message)
    return _SEAT_WORD.sub(lambda m: SEATS[int(m.group(1))].capitalize() if int(m.group(1)) < len(SEATS)
                          else m.group(0), message)


def parse_card(token: str, key: str) -> int:
    """A TarotClub card token (``14-S`` king of spades, ``01-T`` the Petit, ``00-T`` the Excuse)."""
    m = _TOKEN.match(token.strip().upper())
    value = int(m.group(1)) if m else -1
    if m and m.group(2) == "T" and 0 <= value <= 21:
        return EXCUSE if value == 0 else TRUMP_BASE + value - 1
    if m and m.group(2) != "T" and 1 <= value <= 14:
        return _SUITS.index(m.group(2)) * 14 + value - 1
    raise RecordError(f"unknown TarotClub card '{spelled(token)}' (expected e.g. 14-S, 01-T, 00-T)", key=key,
                      token=spelled(token))


def parse_cards(value: Any, key: str) -> List[int]:
    """A TarotClub card list: tokens joined with ``;`` (the empty string is no card)."""
    if not isinstance(value, str):
        raise wrong_type("a string of cards joined with ';'", value, key)
    cards = [parse_card(t, key) for t in value.split(";") if t.strip()]
    seen = 0
    for c in cards:
        if seen >> c & 1:
            raise RecordError(f"card '{log_token(c)}' appears twice", key=key, token=log_token(c))
        seen |= 1 << c
    return cards


def _seat(info: Dict[str, Any], key: str, players: int) -> int:
    name = info.get(key)
    seats = SEATS[:players]
    if not isinstance(name, str) or name.strip().lower() not in seats:
        names = ", ".join(s.capitalize() for s in seats[:-1]) + f" or {seats[-1].capitalize()}"
        raise RecordError(f"expected a seat ({names}), got {spelled(name, quoted=True)}",
                          key=f"deal_info.{key}", token=spelled(name))
    return seats.index(name.strip().lower())


def _contract(info: Dict[str, Any]) -> Contract:
    name = info.get("contract")
    key = str(name).strip().lower()
    if key in CONTRACTS:
        return CONTRACTS[key]
    raise RecordError(f"unknown contract {spelled(name, quoted=True)} (expected Take, Guard, Guard without"
                      " or Guard against)", key="deal_info.contract", token=spelled(name))


def strip_trailing_commas(text: str) -> str:
    """Blank out commas just before a closing ``}`` or ``]`` (outside strings):
    TarotClub's own parser accepts them and some of its files have them.  Each such
    comma becomes a space, so the text keeps its lines and columns (a JSON error
    is then named where it is in the file)."""
    out: List[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "}]":
            j = len(out) - 1
            while j >= 0 and out[j].isspace():
                j -= 1
            if j >= 0 and out[j] == ",":
                out[j] = " "
        out.append(ch)
    return "".join(out)


class _Object(List[Tuple[str, Any]]):
    """A JSON object as the parser saw it: its (key, value) pairs, a repeated key kept."""


_PAIRS = json.JSONDecoder(object_pairs_hook=_Object)


def _unique(value: Any, path: str) -> Any:
    """``value`` (parsed by ``_PAIRS``) with its objects made dicts, by the deal records'
    rule: a key twice in one object is an error, here naming its path (``deal_info.contract``)."""
    if isinstance(value, _Object):
        out: Dict[str, Any] = {}
        for k, v in value:
            if k in out:
                raise duplicate_key(k, path)
            out[k] = _unique(v, f"{path}.{k}" if path else k)
        return out
    if isinstance(value, list):
        return [_unique(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


def loads(text: str) -> Any:
    """The JSON document of a TarotClub log's text, read as TarotClub does (trailing commas
    are allowed) but refusing a key twice in one object, as deal records do (which value
    is meant is unknown); raises :class:`RecordError` for that, and the :mod:`json`
    module's errors (``ValueError``, ``RecursionError``) for JSON that does not parse."""
    return _unique(_PAIRS.decode(strip_trailing_commas(text)), "")


def _defence_seat(hands: List[int], taker: int, shown: List[int]) -> int:
    """The defender whose playing hand holds every card of the defence poignée."""
    for seat, hand in enumerate(hands):
        if seat != taker and mask_of(shown) & ~hand == 0:
            return seat
    raise RecordError("no defender holds every card of the poignée", key="deal_info.defense_handle")


def rebuild(doc: Any) -> Dict[str, Any]:
    """The fields of the deal record of one parsed TarotClub log (cards as ints), before
    :class:`DealRecord` checks them; raises :class:`RecordError` for what cannot be rebuilt."""
    if not isinstance(doc, dict) or not isinstance(doc.get("deal_info"), dict):
        raise RecordError("not a TarotClub deal log: no 'deal_info' object", key="deal_info")
    info = doc["deal_info"]
    players = info.get("number_of_players")
    if players is None:  # else the table size is the number of the players' names
        names = info.get("players")
        players = len(names) if isinstance(names, list) and names else VARIANT.players
    try:
        variant = variant_for(players)
    except RecordError:
        got = "" if type(players) is int else f", got {json_type(players)}"  # ("4" is no number)
        raise RecordError(f"expected the number of players, 3 or 4{got}", key="deal_info.number_of_players",
                          token=spelled(players, quoted=True)) from None
    if variant.partner_share:
        raise RecordError(f"a {players}-player deal cannot be converted: the log does not say which king was"
                          " called (3 and 4 players can)", key="deal_info.number_of_players", token=spelled(players))
    taker, contract = _seat(info, "taker", players), _contract(info)
    leader = _seat(info, "first_trick_lead", players)
    slam = info.get("slam", False)
    if not isinstance(slam, bool):
        raise RecordError("expected true or false", key="deal_info.slam", token=spelled(slam))
    dog = parse_cards(info.get("dog", ""), "deal_info.dog")
    if dog and len(dog) != variant.dog_size:  # (else the record blames the taker's hand, not named in the log)
        raise RecordError(f"the dog has {len(dog)} cards, expected {variant.dog_size}", key="deal_info.dog")
    attack = parse_cards(info.get("attack_handle", ""), "deal_info.attack_handle")
    defence = parse_cards(info.get("defense_handle", ""), "deal_info.defense_handle")
    tricks = doc.get("tricks")
    if not isinstance(tricks, list):
        got = "no 'tricks' key" if "tricks" not in doc else json_type(tricks)
        raise RecordError(f"expected a list of {variant.tricks} tricks, got {got}", key="tricks",
                          token=None if tricks is None else spelled(tricks))
    if len(tricks) != variant.tricks:
        raise RecordError(f"expected {variant.tricks} tricks, got {len(tricks)}", key="tricks")

    played: List[int] = []
    seen = 0
    hands = [0] * players
    lead = leader
    for k, text in enumerate(tricks):
        trick = parse_cards(text, f"tricks[{k}]")
        if len(trick) != players:
            raise RecordError(f"a trick holds {players} cards, not {len(trick)}", key=f"tricks[{k}]")
        for j, card in enumerate(trick):
            if seen >> card & 1:
                raise RecordError(f"card '{log_token(card)}' is played twice", key=f"tricks[{k}]",
                                  token=log_token(card))
            hands[(lead + j) % players] |= 1 << card
            seen |= 1 << card
        played += trick
        lead = (lead + rules.trick_winner(trick)) % players

    aside = FULL_DECK & ~seen
    discard: Optional[List[int]] = None
    if contract.taker_takes_dog:
        if not dog:
            raise RecordError("the dog is empty: the taker's hand as dealt cannot be rebuilt",
                              key="deal_info.dog")
        lost = mask_of(dog) & ~(hands[taker] | aside)
        if lost:
            raise RecordError(f"dog card '{log_token(cards_of(lost)[0])}' was played by a defender",
                              key="deal_info.dog", token=log_token(cards_of(lost)[0]))
        discard = cards_of(aside)
        hands[taker] = (hands[taker] | aside) & ~mask_of(dog)
    else:
        if dog and mask_of(dog) != aside:
            raise RecordError("the cards never played are not the dog, in a "
                              f"{contract.value} (never played: {' '.join(map(log_token, cards_of(aside)))})",
                              key="deal_info.dog")
        dog = cards_of(aside)
    poignees = [(taker, attack)] if attack else []
    if defence:
        poignees.append((_defence_seat(hands, taker, defence), defence))
    return dict(hands=[cards_of(h) for h in hands], dog=dog, taker=taker, contract=contract, discard=discard,
                dealer=None if slam else (leader - 1) % players, leader=leader if slam else None,
                played=played, slam=slam or None, poignees=poignees or None,
                players=None if variant is VARIANT else players)


def to_record(doc: Any, ident: Optional[str] = None) -> DealRecord:
    """The validated deal record of one parsed TarotClub log; raises :class:`TarotError`."""
    fields = rebuild(doc)
    try:
        return DealRecord(**fields, id=ident)
    except TarotError as e:
        e.message = _in_log_terms(e.message)
        e.token = None if e.token is None else _in_log_terms(e.token)
        m = _PLAYED_KEY.match(e.key or "")
        if m:  # name the trick as the log does
            e.key = f"tricks[{int(m.group(1)) // (fields['players'] or VARIANT.players)}]"
        m = _POIGNEE_KEY.match(e.key or "")
        if m:  # and the handle (the taker's poignée is the attack's)
            seat = fields["poignees"][int(m.group(1))][0]
            e.key = "deal_info." + ("attack_handle" if seat == fields["taker"] else "defense_handle")
        raise


def read_log(path: "os.PathLike[str] | str") -> DealRecord:
    """The deal record of one TarotClub log file; its id is the file name without ``.json``."""
    label = os.fspath(path)
    text = read_text(path)  # (checked as a record file is: UTF-8, a UTF-16 file refused whole)
    if not text.strip():  # (a save cut short; json said: malformed JSON at line 1, column 1: Expecting value)
        raise RecordError("empty file: no TarotClub log", file=label)
    try:
        doc = loads(text)
    except TarotError as e:  # a key twice
        raise e.located(file=label) from None
    except json.JSONDecodeError as e:
        raise RecordError(json_problem(e, with_line=True), file=label) from None
    except RecursionError:
        raise RecordError("unreadable JSON: nested too deeply", file=label) from None
    except ValueError as e:  # an integer too long to convert
        raise RecordError(f"unreadable JSON: {str(e).split(';')[0]}", file=label) from None
    try:
        return to_record(doc, Path(path).stem)
    except TarotError as e:
        raise e.located(file=label)


def log_files(paths: "Iterable[os.PathLike[str] | str] | os.PathLike[str] | str") -> List[Path]:
    """The files to convert: each file given, and the ``*.json`` files of each directory
    (sorted by name, which TarotClub makes the time order; hidden ones, such as the
    ``._*.json`` a Mac leaves on shared drives, left out); one path alone is taken as such."""
    out: List[Path] = []
    for p in map(Path, [paths] if isinstance(paths, (str, os.PathLike)) else paths):
        if p.is_dir():
            logs = sorted(f for f in p.glob("*.json") if not f.name.startswith("."))
            if not logs:
                raise RecordError("no TarotClub log (*.json) in this directory", file=os.fspath(p))
            out.extend(logs)
        else:
            out.append(p)
    return out

