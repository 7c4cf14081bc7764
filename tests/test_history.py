"""Batch double-dummy analysis: the analysis of one game, summaries, and ``tarot-solve analyze``.

Full deals are too slow to solve exactly in a test, so games are analysed under a
node budget per position (deterministic, unlike time): the first tricks then come
out as proven bounds, the last ones exact.  The exact part is checked against an
independent computation (every legal card solved with ``all_cards``), the bounded
part by invariants that a wrong bound would break.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
from click.testing import CliRunner

from tarot_solver import history
from tarot_solver.cards import card_token, cards_of, count, parse_card
from tarot_solver.cli import main
from tarot_solver.errors import RecordError, WorkerError
from tarot_solver.history import AnalysisOptions, GameAnalysis, Summary, analyze_game, card_cost, narrow, settle
from tarot_solver.records import DealRecord, iter_records, read_records
from tarot_solver.scoring import score
from tarot_solver.solver import Solver
from tarot_solver.variant import Contract

from conftest import EXAMPLES, ROOT, default_sigint

HISTORY = EXAMPLES / "history.jsonl"
TAROTCLUB = ROOT / "tests" / "data" / "tarotclub"
#: the core checks its node budget every 65,536 nodes: the least budget that counts
NODES = 65536
GAMES = read_records(HISTORY)


@pytest.fixture(scope="module")
def small_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six games of examples/history.jsonl."""
    path = tmp_path_factory.mktemp("history") / "six.jsonl"
    path.write_text("".join(HISTORY.read_text(encoding="utf-8").splitlines(True)[:6]), encoding="utf-8")
    return path


def analyze(args: List[str]) -> Any:
    return CliRunner().invoke(main, ["analyze", "--nodes", str(NODES), *args])


# Bound arithmetic ------------------------------------------------------------------------


def test_narrow_uses_the_order_between_positions() -> None:
    # taker plays: before >= after
    assert narrow((-10, 30), (0, 40), True) == ((0, 30), (0, 30))
    # defence plays: before <= after
    assert narrow((-10, 30), (-20, 10), False) == ((-10, 10), (-10, 10))
    # exact values are left alone
    assert narrow((4, 4), (2, 2), True) == ((4, 4), (2, 2))


def test_card_cost_is_proven_or_undecided() -> None:
    assert card_cost((10, 10), (4, 4), True) == (6, 6)  # the taker lost 3 points
    assert card_cost((10, 10), (4, 4), False) == (0, 0)  # the defence gained: no cost
    assert card_cost((10, 20), (-6, 2), True) == (8, 26)  # proven error, inexact cost
    assert card_cost((0, 20), (-6, 2), True) == (0, 26)  # undecided
    assert card_cost((-8, -8), (-2, 6), False) == (6, 14)


# One game ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def analyses() -> Dict[str, GameAnalysis]:
    solver = Solver(64)
    return {g.id: analyze_game(g, AnalysisOptions(node_limit=4 * NODES), solver) for g in GAMES[:3]}


@pytest.mark.parametrize("game", GAMES[:3], ids=lambda g: g.id)
def test_exact_values_and_costs_match_every_card_solved(game: DealRecord,
                                                        analyses: Dict[str, GameAnalysis]) -> None:
    """From trick 13 on every value is exact; each card's cost and best card are checked
    against a fresh solve of every legal card of the position."""
    result = analyses[game.id]
    errors = {m.index: m for m in result.mistakes}
    solver = Solver(64)
    state = game.opening_state()
    played = game.played or []
    for i, card in enumerate(played):
        if i >= 48:
            assert result.values[i][0] == result.values[i][1], f"position {i} not exact"
            taker = state.camps[state.to_play]
            if count(state.legal()) > 1:
                children = {c: int(r.margin * 2) for c, r in
                            solver.solve(state, all_cards=True, pv=False).cards.items()}  # type: ignore[union-attr]
            else:
                children = {card: result.values[i + 1][0]}
            value = max(children.values()) if taker else min(children.values())
            assert result.values[i] == (value, value)
            assert result.values[i + 1] == (children[card], children[card])
            cost = abs(value - children[card])
            if cost:
                mistake = errors.pop(i)
                assert (mistake.cost, mistake.card, mistake.seat) == ((cost, cost), card, state.to_play)
                assert mistake.trick == i // 4 + 1
                assert mistake.best is not None and children[mistake.best] == value
        state.play(card)
    assert all(i < 48 for i in errors)
    assert result.values[-1] == (state.margin_hp(),) * 2


def test_settle_equalises_forced_cards_both_ways() -> None:
    # a defender's forced card, then a taker's card whose solved position narrows
    # the forced card's "after" side: a single forward pass of narrow() would
    # leave the two positions around the forced card with different bounds
    values = [(-30, -16), (-30, -16), (-24, -22)]
    settle(values, [False, True], [True, False])
    assert values == [(-24, -16), (-24, -16), (-24, -22)]


@pytest.mark.parametrize("game", GAMES[:3], ids=lambda g: g.id)
def test_bounds_respect_the_game_order_and_a_larger_budget(game: DealRecord,
                                                           analyses: Dict[str, GameAnalysis]) -> None:
    small = analyze_game(game, AnalysisOptions(node_limit=NODES))
    large = analyses[game.id]
    state = game.opening_state()
    takers: List[bool] = []
    for i, card in enumerate(game.played or []):
        taker = state.camps[state.to_play]
        takers.append(taker)
        for values in (small.values, large.values):
            lo, hi = values[i]
            assert lo <= hi
            # a player can do no better than his best card: the bounds already say so
            assert narrow(values[i], values[i + 1], taker) == (values[i], values[i + 1])
            if count(state.legal()) == 1:
                assert values[i] == values[i + 1]
        # proven bounds from two budgets hold the same true value
        assert max(small.values[i][0], large.values[i][0]) <= min(small.values[i][1], large.values[i][1])
        state.play(card)
    # undecided: the cards whose cost is neither proven 0 nor proven positive
    for result in (small, large):
        open_cards = 0
        for i, ((lo0, hi0), (lo1, hi1)) in enumerate(zip(result.values, result.values[1:])):
            high, low = (hi0 - lo1, lo0 - hi1) if takers[i] else (hi1 - lo0, lo1 - hi0)
            open_cards += low <= 0 < high
        assert result.undecided == open_cards > 0
    for m in small.mistakes:
        assert m.cost[0] > 0
        other = next((x for x in large.mistakes if x.index == m.index), None)
        assert other is not None and max(m.cost[0], other.cost[0]) <= min(m.cost[1], other.cost[1])
        if not m.exact:
            assert m.to_json()["cost"] is None and m.to_json()["cost_bounds"] == [m.cost[0] / 2, m.cost[1] / 2]


