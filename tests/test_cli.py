"""The command line: score, replay, and the one-line error contract (exit 2)."""

from __future__ import annotations

import errno
import json
import os
import pty
import random
import re
import select
import signal
import subprocess
import tempfile
import time
from pathlib import Path
import sys
from typing import Any, Dict, List, Optional, Tuple

import pytest
from click.testing import CliRunner

from tarot_solver import __version__, _core
from tarot_solver.cli import main

from conftest import EXAMPLES, ROOT, BadInput, ctrl_c_at_call, default_sigint, process_state


def run(args: List[str], stdin: str = "") -> Any:
    return CliRunner().invoke(main, args, input=stdin)


def run_process(args: List[str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tarot_solver", *args], input=stdin, capture_output=True,
                          text=True, cwd=tempfile.gettempdir(), timeout=60)


def assert_one_line_error(code: int, stdout: str, stderr: str, *fragments: str, status: int = 2) -> None:
    assert code == status, stderr
    assert stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tarot-solve: error: "), stderr
    for fragment in fragments:
        assert fragment in lines[0]


# score -------------------------------------------------------------------------------

FFT_EXAMPLE = ["score", "--contract", "garde", "--points", "49", "--oudlers", "2",
               "--poignee", "simple", "--petit-au-bout", "attack"]


def test_score_fft_example_json() -> None:
    result = run(FFT_EXAMPLE + ["--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["made"], out["margin"], out["unit"], out["taker"], out["defender"]) == (True, 8, 106, 318, -106)


def test_score_says_one_oudler() -> None:
    result = run(["score", "--contract", "prise", "--points", "50", "--oudlers", "1"])
    assert result.stdout.splitlines()[0] == "prise: 50 points with 1 oudler (target 51): failed by 1"


def test_score_fft_example_text() -> None:
    result = run(FFT_EXAMPLE)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "garde: 49 points with 2 oudlers (target 41): made by 8",
        "bonuses: petit au bout (attack), simple poignée",
        "unit 106: taker +318, each defender -106",
    ]
    assert result.stderr == ""


def test_score_fft_slam_example() -> None:
    result = run(["score", "--contract", "garde", "--points", "87", "--oudlers", "2", "--poignee", "simple",
                  "--petit-au-bout", "attack", "--slam", "announced-made", "--json"])
    out = json.loads(result.stdout)
    assert (out["taker"], out["defender"]) == (1746, -582)


@pytest.mark.parametrize("points, oudlers, made, margin", [(40.5, 2, False, -1), (41.5, 2, True, 1),
                                                           (41, 2, True, 0), (35.5, 3, False, -1)])
def test_score_half_points_round_towards_the_winner(points: float, oudlers: int, made: bool, margin: int) -> None:
    out = json.loads(run(["score", "--contract", "prise", "--points", str(points), "--oudlers", str(oudlers),
                          "--json"]).stdout)
    assert (out["made"], out["margin"], out["points"]) == (made, margin, points)


def test_score_takes_the_ends_of_what_is_possible() -> None:
    # 13 points with three oudlers (the Excuse kept for 4), 78 with none, a
    # made slam at 87 (the defence kept its Excuse), two simple poignées
    for args in (["--points", "13", "--oudlers", "3"], ["--points", "78", "--oudlers", "0"],
                 ["--points", "87", "--oudlers", "2", "--slam", "unannounced-made"],
                 ["--points", "60", "--oudlers", "2", "--poignee", "simple", "--poignee", "simple"]):
        assert run(["score", "--contract", "garde", *args]).exit_code == 0, args


@pytest.mark.parametrize("args, unit", [
    # a defence slam leaves the taker of a prise his discard: four queens and two knights
    (["--contract", "prise", "--points", "19", "--oudlers", "0", "--slam", "defence"], -262),
    # with his Excuse kept beside them
    (["--contract", "prise", "--points", "23", "--oudlers", "1", "--slam", "defence"], -253),
    # and of a garde sans the dog: the 21, the Petit, four kings
    (["--contract", "garde-sans", "--points", "31", "--oudlers", "3", "--slam", "defence"], -320),
    # a taker's slam in a garde contre, the dog's four kings, the 21 and a queen to the defence
    (["--contract", "garde-contre", "--points", "65", "--oudlers", "2", "--slam", "unannounced-made"], 494),
])
def test_score_slams_beside_the_cards_put_aside(args: List[str], unit: int) -> None:
    result = run(["score", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["unit"] == unit


def test_score_defence_slam_and_failed_contract_text() -> None:
    result = run(["score", "--contract", "garde-contre", "--points", "0", "--oudlers", "0", "--slam", "defence"])
    assert result.exit_code == 0
    assert "failed by 56" in result.stdout and "slam (defence)" in result.stdout


@pytest.mark.parametrize("args, fragment", [
    (["--contract", "gardez", "--points", "49", "--oudlers", "2"], "unknown contract 'gardez'"),
    (["--contract", "garde", "--points", "49.3", "--oudlers", "2"], "key '--points': points '49.3' are not a multiple"),
    (["--contract", "garde", "--points", "92", "--oudlers", "2"], "points '92' are not a multiple of 0.5 in 0..91"),
    (["--contract", "garde", "--points", "48.9999999999", "--oudlers", "2"], "points '48.9999999999' are not"),
    (["--contract", "garde", "--points", "nan", "--oudlers", "2"], "points 'nan'"),
    (["--contract", "garde", "--points", "1e23", "--oudlers", "2"], "points '1e23' are not"),  # as typed
    (["--contract", "garde", "--points", "abc", "--oudlers", "2"], "key '--points': points 'abc' are not a number"),
    (["--contract", "garde", "--points", "49", "--oudlers", "2", "--players", "6"],
     "'--players': 6 is not in the range 3<=x<=5 (see 'tarot-solve score --help')"),
    # what no deal ends in: three oudlers are 13 points at least (the Excuse
    # kept is 4), the defence's three leave the taker 78 at most
    (["--contract", "garde", "--points", "5", "--oudlers", "3"], "key '--points': 5 points with 3 oudlers: only 13"),
    (["--contract", "garde", "--points", "91", "--oudlers", "0"], "only 0 to 78 are possible"),
    (["--contract", "garde", "--points", "30", "--oudlers", "2", "--slam", "unannounced-made"],
     "key '--slam': a slam made by the taker leaves him 87 points at least in a garde, not 30"),
    (["--contract", "garde", "--points", "24", "--oudlers", "3", "--slam", "defence"],
     "after a defence slam the taker has 23.5 points at most in a garde, not 24"),
    # half a point a card put aside, and a trick won by each camp but where a slam says otherwise
    (["--contract", "garde", "--points", "2.5", "--oudlers", "0", "--slam", "defence"],
     "key '--points': 2.5 points: the taker of a garde has 3 to 89.5 at 4 players"),
    (["--contract", "garde-sans", "--points", "3", "--oudlers", "0", "--players", "5"], "has 3.5 to 89 at 5 players"),
    (["--contract", "garde-contre", "--points", "89", "--oudlers", "3", "--slam", "announced-made"],
     "has 1.5 to 88 at 4 players"),
    (["--contract", "garde", "--points", "90", "--oudlers", "3"], "has 4.5 to 89.5 at 4 players"),
    # the dog of a garde contre counts for the defence: 21, Petit, four kings, and the Excuse kept
    (["--contract", "garde-contre", "--points", "59.5", "--oudlers", "0", "--slam", "unannounced-made"],
     "leaves him 60 points at least in a garde_contre"),
    (["--contract", "garde-sans", "--points", "32", "--oudlers", "3", "--slam", "defence"],
     "the taker has 31.5 points at most in a garde_sans"),
    (["--contract", "garde-contre", "--points", "5", "--oudlers", "1", "--slam", "defence"],
     "the taker has 4.5 points at most in a garde_contre"),
    (["--contract", "garde", "--points", "15.5", "--oudlers", "1", "--slam", "defence", "--players", "5"],
     "the taker has 15 points at most in a garde"),
    (["--contract", "garde", "--points", "65", "--oudlers", "2", "--poignee", "triple", "--poignee", "triple"],
     "key '--poignee': poignées of 30 trumps in all, but the game has 22"),
    (["--contract", "garde", "--points", "40", "--oudlers", "0", "--petit-au-bout", "attack"],
     "key '--petit-au-bout': a Petit au bout for the attack, but the taker has no oudler"),
    (["--contract", "garde", "--points", "60", "--oudlers", "3", "--petit-au-bout", "defence"],
     "a Petit au bout for the defence, but the taker has all three oudlers"),
    (["--contract", "garde", "--points", "4", "--oudlers", "1", "--slam", "defence", "--petit-au-bout", "attack"],
     "a defence slam leaves the taker no trick"),
    (["--contract", "garde", "--points", "87", "--oudlers", "2", "--slam", "announced-made", "--petit-au-bout",
      "defence"], "the taker's slam leaves the defence no trick"),
    (["--contract", "garde", "--points", "65", "--oudlers", "2", "--players", "3", "--poignee", "simple",
      "--poignee", "simple"], "poignées of 26 trumps in all"),
])
def test_score_bad_values(args: List[str], fragment: str) -> None:
    result = run(["score", *args])
    assert_one_line_error(result.exit_code, result.stdout, result.stderr, fragment)


def test_usage_errors_exit_2() -> None:
    assert run(["score", "--contract", "garde"]).exit_code == 2
    assert run(["score", "--contract", "garde", "--points", "4", "--oudlers", "4"]).exit_code == 2
    assert run(["nope"]).exit_code == 2


def test_bare_command_shows_the_help() -> None:
    # `tarot-solve` alone: click's help (the commands listed), not a one-line error
    result = run([])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("Usage: ") and "Commands:" in result.stderr and "  solve " in result.stderr


def test_version() -> None:
    result = run(["--version"])
    assert result.exit_code == 0 and __version__ in result.stdout
    assert f"(core: {_core.BUILD} build)" in result.stdout  # (which build searches, for bug reports)


# replay ------------------------------------------------------------------------------

REPLAY_KEYS = {"id", "contract", "taker", "taker_points", "oudlers", "target", "margin", "made", "unit",
               "petit_au_bout", "poignees", "slam", "slam_announced", "scores"}


def test_replay_example_json() -> None:
    result = run(["replay", str(EXAMPLES / "game.json"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert set(out) == REPLAY_KEYS
    assert out["id"] == "example-game" and out["contract"] == "garde"
    assert len(out["scores"]) == 4 and sum(out["scores"]) == 0
    assert out["scores"][out["taker"]] == 3 * out["unit"]
    assert out["made"] == (out["margin"] >= 0) and out["margin"] == out["taker_points"] - out["target"]
    assert out["petit_au_bout"] in ("attack", "defence", None) and out["slam"] in ("attack", "defence", None)


def test_replay_text_report() -> None:
    result = run(["replay", str(EXAMPLES / "game.json")])
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and len(lines) == 4
    assert lines[0].startswith("game example-game: garde by seat ")
    assert lines[3].startswith("scores: seat 0 ")
    # a game ending on a half point (the Excuse kept to the last trick): the text gives the
    # FFT's rounded margin, which the scores are built from; the JSON the margin before it
    half = ROOT / "tests" / "data" / "half_point_game.json"
    lines = run(["replay", str(half)]).stdout.splitlines()
    assert lines[1] == "taker: 40.5 points with 2 oudlers (target 41): failed by 1 (-0.5 before the rounding)"
    assert lines[3] == "scores: seat 0 +26, seat 1 -78, seat 2 +26, seat 3 +26"
    assert json.loads(run(["replay", str(half), "--json"]).stdout)["margin"] == -0.5


def test_replay_stdin() -> None:
    text = (EXAMPLES / "game.json").read_text(encoding="utf-8")
    assert json.loads(run(["replay", "-", "--json"], stdin=text).stdout)["id"] == "example-game"


def test_replay_history_games_with_bonuses() -> None:
    outputs = []
    for line in (EXAMPLES / "history.jsonl").read_text(encoding="utf-8").splitlines():
        result = run(["replay", "-", "--json"], stdin=line)
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.stdout))
    assert all(sum(o["scores"]) == 0 for o in outputs)
    assert any(o["poignees"] for o in outputs) and any(o["petit_au_bout"] for o in outputs)


def test_replay_of_an_announced_slam() -> None:
    # the record's `slam` flag: JSON's slam_announced, and the text's bonus line
    line = (ROOT / "tests" / "data" / "excuse_last_trick_slams.jsonl").read_text(encoding="utf-8").splitlines()[2]
    out = json.loads(run(["replay", "-", "--json"], stdin=line).stdout)
    assert (out["id"], out["slam"], out["slam_announced"]) == ("taker-slam-five-players", "attack", True)
    assert "bonuses: slam (attack, announced)\n" in run(["replay", "-"], stdin=line).stdout


def test_replay_rejects_incomplete_and_multiple(deal_obj: Any, write: Any) -> None:
    result = run(["replay", str(write("d.json", json.dumps(deal_obj)))])
    assert_one_line_error(result.exit_code, result.stdout, result.stderr,
                          "d.json: line 1 (id 'example-deal'): key 'played': the game is not complete: 0 of 72")
    result = run(["replay", str(EXAMPLES / "history.jsonl")])
    assert_one_line_error(result.exit_code, result.stdout, result.stderr, "expected one deal record, found 20")


# solve -------------------------------------------------------------------------------


def test_solve_midgame_text_shows_verdict_and_line() -> None:
    result = run(["solve", str(EXAMPLES / "midgame.json")])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "double-dummy: margin +30.0: contract made (taker ends with 71.0 points, 2 oudlers)" in out
    assert "optimal line:" in out and "trick 18:" in out


def test_solve_table_defaults_one_deal_1_gib_and_each_worker_256_mib(monkeypatch: pytest.MonkeyPatch) -> None:
    import tarot_solver.cli as cli
    from tarot_solver.solver import Solver, solve_many

    sizes: List[Tuple[str, int]] = []
    monkeypatch.setattr(cli, "Solver", lambda table_mb: sizes.append(("one", table_mb)) or Solver(16))
    monkeypatch.setattr(cli, "solve_many", lambda states, **kw: sizes.append(("many", kw["table_mb"]))
                        or solve_many(states, **{**kw, "table_mb": 16}))
    endgames = str(EXAMPLES / "endgames.jsonl")
    for args in (["solve", str(EXAMPLES / "midgame.json")], ["solve", endgames, "-j", "1"],
                 ["solve", str(EXAMPLES / "midgame.json"), "--table-mb", "64"],
                 ["solve", endgames, "-j", "1", "--table-mb", "64"]):
        assert run(args).exit_code == 0
    assert sizes == [("one", 1024), ("many", 256), ("one", 64), ("many", 64)]


def test_solve_a_complete_game_gives_its_result_as_played() -> None:
    game = EXAMPLES / "game.json"
    played = json.loads(run(["replay", str(game), "--json"]).stdout)
    plain = json.loads(run(["solve", str(game), "--json"]).stdout)
    assert (plain["margin"], plain["taker_points"], plain["oudlers"]) == (23.0, played["taker_points"], 2)
    assert (plain["made"], plain["complete"], plain["pv"], plain["nodes"]) == (True, True, [], 0)
    assert json.loads(run(["solve", str(game), "--all-cards", "--json"]).stdout)["cards"] == {}
    text = run(["solve", str(game)]).stdout.splitlines()
    assert text[0] == "deal example-game: garde by seat 1; the game is over after 72 cards"
    assert text[-1].startswith("double-dummy: margin +23.0: contract made")
    many = run(["solve", str(EXAMPLES / "history.jsonl"), "--made-only", "-j", "1", "--json"])
    assert many.exit_code == 0 and len(many.stdout.splitlines()) == 20


def test_solve_midgame_json_and_card_values_agree() -> None:
    plain = json.loads(run(["solve", str(EXAMPLES / "midgame.json"), "--json"]).stdout)
    assert (plain["margin"], plain["made"], plain["complete"]) == (30.0, True, True)
    every = json.loads(run(["solve", str(EXAMPLES / "midgame.json"), "--all-cards", "--json"]).stdout)
    cards = every["cards"]
    assert max(cards.values()) == plain["margin"] and plain["pv"][0] in cards
    assert "cards_bounds" not in every  # only when a card's value is not proven
    made = json.loads(run(["solve", str(EXAMPLES / "midgame.json"), "--made-only", "--json"]).stdout)
    assert made["made"] is True and made["complete"] is True and "margin" not in made


def test_cards_not_proven_have_their_bounds(tmp_path: Path) -> None:
    """h13-trick9 at 10,000 nodes: the position's value is proven, five of its cards' values are not."""
    lines = (EXAMPLES / "endgames.jsonl").read_text(encoding="utf-8").splitlines()
    record = next(line for line in lines if '"h13-trick9"' in line)
    (tmp_path / "h13.json").write_text(record + "\n", encoding="utf-8")
    obj = json.loads(run(["solve", str(tmp_path / "h13.json"), "--all-cards", "--nodes", "10000", "--json"]).stdout)
    assert obj["complete"] is False and obj["margin_bounds"] == [-24.0, -24.0]
    open_cards = {c for c, v in obj["cards"].items() if v is None}
    assert len(open_cards) == 5
    # the text marks the cards proven best: those whose value reaches the position's, none of the open ones
    text = run(["solve", str(tmp_path / "h13.json"), "--all-cards", "--nodes", "10000"]).stdout.splitlines()
    rows = text[text.index(next(t for t in text if t.startswith("value of each card"))) + 1:]
    starred = {row.split()[1] for row in rows if row.startswith("*")}
    assert starred and starred == {c for c, v in obj["cards"].items() if v == -24.0}
    assert {c for c, (lo, hi) in obj["cards_bounds"].items() if lo < hi} == open_cards
    text = run(["solve", str(tmp_path / "h13.json"), "--all-cards", "--nodes", "10000"]).stdout.splitlines()
    assert "CD -24.0 .. +12.0" in [line.strip() for line in text]  # signed, as every margin shown


@pytest.mark.parametrize("extra", [[], ["--made-only"]])
def test_solve_stopped_by_a_limit_reports_proven_bounds(extra: List[str]) -> None:
    result = run(["solve", str(EXAMPLES / "deal.json"), "--nodes", "20000", *extra])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("double-dummy:"))
    assert "undecided" in line and "margin between" in line and "stopped by a limit" in line
    out = json.loads(run(["solve", str(EXAMPLES / "deal.json"), "--nodes", "20000", "--json", *extra]).stdout)
    lo, hi = out["margin_bounds"]
    assert out["complete"] is False and out["made"] is None and lo < 0 <= hi
    assert f"margin between {lo:+.1f} and {hi:+.1f}" in line


# solve on many records ----------------------------------------------------------------

ENDGAMES = EXAMPLES / "endgames.jsonl"


def _without_seconds(text: str) -> str:
    return re.sub(r'"seconds": [0-9.]+', "", text)


def test_solve_many_gives_one_line_per_deal_as_each_alone() -> None:
    result = run(["solve", str(ENDGAMES), "-j", "1", "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    records = ENDGAMES.read_text(encoding="utf-8").splitlines()
    assert [x["line"] for x in lines] == list(range(1, len(records) + 1))
    assert all(x["complete"] for x in lines)
    made = sum(x["made"] for x in lines)
    assert result.stderr == f"{len(lines)} deals: {made} made, {len(lines) - made} failed, 0 undecided\n"
    for i in (0, 7, 19):  # the same as `solve` on that record alone
        alone = json.loads(run(["solve", "-", "--json"], stdin=records[i]).stdout)
        assert {k: v for k, v in lines[i].items() if k not in ("line", "seconds")} == \
            {k: v for k, v in alone.items() if k != "seconds"}
    text = run(["solve", str(ENDGAMES), "-j", "1", "--made-only"]).stdout.splitlines()
    assert len(text) == len(lines)
    assert text[0].startswith(f"{lines[0]['id']}: {'made' if lines[0]['made'] else 'failed'} (")


def test_an_id_that_breaks_lines_is_escaped_in_the_text_reports() -> None:
    # an id is any string: in a text report it neither breaks the line of its record nor
    # acts on the terminal (what does not print is escaped, as in a message)
    records = [json.loads(x) for x in ENDGAMES.read_text(encoding="utf-8").splitlines()[:2]]
    for i, record in enumerate(records):
        record["id"] = f"two\nlines\x00{i}"
    lines = "\n".join(json.dumps(r) for r in records) + "\n"
    text = run(["solve", "-", "-j", "1", "--made-only"], stdin=lines).stdout.splitlines()
    assert len(text) == 2 and text[0].startswith("two\\nlines\\x000: ")
    alone = run(["solve", "-", "--made-only"], stdin=json.dumps(records[0])).stdout.splitlines()
    assert alone[0].startswith("deal two\\nlines\\x000: prise by seat 1")
    game = json.loads((EXAMPLES / "game.json").read_text(encoding="utf-8"))
    game["id"] = "a\tgame\r"
    assert run(["replay", "-"], stdin=json.dumps(game)).stdout.startswith("game a\\tgame\\r: garde by seat 1\n")


def test_solve_many_names_a_deal_without_an_id_by_its_line() -> None:
    # an empty id names nothing either: the text rows say which line of the input they answer
    records = [json.loads(x) for x in ENDGAMES.read_text(encoding="utf-8").splitlines()[:2]]
    records[0]["id"] = ""
    del records[1]["id"]
    lines = "\n".join(json.dumps(r) for r in records) + "\n"
    text = run(["solve", "-", "-j", "1", "--made-only"], stdin=lines).stdout.splitlines()
    assert [row.split(": ")[0] for row in text] == ["line 1", "line 2"]


def test_solve_many_does_not_depend_on_the_workers() -> None:
    one = run(["solve", str(ENDGAMES), "--nodes", "30000", "-j", "1", "--json"])
    two = run(["solve", str(ENDGAMES), "--nodes", "30000", "-j", "2", "--json"])
    assert one.exit_code == two.exit_code == 0
    assert _without_seconds(one.stdout) == _without_seconds(two.stdout)
    stopped = [json.loads(x) for x in one.stdout.splitlines() if not json.loads(x)["complete"]]
    assert stopped and all(x["margin"] is None and len(x["margin_bounds"]) == 2 for x in stopped)
    assert "undecided" in run(["solve", str(ENDGAMES), "--nodes", "30000", "-j", "1"]).stdout


def test_solve_many_skips_a_bad_record_or_stops_with_strict(tmp_path: Path) -> None:
    records = ENDGAMES.read_text(encoding="utf-8").splitlines(True)
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(records[:2]) + '{"seat": 0}\n' + records[2], encoding="utf-8")
    result = run(["solve", str(path), "--made-only", "-j", "1", "--json"])
    assert result.exit_code == 2
    assert [json.loads(x)["line"] for x in result.stdout.splitlines()] == [1, 2, 4]
    assert result.stderr.splitlines() == [
        f"tarot-solve: skipped: {path}: line 3: key 'hands': missing required key 'hands'",
        "3 deals: " + result.stderr.splitlines()[1].split(": ", 1)[1],
        "tarot-solve: error: 1 bad record skipped (line 3)"]
    # the lines of the first ten bad records are listed
    for n, listed in ((10, "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)"), (11, "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...)")):
        (tmp_path / "bad.jsonl").write_text('{"seat": 0}\n' * n, encoding="utf-8")
        bad = run(["solve", str(tmp_path / "bad.jsonl"), "--made-only", "-j", "1"])
        assert bad.exit_code == 2
        assert bad.stderr.splitlines()[-1] == f"tarot-solve: error: {n} bad records skipped ({listed}"
    # --strict: all or nothing, every record checked before any is solved
    error = f"tarot-solve: error: {path}: line 3: key 'hands': missing required key 'hands'\n"
    strict = run(["solve", str(path), "--made-only", "-j", "1", "--strict"])
    assert (strict.exit_code, strict.stdout, strict.stderr) == (2, "", error)
    out = tmp_path / "out.jsonl"
    strict = run(["solve", str(path), "--made-only", "-j", "1", "--strict", "-o", str(out)])
    assert (strict.exit_code, strict.stdout, strict.stderr) == (2, "", error) and not out.exists()
    out.write_text(result.stdout.splitlines(True)[0] + '{"id": "h0', encoding="utf-8")  # to resume, cut short
    before = out.read_bytes()
    strict = run(["solve", str(path), "--made-only", "-j", "1", "--strict", "-o", str(out), "--resume"])
    assert (strict.exit_code, strict.stdout, strict.stderr) == (2, "", error) and out.read_bytes() == before
    piped = run(["solve", "-", "--made-only", "-j", "1", "--strict", "--json"], stdin=path.read_text(encoding="utf-8"))
    assert (piped.exit_code, piped.stdout, piped.stderr) == (2, "", error.replace(str(path), "<stdin>"))
    # stdin read twice (from a copy): the lines of a run without --strict
    good = "".join(records[:3])
    piped = run(["solve", "-", "--made-only", "-j", "1", "--strict", "--json"], stdin=good)
    assert piped.exit_code == 0 and _without_seconds(piped.stdout) == _without_seconds(
        run(["solve", "-", "--made-only", "-j", "1", "--json"], stdin=good).stdout)
    assert len(piped.stdout.splitlines()) == 3


def test_solve_many_output_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    whole = run(["solve", str(ENDGAMES), "--made-only", "-j", "1", "-o", str(out)])
    assert whole.exit_code == 0 and whole.stdout == ""
    reference = out.read_text(encoding="utf-8")
    lines = reference.splitlines(True)
    out.write_text("".join(lines[:5]) + lines[5][:20], encoding="utf-8")  # as if killed in a line
    resumed = run(["solve", str(ENDGAMES), "--made-only", "-j", "2", "-o", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert _without_seconds(out.read_text(encoding="utf-8")) == _without_seconds(reference)
    # the tally counts the lines already there
    assert resumed.stderr == whole.stderr
    # one record with --output: a line in the file too
    single = run(["solve", str(EXAMPLES / "midgame.json"), "-o", str(tmp_path / "one.jsonl")])
    assert single.exit_code == 0 and json.loads((tmp_path / "one.jsonl").read_text())["margin"] == 30.0
    assert run(["solve", str(ENDGAMES), "--resume"]).exit_code == 2
    # '-': the JSON lines on stdout
    to_stdout = run(["solve", str(ENDGAMES), "--made-only", "-j", "1", "-o", "-"])
    assert _without_seconds(to_stdout.stdout) == _without_seconds(reference)
    assert run(["solve", str(ENDGAMES), "-o", "-", "--resume"]).exit_code == 2
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # reading what it holds would wait for a writer
    piped = run(["solve", str(ENDGAMES), "-o", str(fifo), "--resume"])
    assert_one_line_error(piped.exit_code, piped.stdout, piped.stderr, "--resume needs a regular file as --output")
    # the lines of --made-only do not complete a solve of the margins
    other = run(["solve", str(ENDGAMES), "-j", "1", "-o", str(out), "--resume"])
    assert_one_line_error(other.exit_code, other.stdout, other.stderr, "line 1: not a line this command writes")


def test_batch_output_is_never_the_input_nor_lost(tmp_path: Path) -> None:
    copy = tmp_path / "endgames.jsonl"
    copy.write_bytes(ENDGAMES.read_bytes())
    for command in ("solve", "analyze"):
        same = run([command, str(copy), "--nodes", "1000", "-j", "1", "-o", str(copy)])
        assert_one_line_error(same.exit_code, same.stdout, same.stderr, "is the input file")
        assert copy.read_bytes() == ENDGAMES.read_bytes()
        for strict in ([], ["--strict"]):  # and so is stdin redirected from it ('- < OUT')
            with open(copy, "rb") as given:
                same = subprocess.run([sys.executable, "-m", "tarot_solver", command, "-", "--nodes", "1000", "-j",
                                       "1", "-o", str(copy), *strict], stdin=given, capture_output=True, text=True,
                                      cwd=tempfile.gettempdir(), timeout=60)
            assert_one_line_error(same.returncode, same.stdout, same.stderr, "is the input file")
            assert copy.read_bytes() == ENDGAMES.read_bytes()
    keep = tmp_path / "keep.jsonl"
    keep.write_text('{"id": "a", "line": 1, "made": true}\n', encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"seat": 0}\n', encoding="utf-8")
    for command in ("solve", "analyze"):  # an input that cannot be read leaves the output alone
        result = run([command, str(empty), "-j", "1", "-o", str(keep)])
        assert_one_line_error(result.exit_code, result.stdout, result.stderr, "empty file")
        assert keep.read_text(encoding="utf-8") == '{"id": "a", "line": 1, "made": true}\n'
        # and so does one with no good record: no line to write, so nothing is truncated
        result = run([command, str(bad), "-j", "1", "-o", str(keep)])
        assert result.exit_code == 2 and "missing required key 'hands'" in result.stderr
        assert keep.read_text(encoding="utf-8") == '{"id": "a", "line": 1, "made": true}\n'
    for target in (tmp_path / "no" / "such.jsonl", tmp_path):  # an output that cannot be written: at once
        result = run(["solve", str(ENDGAMES), "-j", "1", "-o", str(target)])
        assert result.exit_code == 2 and result.stdout == "" and "Directory" not in result.stdout
        assert not (tmp_path / "no").exists()


def test_resume_with_an_id_twice_writes_what_a_whole_run_does(tmp_path: Path) -> None:
    lines = ENDGAMES.read_text(encoding="utf-8").splitlines(True)
    twice = tmp_path / "twice.jsonl"
    twice.write_text(lines[0] + lines[0] + lines[1], encoding="utf-8")
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    assert run(["solve", str(twice), "--made-only", "-j", "1", "-o", str(whole)]).exit_code == 0
    part.write_text(whole.read_text(encoding="utf-8").splitlines(True)[0], encoding="utf-8")
    assert run(["solve", str(twice), "--made-only", "-j", "1", "-o", str(part), "--resume"]).exit_code == 0
    assert _without_seconds(part.read_text(encoding="utf-8")) == _without_seconds(whole.read_text(encoding="utf-8"))


@pytest.mark.parametrize("args, fragments", [
    (["--scheduler", "foo"], ("key '--scheduler': bad address", "missing port")),
    # refused at once, not tried until the connect timeout; no Python words for a port not a number
    (["--scheduler", "tcp://127.0.0.1:99999"], ("bad address: port 99999 is not in 1..65535",)),
    (["--scheduler", "tcp://127.0.0.1:8786/x"], ("bad address: expected tcp://HOST:PORT",)),
    (["--scheduler", "http://127.0.0.1:8786"], ("key '--scheduler': bad address", "unknown address scheme 'http'")),
    (["--nodes", str(2 ** 70)], ()),  # beyond what the core counts: no limit, and an answer
    (["--time-limit", "nan"], ("'nan' is not a number of seconds",)),
])
def test_batch_limits_and_scheduler_addresses(args: List[str], fragments: Any) -> None:
    if "--scheduler" in args:
        pytest.importorskip("dask.distributed")
    result = run(["solve", str(ENDGAMES), "--made-only", *([] if "--scheduler" in args else ["-j", "1"]), *args])
    if fragments:
        assert_one_line_error(result.exit_code, result.stdout, result.stderr, *fragments)
    else:
        assert result.exit_code == 0 and len(result.stdout.splitlines()) == 20


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_jobs_and_scheduler_exclude_each_other(command: str) -> None:
    # -j would be ignored on a cluster: refused before anything runs, even where the address is good
    for jobs in (["-j", "2"], ["--jobs=0"]):
        result = run([command, str(EXAMPLES / "history.jsonl" if command == "analyze" else ENDGAMES), *jobs,
                      "--scheduler", "tcp://127.0.0.1:8786"])
        assert_one_line_error(result.exit_code, result.stdout, result.stderr,
                              "-j/--jobs and --scheduler exclude each other")


def test_a_closed_stdout_stops_quietly() -> None:
    # `| head -1`: status 141 as for SIGPIPE, and nothing on stderr (no error, no joblib warning)
    proc = subprocess.Popen([sys.executable, "-m", "tarot_solver", "solve", str(ENDGAMES), "--json", "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["line"] == 1
    proc.stdout.close()  # the reader goes away while the other deals are still being solved
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == ""


def test_solve_all_cards_and_made_only_exclude_each_other() -> None:
    result = run(["solve", str(EXAMPLES / "midgame.json"), "--all-cards", "--made-only"])
    assert result.exit_code == 2 and "exclude each other" in result.stderr


def test_table_too_large(monkeypatch: Any) -> None:
    # beyond what the core can address: refused with the option's range
    result = run(["solve", str(EXAMPLES / "midgame.json"), "--table-mb", "40000"])
    assert result.exit_code == 2 and "1<=x<=34816" in result.stderr
    # within it but more than the machine gives: one line, no traceback

    def refuse(table_mb: int) -> None:
        raise MemoryError(f"cannot allocate a {table_mb << 20}-byte table")

    monkeypatch.setattr("tarot_solver.cli.Solver", refuse)
    result = run(["solve", str(EXAMPLES / "midgame.json"), "--table-mb", "30000"])
    assert_one_line_error(result.exit_code, result.stdout, result.stderr,
                          "cannot allocate a 31457280000-byte table: try a smaller --table-mb")


def test_missing_file() -> None:
    result = run(["replay", "no/such/file.json"])
    assert_one_line_error(result.exit_code, result.stdout, result.stderr,
                          "no/such/file.json: No such file or directory")


# Bad input, in process and in a real subprocess ----------------------------------------


@pytest.mark.parametrize("args, fragments", [
    (["bid", "EX", "--seat", "7"], ("Invalid value for '--seat': 7 is not in the range", "'tarot-solve bid --help'")),
    (["solve"], ("Missing argument 'FILE'", "'tarot-solve solve --help'")),
    (["solve", str(EXAMPLES / "midgame.json"), "--all-cards", "--made-only"], ("exclude each other",)),
    (["score", "--contract", "garde", "--points", "40", "--oudlers", "2", "--alone"], ("--alone: only at five",)),
    (["analyze", str(EXAMPLES / "history.jsonl"), "--no-such-option"], ("No such option", "--no-such-option")),
    (["nosuch"], ("No such command 'nosuch'", "'tarot-solve --help'")),
    (["solve", str(EXAMPLES / "midgame.json"), "--nodes"],  # (the parser's errors carry no context)
     ("Option '--nodes' requires an argument", "'tarot-solve solve --help'")),
    (["play", "x", "--poignee", "1"], ("Option '--poignee' requires 2 arguments", "'tarot-solve play --help'")),
    # (click's wording differs by version: "No such option: --x" in 8.2.1)
    (["--no-such-option", "solve"], ("No such option", "--no-such-option", "'tarot-solve --help'")),
    (["--no-such-option"], ("No such option", "--no-such-option", "'tarot-solve --help'")),  # (alone)
])
def test_usage_errors_are_one_line_too(args: List[str], fragments: Any) -> None:
    result = run(args)
    assert_one_line_error(result.exit_code, result.stdout, result.stderr, *fragments)



@pytest.mark.parametrize("args, message", [
    # solve says what it had proven: the sure bounds, while the first probe runs
    (["solve", str(EXAMPLES / "deal.json")],
     r"tarot-solve: interrupted: margin between -14\.0 and \+40\.0 proven, testing at least 0\.0,"
     r" [0-9,]+ nodes in [0-9.]+ s"),
    (["solve", str(EXAMPLES / "deal.json"), "--made-only", "--json"],
     r"tarot-solve: interrupted: margin between -14\.0 and \+40\.0 proven, testing at least 0\.0,"
     r" [0-9,]+ nodes in [0-9.]+ s"),
    # no world finished (a question of a billion nodes): no advice either
    (["bid", str(EXAMPLES / "hand.txt"), "--worlds", "5000", "--node-budget", "1000000000"],
     r"tarot-solve: interrupted"),
])
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_stops_a_long_run_cleanly(args: List[str], message: str, signum: int, status: int) -> None:
    # the search runs without the GIL: the core itself must notice the signal; with
    # workers (bid), none is left running (SIGTERM used to kill this process alone)
    proc = subprocess.Popen([sys.executable, "-m", "tarot_solver", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir(),
                            preexec_fn=default_sigint, start_new_session=True)
    time.sleep(3)  # imported and searching: both take minutes
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=10)
    assert proc.returncode == status, stderr
    assert stdout == ""
    lines = stderr.splitlines()
    if signum == signal.SIGTERM:  # the last line says which
        message = message.replace("interrupted", "terminated")
    assert len(lines) == 1 and re.fullmatch(message, lines[0]), stderr
    assert not _left_running(proc.pid)


@pytest.mark.parametrize("args", [["solve", str(ENDGAMES), "-j", "2"],
                                  ["bid", str(EXAMPLES / "hand.txt"), "--worlds", "8", "-j", "2", "--json"]])
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_as_a_parallel_run_ends_stops_it_cleanly(args: List[str], signum: int, status: int) -> None:
    # Once its output is out, a run on local workers exits, and that waited for loky to
    # stop them (a tenth of a second or more): a Ctrl-C or SIGTERM then printed a
    # KeyboardInterrupt traceback ("Exception ignored in: <module 'threading'>") and the
    # run exited 0, as if no signal had come.  Now: one line, and the signal's status.
    proc = subprocess.Popen([sys.executable, "-m", "tarot_solver", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir(),
                            preexec_fn=default_sigint, start_new_session=True)
    assert proc.stdout is not None and proc.stderr is not None
    if args[0] == "solve":
        last = proc.stderr.readline()  # its last line: "20 deals: 8 made, ..."
        assert last.startswith("20 deals:"), last
    else:
        last = proc.stdout.readline()  # its one JSON line
        assert json.loads(last)["worlds"] == 8
    proc.send_signal(signum)  # (the workers are being stopped)
    stdout, stderr = proc.communicate(timeout=30)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    # (a signal that comes once the interpreter's teardown has given the signal its
    # default action back ends the process by that signal, with nothing said: a shell
    # reports 128 + the signal's number, the same status; seen on a loaded machine)
    assert proc.returncode in (status, -signum), stderr
    stopped = "terminated" if signum == signal.SIGTERM else "interrupted"
    # (a signal that comes as the command returns, before the workers are stopped, says no more)
    lines = stderr.splitlines()
    assert len(lines) == (proc.returncode == status) and all(
        re.fullmatch(f"tarot-solve: {stopped}( while its workers stopped \\(the run had ended\\))?", line)
        for line in lines), stderr
    assert not _left_running(proc.pid)


def test_the_command_s_resource_trackers_do_not_warn(monkeypatch: pytest.MonkeyPatch) -> None:
    # a run stopped as its pool ends left semaphores to the trackers, which warned of
    # each on stderr after the command's one line (2 of 20 runs of the test above); they
    # start with the interpreter's -W options, which the command sets
    from multiprocessing import util

    from tarot_solver import cli

    monkeypatch.setattr(sys, "warnoptions", [])
    monkeypatch.setattr(sys, "argv", ["tarot-solve", "--version"])
    monkeypatch.setattr(cli, "_as_command", False)
    sigterm = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(SystemExit):
            cli.run()
    finally:
        signal.signal(signal.SIGTERM, sigterm)  # (the command's own, which raises KeyboardInterrupt)
    flags = util._args_from_interpreter_flags()
    for module in ("multiprocessing.resource_tracker", "joblib.externals.loky.backend.resource_tracker"):
        assert f"-Wignore::UserWarning:{module}" in flags


def _left_running(session: int, grace: float = 10.0) -> List[str]:
    """The processes of ``session`` still running after up to ``grace`` seconds: a worker
    left searching stays, while loky's resource trackers, which exit once the command
    has (their pipe closed), may take a moment on a loaded machine."""
    deadline = time.monotonic() + grace
    while True:
        left = subprocess.run(["pgrep", "-s", str(session)], capture_output=True, text=True).stdout.split()
        running = [pid for pid in left if "Z" not in process_state(int(pid))]
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.1)


def test_the_search_leaves_an_ignored_ctrl_c_ignored() -> None:
    # (as in loky's workers, or under nohup): the core's signal hook must not catch it
    code = """if True:
        import os, signal, threading
        from tarot_solver import Solver, read_record
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        state = read_record(%r).state()
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        print(Solver().solve(state, node_limit=10_000_000).nodes)
    """ % str(EXAMPLES / "deal.json")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=tempfile.gettempdir())
    assert done.returncode == 0 and int(done.stdout) >= 10_000_000, done.stderr


def _run_on_a_terminal(args: List[str], stop: Optional[int] = None) -> Tuple[int, str, str]:
    """Run the command with stderr a terminal: its status, stdout and what the terminal got.
    With ``stop``, that signal is sent to it once its progress bar has counted a task
    done (a batch of worlds, a row), and no process of its session may be left running."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "tarot_solver", *args],
                            stdout=subprocess.PIPE, stderr=follower, text=True, cwd=tempfile.gettempdir(),
                            preexec_fn=default_sigint, start_new_session=True)
    os.close(follower)
    shown = b""
    while stop is not None and not re.search(rb"\] [1-9][0-9]*/[0-9]+ ", shown):
        ready, _, _ = select.select([leader], [], [], 120)
        assert ready, f"no task done in two minutes: {shown!r}"
        shown += os.read(leader, 4096)  # (OSError: the run ended before a task was done)
    if stop is not None:
        proc.send_signal(stop)
    stdout, _ = proc.communicate(timeout=120)
    assert stop is None or not _left_running(proc.pid)
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal is closed once the process has exited
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return proc.returncode, stdout, shown.decode()


def test_solve_shows_progress_on_a_terminal() -> None:
    # stderr a terminal: after a second, what is proven so far, redrawn in place
    status, stdout, shown = _run_on_a_terminal(["solve", str(EXAMPLES / "deal.json"), "--time-limit", "2.5"])
    assert status == 0
    assert "[stopped by a limit: bounds proven so far]" in stdout
    draws = shown.split("\r")
    assert any(re.fullmatch(r"solving: margin between -14\.0 and \+40\.0 proven, testing at least 0\.0,"
                            r" [0-9,]+ nodes, [0-9]+ s *", d) for d in draws), shown
    assert shown.endswith("\n")


def test_a_batch_shows_how_far_it_is_on_a_terminal(tmp_path: Path) -> None:
    # out of the number of records in the file (20 games), the bar redrawn in place
    out = tmp_path / "out.jsonl"
    status, _, shown = _run_on_a_terminal(["analyze", str(EXAMPLES / "history.jsonl"), "--nodes", "20000",
                                           "-j", "1", "-o", str(out)])
    assert status == 0 and out.read_text(encoding="utf-8").count("\n") == 20
    draws = [d.strip() for d in shown.split("\r") if d.strip()]
    assert draws and all(re.fullmatch(r"analyze \[#*-*\] [0-9]+/20 [0-9]+s", d) for d in draws), shown
    assert draws[-1].startswith("analyze [" + "#" * 30 + "] 20/20"), shown


# the command line with its progress counters writing a line at each count, not each minute
EACH_COUNT = ("import sys; from tarot_solver import parallel; parallel.Progress.LOG_EVERY = 0.0; "
              "from tarot_solver.cli import main; sys.argv[0] = 'tarot-solve'; main()")


def _run_with_streams(args: List[str], stdout: Any, stderr: Any) -> int:
    return subprocess.run([sys.executable, "-c", EACH_COUNT, *args], stdout=stdout, stderr=stderr,
                          cwd=tempfile.gettempdir(), timeout=120).returncode


def test_a_batch_logs_how_far_it_is_where_stderr_is_a_file(tmp_path: Path) -> None:
    # a run left to itself (stderr to a log): lines, not a bar redrawn with carriage returns
    out, log = tmp_path / "out.jsonl", tmp_path / "log"
    with open(log, "w", encoding="utf-8") as err:
        status = _run_with_streams(["analyze", str(EXAMPLES / "history.jsonl"), "--nodes", "20000", "-j", "1",
                                    "-o", str(out)], subprocess.DEVNULL, err)
    assert status == 0 and out.read_text(encoding="utf-8").count("\n") == 20
    text = log.read_text(encoding="utf-8")
    assert "\r" not in text
    lines = text.splitlines()
    assert len(lines) == 20 and all(re.fullmatch(rf"analyze \[#*-*\] {k}/20 [0-9]+s", line)
                                    for k, line in enumerate(lines, 1)), text


def test_solve_logs_what_it_has_proven_where_stderr_is_a_file(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with open(log, "w", encoding="utf-8") as err:
        status = _run_with_streams(["solve", str(EXAMPLES / "deal.json"), "--time-limit", "1.6"],
                                   subprocess.DEVNULL, err)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert status == 0 and len(lines) >= 2, lines
    assert all(re.fullmatch(r"solving: (margin between -?[0-9.+]+ and \+?[0-9.]+ proven(, testing at least"
                            r" -?[0-9.+]+)?, )?[0-9,]+ nodes, [0-9]+ s", line) for line in lines), lines
    assert "margin between" in lines[-1]  # (nodes alone only before the first bounds)


def test_no_count_comes_between_the_rows_where_stderr_is_stdout(tmp_path: Path) -> None:
    # (2>&1): the rows on stdout show how far it is; a count's lines would break them
    both = tmp_path / "both"
    with open(both, "w", encoding="utf-8") as f:
        status = _run_with_streams(["solve", str(EXAMPLES / "endgames.jsonl"), "--json", "-j", "1"], f, f)
    lines = both.read_text(encoding="utf-8").splitlines()
    assert status == 0 and len(lines) == 21, lines
    assert all(json.loads(line)["line"] == k for k, line in enumerate(lines[:20], 1))
    assert lines[20] == "20 deals: 8 made, 12 failed, 0 undecided"
    with open(both, "w", encoding="utf-8") as out, open(tmp_path / "log", "w", encoding="utf-8") as err:
        assert _run_with_streams(["solve", str(EXAMPLES / "endgames.jsonl"), "--json", "-j", "1"], out, err) == 0
    assert (tmp_path / "log").read_text(encoding="utf-8").count("solve [") == 20  # (apart, it is written)


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_bid_reports_the_worlds_finished(signum: int, status: int) -> None:
    # the advice over worlds 0..n-1, as a run asked for n worlds gives (on one process
    # here), then one line; the workers stopped
    args = ["bid", str(EXAMPLES / "hand.txt"), "--node-budget", "20000", "--seed", "3", "--json"]
    code, stdout, shown = _run_on_a_terminal(args + ["--worlds", "100000"], stop=signum)
    assert code == status, shown
    partial = json.loads(stdout)
    n = partial["worlds"]
    assert 0 < n < partial["worlds_requested"] == 100000
    stopped = "terminated" if signum == signal.SIGTERM else "interrupted"
    assert shown.splitlines()[-1] == f"tarot-solve: {stopped} after {n} of 100000 worlds", shown
    assert "Traceback" not in shown and "Error" not in shown, shown
    whole = run(args + ["--worlds", str(n), "-j", "1"])
    assert whole.exit_code == 0, whole.output
    same = json.loads(whole.stdout)
    for key in ("worlds_requested", "seconds", "cpu_seconds"):
        del partial[key], same[key]
    assert partial == same


def test_an_interrupted_play_says_so_in_its_report() -> None:
    code, stdout, shown = _run_on_a_terminal(["play", str(EXAMPLES / "play.json"), "--worlds", "100000",
                                              "--node-budget", "20000"], stop=signal.SIGINT)
    assert code == 130, shown
    n = int(shown.splitlines()[-1].removeprefix("tarot-solve: interrupted after ").removesuffix(" of 100000 worlds"))
    assert f"{n} world{'s' if n > 1 else ''} (seed 0; interrupted after {n} of 100000), budgets" in stdout
    assert stdout.splitlines()[-1].startswith("recommendation: play ")


def test_an_interrupted_table_keeps_its_finished_rows() -> None:
    # one process: seat 1's row takes long after seat 0's (about 1 and 5 s on an idle machine)
    code, stdout, shown = _run_on_a_terminal(["table", str(EXAMPLES / "deal.json"), "-j", "1"],
                                             stop=signal.SIGINT)
    assert code == 130, shown
    n = int(shown.splitlines()[-1].removeprefix("tarot-solve: interrupted after ").removesuffix(" of 4 rows"))
    lines = stdout.splitlines()
    rows = [line for line in lines[2:] if re.match(r"\s*\d", line)]  # (seat 1's row adds the taker's mark)
    assert 1 <= n < 4 and [int(line.split()[0].rstrip("*")) for line in rows] == list(range(n)), stdout
    assert lines[2:2 + n] == rows
    assert lines[-1] == "interrupted before the rows of the other seats were finished"
    alone = run(["table", str(EXAMPLES / "deal.json"), "--seat", "0", "-j", "1"])
    assert alone.exit_code == 0 and alone.stdout.splitlines()[2] == lines[2]


def test_an_interrupted_all_cards_solve_shows_the_cards_finished(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    # the example deal 10 tricks from the end, seat 0 on lead with 10 legal cards; a
    # Ctrl-C in the third card's search: the two finished, the bounds, status 130
    from tarot_solver.solver import Solver

    deal = json.loads((EXAMPLES / "deal.json").read_text(encoding="utf-8"))
    deal["played"] = ("10D JD 9D EX T7 T19 T2 T5 4C 2C 7C JC 3S KS 1S 6S T20 T11 T6 T8 T21 T18 T9 T10 T17 2S T15"
                      " T12 QD 3D KD T16").split()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal), encoding="utf-8")
    whole = run(["solve", str(path), "--all-cards", "--json"])
    assert whole.exit_code == 0, whole.output
    values = json.loads(whole.stdout)["cards"]
    ctrl_c_at_call(monkeypatch, Solver, "_exact", 3)
    text = run(["solve", str(path), "--all-cards"])
    assert text.exit_code == 130
    assert text.stderr == f"tarot-solve: interrupted after 2 of {len(values)} cards\n"
    assert "[interrupted: bounds proven so far]" in text.stdout
    listed = text.stdout.split(f"value of the 2 cards searched before it was interrupted ({len(values)} legal)")[1]
    shown = [line.split() for line in listed.splitlines()[1:]]
    assert [(tok, float(value)) for *_, tok, value in shown] == list(values.items())[:2]
    monkeypatch.undo()
    ctrl_c_at_call(monkeypatch, Solver, "_exact", 3)
    partial = run(["solve", str(path), "--all-cards", "--json"])
    assert partial.exit_code == 130
    result = json.loads(partial.stdout)
    assert result["cards"] == dict(list(values.items())[:2]) and result["complete"] is False
    lo, hi = result["margin_bounds"]
    assert lo <= json.loads(whole.stdout)["margin"] <= hi


def test_bad_input_cli_runner(bad_input: BadInput, write: Any) -> None:
    path = write(bad_input.name, bad_input.text)
    result = run(["replay", str(path), "--json"])
    assert_one_line_error(result.exit_code, result.stdout, result.stderr, *bad_input.fragments)


def test_bad_input_subprocess(bad_input: BadInput) -> None:
    proc = run_process(["replay", "-", "--json"], stdin=bad_input.text)
    fragments = [f.replace(f"{bad_input.name}:", "<stdin>:") for f in bad_input.fragments]
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, *fragments)
    assert "Traceback" not in proc.stderr


_ODD_VALUES: List[Any] = [None, True, 0, -1, 3, 5, 18, 78, 1.5, 2 ** 70, "", "T21", "EX", "KS", "X", "T22", "garde",
                          "pass", "attack", "simple", [], ["KS", "KS"], [[]], {"seat": 0}]


def _mutated(record: Dict[str, Any], rng: random.Random) -> Dict[str, Any]:
    """The record with one or two keys (or one item of a list) replaced by an odd value, or removed."""
    record = json.loads(json.dumps(record))
    for _ in range(rng.randrange(1, 3)):
        key = rng.choice([*record, "slam", "poignees", "bids", "called", "players", "leader", "id"])
        value = record.get(key)
        if isinstance(value, list) and value and rng.random() < 0.5:
            inner = value[rng.randrange(len(value))]
            if isinstance(inner, list) and inner:
                inner[rng.randrange(len(inner))] = rng.choice(_ODD_VALUES)
            else:
                value[rng.randrange(len(value))] = rng.choice(_ODD_VALUES)
        elif key in record and rng.random() < 0.3:
            del record[key]
        else:
            record[key] = rng.choice(_ODD_VALUES)
    return record


def test_odd_values_anywhere_in_a_record_give_an_answer_or_one_line(tmp_path: Path) -> None:
    # seeded mutations of the examples' records, each through a command that reads records: an
    # answer, or the one-line error; never a traceback (3,000 such runs found none, session 52)
    rng = random.Random(52)
    records = [json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
               for name in ("deal.json", "midgame.json", "game.json", "play.json", "three-midgame.json",
                            "five-midgame.json")]
    commands = [["solve", "--nodes", "2000"], ["solve", "--made-only", "--nodes", "2000", "--json"], ["replay"],
                ["play", "--worlds", "2", "-j", "1", "--node-budget", "2000"],
                ["bid", "--worlds", "2", "-j", "1", "--node-budget", "2000"],
                ["discard", "--worlds", "2", "-j", "1", "--node-budget", "2000"]]
    path = tmp_path / "record.json"
    errors = 0
    for _ in range(120):
        path.write_text(json.dumps(_mutated(rng.choice(records), rng)), encoding="utf-8")
        result = run([*rng.choice(commands), str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
        if result.exit_code:
            errors += 1
            assert_one_line_error(result.exit_code, result.stdout, result.stderr)
    assert 30 < errors < 120  # most mutations are errors, some are not (an unknown key, an id)


def test_entry_point_script() -> None:
    script = Path(sys.executable).parent / "tarot-solve"
    proc = subprocess.run([str(script), *FFT_EXAMPLE, "--json"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["taker"] == 318
    proc = subprocess.run([str(script), "replay", "missing.json"], capture_output=True, text=True, timeout=60)
    assert_one_line_error(proc.returncode, proc.stdout, proc.stderr, "missing.json: No such file or directory")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EIO])
def test_a_full_disk_is_named_with_the_way_to_finish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     code: int) -> None:
    # no fault of the input: status 1 (a failure), not 2
    def full(out: Any, obj: Any) -> None:
        raise OSError(code, os.strerror(code))

    out = tmp_path / "out.jsonl"
    monkeypatch.setattr("tarot_solver.cli._write_line", full)
    for args in (["solve", str(ENDGAMES)], ["analyze", str(EXAMPLES / "history.jsonl"), "--from-trick", "18"]):
        result = run([*args, "--nodes", "1000", "-j", "1", "-o", str(out)])
        assert_one_line_error(result.exit_code, result.stdout, result.stderr,
                              f"{out}: {os.strerror(code)} (run again with --resume to finish)", status=1)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_is_named() -> None:
    # (no --resume to suggest: it takes a regular file only)
    for args in (["solve", str(ENDGAMES)], ["analyze", str(EXAMPLES / "history.jsonl"), "--from-trick", "18"]):
        result = run([*args, "--nodes", "1000", "-j", "1", "-o", "/dev/full"])
        assert_one_line_error(result.exit_code, result.stdout, result.stderr, "/dev/full: No space left on device",
                              status=1)
    # stdout full: named as such, not as a bare errno
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "tarot_solver", "solve", str(EXAMPLES / "midgame.json")],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                              cwd=tempfile.gettempdir())  # (not the checkout, whose package may be unbuilt)
    assert proc.returncode == 1 and proc.stderr == "tarot-solve: error: stdout: No space left on device\n"


def _one_line_error(result: Any) -> str:
    """The one line of a bad input's error (:func:`assert_one_line_error`)."""
    assert_one_line_error(result.exit_code, result.stdout, result.stderr)
    return result.stderr.splitlines()[0]


# bad input named, lines and bids read (a user's review of solve, bid, discard) ----------


@pytest.mark.parametrize("dropped, key", [(("taker", "contract", "discard", "bids"), "taker"),
                                          (("contract", "discard", "bids"), "contract"),
                                          (("dealer", "bids"), "dealer")])
def test_solve_names_the_missing_key(deal_obj: Dict[str, Any], write: Any, dropped: Any, key: str) -> None:
    path = write("deal.json", json.dumps({k: v for k, v in deal_obj.items() if k not in dropped}))
    for args in (["solve", str(path), "--nodes", "1000"], ["solve", str(path), "--made-only", "--nodes", "1000"]):
        line = _one_line_error(run(args))
        assert f"deal.json: line 1 (id 'example-deal'): key '{key}': the deal cannot be played without" in line


@pytest.mark.parametrize("command", ["bid", "discard"])
def test_advice_on_a_record_without_taker_names_the_file(deal_obj: Dict[str, Any], write: Any,
                                                         command: str) -> None:
    path = write("deal.json", json.dumps({k: v for k, v in deal_obj.items()
                                          if k not in ("taker", "contract", "discard", "bids")}))
    line = _one_line_error(run([command, str(path), "--worlds", "1"]))
    assert "deal.json: line 1 (id 'example-deal'): key 'taker': the deal record names no taker" in line


def test_discard_of_a_garde_sans_record_names_the_file(deal_obj: Dict[str, Any], write: Any) -> None:
    obj = {k: v for k, v in deal_obj.items() if k not in ("discard", "bids")}
    path = write("deal.json", json.dumps(dict(obj, contract="garde_sans")))
    line = _one_line_error(run(["discard", str(path), "--worlds", "1"]))
    assert "deal.json: line 1 (id 'example-deal'): key 'contract': no discard in a garde_sans" in line
    # given as an option, the value is named by the option, not located in the file
    line = _one_line_error(run(["discard", str(path), "--contract", "garde_sans", "--worlds", "1"]))
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
                       ("cards", ["solve", "--all-cards"]), ("table", ["table", "--nodes", "1000"])):
        out = tmp_path / f"{name}.jsonl"
        assert run([args[0], str(deals), *args[1:], "-j", "1", "-o", str(out)]).exit_code == 0
        why[name] = out
    for out, args, reason in ((why["made_only"], [], "no key 'margin'"),
                              (why["table"], [], "no key 'margin'"),
                              (why["margins"], ["--made-only"], "a line of solve without --made-only"),
                              (why["margins"], ["--all-cards"], "a line of solve without --all-cards"),
                              (why["cards"], [], "a line of solve with --all-cards"),
                              (why["table"], ["--made-only"], "no key 'made'")):
        line = _one_line_error(run(["solve", str(deals), *args, "-j", "1", "-o", str(out), "--resume"]))
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


def test_a_dealer_against_the_records_bids_is_refused() -> None:
    # the record's bids went round from its dealer's (2) right: read from seat 0's, seat 1 was
    # advised as the first to bid, with the bids of seats 3 and 0 dropped
    deal = str(EXAMPLES / "deal.json")
    common = ["--worlds", "1", "--node-budget", "1000", "-j", "1", "--json"]
    result = run(["bid", deal, "--dealer", "0", *common])
    assert result.exit_code == 2 and result.stdout == ""
    assert "key '--dealer'" in result.output and "(dealer 2)" in result.output and "token '0'" in result.output
    for args, bids in ((["--dealer", "2"], ["pass", "pass"]), (["--dealer", "0", "--bids", ""], [])):
        result = run(["bid", deal, *args, *common])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["bids"] == bids


@pytest.mark.parametrize("command", ["bid", "discard", "play", "solve", "table"])
def test_a_directory_as_input_is_named_so(command: str, tmp_path: Path) -> None:
    # alike in every command (bid's said "neither a file nor a hand of cards")
    line = _one_line_error(run([command, str(tmp_path)]))
    assert line.endswith(f"{tmp_path}: Is a directory") or "is a directory" in line, line
