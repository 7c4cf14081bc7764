"""The TarotClub importer: rebuilt deals, error reports, and ``tarot-solve convert``.

The logs in ``tests/data/tarotclub`` are synthetic, written in TarotClub's format
(docs/tarotclub-format.md) from games whose deal is known, so each conversion is
checked against the original record:

* ``h03_guard``, ``h04_take_poignee`` (an attack poignée): games of
  ``examples/history.jsonl``, as TarotClub writes them (sorted keys, 4-space indent);
* ``h10_hand_made_trailing_commas``: game h10 in the style of TarotClub's hand-made
  fixtures (hand-ordered keys, a trailing comma);
* ``h01_slam``: game h01 with a slam announced (its first leader is the taker);
* ``seed26_defence_poignee``: ``make_examples.make_game(26)``, a defender shows a poignée;
* ``seed69_guard_without`` and ``seed69_guard_against``: ``make_game(69, garde_sans)``,
  the second relabelled as a garde contre (the play is the same);
* ``three_guard``: ``examples/three.json``, a three-player game;
* ``doc_example_illegal``: example 1 of docs/tarotclub-format.md, whose play is not
  legal; its hands (section 5 of that note) are still rebuilt.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any, Dict

import pytest
from click.testing import CliRunner

from tarot_solver import tarotclub
from tarot_solver.cards import EXCUSE, NUM_CARDS, TRUMP_BASE, card_token
from tarot_solver.cli import main
from tarot_solver.errors import IllegalMoveError, RecordError, TarotError
from tarot_solver.records import DealRecord, read_record, read_records
from tarot_solver.variant import Contract

from conftest import EXAMPLES, ROOT

DATA = ROOT / "tests" / "data" / "tarotclub"
sys.path.insert(0, str(EXAMPLES))
import make_examples  # noqa: E402


def log(name: str) -> Dict[str, Any]:
    return json.loads(tarotclub.strip_trailing_commas((DATA / name).read_text(encoding="utf-8")))


def comparable(record: DealRecord, *drop: str) -> Dict[str, Any]:
    obj = record.to_json()
    for key in ("id", "bids") + drop:
        obj.pop(key, None)
    return obj


EXAMPLE_GAMES = {r.id: r for r in read_records(EXAMPLES / "history.jsonl")}


@pytest.mark.parametrize("name, game", [("h03_guard", "h03"), ("h04_take_poignee", "h04"),
                                        ("h10_hand_made_trailing_commas", "h10")])
def test_rebuilds_example_games(name: str, game: str) -> None:
    record = tarotclub.read_log(DATA / f"{name}.json")
    assert record.id == name
    assert comparable(record) == comparable(EXAMPLE_GAMES[game])
    assert record.score().scores(record.taker) == EXAMPLE_GAMES[game].score().scores(record.taker)


def test_rebuilds_a_three_player_game() -> None:
    record = tarotclub.read_log(DATA / "three_guard.json")
    original = DealRecord.from_json(json.loads((EXAMPLES / "three.json").read_text(encoding="utf-8")))
    assert record.players == 3 and comparable(record) == comparable(original)
    doc = log("three_guard.json")
    doc["deal_info"]["taker"] = "West"
    with pytest.raises(RecordError, match=r"expected a seat \(South, East or North\), got \"West\""):
        tarotclub.to_record(doc)


def test_slam_leader_is_kept_and_dealer_unknown() -> None:
    record = tarotclub.read_log(DATA / "h01_slam.json")
    original = EXAMPLE_GAMES["h01"]
    assert (record.slam, record.leader, record.dealer) == (True, original.taker, None)
    assert comparable(record, "slam", "leader") == comparable(original, "dealer")


def test_defence_poignee_goes_to_the_defender_holding_it() -> None:
    record = tarotclub.read_log(DATA / "seed26_defence_poignee.json")
    original = make_examples.make_game(26, "x")
    assert original is not None and record.poignees is not None
    assert [s for s, _ in record.poignees] == [0] and record.taker != 0
    assert comparable(record) == comparable(original)


@pytest.mark.parametrize("name, contract", [("seed69_guard_without", Contract.GARDE_SANS),
                                            ("seed69_guard_against", Contract.GARDE_CONTRE)])
def test_dog_untouched_in_garde_sans_and_contre(name: str, contract: Contract) -> None:
    record = tarotclub.read_log(DATA / f"{name}.json")
    original = make_examples.make_game(69, "x", contract=Contract.GARDE_SANS)
    assert original is not None
    assert record.contract is contract and record.discard is None
    assert comparable(record, "contract") == comparable(original, "contract")
    # the dog counts for the taker in a garde sans, for the defence in a garde contre
    assert (record.opening_state().taker_hp > 0) == (contract is Contract.GARDE_SANS)


def test_doc_example_hands_are_rebuilt_though_its_play_is_illegal() -> None:
    section5 = {  # docs/tarotclub-format.md, section 5
        "South": "13-S;09-S;09-H;06-T;11-T;05-T;06-S;11-D;06-H;01-C;03-T;14-T;12-D;09-T;10-D;10-S;06-D;08-C",
        "East": "02-C;04-S;04-D;05-S;07-C;11-H;14-C;09-C;19-T;05-C;03-H;13-T;08-D;09-D;04-H;14-D;12-S;04-C",
        "North": "04-T;10-T;07-T;21-T;18-T;07-D;14-S;01-D;12-T;16-T;07-S;15-T;20-T;07-H;12-C;02-T;14-H;17-T",
        "West": "01-T;13-C;05-H;02-H;01-S;03-D;03-S;12-H;05-D;02-D;08-H;01-H;00-T;11-C;13-H;02-S;10-H;08-T",
    }
    fields = tarotclub.rebuild(log("doc_example_illegal.json"))
    assert fields["hands"] == [sorted(tarotclub.parse_cards(section5[s], "x")) for s in section5]
    assert fields["discard"] == sorted(tarotclub.parse_cards("01-D;03-C;06-C;07-D;07-H;07-S", "x"))
    assert (fields["taker"], fields["dealer"], fields["contract"]) == (2, 3, Contract.GARDE)
    assert fields["poignees"][0][0] == 2
    with pytest.raises(IllegalMoveError) as err:
        tarotclub.read_log(DATA / "doc_example_illegal.json")
    assert "key 'tricks[0]': North may not play '04-T' in trick 1 (must play one of 20-T 21-T)" in str(err.value)
    # the message docs/analyze.md quotes for an illegal log is this one's
    quoted = re.search(r"in the log's terms: `(key [^`]*) \.\.\.`", (ROOT / "docs" / "analyze.md").read_text())
    assert quoted is not None and quoted.group(1) in str(err.value)


def test_card_tokens_cover_the_deck() -> None:
    tokens = [f"{v:02d}-{s}" for s in "SHDC" for v in range(1, 15)] + [f"{v:02d}-T" for v in range(22)]
    cards = [tarotclub.parse_card(t, "k") for t in tokens]
    assert sorted(cards) == list(range(NUM_CARDS))
    assert [tarotclub.log_token(c) for c in cards] == tokens  # (messages spell the log's cards as it does)
    assert card_token(tarotclub.parse_card("14-S", "k")) == "KS"
    assert tarotclub.parse_card("00-T", "k") == EXCUSE and tarotclub.parse_card("01-T", "k") == TRUMP_BASE
    # read as a deal record's tokens are: in any case, spaces around ignored
    assert [tarotclub.parse_card(t, "k") for t in ("14-s", " 01-t ", "00-t")] == [13, TRUMP_BASE, EXCUSE]
    # ASCII digits only, as for deal records: an Arabic-Indic or a fullwidth 14 was read as a king
    for bad in ("15-S", "22-T", "00-S", "1-S", "14S", "14-X", "\u0661\u0664-S", "\uff11\uff14-S"):
        with pytest.raises(RecordError, match=f"unknown TarotClub card '{bad}'"):
            tarotclub.parse_card(bad, "k")


def test_trailing_commas_removed_outside_strings_only() -> None:
    text = '{"a": "x,]", "b": [1, 2, ], "c": "q\\",}",\n}'
    assert json.loads(tarotclub.strip_trailing_commas(text)) == {"a": "x,]", "b": [1, 2], "c": 'q",}'}


def test_trailing_commas_removed_in_place() -> None:
    # a JSON error after a closing bracket is found where it is in the file: the text keeps
    # its lines and columns (it said line 20 for line 21, the newline before '}' removed)
    text = '{\n  "a": [1, 2,\n  ],\n  "b": {"c": 1,\n  }\n}'
    stripped = tarotclub.strip_trailing_commas(text)
    assert json.loads(stripped) == {"a": [1, 2], "b": {"c": 1}}
    assert stripped == '{\n  "a": [1, 2 \n  ],\n  "b": {"c": 1 \n  }\n}'


def test_malformed_log_named_at_its_own_line_and_column(tmp_path: Path) -> None:
    lines = (DATA / "h03_guard.json").read_text(encoding="utf-8").splitlines()
    broken = next(i for i, line in enumerate(lines) if line.strip().startswith('"10-C;04-C'))
    lines[broken] = lines[broken].rstrip(",")  # a comma missing between two tricks
    bad = tmp_path / "bad.json"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as e:
        tarotclub.read_log(bad)
    assert str(e.value) == f"{bad}: malformed JSON at line {broken + 2}, column 9: Expecting ',' delimiter"
    bad.write_text('{"deal_info": {"number_of_players": 4,}, "tricks": [', encoding="utf-8")
    with pytest.raises(RecordError, match="at line 1, column 53: Expecting value$"):
        tarotclub.read_log(bad)
    bad.write_text('{"deal_info": {"taker": "South', encoding="utf-8")  # (json says "... starting at")
    with pytest.raises(RecordError, match="at line 1, column 25: Unterminated string starting$"):
        tarotclub.read_log(bad)


def test_a_log_given_as_a_record_says_to_convert_it() -> None:
    # analyze, solve... read deal records: a TarotClub log there says what to do with it
    with pytest.raises(RecordError) as e:
        read_record(DATA / "h03_guard.json")
    assert str(e.value) == (f"{DATA / 'h03_guard.json'}: line 1: key 'hands': missing required key 'hands'"
                            " (a TarotClub log: 'tarot-solve convert' makes deal records of such logs)")
    with pytest.raises(RecordError, match="missing required key 'hands'$"):
        DealRecord.from_json({"dog": [], "deal_info": 3})


def test_an_empty_log_is_named_so(tmp_path: Path) -> None:
    # (a save cut short) it said: malformed JSON at line 1, column 1: Expecting value
    bad = tmp_path / "empty.json"
    for blank in ("", " \n\n"):
        bad.write_text(blank, encoding="utf-8")
        with pytest.raises(RecordError) as e:
            tarotclub.read_log(bad)
        assert str(e.value) == f"{bad}: empty file: no TarotClub log"


def _broken(change: Any) -> Dict[str, Any]:
    doc = copy.deepcopy(log("h03_guard.json"))
    change(doc)
    return doc


@pytest.mark.parametrize("change, fragments", [
    (lambda d: d["deal_info"].__setitem__("number_of_players", 5), ("5-player", "number_of_players")),
    (lambda d: d["deal_info"].__setitem__("number_of_players", "4"),
     ("key 'deal_info.number_of_players'", "expected the number of players, 3 or 4, got a string", """token '"4"'""")),
    (lambda d: d["deal_info"].__setitem__("number_of_players", [4]), ("expected the number of players",)),
    (lambda d: d["tricks"].__setitem__(3, "15-D;" + d["tricks"][3].split(";", 1)[1]),
     ("key 'tricks[3]'", "unknown TarotClub card '15-D'")),
    (lambda d: d["deal_info"].__setitem__("dog", "X" * 5000 + ";01-S"),  # a huge token: cut short
     ("key 'deal_info.dog'", "unknown TarotClub card '" + "X" * 37 + "...'")),
    (lambda d: d["tricks"].pop(), ("expected 18 tricks, got 17",)),
    (lambda d: d.__setitem__("tricks", ";".join(d["tricks"])),  # it said: got none
     ("key 'tricks': expected a list of 18 tricks, got a string (token '14-S;05-S;04-S;",)),
    (lambda d: d.__setitem__("tricks", {"0": d["tricks"][0]}), ("expected a list of 18 tricks, got an object",)),
    (lambda d: d.pop("tricks"), ("key 'tricks': expected a list of 18 tricks, got no 'tricks' key",)),
    (lambda d: d["tricks"].__setitem__(2, d["tricks"][2] + ";02-S"), ("key 'tricks[2]'", "holds 4 cards, not 5")),
    (lambda d: d["tricks"].__setitem__(5, d["tricks"][0]), ("key 'tricks[5]'", "played twice")),
    (lambda d: d["deal_info"].__setitem__("dog", ""), ("key 'deal_info.dog'", "the dog is empty")),
    (lambda d: d["deal_info"].__setitem__("dog", "14-S;" + d["deal_info"]["dog"]),  # (it said: the dog has 7 cards)
     ("key 'deal_info.dog': card '14-S' appears twice",)),
    # it said: key 'hands[0]': hands[0] has 19 cards, expected 18; dog has 5 cards (no 'hands' in a log)
    (lambda d: d["deal_info"].__setitem__("dog", d["deal_info"]["dog"][5:]),
     ("key 'deal_info.dog': the dog has 5 cards, expected 6",)),
    (lambda d: d["deal_info"].__setitem__("taker", "Nowhere"), ("key 'deal_info.taker'", "expected a seat")),
    (lambda d: d["deal_info"].__setitem__("contract", "Pass"), ("key 'deal_info.contract'", "unknown contract")),
    (lambda d: d["deal_info"].__setitem__("taker", None), ("got null (token 'null')",)),  # spelled as in the log
    (lambda d: d["deal_info"].__setitem__("slam", {"x": 0}), ("true or false (token '{\"x\": 0}')",)),
    (lambda d: d.pop("deal_info"), ("not a TarotClub deal log",)),
    (lambda d: d["deal_info"].__setitem__("defense_handle", "21-T"),  # the taker's trump
     ("key 'deal_info.defense_handle'", "no defender holds every card")),
    (lambda d: d["deal_info"].__setitem__("attack_handle", "01-T;02-T"),  # the record's poignees[0]
     ("key 'deal_info.attack_handle'", "exactly 10, 13, 15")),
])
def test_bad_logs_name_the_problem(change: Any, fragments: Any) -> None:
    with pytest.raises(TarotError) as err:
        tarotclub.to_record(_broken(change))
    for fragment in fragments:
        assert fragment in str(err.value)


def test_a_dog_of_the_wrong_size_is_named_in_any_contract() -> None:
    for name in ("h03_guard.json", "seed69_guard_without.json", "three_guard.json"):
        doc = log(name)
        dog = doc["deal_info"]["dog"].split(";")
        dog.append(next(t for t in ";".join(doc["tricks"]).split(";") if t not in dog))  # 7 cards
        doc["deal_info"]["dog"] = ";".join(dog)
        with pytest.raises(RecordError) as err:
            tarotclub.to_record(doc)
        assert str(err.value) == "key 'deal_info.dog': the dog has 7 cards, expected 6", name


def test_a_key_twice_is_refused_naming_its_path(tmp_path: Path) -> None:
    """As in a deal record, a key twice in one object is an error (the json module keeps
    the last value: "Guard","Take" was converted as a prise)."""
    text = (DATA / "h03_guard.json").read_text(encoding="utf-8")
    assert text.count('"contract":"Guard",') == 1
    bad = tmp_path / "twice.json"
    bad.write_text(text.replace('"contract":"Guard",', '"contract":"Guard","contract":"Take",'), encoding="utf-8")
    with pytest.raises(RecordError) as err:
        tarotclub.read_log(bad)
    assert str(err.value) == f"{bad}: key 'deal_info.contract': duplicate key 'contract' (which value is meant?)"
    result = CliRunner().invoke(main, ["convert", "--strict", str(bad)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("tarot-solve: error: " + str(err.value) + "\n")
    result = CliRunner().invoke(main, ["convert", str(bad), str(DATA / "h01_slam.json")])
    assert result.exit_code == 2 and [json.loads(line)["id"] for line in result.stdout.splitlines()] == ["h01_slam"]
    assert result.stderr.splitlines()[0] == "tarot-solve: skipped: " + str(err.value)
    bad.write_text(text.replace('"tricks":', '"version":"3",\n    "tricks":'), encoding="utf-8")
    with pytest.raises(RecordError, match="key 'version': duplicate key 'version'"):
        tarotclub.read_log(bad)
    # the same key in different objects is no repeat, and trailing commas are still allowed
    assert tarotclub.loads('{"a": {"a": [{"a": 1, "b": 2,}]}, "b": [],}') == {"a": {"a": [{"a": 1, "b": 2}]}, "b": []}
    with pytest.raises(RecordError, match=r"key 'a\.a\[0\]\.b': duplicate key 'b'"):
        tarotclub.loads('{"a": {"a": [{"b": 1, "b": 1}]}}')


def test_the_table_size_from_the_count_or_the_names() -> None:
    doc = log("h03_guard.json")
    want = tarotclub.to_record(copy.deepcopy(doc))
    doc["deal_info"]["players"] = 4  # not a list of names: the count decides
    assert tarotclub.to_record(copy.deepcopy(doc)) == want
    doc["deal_info"].pop("number_of_players", None)
    doc["deal_info"]["players"] = ["South", "East", "North", "West"]
    assert tarotclub.to_record(copy.deepcopy(doc)) == want
    doc["deal_info"].pop("players")  # neither: the four-player game
    assert tarotclub.to_record(doc) == want


def test_keys_a_log_may_leave_out_are_read_as_empty() -> None:
    doc = log("h03_guard.json")
    want = tarotclub.to_record(copy.deepcopy(doc))
    assert want.slam is None and want.dealer is not None
    for key in ("slam", "attack_handle", "defense_handle"):  # no slam announced, no poignée
        doc["deal_info"].pop(key)
    assert tarotclub.to_record(doc) == want


def test_an_illegal_card_of_a_three_player_log_is_named_by_its_trick() -> None:
    # a record's 'played[i]' is trick i // 3 at three players (i // 4 named a wrong trick)
    doc = log("three_guard.json")
    tricks = [t.split(";") for t in doc["tricks"]]
    for k, j in ((k, j) for k in range(10, 23) for j in range(3)):  # two cards of later tricks swapped
        bad = copy.deepcopy(doc)
        swapped = copy.deepcopy(tricks)
        swapped[k][j], swapped[k + 1][j] = swapped[k + 1][j], swapped[k][j]
        bad["tricks"] = [";".join(t) for t in swapped]
        try:
            tarotclub.to_record(bad)
        except IllegalMoveError as e:
            trick = int(re.search(r"in trick (\d+)", e.message).group(1))  # type: ignore[union-attr]
            assert trick >= 4 and e.key == f"tricks[{trick - 1}]", str(e)  # (from trick 4, i // 4 < i // 3)
            break
    else:
        raise AssertionError("no swap made the play illegal")


def test_dog_must_match_what_the_log_says() -> None:
    doc = log("seed69_guard_without.json")
    dog = doc["deal_info"]["dog"].split(";")
    doc["deal_info"]["dog"] = ";".join(dog[:-1] + [doc["tricks"][0].split(";")[0]])
    with pytest.raises(RecordError, match="the cards never played are not the dog"):
        tarotclub.to_record(doc)
    doc["deal_info"]["dog"] = ""  # hand-made files leave it empty: the cards never played are the dog
    assert tarotclub.to_record(doc).dog == tarotclub.read_log(DATA / "seed69_guard_without.json").dog
    guard = log("h03_guard.json")
    defender_card = guard["tricks"][0].split(";")[1]  # played by the seat after the leader, a defender
    guard["deal_info"]["dog"] = ";".join(guard["deal_info"]["dog"].split(";")[:-1] + [defender_card])
    with pytest.raises(RecordError, match="was played by a defender"):
        tarotclub.to_record(guard)


# tarot-solve convert ---------------------------------------------------------------------


def test_convert_directory_skips_bad_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(main, ["convert", str(DATA)])
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    names = sorted(p.stem for p in DATA.glob("*.json") if p.stem != "doc_example_illegal")
    assert [json.loads(line)["id"] for line in lines] == names
    assert result.stderr.splitlines() == [
        f"tarot-solve: skipped: {DATA / 'doc_example_illegal.json'}: key 'tricks[0]': North may not play '04-T'"
        " in trick 1 (must play one of 20-T 21-T)",
        "tarot-solve: error: 1 bad log skipped",
    ]
    out = tmp_path / "deals.jsonl"
    result = CliRunner().invoke(main, ["convert", str(DATA / "h03_guard.json"), str(DATA / "h01_slam.json"),
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [r.id for r in read_records(out)] == ["h03_guard", "h01_slam"]
    monkeypatch.chdir(tmp_path)  # '-' is stdout, as for solve and analyze; it wrote a file named '-'
    dash = CliRunner().invoke(main, ["convert", str(DATA / "h03_guard.json"), str(DATA / "h01_slam.json"), "-o", "-"])
    assert dash.exit_code == 0 and dash.stdout == out.read_text(encoding="utf-8")
    assert not (tmp_path / "-").exists()


def test_convert_strict_writes_nothing() -> None:
    result = CliRunner().invoke(main, ["convert", "--strict", str(DATA)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("tarot-solve: error: ") and "tricks[0]" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_convert_missing_or_malformed_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["convert", "--strict", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "No such file" in result.stderr
    # no log converted: the output is not opened, as analyze leaves it
    out = tmp_path / "out.jsonl"
    for said in ("not created", "left as it was"):
        result = CliRunner().invoke(main, ["convert", str(tmp_path / "none.json"), "-o", str(out)])
        assert result.exit_code == 2 and result.stderr.splitlines()[1:] == [
            f"tarot-solve: no deal written; {out} {said}", "tarot-solve: error: 1 bad log skipped"]
        out.write_text("kept\n", encoding="utf-8")
    assert out.read_text(encoding="utf-8") == "kept\n"
    result = CliRunner().invoke(main, ["convert", "-"], input="{}")  # it said: skipped: -: No such file
    assert result.exit_code == 2 and result.stdout == "" and result.stderr == (
        "tarot-solve: error: -: TarotClub logs are read from files, not from stdin (a log's file name is its"
        " record's id)\n")
    bad = tmp_path / "bad.json"
    bad.write_text((DATA / "h01_slam.json").read_text(encoding="utf-8"), encoding="utf-16")  # as records are
    result = CliRunner().invoke(main, ["convert", "--strict", str(bad)])
    assert result.exit_code == 2 and result.stderr == f"tarot-solve: error: {bad}: UTF-16 text: save it as UTF-8\n"
    bad.write_text('{"deal_info": {', encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", "--strict", str(bad)])
    assert result.exit_code == 2 and "bad.json: malformed JSON at line 1" in result.stderr
    for text, fragment in (("[" * 100_000, "nested too deeply"), ('{"a": ' + "9" * 5000 + "}", "Exceeds the limit")):
        bad.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(main, ["convert", str(bad), str(DATA / "h01_slam.json")])
        assert result.exit_code == 2 and f"bad.json: unreadable JSON: {fragment}" in result.stderr
        assert json.loads(result.stdout)["id"] == "h01_slam"  # the good log is converted


def test_convert_refuses_to_overwrite_a_log_and_an_empty_directory(tmp_path: Path) -> None:
    log = tmp_path / "h01.json"
    log.write_bytes((DATA / "h01_slam.json").read_bytes())
    result = CliRunner().invoke(main, ["convert", str(log), "-o", str(log)])
    assert result.exit_code == 2 and "is one of the logs" in result.stderr
    assert log.read_bytes() == (DATA / "h01_slam.json").read_bytes()
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["convert", str(empty), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2 and "no TarotClub log (*.json) in this directory" in result.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_log_files_takes_one_path_alone() -> None:
    assert tarotclub.log_files(str(DATA)) == tarotclub.log_files([DATA]) == sorted(DATA.glob("*.json"))


def test_a_directorys_hidden_files_are_not_logs(tmp_path: Path) -> None:
    # a Mac leaves '._NAME.json' resource files beside each log on a shared drive: reading them
    # as logs reported one bad record per game; a hidden file named on its own is still read
    log = tmp_path / "h01.json"
    log.write_bytes((DATA / "h01_slam.json").read_bytes())
    (tmp_path / "._h01.json").write_bytes(b"\x00\x05\x16\x07 Mac OS X")
    assert tarotclub.log_files(tmp_path) == [log]
    assert tarotclub.log_files([tmp_path / "._h01.json"]) == [tmp_path / "._h01.json"]
    result = CliRunner().invoke(main, ["convert", str(tmp_path)])
    assert result.exit_code == 0 and json.loads(result.stdout)["id"] == "h01"
