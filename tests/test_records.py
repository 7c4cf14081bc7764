"""Deal records: validation messages, canonical JSON round trips, the file readers."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path
from typing import Any, Dict, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarot_solver.cards import card_token, parse_card, points
from tarot_solver.errors import CardError, IllegalMoveError, RecordError, TarotError, one_line, plural
from tarot_solver.records import (KEYS, DealRecord, count_records, iter_records, read_record, read_records, read_text,
                                   write_records)
from tarot_solver.variant import Contract

from conftest import EXAMPLES, BadInput


def error_of(obj: Any, **where: Any) -> TarotError:
    with pytest.raises(TarotError) as info:
        DealRecord.from_json(obj, **where)
    return info.value


# Good records ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["game.json", "deal.json", "three.json", "three-midgame.json", "five.json",
                                  "five-midgame.json"])
def test_examples_are_canonical(name: str) -> None:
    obj = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    record = DealRecord.from_json(obj)
    assert record.to_json() == obj
    assert list(record.to_json()) == [k for k in KEYS if k in obj]
    assert DealRecord.from_json(record.to_json()) == record


def test_history_round_trips() -> None:
    records = read_records(EXAMPLES / "history.jsonl")
    assert len(records) == 20
    assert all(r.is_complete for r in records)
    assert write_records(records) == (EXAMPLES / "history.jsonl").read_text(encoding="utf-8")
    assert len({r.id for r in records}) == 20


def test_replay_of_the_example_game(example_game: DealRecord) -> None:
    state = example_game.final_state()
    assert state.over and state.tricks_done == 18
    assert state.taker_hp + state.defence_hp == 182
    result = example_game.score(state)
    scores = result.scores(example_game.taker)
    assert sum(scores) == 0 and scores[example_game.taker] == 3 * result.unit
    assert result.made == (state.margin_hp() >= 0)


def test_aliases_and_order_are_canonicalised(game_obj: Dict[str, Any]) -> None:
    messy = dict(game_obj)
    messy["hands"] = [list(reversed([t.lower() for t in h])) for h in game_obj["hands"]]
    messy["hands"][0] = [("21t" if t == "t21" else "excuse" if t == "ex" else t) for t in messy["hands"][0]]
    messy["contract"] = "Garde"
    messy["bids"] = [f" {b.upper()} " for b in game_obj["bids"]]  # (spaces around a pass too, as around a contract)
    assert DealRecord.from_json(messy).to_json() == game_obj


def test_a_hand_may_be_one_string_of_tokens(deal_obj: Dict[str, Any]) -> None:
    spaced = dict(deal_obj, dog=" ".join(deal_obj["dog"]))
    assert DealRecord.from_json(spaced) == DealRecord.from_json(deal_obj)


def test_unknown_keys_are_kept_after_the_known_ones(deal_obj: Dict[str, Any]) -> None:
    obj = {"zz_note": {"a": [1, 2]}, **deal_obj, "source": "club"}
    out = DealRecord.from_json(obj).to_json()
    assert out["zz_note"] == {"a": [1, 2]} and out["source"] == "club"
    assert list(out)[-2:] == ["zz_note", "source"]
    # not shared: editing the input or the output leaves the record as it was read
    record = DealRecord.from_json(obj)
    obj["zz_note"]["a"].append(3)
    record.to_json()["zz_note"]["a"].append(4)
    assert record.extra["zz_note"] == {"a": [1, 2]}


def test_null_counts_as_absent(deal_obj: Dict[str, Any]) -> None:
    obj = dict(deal_obj, leader=None, played=None)
    assert DealRecord.from_json(obj).to_json() == deal_obj
    # every optional key, poignees included (whose value is read apart)
    obj = dict(deal_obj, **{k: None for k in KEYS if k not in deal_obj})
    assert set(obj) == set(KEYS) and DealRecord.from_json(obj).to_json() == deal_obj


def test_only_the_keys_present_are_written() -> None:
    obj = {"hands": [[card_token(c) for c in range(18 * s, 18 * s + 18)] for s in range(4)],
           "dog": [card_token(c) for c in range(72, 78)]}
    record = DealRecord.from_json(obj)
    assert record.to_json() == obj
    assert record.first_leader is None and not record.is_complete


def test_partial_play_and_states(game_obj: Dict[str, Any]) -> None:
    obj = dict(game_obj, played=game_obj["played"][:10])
    record = DealRecord.from_json(obj)
    assert not record.is_complete
    assert record.opening_state().tricks_done == 0
    state = record.state()
    assert state.tricks_done == 2 and len(state.trick) == 2
    with pytest.raises(RecordError, match="not complete: 10 of 72 cards played"):
        record.final_state()
    # one card short of the end is not the end either
    record = DealRecord.from_json(dict(game_obj, played=game_obj["played"][:-1]))
    assert not record.is_complete and len(record.position().trick) == 3
    with pytest.raises(RecordError, match="not complete: 71 of 72 cards played"):
        record.final_state()


def test_leader_defaults(deal_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(deal_obj)
    assert record.first_leader == (deal_obj["dealer"] + 1) % 4
    assert DealRecord.from_json(dict(deal_obj, slam=True)).first_leader == deal_obj["taker"]
    taker, right = deal_obj["taker"], (deal_obj["dealer"] + 1) % 4
    assert DealRecord.from_json(dict(deal_obj, slam=True, leader=taker)).first_leader == taker
    assert DealRecord.from_json(dict(deal_obj, leader=right)).first_leader == right
    assert DealRecord.from_json(dict(deal_obj, slam=False, leader=right)).first_leader == right  # no slam announced
    # a leader the rules rule out
    with pytest.raises(RecordError, match=rf"key 'leader': seat {(taker + 1) % 4} leads, but the taker"):
        DealRecord.from_json(dict(deal_obj, slam=True, leader=(taker + 1) % 4))
    with pytest.raises(RecordError, match=rf"key 'leader': seat {(right + 1) % 4} leads, but the dealer's right"
                                          rf" \(seat {right}\)"):
        DealRecord.from_json(dict(deal_obj, leader=(right + 1) % 4))
    no_dealer = {k: v for k, v in deal_obj.items() if k not in ("dealer", "bids")}
    with pytest.raises(RecordError, match="cannot be played without leader or dealer"):
        DealRecord.from_json(no_dealer).opening_state()
    # without a dealer, any seat may be the leader given: nothing says who the dealer's right is
    for seat in range(4):
        record = DealRecord.from_json(dict(no_dealer, leader=seat))
        assert record.first_leader == seat and record.opening_state().tricks_done == 0


def test_python_construction_validates_and_accepts_tokens(deal_obj: Dict[str, Any]) -> None:
    record = DealRecord(hands=deal_obj["hands"], dog=deal_obj["dog"], taker=deal_obj["taker"],
                        contract="garde", discard=deal_obj["discard"], dealer=deal_obj["dealer"])
    assert record.contract is Contract.GARDE
    assert record.hands[0] == sorted(parse_card(t) for t in deal_obj["hands"][0])
    with pytest.raises(IllegalMoveError):
        DealRecord(hands=record.hands, dog=record.dog, taker=record.taker, contract=Contract.GARDE,
                   discard=record.hands[record.taker][-6:])  # the top trumps
    # extra holds the keys a record does not know: not one of its own
    with pytest.raises(RecordError, match="'taker' is a record key, not an extra one") as info:
        DealRecord(hands=record.hands, dog=record.dog, extra={"note": 1, "taker": 1})
    assert info.value.key == "taker"
    # a poignée is a seat and the trumps shown, nothing more
    with pytest.raises(RecordError, match="expected a seat and the trumps shown") as info:
        DealRecord(hands=record.hands, dog=record.dog, poignees=[(0, [], "double")])  # type: ignore[list-item]
    assert info.value.key == "poignees[0]"


def test_poignee_round_trip_and_levels(game_obj: Dict[str, Any]) -> None:
    history = read_records(EXAMPLES / "history.jsonl")
    shown = [r for r in history if r.poignees]
    assert shown, "the example history should hold a poignée"
    for record in shown:
        assert record.poignee_levels() == [0] * len(record.poignees)
        assert DealRecord.from_json(record.to_json()) == record


# Bad records -----------------------------------------------------------------------


def test_every_bad_input_names_file_line_key_and_token(bad_input: BadInput, write: Any) -> None:
    path = write(bad_input.name, bad_input.text)
    with pytest.raises(TarotError) as info:
        read_records(path)
    message = str(info.value).replace(str(path.parent) + "/", "")
    assert "\n" not in message
    for fragment in bad_input.fragments:
        assert fragment in message


def test_the_documented_example_message(game_obj: Dict[str, Any], write: Any) -> None:
    good = json.dumps(game_obj)
    bad = dict(game_obj, id="g17")
    bad["hands"] = [list(h) for h in game_obj["hands"]]
    bad["hands"][2][5] = "ZZ"
    path = write("games.jsonl", f"{good}\n\n{json.dumps(bad)}\n{good}\n")
    with pytest.raises(CardError) as info:
        read_records(path)
    assert str(info.value) == f"{path}: line 3 (id 'g17'): key 'hands[2]': unknown card 'ZZ'"
    assert (info.value.key, info.value.token, info.value.record) == ("hands[2]", "ZZ", "line 3 (id 'g17')")
    # a record read from no file is named by its id alone
    assert str(error_of(bad)) == "id 'g17': key 'hands[2]': unknown card 'ZZ'"


def test_tolerant_reader_reports_and_goes_on(game_obj: Dict[str, Any], write: Any) -> None:
    good = json.dumps(game_obj)
    bad = json.dumps(dict(game_obj, contract="nope"))
    path = write("h.jsonl", "\n".join([good, bad, "{oops", "", good, "42"]) + "\n")
    items = list(iter_records(path))
    assert [line for line, _ in items] == [1, 2, 3, 5, 6]
    kinds = [type(item).__name__ for _, item in items]
    assert kinds == ["DealRecord", "RecordError", "RecordError", "DealRecord", "RecordError"]
    assert "line 2 (id 'example-game'): key 'contract': unknown contract 'nope'" in str(items[1][1])
    assert "line 3: malformed JSON at column 2" in str(items[2][1])
    assert "line 6: expected a JSON object, got a number" in str(items[4][1])
    # the json module's message without its own position suffix (" at")
    cut = list(iter_records(write("s.jsonl", good + '\n{"id": "g\n')))
    assert str(cut[1][1]).endswith("s.jsonl: line 2: malformed JSON at column 8: Unterminated string starting")


def test_pretty_printed_record_errors_name_line_one(write: Any) -> None:
    text = (EXAMPLES / "game.json").read_text(encoding="utf-8").replace('"contract": "garde"', '"contract": "gardez"')
    with pytest.raises(RecordError, match=r"g\.json: line 1 \(id 'example-game'\): key 'contract'"):
        read_records(write("g.json", text))


def test_malformed_pretty_json_names_line_and_column(write: Any) -> None:
    text = '{\n  "hands": [],\n  "dog": [,]\n}\n'
    with pytest.raises(RecordError, match=r"x\.json: line 3: malformed JSON at column 11: Expecting value"):
        read_records(write("x.json", text))


def test_text_after_a_pretty_printed_record(write: Any) -> None:
    text = (EXAMPLES / "deal.json").read_text(encoding="utf-8") + "\n  oops\n"
    lines = text.count("\n")
    with pytest.raises(RecordError, match=rf"d\.json: line {lines}: malformed JSON at column 3: Expecting value"):
        read_records(write("d.json", text))
    items = list(iter_records(write("d.json", text)))  # the record is kept
    assert [n for n, _ in items] == [1, lines] and isinstance(items[0][1], DealRecord)
    same_line = text.rstrip().replace("  oops", "").rstrip() + ' {"x": 1}\n'
    items = list(iter_records(write("e.json", same_line)))
    assert isinstance(items[0][1], DealRecord)
    assert f"line {lines - 2}: malformed JSON at column 3: Extra data" in str(items[1][1])


HISTORY_LINES = (EXAMPLES / "history.jsonl").read_text(encoding="utf-8").splitlines(True)


@pytest.mark.parametrize("head, errors", [
    (["garbage\n", "more garbage\n", "}\n"], [1, 2, 3]),  # bad lines before the first record
    ([HISTORY_LINES[5][:40] + "\n", HISTORY_LINES[6][:99] + "\n", "\n", HISTORY_LINES[7][:60] + "\n"], [1, 2, 4]),
    (["\n", "  \n"], []),
])
def test_bad_lines_before_the_first_record_lose_nothing(tmp_path: Any, head: List[str], errors: List[int]) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text("".join(head) + "".join(HISTORY_LINES[:3]), encoding="utf-8")
    items = list(iter_records(path))
    assert [n for n, x in items if isinstance(x, TarotError)] == errors
    assert [x.id for _, x in items if isinstance(x, DealRecord)] == ["h01", "h02", "h03"]
    assert [n for n, _ in items] == sorted(n for n, _ in items)


@pytest.mark.parametrize("indent", [None, 2])
def test_a_key_twice_is_an_error(tmp_path: Any, indent: Any) -> None:
    text = json.dumps(json.loads((EXAMPLES / "deal.json").read_text(encoding="utf-8")), indent=indent)
    path = tmp_path / "d.json"
    path.write_text(text.replace('"taker": 1', '"taker": 1, "taker": 3'), encoding="utf-8")
    with pytest.raises(RecordError, match=r"d\.json: line 1: key 'taker': duplicate key 'taker'"):
        read_records(path)
    path.write_text(text.replace('"taker": 1', f'"{HUGE}": 1, "{HUGE}": 3'), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_records(path)
    assert "X" * 38 not in str(info.value) and "X" * 37 + "..." in str(info.value)  # the key cut short


# what a file's lines may be: a whole record on a line, a pretty-printed record (several
# lines), a blank line, text that is not JSON, a record cut short, a line not UTF-8
_PIECES = {
    "record": lambda k: [HISTORY_LINES[k % 20].rstrip("\n").encode()],
    "pretty": lambda k: json.dumps(json.loads(HISTORY_LINES[k % 20]), indent=2).encode().split(b"\n"),
    "blank": lambda k: [b" " * (k % 3)],
    "text": lambda k: [f"not json {k}".encode()],
    "cut": lambda k: [HISTORY_LINES[k % 20].encode()[:10 + 37 * k % 900]],
    "latin1": lambda k: ['{"id": "\xe9t\xe9"}'.encode("latin-1")],
    "flat": lambda k: [line.strip() for line in _PIECES["pretty"](k)],  # pretty, not indented
    "crlf": lambda k: [_PIECES["record"](k)[0] + b"\r"],
    "broken": lambda k: [line.replace(b'"dealer":', b'"dealer"') for line in _PIECES["pretty"](k)],
    "pretty-latin1": lambda k: [line.replace(b'"id": "', b'"id": "\xe9') for line in _PIECES["pretty"](k)],
}


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(sorted(_PIECES)), st.integers(0, 10_000)), max_size=12))
def test_the_reader_loses_no_record_whatever_surrounds_it(tmp_path: Any, pieces: List[Any]) -> None:
    """Every record comes out at its first line, every other non-blank piece as errors at
    its lines only, in file order, whatever comes before and after it."""
    lines: List[bytes] = []
    want_records, bad_pieces = [], []
    for kind, k in pieces:
        block = _PIECES[kind](k)
        first = len(lines) + 1
        if kind in ("record", "pretty", "flat", "crlf"):
            want_records.append((first, json.loads(HISTORY_LINES[k % 20])["id"]))
        elif kind != "blank":
            bad_pieces.append(range(first, first + len(block)))
        lines += block
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    if not any(line.strip() for line in lines):
        with pytest.raises(RecordError, match="empty file"):
            list(iter_records(path))
        return
    items = list(iter_records(path))
    assert [n for n, _ in items] == sorted({n for n, _ in items})  # in order, a line once
    assert [(n, x.id) for n, x in items if isinstance(x, DealRecord)] == want_records
    errors = [n for n, x in items if not isinstance(x, DealRecord)]
    assert all(any(n in piece for n in errors) for piece in bad_pieces)  # each bad piece reported
    assert all(any(n in piece for piece in bad_pieces) for n in errors)  # and nothing else
    assert len(errors) == len(bad_pieces)  # once


def test_lines_that_are_not_utf8_before_the_first_record(tmp_path: Any) -> None:
    path = tmp_path / "h.jsonl"
    good = [line.encode("utf-8") for line in HISTORY_LINES[:2]]
    path.write_bytes(b"junk\n" + b'{"id": "\xe9"}\n' + good[0] + b"\n" + good[1])
    items = list(iter_records(path))
    assert [n for n, _ in items] == [1, 2, 3, 5]
    assert "line 2: not UTF-8 text" in str(items[1][1])
    path.write_bytes(b"\n\n" + b'{"id": "\xe9"}\n' + good[0])
    assert [n for n, _ in iter_records(path)] == [3, 4]
    path.write_bytes(b'{"id": "\xe9"}\n')
    assert [n for n, _ in iter_records(path)] == [1]


def test_a_pretty_record_before_json_lines_and_an_unindented_one(tmp_path: Any) -> None:
    pretty = (EXAMPLES / "game.json").read_text(encoding="utf-8")
    path = tmp_path / "mixed.jsonl"
    path.write_text(pretty + "".join(HISTORY_LINES[:2]), encoding="utf-8")
    items = list(iter_records(path))
    assert [(n, getattr(x, "id", None)) for n, x in items] == [
        (1, "example-game"), (pretty.count("\n") + 1, "h01"), (pretty.count("\n") + 2, "h02")]
    flat = "\n".join(line.strip() for line in pretty.splitlines()) + "\n"  # no indentation
    path.write_text(flat, encoding="utf-8")
    assert [(n, getattr(x, "id", None)) for n, x in iter_records(path)] == [(1, "example-game")]
    broken = pretty.replace('"dealer": 2,', '"dealer": 2', 1)  # one error, at its line
    path.write_text(broken + HISTORY_LINES[0], encoding="utf-8")
    items = list(iter_records(path))
    assert len(items) == 2 and "malformed JSON" in str(items[0][1]) and items[1][1].id == "h01"  # type: ignore


def test_a_pretty_record_with_an_object_on_one_line_inside(tmp_path: Any) -> None:
    # a line holding a whole object is a record of its own only if it holds hands: a
    # poignée written on one line is inside the record
    obj = next(json.loads(line) for line in HISTORY_LINES if "poignees" in line)
    poignees = obj.pop("poignees")
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in obj.items()] + ['  "poignees": [']
    lines += [f"    {json.dumps(p)}," for p in poignees[:-1]] + [f"    {json.dumps(poignees[-1])}", "  ]", "}"]
    path = tmp_path / "p.json"
    path.write_text("\n".join(lines) + "\n" + HISTORY_LINES[0], encoding="utf-8")
    record, after = DealRecord.from_json(dict(obj, poignees=poignees)), read_records(EXAMPLES / "history.jsonl")[0]
    assert list(iter_records(path)) == [(1, record), (len(lines) + 1, after)]


def test_missing_required_key(deal_obj: Dict[str, Any]) -> None:
    assert "key 'dog': missing required key 'dog'" in str(error_of({"hands": []}, file="f"))
    # null counts as absent, for a required key too
    assert "key 'hands': missing required key 'hands'" in str(error_of(dict(deal_obj, hands=None)))


def test_wrong_number_of_hands(game_obj: Dict[str, Any]) -> None:
    game_obj["hands"] = game_obj["hands"][:3]
    assert "key 'hands': expected 4 hands, got 3" in str(error_of(game_obj))


def test_the_deck_check_names_the_first_duplicate_and_the_missing_cards(game_obj: Dict[str, Any]) -> None:
    hands = game_obj["hands"]
    twice, lost = hands[1][0], sorted([hands[1][1], hands[3][0]], key=parse_card)  # (in deck order)
    hands[1][1], hands[3][0] = twice, hands[0][0]  # two duplicates: hands[1]'s is named, the first
    err = error_of(game_obj)  # 78 cards still: no count to report
    assert str(err) == (f"id 'example-game': key 'hands[1]': '{twice}' is twice in hands[1];"
                        f" missing '{lost[0]}', '{lost[1]}'")
    assert err.token == twice


@pytest.mark.parametrize("dropped, more", [(6, ""), (8, " and 2 more")])
def test_six_missing_cards_are_listed_then_counted(game_obj: Dict[str, Any], dropped: int, more: str) -> None:
    gone = game_obj["hands"][0][-dropped:]  # (a canonical hand: in deck order)
    del game_obj["hands"][0][-dropped:]
    listed = ", ".join(f"'{t}'" for t in gone[:6])
    assert str(error_of(game_obj)).endswith(f"the deal holds {78 - dropped} cards, not 78: hands[0] has"
                                            f" {18 - dropped} cards, expected 18; missing {listed}{more}")


def test_card_list_must_be_a_list(game_obj: Dict[str, Any]) -> None:
    game_obj["dog"] = {"KS": 1}
    assert """key 'dog': expected a list of card tokens, got an object (token '{"KS": 1}')""" in str(error_of(game_obj))


@pytest.mark.parametrize("value, shown", [(4, "4"), (-1, "-1"), ("1", '"1"'), (True, "true"), (1.5, "1.5")])
@pytest.mark.parametrize("key", ["taker", "dealer", "leader"])
def test_bad_seats(game_obj: Dict[str, Any], key: str, value: Any, shown: str) -> None:
    game_obj[key] = value
    err = error_of(game_obj)
    assert err.key == key and f"bad seat '{shown}'" in str(err)


@pytest.mark.parametrize("key, value, says", [
    ("contract", {"x": 0}, 'unknown contract \'{"x": 0}\''),  # JSON, as the record spells it: not {'x': 0}
    ("contract", True, "unknown contract 'true'"),
    ("players", "4", 'bad number of players \'"4"\''),
    ("dog", [True], "card token must be a string, got true"),
    ("leader", list(range(100)), "bad seat '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11...':"),  # a huge value cut short
])
def test_odd_values_are_shown_as_the_record_spells_them(game_obj: Dict[str, Any], key: str, value: Any,
                                                        says: str) -> None:
    game_obj[key] = value
    assert says in str(error_of(game_obj))


def test_petit_sec_voids_the_deal(petit_sec_obj: Dict[str, Any]) -> None:
    err = error_of(petit_sec_obj)
    assert err.key == "hands[0]" and "Petit sec" in str(err) and "the deal is void" in str(err)
    assert err.token == "T1" and "(token 'T1')" in str(err)


@pytest.mark.parametrize("change, fragments", [
    (lambda o: o.update(discard=o["discard"][:5]), ["key 'discard'", "must hold 6 cards, not 5"]),
    (lambda o: o.update(discard=o["discard"][:5] + ["T21"]), ["key 'discard'", "an oudler may not be discarded"]),
    (lambda o: o.update(contract="garde_sans", bids=None), ["key 'discard'", "no discard in a garde_sans"]),
    (lambda o: o.pop("taker"), ["key 'taker'", "a record with a discard names its taker: it has none"]),
    (lambda o: o["discard"].__setitem__(2, "ZZ"), ["key 'discard': unknown card 'ZZ'"]),
])
def test_bad_discards(deal_obj: Dict[str, Any], change: Any, fragments: Any) -> None:
    change(deal_obj)
    message = str(error_of(deal_obj))
    assert all(f in message for f in fragments), message


def test_discard_of_a_card_not_held(deal_obj: Dict[str, Any]) -> None:
    foreign = next(t for t in deal_obj["hands"][(deal_obj["taker"] + 1) % 4] if not t.startswith(("K", "T")))
    deal_obj["discard"][0] = foreign
    assert f"discarded card '{foreign}' is neither in the taker's hand nor in the dog" in str(error_of(deal_obj))


@pytest.mark.parametrize("bids, fragment", [
    (["pass", "garde", "prise", "pass"], "key 'bids': bid 'prise' does not beat the previous bid 'garde'"),
    (["pass", "pass", "grde", "pass"], "key 'bids[2]': unknown contract 'grde'"),
    (["pass"] * 5, "5 bids for 4 players"),
    (["pass"] * 4, "every player passed, yet the record names a taker or a contract"),
    (["garde_sans", "pass", "pass", "pass"], "won with 'garde_sans' but the contract is 'garde'"),
])
def test_bad_bids(deal_obj: Dict[str, Any], bids: Any, fragment: str) -> None:
    deal_obj["bids"] = bids
    assert fragment in str(error_of(deal_obj))


def test_bids_must_name_the_taker(deal_obj: Dict[str, Any]) -> None:
    wrong_order = deal_obj["bids"][1:] + deal_obj["bids"][:1]
    deal_obj["bids"] = wrong_order
    assert "but the taker is seat" in str(error_of(deal_obj))
    # dealer 2: the bids go round from seat 3, so the second bid is seat 0's
    assert (deal_obj["dealer"], wrong_order, deal_obj["taker"]) == (2, ["pass", "garde", "pass", "pass"], 1)
    err = error_of(deal_obj)
    assert str(err).endswith("key 'bids': the winning bid 'garde' (bids[1]) is seat 0's, bidding from seat 3"
                             " (the dealer's right), but the taker is seat 1")
    assert err.token == "garde"


def test_bids_without_dealer_check_only_the_contract(deal_obj: Dict[str, Any]) -> None:
    del deal_obj["dealer"]
    deal_obj["bids"] = deal_obj["bids"][1:] + deal_obj["bids"][:1]
    assert DealRecord.from_json(deal_obj).bids == deal_obj["bids"]


def _poignee_case(obj: Dict[str, Any], seat: int, trumps: Any) -> str:
    obj["poignees"] = [{"seat": seat, "trumps": trumps}]
    return str(error_of(obj))


def test_bad_poignees(deal_obj: Dict[str, Any]) -> None:
    taker = deal_obj["taker"]
    record = DealRecord.from_json(deal_obj)
    trumps = [card_token(c) for c in range(56, 77) if record.playing_hand(taker) >> c & 1]
    assert "a poignée shows exactly 10, 13, 15 trumps, not" in _poignee_case(deal_obj, taker, trumps)
    assert "'KS' shown in a poignée is not a trump" in _poignee_case(deal_obj, taker, ["KS"] + trumps[:9])
    foreign = [f"T{n}" for n in range(1, 22) if f"T{n}" not in trumps][:10]
    message = _poignee_case(deal_obj, taker, foreign)
    assert "key 'poignees[0].trumps'" in message and "is not in the player's hand" in message
    assert "key 'poignees[0].seat': bad seat '7'" in _poignee_case(deal_obj, 7, trumps)
    deal_obj["poignees"] = [{"seat": 1, "trumps": [], "level": 1}]
    assert "unknown key 'level' in a poignée" in str(error_of(deal_obj))
    deal_obj["poignees"] = "none"
    assert "expected a list of poignées, got a string" in str(error_of(deal_obj))
    deal_obj["poignees"] = [{"trumps": trumps[:10]}]
    assert "key 'poignees[0]': missing key 'seat'" in str(error_of(deal_obj))
    deal_obj["poignees"] = [{"seat": taker}]
    assert "key 'poignees[0]': missing key 'trumps'" in str(error_of(deal_obj))


def test_the_taker_shows_a_poignee_from_his_hand_after_the_discard() -> None:
    # playing_hand: the taker's poignée is checked against his hand less his discard.
    # Three plain cards to discard, so three trumps go with them (T2 T3 T4): he keeps 14
    # trumps and the Excuse, a triple poignée with the Excuse (no trump held back, the
    # discarded ones are not held), and may not show a trump he discarded.
    taker_and_dog = ["KS", "KH", "KD", "T1", "T21", "EX", "2S", "3S", "4S"] + [f"T{n}" for n in range(2, 17)]
    discard = ["2S", "3S", "4S", "T2", "T3", "T4"]
    rest = [card_token(c) for c in range(78) if card_token(c) not in taker_and_dog]
    obj = {"hands": [taker_and_dog[6:], rest[:18], rest[18:36], rest[36:]], "dog": taker_and_dog[:6],
           "taker": 0, "contract": "garde", "discard": discard}
    kept = ["T1", "T21"] + [f"T{n}" for n in range(5, 17)]
    obj["poignees"] = [{"seat": 0, "trumps": kept + ["EX"]}]
    assert DealRecord.from_json(obj).poignee_levels() == [2]
    message = _poignee_case(obj, 0, kept + ["T2"])
    assert "key 'poignees[0].trumps'" in message and "'T2' shown in a poignée is not in the player's hand" in message
    # in a garde sans the dog is not his: he shows from his hand as dealt, T2..T16 (a triple poignée), not T1
    del obj["discard"]
    obj.update(contract="garde_sans", poignees=[{"seat": 0, "trumps": [f"T{n}" for n in range(2, 17)]}])
    assert DealRecord.from_json(obj).poignee_levels() == [2]
    message = _poignee_case(obj, 0, ["T1"] + [f"T{n}" for n in range(2, 11)])
    assert "key 'poignees[0].trumps': 'T1' shown in a poignée is not in the player's hand" in message


def test_second_poignee_of_a_seat() -> None:
    record = next(r for r in read_records(EXAMPLES / "history.jsonl") if r.poignees)
    obj = record.to_json()
    obj["poignees"] = obj["poignees"] * 2
    assert "key 'poignees[1].seat'" in str(error_of(obj)) and "shows a second poignée" in str(error_of(obj))
    assert error_of(obj).token == str(obj["poignees"][0]["seat"])


def test_slam_must_be_boolean_and_need_a_taker(deal_obj: Dict[str, Any]) -> None:
    assert "key 'slam': expected true or false, got a string (token 'yes')" in str(error_of(dict(deal_obj, slam="yes")))
    bare = {"hands": deal_obj["hands"], "dog": deal_obj["dog"], "slam": True}
    assert "a slam is announced but the record names no taker" in str(error_of(bare))


def test_played_needs_taker_contract_and_leader(game_obj: Dict[str, Any]) -> None:
    for key in ("taker", "contract", "discard", "bids"):
        game_obj.pop(key)
    message = str(error_of(game_obj))
    assert "key 'played'" in message and "without taker and contract" in message


def test_card_played_twice(game_obj: Dict[str, Any]) -> None:
    game_obj["played"][5] = game_obj["played"][1]
    message = str(error_of(game_obj))
    assert "key 'played[5]'" in message and f"does not hold '{game_obj['played'][1]}'" in message


def test_card_played_after_the_end(game_obj: Dict[str, Any]) -> None:
    game_obj["played"].append("KS")
    message = str(error_of(game_obj))
    assert "key 'played[72]'" in message and "after the end of the game" in message


def test_unknown_token_in_played(game_obj: Dict[str, Any]) -> None:
    game_obj["played"][7] = "T22"
    assert "key 'played[7]': unknown card 'T22': trumps run from 1 to 21" in str(error_of(game_obj))


def test_played_may_be_one_string_of_tokens(game_obj: Dict[str, Any]) -> None:
    played = game_obj["played"][:30]
    spaced = dict(game_obj, played=", ".join(t.lower() for t in played[:2]) + " " + " ".join(played[2:]))
    record = DealRecord.from_json(spaced)
    assert record == DealRecord.from_json(dict(game_obj, played=played))
    assert record.to_json()["played"] == played  # written back as the canonical list
    assert json.loads(write_records([record]))["played"] == played
    twice = " ".join(played[:5] + played[1:2])
    assert "key 'played[5]'" in str(error_of(dict(game_obj, played=twice)))
    assert DealRecord.from_json(dict(game_obj, played="")).played == []
    # nothing played: no taker, contract or leader needed
    bare = {"hands": game_obj["hands"], "dog": game_obj["dog"]}
    assert DealRecord.from_json(dict(bare, played=[])).played == []


HUGE = "X" * 100_000


@pytest.mark.parametrize("change", [
    lambda o: o["hands"][0].__setitem__(0, HUGE),
    lambda o: o["hands"].__setitem__(0, " ".join(o["hands"][0][1:]) + " " + HUGE),  # one string of tokens
    lambda o: o["hands"][0].__setitem__(0, "\x00" * 100_000),  # shown with escapes
    lambda o: o["hands"][0].__setitem__(0, 10 ** 4000),  # a number that is no card
    lambda o: o["hands"][0].__setitem__(1, o["hands"][0][0] + " " * 100_000),  # a duplicate card
    lambda o: o.update(played=o["played"][:3] + [HUGE]),
    lambda o: o.update(played=" ".join(o["played"][:3]) + " " + HUGE),
    lambda o: o.update(id=HUGE, contract="gardez"),
    lambda o: o.update(poignees=[{"seat": 0, "trumps": [], HUGE: 1}]),
], ids=["token", "token-in-string", "unprintable", "number", "duplicate", "played", "played-string", "id",
        "poignee-key"])
def test_a_huge_value_is_cut_short_in_messages(game_obj: Dict[str, Any], change: Any) -> None:
    change(game_obj)
    err = error_of(game_obj, file="f", record="line 1")
    assert len(str(err)) < 250 and len(err.token or "") <= 40, str(err)[:500]


def test_a_value_of_forty_characters_is_shown_whole(game_obj: Dict[str, Any]) -> None:
    game_obj["hands"][2][0] = "X" * 40
    assert str(error_of(game_obj)).endswith("unknown card '" + "X" * 40 + "'")
    game_obj["hands"][2][0] = "X" * 41
    assert str(error_of(game_obj)).endswith("unknown card '" + "X" * 37 + "...'")


def test_a_token_quoted_in_the_message_is_not_repeated(game_obj: Dict[str, Any]) -> None:
    game_obj["hands"][2][0] = "Z'Z"  # (its repr is "Z'Z", not the message's 'Z'Z')
    err = error_of(game_obj)
    assert err.token == "Z'Z" and str(err) == "id 'example-game': key 'hands[2]': unknown card 'Z'Z'"


def test_an_error_keeps_the_location_it_has() -> None:
    error = RecordError("bad", file="a.json", record="line 2", key="dog")
    assert error.located(file="b.json", record="line 9", key="hands") is error
    assert str(error) == "a.json: line 2: key 'dog': bad"
    unplaced = RecordError("bad", key="dog").located(file="b.json", record="line 9")
    assert str(unplaced) == "b.json: line 9: key 'dog': bad"


def test_plural_and_one_line() -> None:
    assert [plural(n, "deal") for n in (0, 1, 2)] == ["0 deals", "1 deal", "2 deals"]
    # card points, in halves: singular for exactly one point
    assert [plural(points(hp), "point") for hp in (0, 1, 2, 3, 60)] == \
        ["0 points", "0.5 points", "1 point", "1.5 points", "30 points"]
    assert one_line("a\n  b\tc\x00 ") == "a b c\\x00"


def test_a_huge_called_card_is_cut_short(five_obj: Dict[str, Any]) -> None:
    five_obj["called"] = "KS" + " " * 100_000 + "QS"
    err = error_of(five_obj)
    assert "key 'called': expected one card, got 2 (token 'KS " in str(err) and len(str(err)) < 250


def test_bad_id_type(deal_obj: Dict[str, Any]) -> None:
    assert "key 'id': expected a string, got a list (token '[1]')" in str(error_of(dict(deal_obj, id=[1])))
    assert DealRecord.from_json(dict(deal_obj, id=17)).id == "17"
    assert "key 'id': expected a string, got a boolean (token 'true')" in str(error_of(dict(deal_obj, id=True)))


# Files -----------------------------------------------------------------------------


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((EXAMPLES / "game.json").read_bytes())))
    assert read_record("-").id == "example-game"


def test_stdin_errors_are_labelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    with pytest.raises(RecordError, match="<stdin>: empty file"):
        read_records("-")


def test_read_record_wants_exactly_one() -> None:
    with pytest.raises(RecordError, match="expected one deal record, found 20"):
        read_record(EXAMPLES / "history.jsonl")


def test_not_utf8(tmp_path: Any) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b'{"hands": "\xff"}')
    with pytest.raises(RecordError, match="not UTF-8 text"):
        read_records(path)


def test_a_pretty_record_with_a_line_not_utf8_is_one_error_at_that_line(tmp_path: Any) -> None:
    pretty = (EXAMPLES / "midgame.json").read_text(encoding="utf-8").rstrip("\n") + "\n"
    latin1 = pretty.replace('"example-midgame"', '"partie-\u00e9t\u00e9"').encode("latin-1")
    path = tmp_path / "latin1.json"
    path.write_bytes(latin1)
    with pytest.raises(RecordError, match=r"latin1\.json: line 2: not UTF-8 text \(bad byte at column 17\)$"):
        read_record(path)
    # once, whatever follows it: the next record is kept
    path.write_bytes(latin1 + HISTORY_LINES[0].encode())
    items = list(iter_records(path))
    assert [(n, type(x).__name__) for n, x in items] == [(2, "RecordError"), (pretty.count("\n") + 1, "DealRecord")]
    # also when the record breaks after that line, or opens on it
    broken = latin1.replace(b'"dealer": 2,', b'"dealer": 2', 1)
    assert broken != latin1
    path.write_bytes(broken + HISTORY_LINES[0].encode())
    assert [(n, type(x).__name__) for n, x in iter_records(path)] == [(2, "RecordError"),
                                                                       (pretty.count("\n") + 1, "DealRecord")]
    path.write_bytes(latin1.replace(b"{\n ", b"{", 1))
    assert [(n, "not UTF-8" in str(x)) for n, x in iter_records(path)] == [(1, True)]


def test_a_value_nested_too_deeply_over_lines_is_an_error(tmp_path: Any) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[[[[\n" + "[" * 100_000 + "\n" + HISTORY_LINES[0], encoding="utf-8")
    items = list(iter_records(path))
    assert [n for n, x in items if isinstance(x, RecordError) and "nested too deeply" in str(x)] == [1, 2]
    assert items[-1][0] == 3 and isinstance(items[-1][1], DealRecord)


RECORD_TEXTS = [(EXAMPLES / "midgame.json").read_text(encoding="utf-8"), "".join(HISTORY_LINES[:4]),
                "\n \n" + HISTORY_LINES[0]]


@pytest.mark.parametrize("encoding, says", [
    ("utf-16", "UTF-16 text: save it as UTF-8"), ("utf-16-be", "utf-16-le"), ("utf-32", "UTF-32 text: save it as UTF-8")
] + [(name, "holds NUL bytes (UTF-16 without a byte order mark, or not text?): save it as UTF-8")
     for name in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")])
def test_a_file_in_utf16_or_utf32_is_refused_whole(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, encoding: str,
                                                   says: str) -> None:
    if says == "utf-16-le":  # (a byte order mark written big-endian)
        encoding, says = "utf-16-be", "UTF-16 text: save it as UTF-8"
        texts = ["\ufeff" + text for text in RECORD_TEXTS]
    else:
        texts = RECORD_TEXTS
    path = tmp_path / "u.json"
    for text in texts:
        path.write_bytes(text.encode(encoding))
        for read in (read_record, read_records, lambda p: list(iter_records(p)), read_text):
            with pytest.raises(RecordError) as info:
                read(path)
            assert str(info.value).startswith(f"{path}: ") and says in str(info.value)
            assert info.value.record is None
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode(encoding))))
        with pytest.raises(RecordError, match="^<stdin>: "):
            list(iter_records("-"))


def test_nul_bytes_after_the_first_line_are_that_line_s_error(tmp_path: Any) -> None:
    path = tmp_path / "h.jsonl"
    path.write_bytes(b"\n" + HISTORY_LINES[0].encode() + b'{"id": "\x00"}\n' + HISTORY_LINES[1].encode())
    assert [(n, type(x).__name__) for n, x in iter_records(path)] == [
        (2, "DealRecord"), (3, "RecordError"), (4, "DealRecord")]


@pytest.mark.parametrize("args", [["solve"], ["solve", "--strict", "-j", "1"], ["replay"], ["analyze", "-j", "1"],
                                  ["bid"], ["discard"], ["play"]])
def test_every_command_refuses_a_utf16_file_in_one_line(tmp_path: Any, args: List[str]) -> None:
    from click.testing import CliRunner

    from tarot_solver.cli import main
    path = tmp_path / "u16.json"
    path.write_bytes(RECORD_TEXTS[0].encode("utf-16"))
    result = CliRunner().invoke(main, [args[0], str(path), *args[1:]])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"tarot-solve: error: {path}: UTF-16 text: save it as UTF-8\n"


def test_text_must_be_a_string() -> None:
    with pytest.raises(TypeError, match="^text must be a string \\(the file's text\\), not bytes$"):
        read_record("x.json", text=b"{}")  # type: ignore[arg-type]
    # a lone surrogate (bytes decoded with surrogateescape, say) is no text: bad input, not UnicodeEncodeError
    with pytest.raises(RecordError, match=r"^x.json: line 1: not UTF-8 text \(bad byte at column 9\)$"):
        read_record("x.json", text='{"id": "\udc80"}')


def test_a_bad_line_of_json_lines_is_skipped_with_its_line(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    good = (EXAMPLES / "history.jsonl").read_bytes().splitlines(True)[:2]
    bad = [b'{"id": "x\xff"}\n', b"[" * 100_000 + b"]" * 100_000 + b"\n", b'{"id": ' + b"9" * 5000 + b"}\n"]
    data = b"\xef\xbb\xbf" + good[0] + b"".join(bad) + good[1]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(data)
    items = list(iter_records(path))
    assert [n for n, _ in items] == [1, 2, 3, 4, 5]
    assert isinstance(items[0][1], DealRecord) and isinstance(items[4][1], DealRecord)
    assert "line 2: not UTF-8 text (bad byte at column 10)" in str(items[1][1])
    assert "line 3: unreadable JSON: nested too deeply" in str(items[2][1])
    assert "line 4: unreadable JSON: Exceeds the limit" in str(items[3][1])
    # stdin reads the same, byte order mark included
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert [(n, str(x)) for n, x in iter_records("-")] == [(n, str(x).replace(str(path), "<stdin>"))
                                                          for n, x in items]


def test_a_first_line_cut_short_is_one_bad_record_of_json_lines(tmp_path: Any) -> None:
    lines = (EXAMPLES / "history.jsonl").read_text(encoding="utf-8").splitlines(True)
    path = tmp_path / "cut.jsonl"
    path.write_text(lines[0][:40] + "\n" + lines[1] + lines[2], encoding="utf-8")
    items = list(iter_records(path))
    assert [n for n, _ in items] == [1, 2, 3] and "line 1: malformed JSON" in str(items[0][1])
    assert all(isinstance(x, DealRecord) for _, x in items[1:])


def test_a_pretty_record_through_a_pipe(tmp_path: Any) -> None:
    # the reader reads on from the handle it has (a pipe cannot be opened twice)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes((EXAMPLES / "game.json").read_bytes()))
    writer.start()
    assert read_record(fifo).id == "example-game"
    writer.join()


def test_missing_file_is_an_os_error(tmp_path: Any) -> None:
    with pytest.raises(FileNotFoundError):
        read_records(tmp_path / "nope.json")


def test_count_records_counts_the_lines_that_open_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal = EXAMPLES / "deal.json"
    pretty = deal.read_text(encoding="utf-8")
    flat = json.dumps(json.loads(pretty)) + "\n"
    path = tmp_path / "mixed.jsonl"
    path.write_text(flat * 3 + "\n  \n" + pretty + flat.replace("\n", "\r\n") + "junk\n", encoding="utf-8")
    assert count_records(path) == 5 == sum(1 for _, r in iter_records(path) if isinstance(r, DealRecord))
    # a record starting exactly at a block's first byte is counted once
    monkeypatch.setattr("tarot_solver.records.COUNT_BLOCK", len(flat))
    assert count_records(path) == 5
    assert count_records("-") is None and count_records(tmp_path) is None
    # a block that begins inside a line, at a "{", is no record's start
    monkeypatch.setattr("tarot_solver.records.COUNT_BLOCK", 1)
    path.write_text("x{\n" + flat + ' {"a": 1}\n' + flat, encoding="utf-8")
    assert count_records(path) == 2
