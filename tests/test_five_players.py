"""The five-player game: the called card and the partner it makes, from records to advice."""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any, Dict, List

import pytest
from click.testing import CliRunner

from tarot_solver import rules, tarotclub
from tarot_solver.advice import bid_advice, discard_advice, play_advice, view_of
from tarot_solver.cards import cards_of, mask_of, parse_card
from tarot_solver.cli import main
from tarot_solver.errors import TarotError
from tarot_solver.handcount import simple_call
from tarot_solver.history import AnalysisOptions, Summary, analyze_game
from tarot_solver.notation import format_deal, parse_deal
from tarot_solver.records import DealRecord, read_record
from tarot_solver.sampling import Sampler, View, world_rng
from tarot_solver.solver import Solver
from tarot_solver.variant import FIVE_PLAYERS, Contract

from conftest import EXAMPLES, record_error
from reference import minimax


def run(args: List[str]) -> Any:
    return CliRunner().invoke(main, args)


def unplayed(obj: Dict[str, Any], **change: Any) -> Dict[str, Any]:
    out = {k: v for k, v in obj.items() if k != "played"}
    out.update(change)
    return out


# The call ------------------------------------------------------------------------------


def test_callable_cards_and_what_a_call_shows() -> None:
    kings = mask_of(parse_card(t) for t in ("KS", "KH", "KD", "KC"))
    assert rules.callable_cards(0) == kings
    assert rules.callable_cards(kings) == mask_of(parse_card(t) for t in ("QS", "QH", "QD", "QC"))
    assert rules.call_reveals(parse_card("KD")) == 0 and rules.call_reveals(parse_card("QD")) == kings
    with pytest.raises(TarotError, match="calls a king"):
        rules.call_reveals(parse_card("10D"))
    with pytest.raises(TarotError, match="calls a king"):
        rules.call_reveals(parse_card("T14"))  # a trump is never called, whatever its number
    with pytest.raises(TarotError, match=r"calls a queen \(he holds every card of the ranks above\), not 'KS'"):
        rules.check_call(kings, parse_card("KS"))


def test_the_simple_call_is_never_the_takers_own_card() -> None:
    for text in ("KS KH QS QH QD JS T1", "KS KH KD KC QS T1", "KS 1S 2S 3S KH"):
        hand = mask_of(parse_card(t) for t in text.split())
        called = simple_call(hand)
        assert not hand >> called & 1 and rules.callable_cards(hand) >> called & 1
    assert simple_call(mask_of(parse_card(t) for t in "KS 1S 2S 3S KH".split())) == parse_card("KD")


# Records -------------------------------------------------------------------------------


