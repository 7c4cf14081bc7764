"""Bad input to `solve`, `bid` and `discard` named as the contract asks: the file, the
record, the key (a user's review of the command line)."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest
from click.testing import CliRunner

from tarot_solver.cli import main

from conftest import EXAMPLES


def run(args: List[str]) -> Any:
    return CliRunner().invoke(main, args)


def one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tarot-solve: error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("dropped, key", [(("taker", "contract", "discard", "bids"), "taker"),
                                          (("contract", "discard", "bids"), "contract"),
                                          (("dealer", "bids"), "dealer")])
def test_solve_names_the_missing_key(deal_obj: Dict[str, Any], write: Any, dropped: Any, key: str) -> None:
    path = write("deal.json", json.dumps({k: v for k, v in deal_obj.items() if k not in dropped}))
    for args in (["solve", str(path), "--nodes", "1000"], ["solve", str(path), "--made-only", "--nodes", "1000"]):
        line = one_line_error(run(args))
        assert f"deal.json: line 1 (id 'example-deal'): key '{key}': the deal cannot be played without" in line


@pytest.mark.parametrize("command", ["bid", "discard"])
def test_advice_on_a_record_without_taker_names_the_file(deal_obj: Dict[str, Any], write: Any,
                                                         command: str) -> None:
    path = write("deal.json", json.dumps({k: v for k, v in deal_obj.items()
                                          if k not in ("taker", "contract", "discard", "bids")}))
    line = one_line_error(run([command, str(path), "--worlds", "1"]))
    assert "deal.json: line 1 (id 'example-deal'): key 'taker': the deal record names no taker" in line


def test_discard_of_a_garde_sans_record_names_the_file(deal_obj: Dict[str, Any], write: Any) -> None:
    obj = {k: v for k, v in deal_obj.items() if k not in ("discard", "bids")}
    path = write("deal.json", json.dumps(dict(obj, contract="garde_sans")))
    line = one_line_error(run(["discard", str(path), "--worlds", "1"]))
    assert "deal.json: line 1 (id 'example-deal'): key 'contract': no discard in a garde_sans" in line
    # given as an option, the value is named by the option, not located in the file
    line = one_line_error(run(["discard", str(path), "--contract", "garde_sans", "--worlds", "1"]))
    assert line.startswith("tarot-solve: error: key '--contract': no discard in a garde_sans")


def test_many_deals_all_cards_text_gives_the_cards(tmp_path: Any) -> None:
    # --all-cards on a file of many deals, without --json: each line has the cards' values too
    lines = (EXAMPLES / "endgames.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    as_json = run(["solve", str(path), "--all-cards", "-j", "1", "--json"])
    text = run(["solve", str(path), "--all-cards", "-j", "1"])
    assert as_json.exit_code == text.exit_code == 0, text.output
    rows = text.stdout.splitlines()
    assert len(rows) == 2
    for row, obj in zip(rows, map(json.loads, as_json.stdout.splitlines())):
        assert obj["cards"] and all(m is not None for m in obj["cards"].values())
        expected = ", ".join(f"{tok} {m:+.1f}" if m else f"{tok} 0.0" for tok, m in obj["cards"].items())
        assert row.startswith(f"{obj['id']}: margin {obj['margin']:+.1f}, ")
        assert row.endswith(f"; cards: {expected}")


def test_resume_says_why_a_line_is_not_solves(tmp_path: Any) -> None:
    # --resume into lines another run wrote: the reason reads as one ("no key 'margin'"),
    # not "no key 'not a line of this command'"
    lines = (EXAMPLES / "endgames.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    deals = tmp_path / "two.jsonl"
    deals.write_text("\n".join(lines) + "\n", encoding="utf-8")
    why = {}
    for name, args in (("made_only", ["solve", "--made-only"]), ("margins", ["solve"]),
                       ("table", ["table", "--nodes", "1000"])):
        out = tmp_path / f"{name}.jsonl"
        assert run([args[0], str(deals), *args[1:], "-j", "1", "-o", str(out)]).exit_code == 0
        why[name] = out
    for out, args, reason in ((why["made_only"], [], "no key 'margin'"),
                              (why["table"], [], "no key 'margin'"),
                              (why["margins"], ["--made-only"], "a line of solve without --made-only"),
                              (why["table"], ["--made-only"], "no key 'made'")):
        line = one_line_error(run(["solve", str(deals), *args, "-j", "1", "-o", str(out), "--resume"]))
        assert line.endswith(f"line 1: not a line this command writes (with these options): {reason}"), line


@pytest.mark.parametrize("bids, expected", [("pass, Garde Sans", ["pass", "garde_sans"]),
                                            ("pass garde  contre", ["pass", "garde_contre"]),
                                            ("pass garde-sans", ["pass", "garde_sans"]),
                                            ("pass garde", ["pass", "garde"])])
def test_bids_spelled_as_contracts_are_read(bids: str, expected: List[str]) -> None:
    # a contract's name is read alike in a record, --contract and --bids: 'garde sans' is one bid
    result = run(["bid", str(EXAMPLES / "hand.txt"), "--seat", "2", "--bids", bids, "--worlds", "1",
                  "--node-budget", "1000", "-j", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["bids"] == expected