@pytest.mark.parametrize("limits", [{"node_limit": 0}, {"time_limit": 0}])
def test_a_per_position_limit_of_0_searches_nothing_and_proves_what_it_reports(
        limits: Dict[str, Any], analyses: Dict[str, GameAnalysis]) -> None:
    # the static bounds of each position, narrowed along the game: nothing searched, nothing guessed
    searched: List[int] = []

    class Counting(Solver):
        """A solver that notes the nodes of each request."""

        def solve(self, *args: Any, **kwargs: Any) -> Any:
            result = super().solve(*args, **kwargs)
            searched.append(result.nodes)
            return result

        def at_least(self, *args: Any, **kwargs: Any) -> Any:
            result = super().at_least(*args, **kwargs)
            searched.append(result.nodes)
            return result

    game = GAMES[0]
    nothing = analyze_game(game, AnalysisOptions(**limits), Counting(16))
    assert searched and set(searched) == {0}
    large = analyses[game.id]
    for (lo, hi), (exact_lo, exact_hi) in zip(nothing.values, large.values):
        assert lo <= hi and max(lo, exact_lo) <= min(hi, exact_hi)
    assert nothing.values[-1] == large.values[-1] and not nothing.complete
    for m in nothing.mistakes:
        assert m.cost[0] > 0 and any(x.index == m.index for x in large.mistakes)


def test_an_exact_cost_has_a_best_card_that_keeps_the_value() -> None:
    # h02 at 100,000 nodes: the position before trick 7's 5C becomes exact only through
    # the order along the game (its own solve stopped), and its best card is then probed for
    game = GAMES[1]
    result = analyze_game(game, AnalysisOptions(node_limit=100_000))
    exact = [m for m in result.mistakes if m.exact]
    assert any(m.trick == 7 and card_token(m.card) == "5C" for m in exact)
    state = game.opening_state()
    positions = []
    for card in game.played or []:
        positions.append(state.copy())
        state.play(card)
    for m in exact:
        assert m.best is not None, m
        after = positions[m.index].copy()
        after.play(m.best)
        assert Solver(64).solve(after, pv=False).margin * 2 == result.values[m.index][0], m


def test_the_card_probed_to_keep_an_exact_value_is_the_first_that_does() -> None:
    # the last five tricks of h01, for the taker and the defenders alike: the probe finds the
    # first other legal card whose exact value after it is the position's (a margin of exactly
    # the value keeps it), or none
    game, solver, found = GAMES[0], Solver(16), 0
    state = game.opening_state()
    played = game.played or []
    for i, card in enumerate(played):
        if i >= len(played) - 5 * game.variant.players and count(state.legal()) > 1:
            value = int(solver.solve(state, pv=False).margin * 2)
            keeping = []
            for other in cards_of(state.legal() & ~(1 << card)):
                after = state.copy()
                after.play(other)
                if int(solver.solve(after, pv=False).margin * 2) == value:
                    keeping.append(other)
            got = history._keeping_card(Solver(16), state, card, value, state.taker_to_play, AnalysisOptions())
            assert got == (keeping[0] if keeping else None), (i, keeping, got)
            found += got is not None and not state.taker_to_play
        state.play(card)
    assert found  # (a defender's card among them)


def test_result_line_matches_replay_and_does_not_depend_on_the_table() -> None:
    game = GAMES[0]
    options = AnalysisOptions(node_limit=NODES, table_mb=32)
    first = analyze_game(game, options).to_json(7)
    analyze_game(GAMES[1], options)  # the worker's table now holds another game
    assert analyze_game(game, options).to_json(7) == first
    assert analyze_game(game, options, Solver(16)).to_json(7) == first
    final = game.final_state()
    score = game.score(final)
    assert first["id"] == "h01" and first["line"] == 7
    assert (first["actual_margin"], first["made"]) == (final.margin_hp() / 2, score.made)
    assert first["scores"] == score.scores(game.taker)
    lo, hi = first["dd_margin_bounds"]
    assert first["dd_margin"] == (lo if lo == hi else None)
    assert first["dd_made"] == (True if lo >= 0 else False if hi < 0 else None)
    for error in first["errors"]:
        assert set(error) >= {"trick", "seat", "card", "best", "cost"}
        assert error["cost"] is None or error["cost"] > 0


def test_from_trick_solves_only_the_endgame(analyses: Dict[str, GameAnalysis]) -> None:
    full = analyses["h01"]
    endgame = analyze_game(GAMES[0], AnalysisOptions(first_trick=13))
    assert endgame.values[48:] == full.values[48:]
    assert endgame.to_json()["dd_margin_bounds"] == [-56, 55]  # trivial: not solved
    assert [(m.index, m.cost) for m in endgame.mistakes if m.index >= 48] == \
        [(m.index, m.cost) for m in full.mistakes if m.index >= 48]


def test_incomplete_game_is_refused() -> None:
    obj = GAMES[0].to_json()
    obj["played"] = obj["played"][:40]
    with pytest.raises(RecordError, match="not complete: 40 of 72"):
        analyze_game(DealRecord.from_json(obj))


# Reading and resuming --------------------------------------------------------------------


def test_streamed_reading_matches_whole_file_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = HISTORY.read_text(encoding="utf-8").splitlines(True)[:3]
    text = lines[0] + "\n" + '{"hands": ]\n' + lines[1] + '{"hands": [], "dog": []}\n' + lines[2]
    path = tmp_path / "h.jsonl"
    path.write_text(text, encoding="utf-8")
    streamed = [(n, str(x).replace(str(path), "<stdin>")) for n, x in iter_records(path)]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    assert streamed == [(n, str(x)) for n, x in iter_records("-")]
    assert [n for n, _ in streamed] == [1, 3, 4, 5, 6]
    assert "line 3: malformed JSON" in streamed[1][1] and "line 5" in streamed[3][1]
    pretty = list(iter_records(EXAMPLES / "game.json"))  # one pretty-printed game
    assert [(n, r.id) for n, r in pretty] == [(1, "example-game")]  # type: ignore[union-attr]