def test_the_partner_scores_one_unit_and_the_taker_two(five_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(five_obj)
    assert record.variant is FIVE_PLAYERS and (record.called, record.partner) == (parse_card("KS"), 4)
    state = record.final_state()
    assert state.tricks_done == 15 and state.camps == (False, False, True, False, True)
    result = record.score(state)
    assert result.scores(record.taker, 5, record.partner) == [-result.unit] * 2 + [2 * result.unit, -result.unit,
                                                                                  result.unit]


def test_alone_when_the_called_card_is_his_own_or_in_the_dog(five_obj: Dict[str, Any]) -> None:
    own = next(t for t in five_obj["hands"][2] if t.startswith("K"))
    alone = DealRecord.from_json(unplayed(five_obj, called=own))
    assert alone.partner is None and alone.opening_state().camps == (False, False, True, False, False)
    in_dog = copy.deepcopy(five_obj)
    del in_dog["played"], in_dog["discard"]
    in_dog["contract"], in_dog["bids"] = "garde_sans", None
    hands, dog = in_dog["hands"], in_dog["dog"]
    hands[4].remove("KS"), dog.remove("9S"), hands[4].append("9S"), dog.append("KS")
    record = DealRecord.from_json(in_dog)
    assert record.called == parse_card("KS") and record.partner is None


@pytest.mark.parametrize("change, key, fragment", [
    ({"called": "QS"}, "called", "calls a king, not 'QS'"),
    ({"called": "T21"}, "called", "calls a king"),
    ({"called": "KS KH"}, "called", "expected one card, got 2"),
    ({"called": ""}, "called", "expected one card, got 0"),
    ({"called": "ZZ"}, "called", "unknown"),
    ({"called": True}, "called", "expected a card token"),
    ({"players": 4}, "hands", "expected 4 hands, got 5"),
    ({"taker": 5}, "taker", "seats are integers 0..4"),
])
def test_bad_five_player_records(five_obj: Dict[str, Any], change: Dict[str, Any], key: str, fragment: str) -> None:
    err = record_error(unplayed(five_obj, **change))
    assert err.key == key and fragment in str(err) and str(err).startswith("f: line 1")


def test_a_call_belongs_to_the_five_player_game() -> None:
    obj = json.loads((EXAMPLES / "deal.json").read_text(encoding="utf-8"))
    obj["called"] = "KS"
    assert "no card is called at 4 players" in str(record_error(obj))


def test_no_play_without_the_called_card(five_obj: Dict[str, Any]) -> None:
    del five_obj["called"]
    err = record_error(five_obj)
    assert err.key == "called" and "cannot be played without the called card" in str(err)


def test_one_line_notation_round_trip() -> None:
    record = read_record(EXAMPLES / "five.json")
    text = format_deal(record.hands, record.dog, dealer=record.dealer, taker=record.taker, contract=record.contract,
                       called=record.called, discard=record.discard)
    assert " called=KS " in text
    fields = parse_deal(text)
    assert fields["players"] == 5 and format_deal(**fields) == text
    assert DealRecord(**fields).partner == 4


# Solving, replay, analysis ----------------------------------------------------------------


def test_the_core_agrees_with_the_reference_along_the_example_game() -> None:
    record = read_record(EXAMPLES / "five.json")
    solver = Solver(table_mb=16)
    for cut in (74, 71, 68, 63, 61):
        state = record.opening_state()
        for card in (record.played or [])[:cut]:
            state.play(card)
        assert solver.solve(state).margin == minimax(state.copy()) / 2


def test_cli_replay_solve_and_score() -> None:
    out = json.loads(run(["replay", str(EXAMPLES / "five.json"), "--json"]).output)
    assert (out["called"], out["partner"], len(out["scores"]), sum(out["scores"])) == ("KS", 4, 5, 0)
    text = run(["solve", str(EXAMPLES / "five-midgame.json")]).output
    assert "calling KS (partner seat 4)" in text and "seat 4 partner" in text and "trick 15:" in text
    score = json.loads(run(["score", "--contract", "garde", "--points", "49", "--oudlers", "2", "--players", "5",
                            "--json"]).output)
    assert (score["unit"], score["taker"], score["partner"], score["defender"]) == (66, 132, 66, -66)
    alone = json.loads(run(["score", "--contract", "garde", "--points", "49", "--oudlers", "2", "--players", "5",
                            "--alone", "--json"]).output)
    assert (alone["taker"], alone["partner"]) == (264, None)
    text = run(["score", "--contract", "garde", "--points", "49", "--oudlers", "2", "--players", "5", "--alone"])
    assert text.output.endswith("unit 66: taker +264, each defender -66 (5 players, the taker alone)\n")
    res = run(["score", "--contract", "garde", "--points", "49", "--oudlers", "2", "--alone"])
    assert res.exit_code == 2 and "--alone" in res.output


def test_analysis_counts_the_partner_apart() -> None:
    five = read_record(EXAMPLES / "five.json")
    four = read_record(EXAMPLES / "game.json")
    lines = [analyze_game(r, AnalysisOptions(node_limit=200_000, first_trick=r.variant.tricks - 2)).to_json(i)
             for i, r in enumerate((five, four), 1)]
    assert lines[0]["partner"] == 4 and "partner" not in lines[1]
    # the scores are the game's with its partner: the taker 2U, the partner U, each defender -U
    unit = lines[0]["scores"][4]
    assert lines[0]["scores"] == [2 * unit if s == five.taker else unit if s == 4 else -unit for s in range(5)]
    summary = Summary()
    for line in lines:
        summary.add(line)
    j = summary.to_json()
    assert j["roles"]["partner"]["games"] == 1 and j["roles"]["taker"]["games"] == 2
    assert [s["games"] for s in j["seats"]] == [2, 2, 2, 2, 1]
    assert "partner" in summary.render()
    four_only = Summary()
    four_only.add(lines[1])
    assert "partner" not in four_only.to_json()["roles"] and "partner" not in four_only.render()


def test_analyze_says_when_from_trick_is_past_a_games_end(tmp_path: Any) -> None:
    mixed = tmp_path / "mixed.jsonl"
    four = (EXAMPLES / "history.jsonl").read_text(encoding="utf-8").splitlines(True)[0]
    mixed.write_text(four + json.dumps(json.loads((EXAMPLES / "five.json").read_text(encoding="utf-8"))) + "\n",
                     encoding="utf-8")
    res = run(["analyze", str(mixed), "--from-trick", "17", "--nodes", "20000", "-j", "1"])
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 2
    assert res.stderr == ("tarot-solve: note: --from-trick 17 is past the last trick of 1 game at 5 players"
                          " (15 tricks): nothing was solved in it\n")


def test_tarotclub_five_player_logs_are_refused() -> None:
    doc = json.loads((EXAMPLES.parent / "tests" / "data" / "tarotclub" / "h03_guard.json").read_text())
    doc["deal_info"]["number_of_players"] = 5
    with pytest.raises(TarotError, match="does not say which king was called"):
        tarotclub.to_record(doc)


# Advice ----------------------------------------------------------------------------------


def test_a_queen_called_shows_the_four_kings_to_the_defence(five_obj: Dict[str, Any]) -> None:
    record = DealRecord.from_json(five_obj)
    view = dataclasses.replace(View.of_record(record, 0), called=parse_card("QS"), played=())
    kings = rules.call_reveals(parse_card("QS"))
    constraints = view.constraints()
    assert all(constraints.forbidden[s] & kings == kings for s in (0, 1, 3, 4))
    sampler = Sampler(constraints)
    assert all(sampler.sample(world_rng(1, i)).hands[2] & kings == kings for i in range(10))
    with pytest.raises(TarotError, match="shows the taker holds every card above it, but seat 4 holds 'KS'"):
        view_of(4, record.hands[4], taker=2, contract=Contract.GARDE, leader=0, dog=record.dog, players=5,
                called=parse_card("QS"))


def test_play_advice_from_a_record_and_from_a_view_agree() -> None:
    record = read_record(EXAMPLES / "five-midgame.json")
    seat = record.position().to_play
    by_record = play_advice(record, worlds=4, seed=3, jobs=1, progress=None)
    view = view_of(seat, record.hands[seat], taker=record.taker, contract=Contract.GARDE,
                   leader=record.first_leader, dog=record.dog, discard=[c for c in record.discard or []
                                                                        if c >= 56],
                   played=record.played or [], players=5, called=record.called)
    by_view = play_advice(view, worlds=4, seed=3, jobs=1, progress=None)
    assert by_record.choices == by_view.choices and by_record.taker_camp  # seat 4 is the partner
    with pytest.raises(TarotError, match="no card is called at 4 players"):
        view_of(1, read_record(EXAMPLES / "deal.json").hands[1], taker=0, contract=Contract.GARDE_SANS, leader=0,
                called=parse_card("KS"))
    with pytest.raises(TarotError, match="the card the taker called is needed"):
        view_of(seat, record.hands[seat], taker=record.taker, contract=Contract.GARDE, leader=0, dog=record.dog,
                players=5)


def test_a_view_names_the_key_of_what_cannot_be_true() -> None:
    record = read_record(EXAMPLES / "five.json")
    hand = record.hands[2]  # the taker's
    common = dict(taker=2, contract=Contract.GARDE, leader=0, dog=record.dog, players=5, called=parse_card("KS"))
    with pytest.raises(TarotError, match=r"^key 'discard': the discard must hold 3 cards, not 4"):
        view_of(2, hand, discard=[parse_card(t) for t in ("8H", "2C", "3C", "JC")], **common)
    with pytest.raises(TarotError, match=r"^key 'discard': a king may not be discarded"):
        view_of(2, hand, discard=[parse_card(t) for t in ("8H", "2C", "KD")], **common)
    trumps = [c for c in cards_of(mask_of(record.hands[1])) if c >= 56][:8]
    mine = [c for c in cards_of(mask_of(hand)) if c >= 56]
    while len(mine) < 8:  # a poignée of seat 1 that shows one of seat 2's trumps
        mine.append(trumps.pop())
    with pytest.raises(TarotError, match=r"^key 'poignees\[0\]': seat 1 shows 'T\d+' in a poignée, but seat 2"
                                         r" holds it"):
        view_of(2, hand, discard=record.discard, poignees=[(1, mine)], **{**common, "leader": 1},
                played=[min(record.hands[1])])  # (seat 1 leads: his poignée is shown with his first card)
    # the call of a queen shows the kings: a king played by another seat is refused for that reason
    queen = dataclasses.replace(View.of_record(record, 0), called=parse_card("QS"), played=(parse_card("KS"),),
                                leader=1)
    with pytest.raises(TarotError, match="seat 1 plays 'KS' in trick 1, but the call of 'QS' shows seat 2 holds it"):
        queen.constraints()


def test_bid_and_discard_advice_call_a_card() -> None:
    record = read_record(EXAMPLES / "five.json")
    hand = record.hands[2]
    bid = bid_advice(hand, seat=2, dealer=4, bids=["pass", "pass"], worlds=4, seed=1, jobs=1, node_budget=20_000,
                     progress=None, players=5)
    assert bid.called == parse_card("KS") and bid.hand_count is None
    discard = discard_advice(hand, record.dog, Contract.GARDE, seat=2, worlds=2, seed=1, jobs=1, node_budget=20_000,
                             candidates=3, progress=None, players=5, called=parse_card("KH"))
    assert discard.called == parse_card("KH") and all(len(c.discard) == 3 for c in discard.candidates)
    with pytest.raises(TarotError, match="no card is called at 4 players"):
        bid_advice(cards_of(mask_of(read_record(EXAMPLES / "deal.json").hands[0])), worlds=1, progress=None,
                   called=parse_card("KS"))


def test_cli_advice_at_five_players() -> None:
    record = read_record(EXAMPLES / "five.json")
    hand = " ".join(record.to_json()["hands"][2])
    res = run(["bid", hand, "--players", "5", "--called", "KH", "--worlds", "2", "--node-budget", "20000", "-j", "1",
               "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["called"] == "KH"
    res = run(["play", str(EXAMPLES / "five-midgame.json"), "--worlds", "2", "-j", "1", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["camp"] == "taker"
    assert json.loads(res.output)["called"] == "KS"
    res = run(["play", hand, "--players", "5", "--seat", "2", "--taker", "2", "--contract", "garde_sans",
               "--leader", "0"])
    assert res.exit_code == 2 and "missing option '--called'" in res.output
    res = run(["bid", hand, "--players", "5", "--called", "QS", "--worlds", "1"])
    # a card, but not one to call: the option named, as for a card that is none
    assert res.exit_code == 2 and "key '--called': the taker calls a king, not 'QS'" in res.output
    # a hand of 15 without --players 5: the hand's size says which game it is, before
    # a seat that only the five-player table has
    for args in (["bid", hand, "--seat", "4"],
                 ["play", hand, "--seat", "4", "--taker", "2", "--contract", "garde_sans", "--leader", "0"]):
        res = run(args)
        assert res.exit_code == 2 and "got 15 (hands of 15 are the 5-player game's)" in res.output, res.output


def test_a_five_player_defender_s_cards_are_ranked_by_his_stake(monkeypatch: pytest.MonkeyPatch) -> None:
    # He pays U in every world, where the taker scores 2U with a partner and 4U alone.
    # Two worlds of a garde: alone, his first class of cards lets the taker make by 5
    # (U +60, the taker +240) and the other fail by 5; with a partner, the first fails by
    # 15 (U -80, -160) and the other makes by 15.  The taker's expected score would put
    # the first class last (+40 against -40); the defender's stake puts it first (-10
    # against +10).
    from tarot_solver import advice
    from tarot_solver.advice import Outcome, RunInfo, expected_unit

    record = read_record(EXAMPLES / "five-midgame.json")
    record = dataclasses.replace(record, played=record.played[:31])  # seat 3 on turn, a defender

    def two_worlds(constraints: Any, questions: List[Any], **kw: Any) -> Any:
        first = [Outcome(True, 5, 5, 0, partner=False), Outcome(False, -15, -15, 0, partner=True)]
        other = [Outcome(False, -5, -5, 0, partner=False), Outcome(True, 15, 15, 0, partner=True)]
        rows = [[first[w]] + [other[w]] * (len(questions) - 1) for w in range(2)]
        return kw["advise"](rows, RunInfo(2, 2, 0, 1, 1, 0, 0.0, 0.0, 0))

    monkeypatch.setattr(advice, "_run", two_worlds)
    res = advice.play_advice(record, worlds=2, jobs=1, progress=None)
    assert len(res.choices) == 2 and not res.taker_camp
    first = res.choices[0]
    assert first.summary.expected_score == 40 and res.choices[1].summary.expected_score == -40
    assert expected_unit([Outcome(True, 5, 5, 0, partner=False), Outcome(False, -15, -15, 0, partner=True)],
                         Contract.GARDE, FIVE_PLAYERS) == -10
    assert expected_unit([Outcome(None, -5, 20, 0, partner=False)], Contract.GARDE, FIVE_PLAYERS) == 0
