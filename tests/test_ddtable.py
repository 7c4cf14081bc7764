"""The double-dummy table of a deal (tarot_solver.ddtable and `tarot-solve table`)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest
from click.testing import CliRunner

from tarot_solver import ddtable, rules
from tarot_solver.advice import discard_candidates, margin_score
from tarot_solver.cards import tokens
from tarot_solver.cli import main
from tarot_solver.ddtable import Cell, Row, dd_table, dd_tables
from tarot_solver.errors import Interrupted, RecordError
from tarot_solver.handcount import simple_call, simple_discard
from tarot_solver.notation import format_deal
from tarot_solver.records import DealRecord
from tarot_solver.solver import Solver
from tarot_solver.variant import Contract

from conftest import EXAMPLES, ctrl_c_at_call, load_json


def record(name: str) -> DealRecord:
    return DealRecord.from_json(load_json(name), file=name)


def timeless(rows: List[Row]) -> List[Row]:
    """``rows`` without their search times (which vary from run to run)."""
    return [dataclasses.replace(r, seconds=0.0) for r in rows]


def taking(deal: DealRecord, seat: int, contract: Contract, row: Row) -> rules.PlayState:
    """The opening position of ``deal`` with ``seat`` taking ``contract``, built as a record
    to solve would be (the row's discard and call), independently of the table."""
    changes: Dict[str, Any] = {"taker": seat, "contract": contract, "played": None, "bids": None,
                               "poignees": None, "slam": None, "leader": None,
                               "discard": list(row.discard) if contract.taker_takes_dog else None,
                               "called": row.called}
    return dataclasses.replace(deal, **changes).opening_state()


@pytest.mark.parametrize("name", ["deal.json", "three.json", "five.json"])
def test_static_table_is_each_contract_solved_as_a_record(name: str) -> None:
    # No search: each cell holds the static bounds of the position a record of that
    # taker and contract gives, so a wrong discard, camp, dog credit or leader shows.
    deal = record(name)
    table = dd_table(deal, node_limit=0)
    solver = Solver(table_mb=16)
    assert [r.taker for r in table.rows] == list(range(deal.variant.players))
    assert table.leader == (deal.dealer + 1) % deal.variant.players
    for row in table.rows:
        hands = [sum(1 << c for c in h) for h in deal.hands]
        dog = sum(1 << c for c in deal.dog)
        if row.taker == deal.taker and deal.discard is not None:
            assert list(row.discard) == deal.discard
        else:
            assert list(row.discard) == simple_discard(hands[row.taker] | dog, deal.variant)
        if deal.variant.partner_share:
            assert row.called == (deal.called if row.taker == deal.taker else simple_call(hands[row.taker]))
            assert row.partner == rules.partner_of(hands, row.taker, row.called)
        else:
            assert row.called is None and row.partner is None
        assert row.nodes == 0
        assert row.cells[Contract.PRISE].margin_bounds == row.cells[Contract.GARDE].margin_bounds
        for contract, cell in row.cells.items():
            static = solver.made(taking(deal, row.taker, contract, row), node_limit=0).margin_bounds
            if contract.taker_takes_dog:
                assert cell.margin_bounds == static
            else:  # (narrowed by what the other of garde sans and garde contre proves)
                assert static[0] <= cell.margin_bounds[0] <= cell.margin_bounds[1] <= static[1]
            partner = row.partner is not None
            assert cell.score_bounds == tuple(margin_score(contract, m, deal.variant, partner)
                                              for m in cell.margin_bounds)


def test_searched_cells_hold_the_values_a_solve_proves() -> None:
    deal = record("deal.json")
    table = dd_table(deal, node_limit=30_000)
    solver = Solver(table_mb=64)
    for row in table.rows:
        assert row.nodes > 0
        for contract in (Contract.GARDE, Contract.GARDE_SANS, Contract.GARDE_CONTRE):
            cell = row.cells[contract]
            other = solver.solve(taking(deal, row.taker, contract, row), node_limit=300_000, pv=False)
            lo, hi = other.margin_bounds
            # both are proven bounds on the same value
            assert max(lo, cell.margin_bounds[0]) <= min(hi, cell.margin_bounds[1]), (row.taker, contract)
            if cell.made is not None:
                assert cell.made == (cell.margin_bounds[0] >= 0)
                assert other.made in (None, cell.made)


def test_a_far_seat_is_decided_within_a_small_limit() -> None:
    # Seat 0 is far below every target: each contract fails, and passing is the best bid.
    table = dd_table(record("deal.json"), node_limit=200_000)
    row = table.rows[0]
    assert all(cell.made is False and cell.margin_bounds[1] < -20 for cell in row.cells.values())
    assert row.best == (None,)
    assert not table.complete


def test_best_bid_from_score_bounds() -> None:
    def row(**scores: Any) -> Row:
        cells = {c: Cell(c, (0.0, 0.0), scores.get(c.value, (-100, -100)), None) for c in Contract}
        return Row(0, (), None, None, cells, 0, 0.0)

    assert row().best == (None,)  # every contract fails: pass
    assert row(garde=(50, 50), prise=(25, 25)).best == (Contract.GARDE,)
    assert row(garde=(50, 80), garde_sans=(40, 45), prise=(25, 40)).best == (Contract.GARDE,)
    # the prise is never best: the garde doubles it when made, passing beats it when failed
    assert row(garde=(-50, 80), prise=(-25, 40)).best == (None, Contract.GARDE)
    assert row(garde=(30, 60), garde_sans=(-10, 70)).best == (Contract.GARDE, Contract.GARDE_SANS)
    assert row(garde=(60, 60), garde_sans=(-10, 60)).best == (Contract.GARDE,)  # nothing can beat it
    # a bid that can at most tie the best proven score may still score best
    assert row(garde=(30, 60), garde_sans=(-10, 30)).best == (Contract.GARDE, Contract.GARDE_SANS)
    # exact ties: one bid, the lower
    assert row(garde=(100, 100), garde_sans=(100, 100)).best == (Contract.GARDE,)


def test_a_table_is_complete_only_when_every_margin_is_exact() -> None:
    def table(*bounds: Any) -> ddtable.DDTable:
        cells = {c: Cell(c, b, (0, 0), None) for c, b in zip(Contract, bounds)}
        row = Row(0, (), None, None, cells, 0, 0.0)
        return ddtable.DDTable(None, record("deal.json").variant, 3, 0, None, None, [row], 0, 1)

    assert table((5.0, 5.0), (5.0, 5.0), (-3.5, -3.5), (-10.0, -10.0)).complete
    assert not table((5.0, 5.0), (5.0, 5.0), (-3.5, -3.5), (-12.0, -10.0)).complete
    assert not table((0.0, 10.0), (0.0, 10.0), (-3.5, -3.5), (-10.0, -10.0)).complete
    # a margin left open in any row, not only the first
    whole = table((5.0, 5.0), (5.0, 5.0), (-3.5, -3.5), (-10.0, -10.0))
    other = dataclasses.replace(table((5.0, 5.0), (5.0, 5.0), (-3.5, -3.5), (-12.0, -10.0)).rows[0], taker=1)
    assert not dataclasses.replace(whole, rows=whole.rows + [other]).complete


def test_tables_do_not_depend_on_the_workers() -> None:
    deals = [record("deal.json"), record("three.json")]
    one = list(dd_tables(deals, node_limit=20_000, jobs=1))
    two = list(dd_tables(deals, node_limit=20_000, jobs=2))
    assert [t.id for t in one] == ["example-deal", "example-three"]
    assert [timeless(t.rows) for t in one] == [timeless(t.rows) for t in two]


def test_the_best_of_several_discards() -> None:
    # No search: the prise/garde cell holds the largest static bounds of the candidates,
    # and the discard shown is the one with the best; the record's own comes first.
    deal = record("deal.json")
    solver = Solver(table_mb=16)
    table = dd_table(deal, node_limit=0, discards=4)
    tried = []
    for row in table.rows:
        full = sum(1 << c for c in deal.hands[row.taker]) | sum(1 << c for c in deal.dog)
        candidates = discard_candidates(full, 4, deal.variant)
        if row.taker == deal.taker:
            candidates = [tuple(deal.discard)] + [c for c in candidates if c != tuple(deal.discard)][:3]
        tried.append(len(candidates))
        bounds = [solver.made(taking(deal, row.taker, Contract.GARDE, dataclasses.replace(row, discard=c)),
                              node_limit=0).margin_bounds for c in candidates]
        cell = row.cells[Contract.GARDE]
        assert cell.margin_bounds == (max(lo for lo, _ in bounds), max(hi for _, hi in bounds))
        assert bounds[candidates.index(row.discard)] == max(bounds)
    assert max(tried) == 4  # (fewer where the rules leave little choice)
    with pytest.raises(ValueError, match="discards"):
        dd_table(deal, discards=0)


def test_a_record_discarding_as_the_policy_does_is_not_tried_twice() -> None:
    # the record's own discard (in any order) is the policy's first: the candidates after it are
    # the policy's next ones, so that three discards are three different questions
    deal = record("deal.json")
    taker = deal.taker
    assert taker is not None
    full = sum(1 << c for c in deal.hands[taker]) | sum(1 << c for c in deal.dog)
    policy = discard_candidates(full, 3, deal.variant)
    own = dataclasses.replace(deal, discard=list(reversed(policy[0])))
    _, tasks = ddtable._tasks(own, 0, 16, [taker], 3)
    assert tasks[0].discards == tuple(policy) and len(set(policy)) == 3


def test_discards_of_equal_bounds_show_the_first_tried(monkeypatch: pytest.MonkeyPatch) -> None:
    # every candidate proven alike: the discard shown is the first (the record's own for its taker)
    deal = record("deal.json")
    monkeypatch.setattr(ddtable, "ask", lambda *args: ddtable.Outcome(True, 5.0, 5.0, 1))
    table = dd_table(deal, node_limit=0, discards=3)
    for row in table.rows:
        full = sum(1 << c for c in deal.hands[row.taker]) | sum(1 << c for c in deal.dog)
        first = tuple(deal.discard) if row.taker == deal.taker else discard_candidates(full, 1, deal.variant)[0]
        assert row.discard == first and row.cells[Contract.GARDE].margin_bounds == (5.0, 5.0)


def test_a_rows_nodes_and_best_bids_come_from_its_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    # garde in -5..20, garde sans in -1..3, garde contre failed by 2: passing (0), the garde (up to 270)
    # and the garde sans (up to 336) may each score best; the row's nodes are its three questions'
    deal = record("deal.json")
    monkeypatch.setattr(ddtable, "ask", lambda *args: ddtable.Outcome(None, -5.0, 20.0, 1))
    monkeypatch.setattr(ddtable, "ask_world", lambda *args: [ddtable.Outcome(None, -1.0, 3.0, 10),
                                                             ddtable.Outcome(False, -2.0, -2.0, 100)])
    table = dd_table(deal, node_limit=1000, seats=[0])
    assert table.rows[0].nodes == table.nodes == 111
    assert table.rows[0].best == (None, Contract.GARDE, Contract.GARDE_SANS)
    out = table.as_json()
    assert out["rows"][0]["best"] == ["pass", "garde", "garde_sans"] and out["nodes"] == 111


def test_chosen_seats_give_their_rows_as_in_the_whole_table() -> None:
    deal = record("five.json")
    whole = dd_table(deal, node_limit=5_000)
    part = dd_table(deal, node_limit=5_000, seats=[4, 2, 4])
    assert timeless(part.rows) == timeless([whole.rows[2], whole.rows[4]])
    assert part.row(4) is part.rows[1]
    with pytest.raises(KeyError):
        part.row(3)
    with pytest.raises(RecordError, match="five.json.*seats.*bad seat '5'"):
        dd_table(deal, seats=[5])
    with pytest.raises(ValueError, match="seats is empty"):
        dd_table(deal, seats=[])
    with pytest.raises(TypeError, match="seats must be a sequence"):
        dd_table(deal, seats=4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jobs"):
        dd_tables([deal], jobs=-1)  # (checked at the call, before any deal is read)


def test_seats_from_numpy_are_the_seats_they_are() -> None:
    # np.int64(0) was 'bad seat "np.int64(0)"'; a seat of another type is the caller's error
    import numpy as np

    deal = record("three.json")
    typed = dd_table(deal, node_limit=1_000, seats=list(np.arange(2)))
    assert timeless(typed.rows) == timeless(dd_table(deal, node_limit=1_000, seats=[0, 1]).rows)
    assert [type(row.taker) for row in typed.rows] == [int, int]
    json.dumps(typed.as_json())
    with pytest.raises(TypeError, match=re.escape("seats must be a seat (an integer 0..2), not '1'")):
        dd_table(deal, seats=["1"])  # type: ignore[list-item]


def test_a_ctrl_c_raises_the_rows_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    # a KeyboardInterrupt (as before) carrying a table of the first rows, in seat order;
    # before any row, a plain KeyboardInterrupt
    deal = record("deal.json")
    whole = dd_table(deal, node_limit=5_000)
    for k in (1, 3):
        ctrl_c_at_call(monkeypatch, ddtable, "_row", k)
        with pytest.raises(KeyboardInterrupt) as info:
            dd_table(deal, node_limit=5_000)
        monkeypatch.undo()
        if k == 1:
            assert type(info.value) is KeyboardInterrupt
            continue
        stop = info.value
        assert isinstance(stop, Interrupted) and (stop.done, stop.total) == (2, 4)
        assert timeless(stop.partial.rows) == timeless(whole.rows[:2])
        assert dataclasses.replace(stop.partial, rows=[]) == dataclasses.replace(whole, rows=[])


def test_a_record_without_dealer_or_leader_is_refused() -> None:
    obj = load_json("deal.json")
    del obj["dealer"]
    deal = DealRecord.from_json(obj, file="f.json", record="line 1")
    with pytest.raises(RecordError, match="f.json.*line 1.*dealer"):
        dd_table(deal)
    # the leader of an announced slam is the taker, not the dealer's right
    obj.update({"slam": True, "leader": obj["taker"]})
    slam = DealRecord.from_json(obj, file="f.json", record="line 1")
    with pytest.raises(RecordError, match="dealer.*announced slam"):
        dd_table(slam)
    obj["slam"] = False
    obj["leader"] = 3
    assert dd_table(DealRecord.from_json(obj), node_limit=0).leader == 3
    with pytest.raises(ValueError, match="node_limit"):
        dd_table(record("deal.json"), node_limit=-1)


# the command -----------------------------------------------------------------------------


def run(args: List[str]) -> Any:
    return CliRunner().invoke(main, args)


def test_table_text_has_a_line_per_seat() -> None:
    result = run(["table", str(EXAMPLES / "deal.json"), "--nodes", "20000", "-j", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("deal example-deal: double-dummy table: dealer 2, seat 3 leads; 20,000 nodes a question")
    assert lines[1].split()[:5] == ["seat", "discard", "prise/garde", "garde", "sans"]
    assert [line.split()[0] for line in lines[2:6]] == ["0", "1*", "2", "3"]
    assert lines[3].startswith("   1* 9S CS 7H 1D 2D 8D")  # the record's taker, with his discard
    assert "* the record's taker (garde)" in lines


def test_table_text_marks_the_questions_left_open(monkeypatch: pytest.MonkeyPatch) -> None:
    # a margin proven in -5..0: made (a margin of 0 makes) or failed is still open, which '?' says
    monkeypatch.setattr(ddtable, "ask", lambda *args: ddtable.Outcome(None, -5.0, 0.0, 1))
    args = ["table", str(EXAMPLES / "deal.json"), "--seat", "1", "--nodes", "1000", "-j", "1"]
    lines = run(args).stdout.splitlines()
    assert "; 1,000 nodes a question (" in lines[0]
    assert lines[2].split()[:8] == ["1*", "9S", "CS", "7H", "1D", "2D", "8D", "-5.0..0.0?"]
    assert lines[-1] == "a..b: margin bounds proven within the node limit; ?: made or failed still open"
    assert "; 1,000 nodes a question, the best of 2 discards for prise/garde (" in \
        run(args + ["--discards", "2"]).stdout.splitlines()[0]


def test_table_five_players_shows_the_calls() -> None:
    result = run(["table", str(EXAMPLES / "five.json"), "--nodes", "1000", "-j", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "calls" in lines[1]
    assert len([line for line in lines if line[:4].strip().isdigit()]) == 5


def test_table_json(tmp_path: Path) -> None:
    result = run(["table", str(EXAMPLES / "three.json"), "--nodes", "20000", "-j", "1", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["id"], out["players"], out["dealer"], out["leader"], out["node_limit"]) == ("example-three", 3, 0, 1,
                                                                                           20000)
    assert (out["taker"], out["contract"], out["discards"]) == (0, "garde", 1)
    assert [r["seat"] for r in out["rows"]] == [0, 1, 2]
    for r in out["rows"]:
        assert set(r["contracts"]) == {"prise", "garde", "garde_sans", "garde_contre"}
        for cell in r["contracts"].values():
            lo, hi = cell["margin_bounds"]
            assert cell["margin"] == (lo if lo == hi else None)
            low, high = cell["score_bounds"]
            assert cell["score"] == (low if low == high else None)
            assert cell["made"] in (None, lo >= 0)
        assert len(r["discard"]) == 6 and r["best"]
    assert out["nodes"] == sum(r["nodes"] for r in out["rows"])


def test_table_many_deals_output_and_resume(tmp_path: Path) -> None:
    lines = [json.dumps(load_json(n)) for n in ("deal.json", "three.json", "five.json")]
    source = tmp_path / "deals.jsonl"
    source.write_text("\n".join(lines[:2]) + "\n")
    out = tmp_path / "out.jsonl"
    result = run(["table", str(source), "--nodes", "1000", "-j", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [json.loads(x)["line"] for x in out.read_text().splitlines()] == [1, 2]
    source.write_text("\n".join(lines) + "\n")
    result = run(["table", str(source), "--nodes", "1000", "-j", "1", "-o", str(out), "--resume"])
    assert result.exit_code == 0, result.output
    # the tally counts the whole output: 4 + 3 + 5 seats, 3 questions each
    tally = result.stderr.splitlines()[-1]
    assert tally.startswith("3 deals, 12 seats taking: ") and " of 36 contracts made or failed" in tally
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["example-deal", "example-three",
                                                                           "example-five"]


def test_table_bad_records(tmp_path: Path, write: Callable[[str, str], Path]) -> None:
    obj = load_json("deal.json")
    del obj["dealer"]
    bad = write("bad.json", json.dumps(obj))
    result = run(["table", str(bad)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [f"tarot-solve: error: {bad}: line 1 (id 'example-deal'): key 'dealer': a"
                                          " double-dummy table needs the dealer (or the first leader)"]
    many = write("many.jsonl", json.dumps(load_json("three.json")) + "\n" + json.dumps(obj) + "\n")
    result = run(["table", str(many), "--nodes", "1000", "-j", "1", "--json"])
    assert result.exit_code == 2
    assert [json.loads(x)["id"] for x in result.stdout.splitlines()] == ["example-three"]
    assert "skipped" in result.stderr and "dealer" in result.stderr


def test_table_batch_a_seat_a_deal_lacks(tmp_path: Path) -> None:
    # a --seat that one deal of the file does not have skips that deal (or stops before any, with --strict)
    source = tmp_path / "mixed.jsonl"
    source.write_text("\n".join(json.dumps(load_json(n)) for n in ("five.json", "deal.json", "three.json")) + "\n")
    out = tmp_path / "out.jsonl"
    result = run(["table", str(source), "--seat", "4", "--nodes", "1000", "-j", "1", "--strict", "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr.splitlines() == [f"tarot-solve: error: {source}: line 2 (id 'example-deal'): key '--seat':"
                                          " bad seat '4': seats are integers 0..3"]
    result = run(["table", str(source), "--seat", "4", "--nodes", "1000", "-j", "1", "--json"])
    assert result.exit_code == 2
    assert [json.loads(x)["line"] for x in result.stdout.splitlines()] == [1]
    assert result.stderr.count("tarot-solve: skipped: ") == 2
    # one deal: the same error, before any search
    result = run(["table", str(EXAMPLES / "three.json"), "--seat", "3", "--nodes", "1000", "-j", "1"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"tarot-solve: error: {EXAMPLES / 'three.json'}: line 1 (id 'example-three'):"
                             " key '--seat': bad seat '3': seats are integers 0..2\n")


def test_table_batch_text_names_deals_without_id(tmp_path: Path) -> None:
    obj = load_json("deal.json")
    del obj["id"]
    source = tmp_path / "noid.jsonl"
    source.write_text(json.dumps(obj) + "\n" + json.dumps(obj) + "\n")
    result = run(["table", str(source), "--nodes", "1000", "-j", "1"])
    assert result.exit_code == 0, result.output
    heads = [line for line in result.stdout.splitlines() if "double-dummy table" in line]
    assert [h.split(":")[0] for h in heads] == ["line 1", "line 2"]


def test_a_deal_typed_in_the_one_line_notation(tmp_path: Path) -> None:
    deal = record("deal.json")
    text = format_deal(deal.hands, deal.dog, dealer=deal.dealer, taker=deal.taker, contract=deal.contract,
                       discard=deal.discard)
    typed = run(["table", text, "--nodes", "1000", "-j", "1", "--json"])
    filed = run(["table", str(EXAMPLES / "deal.json"), "--nodes", "1000", "-j", "1", "--json"])
    assert typed.exit_code == 0, typed.output

    def comparable(out: str) -> Dict[str, Any]:  # (without the id and the times)
        table = json.loads(out)
        for row in table["rows"]:
            del row["seconds"]
        return {k: v for k, v in table.items() if k not in ("id", "seconds")}

    assert comparable(typed.stdout) == comparable(filed.stdout)
    bad = run(["table", text.replace("T:16.", "T:26."), "--nodes", "1000"])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == ["tarot-solve: error: FILE (a deal in the one-line notation): key 'hands[0]':"
                                       " unknown trump '26' in 'T:26.12.10.8.7'"]
    solved = run(["solve", text, "--made-only", "--nodes", "1000", "--json"])
    assert solved.exit_code == 0 and json.loads(solved.stdout)["complete"] is False
    # hands typed as card tokens (any word without a colon is one): the same deal, not a file name
    plain = text.split(" / ")[0] + " / " + " / ".join(" ".join(tokens(cards)) for cards in (*deal.hands, deal.dog))
    assert ":" not in plain
    typed = run(["table", plain, "--nodes", "1000", "-j", "1", "--json"])
    assert typed.exit_code == 0, typed.output
    assert comparable(typed.stdout) == comparable(filed.stdout)
    # such a deal mistyped is no file either, and what the notation says of it is told;
    # a path with spaces to a missing file, only that it is missing
    mistyped = plain.replace(" 3D ", " 3X ", 1)
    for missing, told in ((mistyped, ", nor a deal in the one-line notation (key 'hands[2]': unknown card '3X')"),
                          (str(tmp_path / "my deals" / "deal.json"), "")):
        bad = run(["table", missing, "--nodes", "1000"])
        assert (bad.exit_code, bad.stdout) == (2, "")
        assert bad.stderr == f"tarot-solve: error: {missing}: No such file or directory{told}\n"