def test_resume_output_cuts_a_partial_last_line(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    good = [{"id": "a", "line": 1}, {"id": None, "line": 4}]
    out.write_text("".join(json.dumps(g) + "\n" for g in good) + '{"id": "b", "li', encoding="utf-8")
    seen: List[Dict[str, Any]] = []
    assert history.resume_output(out, seen.append) == {"a": 1, 4: 1}
    assert seen == good
    assert out.read_text(encoding="utf-8").endswith('"line": 4}\n')
    out.write_text('{"id": "a", "line": 1}\n{"id": "a", "line": 2}\n', encoding="utf-8")  # an id twice
    assert history.resume_output(out, seen.append) == {"a": 2}
    # a whole last line that lacks its newline (as some editors save) is kept
    out.write_text('{"id": "a", "line": 1}\n{"id": "c", "line": 2}', encoding="utf-8")
    assert history.resume_output(out, seen.append) == {"a": 1, "c": 1}
    assert out.read_text(encoding="utf-8") == '{"id": "a", "line": 1}\n{"id": "c", "line": 2}\n'
    line = {"id": "z", "line": 1, "taker": 1, "made": True, "dd_made": True, "complete": True, "undecided": 0,
            "scores": [1, 2, 3, -6], "errors": [{"seat": 2, "cost": 1.5}]}
    Summary().add(line)
    for game, key in (({}, "scores"), ([], "scores"), ({**line, "errors": [{"seat": 2}]}, "cost")):
        with pytest.raises(ValueError, match=f"not an output line of analyze: no key '{key}'"):
            Summary().add(game)  # type: ignore[arg-type]
    # values this command never writes: a seat off the table (7, or -1 read as the last), "false" for false...
    edited = [json.dumps({**line, **change}) + "\n" for change in (
        {"taker": 7}, {"taker": -1}, {"made": "false"}, {"dd_made": 0}, {"errors": [{"seat": -2, "cost": 1.5}]},
        {"errors": [{"seat": 2, "cost": None}]}, {"scores": [3, -3]}, {"partner": 1}, {"taker": True},
        {"partner": 4}, {"partner": 7}, {"errors": [{"seat": 4, "cost": 1.5}]})]
    for text, add in (("not json\n", seen.append), ('{"line": 1e400}\n', seen.append),
                      *((t, Summary().add) for t in edited),
                      ('{"id": [1], "line": 2}\n', seen.append), ("hello", seen.append)):  # never a traceback, and a foreign file is left as it is
        out.write_text('{"id": "a", "line": 1}\n' + text, encoding="utf-8")
        with pytest.raises(RecordError, match=r"line 2: not a line this command writes \(with these options\)"):
            history.resume_output(out, lambda game: add(game) if game["id"] != "a" else None)
        assert out.read_text(encoding="utf-8").endswith(text)
    # the refusal says why, naming the key and the value
    for text, why in ((json.dumps({**line, "made": "false"}), 'made "false": not a value this command writes'),
                      (json.dumps({**line, "taker": 7}), "not a seat of 4: 7"),
                      ("[]", "a list, not a JSON object"), ("null", "null, not a JSON object"),
                      (json.dumps({**line, "undecided": float("nan")}), "NaN: not a JSON number")):
        for end in ("\n", ""):  # (a whole last line without its newline too: refused, not cut as a torn one)
            out.write_text(text + end, encoding="utf-8")
            with pytest.raises(RecordError, match=f"line 1: not a line this command writes .with these options.: {why}$"):
                history.resume_output(out, Summary().add)
            assert out.read_text(encoding="utf-8") == text + end
    # a line that does not parse, at the column of that line (json's own position counts its newline as a line)
    out.write_text('{"id": "h01", "line": 1, "taker"\n', encoding="utf-8")
    with pytest.raises(RecordError, match="line 1: not a line this command writes .with these options.: malformed JSON"
                                          " at column 33: Expecting ':' delimiter$"):
        history.resume_output(out, Summary().add)


# Summaries -------------------------------------------------------------------------------


def _line(taker: int, made: bool, dd_made: Any, errors: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {"id": None, "line": 1, "taker": taker, "made": made, "dd_made": dd_made, "errors": errors,
            "complete": dd_made is not None, "undecided": 0 if dd_made is not None else 3,
            "scores": [0, 0, 0, 0]}  # (only their number counts: the seats at the table)


def test_summary_by_role_and_seat(tmp_path: Path) -> None:
    summary = Summary()
    summary.add(_line(0, True, True, [{"seat": 0, "cost": 3}, {"seat": 2, "cost": 1.5}]))
    summary.add(_line(1, False, True, [{"seat": 1, "cost": None, "cost_bounds": [2, 9]},
                                      {"seat": 0, "cost": 4}, {"seat": 3, "cost": 1.5}]))
    summary.add(_line(0, False, None, []))
    j = summary.to_json()
    assert (j["games"], j["made"], j["dd_made"], j["dd_failed"], j["dd_undecided"]) == (3, 1, 2, 0, 1)
    assert j["roles"]["taker"] == {"games": 3, "taken": 3, "made": 1, "dd_made": 2, "errors": 2,
                                   "errors_per_game": 0.667, "points_lost": 5, "points_lost_per_game": 1.667,
                                   "unproven_costs": 1}
    assert j["roles"]["defence"]["errors"] == 3 and j["roles"]["defence"]["points_lost"] == 7
    assert [s["taken"] for s in j["seats"]] == [2, 1, 0, 0]
    assert [s["points_lost"] for s in j["seats"]] == [7, 2, 1.5, 1.5]
    # exact costs only, in half-points (the taker's cost proven in [2, 9] is not there)
    assert summary.costs == {"taker": {6: 1}, "partner": {}, "defence": {3: 2, 8: 1}}
    text = summary.render().splitlines()
    assert text[0] == "3 games: contracts made 1; under double-dummy play made 2, failed 0, undecided 1"
    assert text[2].split() == ["taker", "3", "3", "1", "2", "2", "0.67", "5", "1.67"]
    assert text[3].split() == ["defence", "3", "-", "-", "-", "3", "1.00", "7", "2.33"]
    assert text[-1] == ("1 game not proven throughout (a search limit or --from-trick): 3 cards undecided,"
                        " 1 error counted at its proven lower bound")
    pytest.importorskip("matplotlib")
    summary.plot(tmp_path / "costs.png")
    assert (tmp_path / "costs.png").read_bytes()[:4] == b"\x89PNG"
    # a panel a role, the errors counted in whole numbers (no tick at half an error)
    figure = summary.figure()
    assert [ax.get_title() for ax in figure.axes] == [
        "taker: 2 errors in 3 games, 5 points lost (at least; 1 inexact cost not drawn)",
        "defence: 3 errors in 3 games, 7 points lost"]
    # each exact cost drawn as often as it occurred (the defence's 1.5 twice, its 4 once), the taker's inexact left out
    from matplotlib.patches import Rectangle

    assert [sorted((p.get_x(), p.get_height()) for p in ax.patches if isinstance(p, Rectangle) and p.get_height())
            for ax in figure.axes] == \
        [[(3.0, 1)], [(1.5, 2), (4.0, 1)]]
    assert all(float(tick).is_integer() for ax in figure.axes for tick in ax.get_yticks())


def test_summary_counts_each_key_of_the_lines() -> None:
    # no game: the per-game figures are null, not 0
    empty = Summary().to_json()["roles"]["taker"]
    assert (empty["games"], empty["errors_per_game"], empty["points_lost_per_game"]) == (0, None, None)
    summary = Summary()
    # a game left bounded may still have every card decided: incomplete is the line's "complete", not its undecided
    summary.add({**_line(2, False, False, [{"seat": 1, "cost": None, "cost_bounds": [1, 4]},
                                          {"seat": 2, "cost": None, "cost_bounds": [0.5, 2]}]),
                 "complete": False, "undecided": 0})
    summary.add({**_line(0, True, True, []), "complete": False, "undecided": 5})
    summary.add(_line(0, True, True, []))
    j = summary.to_json()
    assert (j["games"], j["made"], j["dd_made"], j["dd_failed"], j["dd_undecided"]) == (3, 2, 2, 1, 0)
    assert (j["incomplete"], j["undecided_cards"]) == (2, 5)
    text = summary.render().splitlines()
    # every game decided: no "undecided" in the head line
    assert text[0] == "3 games: contracts made 2; under double-dummy play made 2, failed 1"
    assert text[2].startswith("taker ") and text[-1] == (
        "2 games not proven throughout (a search limit or --from-trick): 5 cards undecided,"
        " 2 errors counted at their proven lower bound")
    # games all proven: no such line
    proven = Summary()
    proven.add(_line(0, True, True, [{"seat": 1, "cost": 2}]))
    assert not any("not proven" in line for line in proven.render().splitlines())


def test_a_plot_leaves_pyplot_and_the_callers_backend_alone(tmp_path: Path) -> None:
    # a notebook that saved the plot kept its own backend: the plot switched it to Agg
    pytest.importorskip("matplotlib")
    code = """if True:
        import sys, matplotlib
        matplotlib.use("svg")
        from tarot_solver.history import Summary
        summary = Summary()
        summary.add({"id": None, "line": 1, "taker": 0, "made": True, "dd_made": True, "complete": True,
                     "undecided": 0, "errors": [{"seat": 1, "cost": 2}], "scores": [0, 0, 0, 0]})
        summary.plot(sys.argv[1])
        print(matplotlib.get_backend(), "matplotlib.pyplot" in sys.modules)
    """
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "c.png")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["svg", "False"]
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


def test_the_partners_errors_are_the_partners() -> None:
    summary = Summary()
    summary.add({**_line(0, True, True, [{"seat": 2, "cost": 2.5}, {"seat": 4, "cost": 1}]),
                 "partner": 2, "scores": [140, -70, 70, -70, -70]})
    assert (summary.roles["partner"].errors, summary.roles["defence"].errors) == (1, 1)
    assert summary.costs["partner"] == {5: 1} and summary.costs["defence"] == {2: 1}
    # the partner takes no contract: no count of games taken, made or dd made on his row
    partner = next(line for line in summary.render().splitlines() if line.startswith("partner"))
    assert partner.split() == ["partner", "1", "-", "-", "-", "1", "1.00", "2.5", "2.50"]


def test_analyze_game_names_an_argument_of_the_wrong_type() -> None:
    game = GAMES[0]
    for args, message in (((None,), "record must be DealRecord, not NoneType"),
                          (({},), "record must be DealRecord, not dict"),
                          ((game, None), "options must be AnalysisOptions, not NoneType"),
                          ((game, AnalysisOptions(), 16), "solver must be a Solver or None, not int")):
        with pytest.raises(TypeError, match=message):
            analyze_game(*args)


def test_a_double_dummy_margin_of_zero_makes() -> None:
    """Exactly the target (41 points with two oudlers) makes the contract."""
    game = GameAnalysis(id=None, taker=0, contract=Contract.GARDE, values=[(0, 0)], mistakes=[], undecided=0,
                        result=score("garde", 82, 2), scores=[150, -50, -50, -50])
    assert game.dd_made is True and game.to_json()["dd_made"] is True
    # a margin proven at most 0 may still be exactly 0: not proven failed
    for bounds, made in (((-4, 0), None), ((-4, -1), False), ((0, 6), True)):
        game = dataclasses.replace(game, values=[bounds, (0, 0)])
        assert game.dd_made is made and game.to_json()["dd_made"] is made, bounds


def test_an_error_line_gives_its_cost_or_its_bounds() -> None:
    # the two errors of docs/analyze.md: an exact cost is a number, an inexact one null with its bounds
    exact = history.Mistake(index=24, trick=7, seat=1, card=parse_card("8H"), best=parse_card("T11"), cost=(24, 24))
    assert exact.exact and exact.to_json() == {"trick": 7, "seat": 1, "card": "8H", "best": "T11", "cost": 12}
    bounded = history.Mistake(index=33, trick=9, seat=1, card=parse_card("4D"), best=None, cost=(12, 26))
    assert not bounded.exact
    assert bounded.to_json() == {"trick": 9, "seat": 1, "card": "4D", "best": None, "cost": None,
                                 "cost_bounds": [6, 13]}


# tarot-solve analyze -----------------------------------------------------------------------


def test_analyze_lines_identical_with_one_or_two_workers(small_history: Path, tmp_path: Path) -> None:
    one = analyze([str(small_history), "-j", "1"])
    assert one.exit_code == 0, one.output
    two = analyze([str(small_history), "-j", "2", "-o", str(tmp_path / "out.jsonl")])
    assert two.exit_code == 0, two.output
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == one.stdout
    games = [json.loads(line) for line in one.stdout.splitlines()]
    assert [(g["id"], g["line"]) for g in games] == [(f"h0{i}", i) for i in range(1, 7)]


def test_analyze_nodes_0_and_time_limit_0_mean_no_limit(tmp_path: Path) -> None:
    # as --help says; in the API a limit of 0 searches nothing
    path = tmp_path / "one.jsonl"
    path.write_text(HISTORY.read_text(encoding="utf-8").splitlines(True)[0], encoding="utf-8")
    result = CliRunner().invoke(main, ["analyze", str(path), "--nodes", "0", "--time-limit", "0", "--from-trick", "13",
                                       "-j", "1"])
    assert result.exit_code == 0, result.output
    unlimited = analyze_game(GAMES[0], AnalysisOptions(first_trick=13)).to_json(1)
    assert json.loads(result.stdout) == unlimited
    assert analyze_game(GAMES[0], AnalysisOptions(node_limit=0, first_trick=13)).to_json(1) != unlimited


@pytest.mark.parametrize("args, limits", [([], (2.0, None)), (["--nodes", "1000"], (None, 1000)),
                                          (["--nodes", "1000", "--time-limit", "3"], (3.0, 1000)),
                                          (["--time-limit", "0"], (None, None))])
def test_analyze_searches_2_s_a_position_unless_nodes_are_given(small_history: Path, monkeypatch: pytest.MonkeyPatch,
                                                                args: List[str], limits: Any) -> None:
    # as --help says: --time-limit's default is 2 s, none with --nodes (the options each game is analysed with)
    seen: List[AnalysisOptions] = []

    def options_only(fn: Any, items: Any, **kwargs: Any) -> Any:
        seen.extend(options for _, _, options in items)
        return iter(())
    monkeypatch.setattr("tarot_solver.cli._map_ordered", options_only)
    result = CliRunner().invoke(main, ["analyze", str(small_history), "-j", "1", *args])
    assert result.exit_code == 0, result.output
    assert len(seen) == 6 and {(o.time_limit, o.node_limit) for o in seen} == {limits}


@pytest.mark.parametrize("args, progress", [([], None), (["--summary"], "analyze"), (["-o", "-"], None),
                                            (["-o", "out.jsonl"], "analyze")])
def test_analyze_progress_on_a_terminal_unless_its_lines_go_there(small_history: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch, args: List[str],
                                                                  progress: Optional[str]) -> None:
    # stdout and stderr one terminal: a progress counter only when the game lines do not show the progress
    # (--summary prints none until the end)
    seen: List[Optional[str]] = []

    def progress_only(fn: Any, items: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["progress"])
        return iter(())
    monkeypatch.setattr("tarot_solver.cli._map_ordered", progress_only)
    terminal = type("Terminal", (), {"isatty": lambda self: True})()
    monkeypatch.setattr("tarot_solver.cli.sys", type("Sys", (), {"stdout": terminal, "stderr": terminal})())
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["analyze", str(small_history), "-j", "1", *args])
    assert result.exit_code == 0, result.output
    assert seen == [progress]


