"""The three-player game end to end: records, notation, scoring, solving, analysis."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest
from click.testing import CliRunner

from tarot_solver.advice import bid_advice, discard_advice, play_advice, view_of, world_position
from tarot_solver.cards import count
from tarot_solver.cli import main
from tarot_solver.errors import TarotError
from tarot_solver.history import AnalysisOptions, Summary, analyze_game
from tarot_solver.notation import format_deal, parse_deal
from tarot_solver.records import DealRecord, read_record
from tarot_solver.sampling import Sampler, View, record_constraints, world_rng
from tarot_solver.solver import Solver
from tarot_solver.variant import THREE_PLAYERS, Contract

from conftest import EXAMPLES, record_error
from reference import minimax


def run(args: List[str]) -> Any:
    return CliRunner().invoke(main, args)


# Records -----------------------------------------------------------------------------


def test_a_complete_game_scores_two_units_to_the_taker(three_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(three_obj)
    assert record.variant is THREE_PLAYERS
    assert record.is_complete and len(record.played or ()) == 72
    state = record.final_state()
    assert state.tricks_done == 24 and state.taker_hp + state.defence_hp == 182
    result = record.score(state)
    scores = result.scores(record.taker, 3)
    assert scores[record.taker] == 2 * result.unit and sum(scores) == 0


@pytest.mark.parametrize("change, key, fragment", [
    ({"players": 5}, "hands", "expected 5 hands, got 3"),
    ({"players": 2}, "players", "bad number of players '2': 3, 4 or 5"),
    ({"players": True}, "players", "bad number of players"),
    ({"taker": 3}, "taker", "seats are integers 0..2"),
    ({"dealer": 3}, "dealer", "seats are integers 0..2"),
    ({"players": 4}, "hands", "expected 4 hands, got 3"),
])
def test_bad_three_player_records(three_obj: Dict[str, Any], change: Dict[str, Any], key: str,
                                  fragment: str) -> None:
    three_obj.update(change)
    err = record_error(three_obj)
    assert err.key == key and fragment in str(err) and str(err).startswith("f: line 1")


def test_three_hands_without_the_players_key_say_what_is_missing(three_obj: Dict[str, Any]) -> None:
    del three_obj["players"]
    assert '"players": 3' in str(record_error(three_obj))


def test_hands_of_twenty_four(three_obj: Dict[str, Any]) -> None:
    three_obj["dog"].append(three_obj["hands"][2].pop())
    del three_obj["played"]
    err = record_error(three_obj)
    assert err.key == "hands[2]" and "hands[2] has 23 cards, expected 24" in str(err)


def test_poignees_of_the_three_player_game(three_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(three_obj)
    trumps = [t for t in record.to_json()["hands"][0] + three_obj["dog"] if t.startswith("T")]
    assert len(trumps) == 11  # the taker's, after the dog: a simple poignée at four players
    three_obj["poignees"] = [{"seat": 0, "trumps": trumps[:10]}]
    err = record_error(three_obj)
    assert err.key == "poignees[0].trumps" and "13" in str(err)


# Notation ----------------------------------------------------------------------------


def test_one_line_notation_round_trip() -> None:
    record = read_record(EXAMPLES / "three.json")
    text = format_deal(record.hands, record.dog, dealer=record.dealer, taker=record.taker,
                       contract=record.contract, discard=record.discard)
    fields = parse_deal(text)
    assert fields["players"] == 3
    again = DealRecord(**fields)
    assert again.hands == record.hands and again.discard == record.discard
    assert format_deal(**fields) == text


# Solving -------------------------------------------------------------------------------


def test_the_core_agrees_with_the_reference_along_the_example_game() -> None:
    record = read_record(EXAMPLES / "three.json")
    solver = Solver(table_mb=16)
    for left in (1, 2, 3):
        state = record.opening_state()
        for card in (record.played or [])[:72 - 3 * left - 1]:
            state.play(card)
        assert solver.solve(state).margin == minimax(state.copy()) / 2


def test_cli_solves_the_midgame_example() -> None:
    res = run(["solve", str(EXAMPLES / "three-midgame.json"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["complete"] and out["made"] == (out["margin"] >= 0)
    assert len(out["pv"]) == 30
    text = run(["solve", str(EXAMPLES / "three-midgame.json")]).output
    assert "seat 2 defence" in text and "seat 3" not in text and "trick 24:" in text


def test_cli_replays_and_scores() -> None:
    out = json.loads(run(["replay", str(EXAMPLES / "three.json"), "--json"]).output)
    assert len(out["scores"]) == 3 and sum(out["scores"]) == 0
    score = json.loads(run(["score", "--contract", "garde", "--points", "49", "--oudlers", "2",
                            "--players", "3", "--json"]).output)
    assert (score["unit"], score["taker"], score["defender"]) == (66, 132, -66)


# Analysis ------------------------------------------------------------------------------


def test_analysis_and_summary_of_mixed_tables() -> None:
    three = read_record(EXAMPLES / "three.json")
    four = read_record(EXAMPLES / "game.json")
    lines = [analyze_game(r, AnalysisOptions(node_limit=200_000, first_trick=r.variant.tricks - 3)).to_json(i)
             for i, r in enumerate((three, four), 1)]
    assert len(lines[0]["scores"]) == 3 and len(lines[1]["scores"]) == 4
    assert all(e["trick"] >= 21 for e in lines[0]["errors"])
    summary = Summary()
    for line in lines:
        summary.add(line)
    assert [s["games"] for s in summary.to_json()["seats"]] == [2, 2, 2, 1]
    assert three.contract is Contract.GARDE


# Sampling and advice -------------------------------------------------------------------


def test_worlds_of_the_three_player_game_respect_what_the_seat_saw() -> None:
    record = read_record(EXAMPLES / "three-midgame.json")
    seat = record.position().to_play
    constraints = record_constraints(record, seat)
    assert constraints.sizes == (10, 10, 10, 6) and constraints.players == 3
    sampler = Sampler(constraints)
    for i in range(20):
        world = sampler.sample(world_rng(7, i))
        assert len(world.hands) == 3 and count(world.aside) == 6
        assert world.hands[seat] == record.position().hands[seat]
        state = world_position(View.of_record(record, seat), constraints, world)
        assert state.players == 3 and state.to_play == seat


def test_play_advice_from_a_record_and_from_a_view_agree() -> None:
    record = read_record(EXAMPLES / "three-midgame.json")
    seat = record.position().to_play
    by_record = play_advice(record, worlds=6, seed=3, jobs=1, progress=None)
    view = view_of(seat, record.hands[seat], taker=record.taker, contract=Contract.GARDE, leader=record.first_leader,
                   dog=record.dog, discard=record.discard, played=record.played or [], players=3)
    by_view = play_advice(view, worlds=6, seed=3, jobs=1, progress=None)
    assert by_record.choices == by_view.choices and by_record.run.worlds == 6
    best = by_record.choices[0].summary.expected_score
    # the taker's 2U: a garde made by m scores 2 * 2 * (25 + m)
    assert best == pytest.approx(4 * (25 + by_record.choices[0].summary.expected_margin), abs=4)


def test_bid_and_discard_advice_at_three_players() -> None:
    record = read_record(EXAMPLES / "three.json")
    hand = record.hands[0]
    bid = bid_advice(hand, seat=0, dealer=2, worlds=4, seed=1, jobs=1, node_budget=20_000, progress=None, players=3)
    assert bid.hand_count is None and bid.hand_count_contract is None and len(bid.contracts) == 4
    discard = discard_advice(hand, record.dog, Contract.GARDE, worlds=2, seed=1, jobs=1, node_budget=20_000,
                             candidates=3, progress=None, players=3)
    assert all(len(c.discard) == 6 for c in discard.candidates)
    with pytest.raises(TarotError, match="a hand holds 18 cards, got 24 .hands of 24 are the 3-player game's"):
        bid_advice(hand, worlds=1, progress=None)
    with pytest.raises(TarotError, match="seats are integers 0..2"):
        bid_advice(hand, seat=3, worlds=1, progress=None, players=3)


def test_cli_advice_at_three_players() -> None:
    record = read_record(EXAMPLES / "three.json")
    hand = " ".join(record.to_json()["hands"][0])
    res = run(["bid", hand, "--players", "3", "--worlds", "2", "--node-budget", "20000", "-j", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["players"] == 3 and out["hand_count"] is None
    text = run(["bid", hand, "--players", "3", "--worlds", "2", "--node-budget", "20000", "-j", "1"]).output
    assert "hand count: none at 3 players" in text
    res = run(["play", str(EXAMPLES / "three-midgame.json"), "--worlds", "2", "-j", "1", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["players"] == 3
    res = run(["play", str(EXAMPLES / "game.json"), "--players", "3"])
    assert res.exit_code == 2 and "the deal record is a 4-player deal" in res.output
    for args in (["bid", hand, "--players", "3"], ["bid", str(EXAMPLES / "three.json")],
                 ["discard", str(EXAMPLES / "three.json")], ["bid", hand, "--players", "3", "--seat", "0"]):
        res = run(args + ["--seat", "3", "--worlds", "1"] if "--seat" not in args else args + ["--dealer", "3"])
        assert res.exit_code == 2 and "seats are integers 0..2" in res.output, (args, res.output)


def test_opening_state_takes_the_table_size_from_the_hands() -> None:
    """rules.opening_state as docs/api.md calls it (no variant): three hands make the
    three-player game, not a four-player state with three hands; a variant or a partner
    that does not fit the hands is refused."""
    from tarot_solver import rules
    from tarot_solver.cards import mask_of
    from tarot_solver.variant import FIVE_PLAYERS, FOUR_PLAYERS

    record = read_record(EXAMPLES / "three.json")
    hands, dog = [mask_of(h) for h in record.hands], mask_of(record.dog)
    state = rules.opening_state(hands, dog, 0, Contract.GARDE_SANS, 1)
    assert state.variant is THREE_PLAYERS and state.camps == (True, False, False)
    assert Solver().solve(state, node_limit=1000).margin_bounds is not None
    with pytest.raises(TarotError, match="3 hands") as err:
        rules.opening_state(hands, dog, 0, Contract.GARDE_SANS, 1, variant=FOUR_PLAYERS)
    assert err.value.key == "hands"
    with pytest.raises(TarotError, match="no partner at 3 players") as err:
        rules.opening_state(hands, dog, 0, Contract.GARDE_SANS, 1, variant=THREE_PLAYERS, partner=1)
    assert err.value.key == "partner"
    five = read_record(EXAMPLES / "five.json")
    hands5, dog5 = [mask_of(h) for h in five.hands], mask_of(five.dog)
    state5 = rules.opening_state(hands5, dog5, 2, Contract.GARDE, 0, five.discard, partner=4)
    assert state5.variant is FIVE_PLAYERS and state5.camps == (False, False, True, False, True)
    with pytest.raises(TarotError, match="another seat than the taker") as err:
        rules.opening_state(hands5, dog5, 2, Contract.GARDE_SANS, 0, partner=2)
    with pytest.raises(TarotError, match="seats are integers 0..4") as err:
        rules.opening_state(hands5, dog5, 2, Contract.GARDE_SANS, 0, partner=7)