def test_bad_games_are_reported_and_skipped(tmp_path: Path) -> None:
    lines = HISTORY.read_text(encoding="utf-8").splitlines(True)[:3]
    cut = GAMES[1].to_json()
    cut["played"] = cut["played"][:30]
    path = tmp_path / "bad.jsonl"
    path.write_text(lines[0] + "{oops\n" + json.dumps(cut) + "\n" + lines[2], encoding="utf-8")
    result = analyze([str(path), "-j", "1"])
    assert result.exit_code == 2
    assert [json.loads(line)["line"] for line in result.stdout.splitlines()] == [1, 4]
    assert result.stderr.splitlines() == [
        f"tarot-solve: skipped: {path}: line 2: malformed JSON at column 2: Expecting property name enclosed"
        " in double quotes",
        f"tarot-solve: skipped: {path}: line 3 (id 'h02'): key 'played': the game is not complete:"
        " 30 of 72 cards played",
        "tarot-solve: error: 2 bad games skipped (lines 2, 3)",
    ]
    strict = analyze([str(path), "-j", "1", "--strict", "-o", str(tmp_path / "out.jsonl")])
    assert strict.exit_code == 2 and strict.stderr.count("\n") == 1
    assert strict.stderr.startswith(f"tarot-solve: error: {path}: line 2: malformed JSON")
    assert not (tmp_path / "out.jsonl").exists()


def test_strict_checks_every_game_before_solving_any(tmp_path: Path) -> None:
    # all or nothing: a bad third game, and not even the first two are written
    lines = HISTORY.read_text(encoding="utf-8").splitlines(True)
    cut = GAMES[2].to_json()
    cut["played"] = cut["played"][:30]
    path = tmp_path / "bad.jsonl"
    path.write_text("".join(lines[:2]) + json.dumps(cut) + "\n" + lines[3], encoding="utf-8")
    error = (f"tarot-solve: error: {path}: line 3 (id 'h03'): key 'played': the game is not complete:"
             " 30 of 72 cards played\n")
    out = tmp_path / "out.jsonl"
    strict = analyze([str(path), "-j", "1", "--strict", "-o", str(out)])
    assert (strict.exit_code, strict.stdout, strict.stderr) == (2, "", error)
    assert not out.exists()
    # stdin is read twice too (from a copy): the lines of a run without --strict when all is well...
    good = tmp_path / "good.jsonl"
    good.write_text("".join(lines[:2]), encoding="utf-8")
    reference = analyze([str(good), "-j", "1"])
    piped = CliRunner().invoke(main, ["analyze", "--nodes", str(NODES), "-", "-j", "1", "--strict"],
                               input=good.read_text(encoding="utf-8"))
    assert piped.exit_code == 0 and piped.stdout == reference.stdout and reference.stdout.count("\n") == 2
    # ... and nothing on stdout when a game is bad
    piped = CliRunner().invoke(main, ["analyze", "--nodes", str(NODES), "-", "-j", "1", "--strict"],
                               input=path.read_text(encoding="utf-8"))
    assert (piped.exit_code, piped.stdout, piped.stderr) == (2, "", error.replace(str(path), "<stdin>"))
    # --resume: the output is left as it is, its cut last line included
    out.write_text(reference.stdout.splitlines(True)[0] + '{"id": "h0', encoding="utf-8")
    before = out.read_bytes()
    resumed = analyze([str(path), "-j", "1", "--strict", "-o", str(out), "--resume"])
    assert (resumed.exit_code, resumed.stdout, resumed.stderr) == (2, "", error)
    assert out.read_bytes() == before
    # each game is counted once, though --strict prepares it twice
    past = analyze([str(good), "-j", "1", "--strict", "--from-trick", "19"])
    assert past.exit_code == 0 and past.stderr == ("tarot-solve: note: --from-trick 19 is past the last trick of"
                                                   " 2 games at 4 players (18 tricks): nothing was solved in them\n")
    last = analyze([str(good), "-j", "1", "--strict", "--from-trick", "18"])  # the last trick is not past the end
    assert (last.exit_code, last.stderr) == (0, "") and last.stdout.count("\n") == 2
    # a pipe given by name cannot be read twice: refused at once
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused = analyze([str(fifo), "-j", "1", "--strict"])
    assert (refused.exit_code, refused.stdout) == (2, "")
    assert refused.stderr == (f"tarot-solve: error: {fifo}: --strict reads the input twice, and a pipe can be"
                              " read once: give it as '-'\n")


def test_usage_errors_exit_2(small_history: Path, tmp_path: Path) -> None:
    assert analyze([str(small_history), "--resume"]).exit_code == 2
    missing = analyze([str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "No such file" in missing.stderr and missing.stdout == ""


def test_summary_table_json_and_plot(small_history: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    table = analyze([str(small_history), "-j", "1", "-o", str(out), "--summary"])
    assert table.exit_code == 0, table.output
    assert table.stdout.splitlines()[0].startswith("6 games: contracts made ")
    summary = Summary()
    for line in out.read_text(encoding="utf-8").splitlines():
        summary.add(json.loads(line))
    assert table.stdout.rstrip("\n") == summary.render()
    as_json = analyze([str(small_history), "-j", "1", "--summary", "--json"])
    assert json.loads(as_json.stdout) == summary.to_json()
    pytest.importorskip("matplotlib")
    again = analyze([str(small_history), "-j", "1", "-o", str(out), "--resume", "--summary", "--json",
                     "--plot", str(tmp_path / "c.png")])
    assert again.exit_code == 0 and json.loads(again.stdout) == summary.to_json()  # nothing new, same summary
    assert (tmp_path / "c.png").stat().st_size > 0


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_leaves_whole_lines_and_resume_completes(small_history: Path, tmp_path: Path, signum: int,
                                                           status: int) -> None:
    reference = analyze([str(small_history), "-j", "1"])
    out = tmp_path / "out.jsonl"
    args = [sys.executable, "-m", "tarot_solver", "analyze", str(small_history), "-o", str(out),
            "--nodes", str(NODES), "-j", "1"]
    proc = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    deadline = time.monotonic() + 60
    while (not out.exists() or out.read_text().count("\n") < 2) and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == status, stderr
    written = out.read_text(encoding="utf-8")
    assert 2 <= written.count("\n") < 6 and written.endswith("\n")
    stopped = "terminated" if signum == signal.SIGTERM else "interrupted"
    assert stderr.splitlines() == [f"tarot-solve: {stopped}: {written.count(chr(10))} games written to {out};"
                                   " run again with --resume to finish"]
    assert reference.stdout.startswith(written)
    with out.open("a", encoding="utf-8") as f:
        f.write('{"id": "h0')  # as if killed in the middle of a line
    resumed = analyze([str(small_history), "-j", "2", "-o", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert out.read_text(encoding="utf-8") == reference.stdout


def test_a_ctrl_c_just_after_a_line_counts_it(small_history: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             python_sigint: None) -> None:
    # the signal comes as the second line is out: the message counts it (it once came
    # between the write and the count, which then said one game too few)
    from tarot_solver import cli

    write = cli._write_line
    lines: List[Any] = []

    def write_then_ctrl_c(out: Any, obj: Any) -> None:
        write(out, obj)
        lines.append(obj)
        if len(lines) == 2:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(cli, "_write_line", write_then_ctrl_c)
    out = tmp_path / "out.jsonl"
    result = analyze([str(small_history), "-o", str(out), "-j", "1"])
    assert result.exit_code == 130, result.output
    assert out.read_text(encoding="utf-8").count("\n") == 2
    assert result.stderr == f"tarot-solve: interrupted: 2 games written to {out}; run again with --resume to finish\n"


def test_local_dask_cluster_gives_the_same_lines(small_history: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    converted = tmp_path / "tarotclub.jsonl"
    convert = CliRunner().invoke(main, ["convert", *(str(p) for p in sorted(TAROTCLUB.glob("[hs]*.json"))),
                                        "-o", str(converted)])
    assert convert.exit_code == 0, convert.output
    both = tmp_path / "both.jsonl"
    both.write_text(small_history.read_text(encoding="utf-8") + converted.read_text(encoding="utf-8"),
                    encoding="utf-8")
    local = analyze([str(both), "-j", "1"])
    assert local.exit_code == 0, local.output
    assert len(local.stdout.splitlines()) == 6 + 7
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        remote = analyze([str(both), "--scheduler", cluster.scheduler_address])
    assert remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout


class _FakeServer:
    """A TCP server on localhost that accepts and then stays silent, or answers ``reply``."""

    def __init__(self, reply: Optional[bytes]) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.reply = reply
        self.conns: List[socket.socket] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = self.sock.accept()
                self.conns.append(conn)
                if self.reply is not None:
                    conn.sendall(self.reply)

    def close(self) -> None:
        for conn in self.conns:
            conn.close()
        self.sock.close()


@pytest.mark.parametrize("reply, fragment", [
    (None, "no Dask scheduler answered within 1 s"),  # Dask's own client waited forever
    (b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n",  # it failed to allocate 3 EiB
     "no Dask scheduler answers there (the reply is not Dask's protocol)"),
])
def test_a_scheduler_address_where_dask_does_not_answer(small_history: Path, reply: Optional[bytes],
                                                         fragment: str) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.distributed")
    server = _FakeServer(reply)
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
            result = analyze([str(small_history), "--scheduler", server.address])
    finally:
        server.close()
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"tarot-solve: error: key '--scheduler': {fragment} (token '{server.address}')\n")


def _closed_port() -> int:
    """A loopback port where nothing listens (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("address, reason", [
    (f"tcp://127.0.0.1:{_closed_port()}", "connection refused"),
    ("tcp://no-such-host.invalid:8786", "host 'no-such-host.invalid' not found: "),
])
def test_a_refused_or_unknown_scheduler_address_is_noted_while_it_is_tried(small_history: Path, address: str,
                                                                          reason: str) -> None:
    """Dask's client tries these again until its connect timeout, without a word."""
    dask = pytest.importorskip("dask")
    pytest.importorskip("dask.distributed")
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = analyze([str(small_history), "--scheduler", address])
    assert result.exit_code == 2 and result.stdout == ""
    note, error, *rest = result.stderr.splitlines()
    assert note.startswith(f"tarot-solve: note: no Dask scheduler at {address} yet ({reason}")
    assert note.endswith("; trying until Dask's connect timeout, 1 s")
    assert error.startswith("tarot-solve: error: key '--scheduler': no Dask scheduler answer")
    assert error.endswith(f"(token '{address}')") and rest == []


def test_a_scheduler_that_starts_after_the_run_is_used(small_history: Path, tmp_path: Path) -> None:
    # a scheduler launched beside the run (a batch script's `dask scheduler &`) may listen only
    # after the run first tries it: it is tried again until Dask's connect timeout
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("dask.distributed")
    port = _closed_port()
    result: Dict[str, Any] = {}

    def run() -> None:
        with dask.config.set({"distributed.comm.timeouts.connect": "20s"}):
            result["run"] = analyze([str(small_history), "--scheduler", f"tcp://127.0.0.1:{port}",
                                     "-o", str(tmp_path / "out.jsonl"), "--nodes", "2000"])

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1", scheduler_port=port,
                                  dashboard_address=None):
        thread.join(120)
    assert not thread.is_alive()
    assert result["run"].exit_code == 0, result["run"].stderr
    assert "no Dask scheduler at" in result["run"].stderr
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8").count("\n") == len(small_history.read_text().splitlines())


def test_a_scheduler_without_workers_is_an_error(small_history: Path) -> None:
    dask = pytest.importorskip("dask")
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None) as cluster, \
            dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = analyze([str(small_history), "--scheduler", cluster.scheduler_address])
    assert result.exit_code == 2 and result.stdout == ""
    assert "key '--scheduler': the Dask scheduler has no worker (waited 1 s)" in result.stderr


def test_a_scheduler_that_goes_away_ends_the_run_with_one_line(small_history: Path, tmp_path: Path) -> None:
    # a real cluster (Dask's own commands), whose scheduler is killed in the middle of the run:
    # one line, ours, and not also the Dask client's log lines (on giving it up, and the traceback
    # of its reconnection cancelled), nor a traceback of the tasks cancelled with it
    pytest.importorskip("dask.distributed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s", "PYTHONFAULTHANDLER": "1"}
    cluster = [subprocess.Popen([sys.executable, "-m", f"distributed.cli.dask_{command}", *args, "--no-dashboard"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, env=env,
                                start_new_session=True)  # (the worker's nanny starts a process of its own)
               for command, args in (("scheduler", ["--host", "127.0.0.1", "--port", str(port)]),
                                     ("worker", [address, "--nthreads", "1"]))]
    out = tmp_path / "out.jsonl"
    try:
        proc = subprocess.Popen([sys.executable, "-m", "tarot_solver", "analyze", str(small_history), "-o", str(out),
                                 "--scheduler", address, "--time-limit", "60"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
        time.sleep(8)  # connected, and the first game's positions being searched on the worker
        os.killpg(cluster[0].pid, signal.SIGKILL)
        try:
            stdout, stderr = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)  # (the fault handler prints where each thread waits)
            stdout, stderr = proc.communicate()
            pytest.fail(f"the run did not end within 60 s of the scheduler's death:\n{stderr}")
    finally:
        for p in cluster:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert proc.returncode == 1 and stdout == "", stderr
    assert re.fullmatch(r"(tarot-solve: note: no Dask scheduler at [^\n]* yet \(connection refused\)[^\n]*\n)?"  # (starting)
                        r"tarot-solve: error: (the connection to the Dask scheduler was lost|the Dask scheduler has not"
                        rf" answered for 2 s): ([0-9]+ games? written to {re.escape(str(out))}; run again with"
                        rf" --resume to finish|no game written; {re.escape(str(out))} not created)\n", stderr), stderr


def test_a_worker_that_dies_stops_the_batch_with_one_line(small_history: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def two_then_death(fn: Any, items: Any, **kwargs: Any) -> Any:
        items = iter(items)
        for item in itertools.islice(items, 2):
            yield fn(item)
        raise WorkerError("a worker process died (exit codes {SIGKILL(-9)})")

    monkeypatch.setattr("tarot_solver.cli._map_ordered", two_then_death)
    out = tmp_path / "out.jsonl"
    result = analyze([str(small_history), "-o", str(out)])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"tarot-solve: error: a worker process died (exit codes {{SIGKILL(-9)}}): 2 games"
                             f" written to {out}; run again with --resume to finish\n")
    assert out.read_text(encoding="utf-8").count("\n") == 2
    # a death before the first line: the output untouched, and no --resume to suggest
    monkeypatch.setattr("tarot_solver.cli._map_ordered", lambda fn, items, **kwargs: two_then_death(fn, [], **kwargs))
    for name, said in (("none.jsonl", "not created"), ("out.jsonl", "left as it was")):
        result = analyze([str(small_history), "-o", str(tmp_path / name)])
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr == (f"tarot-solve: error: a worker process died (exit codes {{SIGKILL(-9)}}): no game"
                                 f" written; {tmp_path / name} {said}\n")
    assert not (tmp_path / "none.jsonl").exists() and out.read_text(encoding="utf-8").count("\n") == 2
    # --resume: the lines already there are counted as well
    monkeypatch.setattr("tarot_solver.cli._map_ordered", two_then_death)
    result = analyze([str(small_history), "-o", str(out), "--resume"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"tarot-solve: error: a worker process died (exit codes {{SIGKILL(-9)}}): 2 games"
                             f" written to {out} (4 in all); run again with --resume to finish\n")
    assert out.read_text(encoding="utf-8").count("\n") == 4
    # with --summary alone, the lines were never written: the summary would have replaced them
    monkeypatch.setattr("tarot_solver.cli._map_ordered", two_then_death)
    result = analyze([str(small_history), "--summary"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == ("tarot-solve: error: a worker process died (exit codes {SIGKILL(-9)}): 2 games"
                             " analysed, no summary written (-o FILE keeps the lines as they come)\n")


def test_two_runs_never_write_one_output_at_once(small_history: Path, tmp_path: Path) -> None:
    # two resumed runs of one batch would each append the games missing: the second is refused
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "out.jsonl"
    assert analyze([str(small_history), "-o", str(out), "--nodes", "2000"]).exit_code == 0
    before = out.read_text(encoding="utf-8")
    with open(out, "a", encoding="utf-8") as other:
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)  # (as the other run holds it)
        for args in ([], ["--resume"]):
            result = analyze([str(small_history), "-o", str(out), "--nodes", "2000", *args])
            assert result.exit_code == 2 and result.stdout == ""
            assert result.stderr == (f"tarot-solve: error: --output {out} is being written by another run:"
                                     " wait for it to end\n")
    assert out.read_text(encoding="utf-8") == before
    assert analyze([str(small_history), "-o", str(out), "--nodes", "2000", "--resume"]).exit_code == 0  # (released)
    assert out.read_text(encoding="utf-8") == before


def test_resume_notes_lines_of_another_history(small_history: Path, tmp_path: Path) -> None:
    # a wrong -o (another history's output): its lines are kept, and the run says so
    out = tmp_path / "out.jsonl"
    assert analyze([str(small_history), "-o", str(out), "--nodes", "2000"]).exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines(True)
    foreign = json.dumps({**json.loads(lines[0]), "id": "elsewhere"}) + "\n"
    out.write_text(foreign + lines[1], encoding="utf-8")
    result = analyze([str(small_history), "-o", str(out), "--nodes", "2000", "--resume"])
    assert result.exit_code == 0
    assert result.stderr == (f"tarot-solve: note: {out} holds 1 line matching no record of {small_history}: kept"
                             " (and counted by --summary)\n")
    assert out.read_text(encoding="utf-8").startswith(foreign + lines[1])
    assert len(out.read_text(encoding="utf-8").splitlines()) == len(lines) + 1


def test_resume_skips_no_good_game_for_a_bad_one_with_its_id(tmp_path: Path) -> None:
    # a bad game and a good one with the same id: the output's line is the good one's, which
    # --resume skipped for the bad one (silently), analysing the good one again: a duplicate line
    lines = HISTORY.read_text(encoding="utf-8").splitlines()
    cut = {**json.loads(lines[1]), "id": "x"}
    cut["played"] = cut["played"][:30]
    twice = tmp_path / "twice.jsonl"
    twice.write_text(json.dumps(cut) + "\n" + json.dumps({**json.loads(lines[0]), "id": "x"}) + "\n",
                     encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert analyze([str(twice), "-o", str(out), "--nodes", "2000"]).exit_code == 2
    whole = out.read_text(encoding="utf-8")
    assert [json.loads(line)["line"] for line in whole.splitlines()] == [2]
    result = analyze([str(twice), "-o", str(out), "--nodes", "2000", "--resume"])
    assert result.exit_code == 2 and "line 1 (id 'x'): key 'played': the game is not complete" in result.stderr
    assert out.read_text(encoding="utf-8") == whole


def test_an_interrupt_before_the_run_says_what_was_left(small_history: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C while --resume reads the output (or --strict checks the history): nothing written
    def interrupted(*args: Any) -> Any:
        raise KeyboardInterrupt

    out = tmp_path / "out.jsonl"
    out.write_text("", encoding="utf-8")
    monkeypatch.setattr("tarot_solver.history.resume_output", interrupted)
    result = analyze([str(small_history), "-o", str(out), "--resume"])
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr == (f"tarot-solve: interrupted: no game written; {out} left as it was; run again with"
                             " --resume to finish\n")


def test_missing_extras_fail_before_any_work(small_history: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    result = analyze([str(small_history), "--plot", "x.png"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "tarot-solve: error: --plot needs the optional extra: pip install 'tarot-solver[plot]'\n"
    assert not os.path.exists("x.png")


@pytest.mark.parametrize("name, says", [
    ("costs.001", "matplotlib writes no '.001' images (it writes "),  # a traceback, after the whole run
    ("none/costs.png", "no directory"),
])
def test_a_plot_that_cannot_be_written_fails_before_any_work(small_history: Path, tmp_path: Path, name: str,
                                                              says: str) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "out.jsonl"
    result = analyze([str(small_history), "-o", str(out), "--plot", str(tmp_path / name)])
    assert result.exit_code == 2 and result.stdout == "" and not out.exists()
    assert result.stderr.startswith(f"tarot-solve: error: --plot {tmp_path / name}: {says}")
    assert len(result.stderr.splitlines()) == 1
    assert name.endswith(".png") or ".pdf, .pgf, .png," in result.stderr  # (the list is matplotlib's own)


def test_a_plot_format_this_machine_cannot_write_fails_before_any_work(small_history: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # .pgf is a format matplotlib lists, but its writer runs a LaTeX program: without one, a
    # traceback after the whole run (exit status 1)
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("PATH", str(tmp_path))  # (no xelatex there)
    out, plot = tmp_path / "out.jsonl", tmp_path / "costs.pgf"
    result = analyze([str(small_history), "-o", str(out), "--plot", str(plot)])
    assert result.exit_code == 2 and result.stdout == "" and not out.exists() and not plot.exists()
    assert result.stderr.startswith(f"tarot-solve: error: --plot {plot}: matplotlib cannot write '.pgf' images here: ")
    assert "xelatex" in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_plot_on_the_history_or_the_output_is_refused_before_any_work(small_history: Path,
                                                                        tmp_path: Path) -> None:
    # the image was written over the game lines (-o) or the history itself, silently, after the run
    pytest.importorskip("matplotlib")
    history = tmp_path / "games.png"
    history.write_bytes(small_history.read_bytes())
    out = tmp_path / "out.png"
    for args, says in (([str(history), "-o", str(out), "--plot", str(out)], "the --output file: its lines"),
                       ([str(history), "-o", str(out), "--plot", str(tmp_path / "out")], "the --output file"),
                       ([str(history), "--plot", str(history)], "the input file: its records")):
        result = analyze(args)
        assert result.exit_code == 2 and result.stdout == "" and not out.exists()
        assert result.stderr.startswith(f"tarot-solve: error: --plot {args[-1]} is {says}")
        assert len(result.stderr.splitlines()) == 1
    assert history.read_bytes() == small_history.read_bytes()


def test_best_card_tokens_are_canonical(analyses: Dict[str, GameAnalysis]) -> None:
    unknown = 0
    for result in analyses.values():
        for m in result.mistakes:
            j = m.to_json()
            assert j["card"] == card_token(m.card)
            assert j["best"] == (None if m.best is None else card_token(m.best))
            # no best card where the value before the card is not exact (docs/analyze.md)
            if result.values[m.index][0] != result.values[m.index][1]:
                assert m.best is None, m
                unknown += 1
    assert unknown  # (h03's error of trick 6 at this budget)


def test_analysis_options_are_checked_by_name() -> None:
    for kwargs, fragment in (({"first_trick": 0}, "first_trick must be a trick number"),
                             ({"node_limit": -1}, "node_limit must be 0 (no search) or more"),
                             ({"time_limit": -1}, "time_limit must be 0 (no search) or more"),
                             ({"table_mb": 0}, "table_mb must be between")):
        with pytest.raises(ValueError, match=re.escape(fragment)):
            history.AnalysisOptions(**kwargs)
    # a value of another type is a TypeError, as docs/api.md says; numpy's integers are integers
    for value, shown in ((2.0, "2.0"), ("13", "'13'"), (True, "True")):
        with pytest.raises(TypeError, match=re.escape(f"first_trick must be a trick number, not {shown}")):
            history.AnalysisOptions(first_trick=value)
    import numpy as np

    typed = history.AnalysisOptions(first_trick=np.int64(13))
    assert typed == history.AnalysisOptions(first_trick=13) and type(typed.first_trick) is int
