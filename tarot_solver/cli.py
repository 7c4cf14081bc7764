"""The ``tarot-solve`` command line (also ``python -m tarot_solver``).

Every command is a subcommand of the click group :data:`main`; to add one, write
``@main.command()`` and follow these conventions, which the group enforces or
:func:`emit` provides:

* data goes to stdout, built completely before anything is written (call
  :func:`emit` once, at the end), so a command that fails writes nothing there;
  messages and progress go to stderr;
* any :class:`~tarot_solver.errors.TarotError` and any OS error (a missing file...)
  raised by a command becomes one line ``tarot-solve: error: <message>`` on stderr
  and exit status 2, without a traceback; click usage errors exit 2 too;
* ``--json`` (:data:`json_option`) prints one JSON object on one line; ``-`` as a
  file name reads stdin.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import click

from . import __version__
from .cards import TOTAL_HALF_POINTS
from .errors import RecordError, TarotError
from .records import read_record
from .scoring import SLAM_OUTCOMES, score
from .solver import DEFAULT_TABLE_MB, Solver
from .rules import PlayState
from .notation import format_hand
from .cards import card_token, cards_of, parse_cards, tokens
from .variant import FOUR_PLAYERS, Contract

PROG = "tarot-solve"
POIGNEE_NAMES = ("simple", "double", "triple")
CAMP_NAMES = {True: "attack", False: "defence", None: None}


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"{PROG}: error: {self.format_message()}", err=True)


class TarotGroup(click.Group):
    """A click group turning input errors of any subcommand into :class:`InputError`."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except TarotError as e:
            raise InputError(_one_line(str(e))) from None
        except OSError as e:
            text = f"{e.filename}: {e.strerror}" if e.filename is not None and e.strerror else str(e)
            raise InputError(_one_line(text)) from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def emit(result: Dict[str, Any], as_json: bool, render: Callable[[Dict[str, Any]], str]) -> None:
    """Write ``result`` to stdout in one piece: as one JSON line, or as ``render(result)``."""
    click.echo(json.dumps(result, ensure_ascii=False) if as_json else render(result))


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a report.")


@click.group(cls=TarotGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROG)
def main() -> None:
    """Double-dummy solver and hand analyzer for French Tarot (FFT rules, 4 players)."""


# Formatting helpers ---------------------------------------------------------------


def points(half_points: int) -> Union[int, float]:
    """Half-points as points for output: an int when whole, else x.5."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def _signed(value: Any) -> str:
    return f"+{value}" if value > 0 else str(value)


def _result_line(made: bool, margin: Any) -> str:
    return f"made by {margin}" if made else f"failed by {-margin}"


def _bonus_line(petit_au_bout: Optional[str], poignees: List[str], slam: Optional[str]) -> str:
    bonuses = []
    if petit_au_bout:
        bonuses.append(f"petit au bout ({petit_au_bout})")
    bonuses.extend(poignees)
    if slam:
        bonuses.append(slam)
    return "bonuses: " + (", ".join(bonuses) if bonuses else "none")


# score -----------------------------------------------------------------------------


@main.command("score")
@click.option("--contract", "contract_name", required=True, metavar="C",
              help="prise, garde, garde_sans or garde_contre.")
@click.option("--points", "card_points", type=float, required=True, metavar="P",
              help="The taker's card points at the end (a multiple of 0.5).")
@click.option("--oudlers", type=click.IntRange(0, 3), required=True, help="Oudlers the taker ends with.")
@click.option("--petit-au-bout", type=click.Choice(["attack", "defence"]),
              help="The side that won the petit au bout.")
@click.option("--poignee", "poignees", type=click.Choice(POIGNEE_NAMES), multiple=True,
              help="A poignée declared (repeat for each one).")
@click.option("--slam", type=click.Choice(SLAM_OUTCOMES), help="Slam outcome.")
@json_option
def score_command(contract_name: str, card_points: float, oudlers: int, petit_au_bout: Optional[str],
                  poignees: Tuple[str, ...], slam: Optional[str], as_json: bool) -> None:
    """Score one deal from the taker's card points and oudlers (FFT scale)."""
    contract = Contract.parse(contract_name)
    half = card_points * 2
    if not half.is_integer() or not 0 <= half <= TOTAL_HALF_POINTS:
        raise RecordError(f"points '{card_points:g}' are not a multiple of 0.5 in 0..{TOTAL_HALF_POINTS // 2}",
                          token=f"{card_points:g}")
    res = score(contract, int(half), oudlers,
                petit_au_bout=None if petit_au_bout is None else petit_au_bout == "attack",
                poignees=[POIGNEE_NAMES.index(p) for p in poignees], slam=slam)
    result = {
        "contract": contract.value,
        "points": points(int(half)),
        "oudlers": oudlers,
        "target": points(FOUR_PLAYERS.target_half_points(oudlers)),
        "petit_au_bout": petit_au_bout,
        "poignees": list(poignees),
        "slam": slam,
        "made": res.made,
        "margin": res.margin,
        "unit": res.unit,
        "taker": res.taker,
        "defender": res.defender,
    }
    emit(result, as_json, _render_score)


def _render_score(r: Dict[str, Any]) -> str:
    return "\n".join([
        f"{r['contract']}: {r['points']} points with {r['oudlers']} oudlers (target {r['target']}):"
        f" {_result_line(r['made'], r['margin'])}",
        _bonus_line(r["petit_au_bout"], [f"{p} poignée" for p in r["poignees"]],
                    r["slam"] and f"slam ({r['slam']})"),
        f"unit {r['unit']}: taker {_signed(r['taker'])}, each defender {_signed(r['defender'])}",
    ])


# replay ----------------------------------------------------------------------------


@main.command("replay")
@click.argument("file")
@json_option
def replay_command(file: str, as_json: bool) -> None:
    """Play a complete game record (FILE, '-' for stdin) and score it."""
    record = read_record(file)
    taker, contract, _ = record.play_setup()
    state = record.final_state()
    res = record.score(state)
    levels = record.poignee_levels()
    slam_camp = state.slam()
    result = {
        "id": record.id,
        "contract": contract.value,
        "taker": taker,
        "taker_points": points(state.taker_hp),
        "oudlers": state.taker_oudlers(),
        "target": points(state.variant.target_half_points(state.taker_oudlers())),
        "margin": points(state.margin_hp()),
        "made": res.made,
        "unit": res.unit,
        "petit_au_bout": CAMP_NAMES[state.petit_au_bout()],
        "poignees": [{"seat": seat, "level": POIGNEE_NAMES[level]}
                     for (seat, _), level in zip(record.poignees or (), levels)],
        "slam": CAMP_NAMES[slam_camp],
        "slam_announced": bool(record.slam),
        "scores": res.scores(taker, state.players),
    }
    emit(result, as_json, _render_replay)


def _render_replay(r: Dict[str, Any]) -> str:
    title = f"game {r['id']}: " if r["id"] is not None else ""
    if r["slam"]:
        slam: Optional[str] = f"slam ({r['slam']}{', announced' if r['slam_announced'] else ''})"
    else:
        slam = "slam announced, failed" if r["slam_announced"] else None
    return "\n".join([
        f"{title}{r['contract']} by seat {r['taker']}",
        f"taker: {r['taker_points']} points with {r['oudlers']} oudlers (target {r['target']}):"
        f" {_result_line(r['made'], r['margin'])}",
        _bonus_line(r["petit_au_bout"], [f"{p['level']} poignée (seat {p['seat']})" for p in r["poignees"]], slam),
        "scores: " + ", ".join(f"seat {s} {_signed(v)}" for s, v in enumerate(r["scores"])),
    ])


# solve -------------------------------------------------------------------------------


@main.command("solve")
@click.argument("file")
@click.option("--all-cards", is_flag=True, help="Also give the margin after each legal card of the player on turn.")
@click.option("--made-only", is_flag=True, help="Only answer whether the contract is made (one null-window search).")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="Stop after S seconds and report the proven bounds.")
@click.option("--nodes", "node_limit", type=click.IntRange(min=1), metavar="N",
              help="Stop after N search nodes and report the proven bounds.")
@click.option("--table-mb", type=click.IntRange(min=1), default=DEFAULT_TABLE_MB, show_default=True,
              help="Memory for the transposition table.")
@json_option
def solve_command(file: str, all_cards: bool, made_only: bool, time_limit: Optional[float],
                  node_limit: Optional[int], table_mb: int, as_json: bool) -> None:
    """Double-dummy solve of the position after the record's `played` cards (FILE, '-' for stdin)."""
    if all_cards and made_only:
        raise click.UsageError("--all-cards and --made-only exclude each other")
    record = read_record(file)
    state = record.state()
    if state.over:
        raise RecordError("the game is over: nothing to solve", key="played")
    solver = Solver(table_mb)
    if made_only:
        r = solver.made(state, time_limit=time_limit, node_limit=node_limit)
        result: Dict[str, Any] = {"id": record.id, "made": r.made, "complete": r.complete}
    else:
        r = solver.solve(state, time_limit=time_limit, node_limit=node_limit, all_cards=all_cards)
        result = {"id": record.id, "margin": r.margin, "made": r.made, "complete": r.complete,
                  "taker_points": r.taker_points, "oudlers": r.oudlers, "pv": tokens(r.pv)}
        if r.cards is not None:
            result["cards"] = {card_token(c): (v.margin if v.complete else None) for c, v in sorted(r.cards.items())}
            if not all(v.complete for v in r.cards.values()):
                result["cards_bounds"] = {card_token(c): list(v.margin_bounds) for c, v in sorted(r.cards.items())}
    if not r.complete:
        result["margin_bounds"] = list(r.margin_bounds)
    result["nodes"] = r.nodes
    result["seconds"] = round(r.seconds, 4)
    emit(result, as_json, lambda res: _render_solve(res, record, state))


def _render_solve(r: Dict[str, Any], record: Any, state: PlayState) -> str:
    taker = record.taker
    lines = [f"deal {record.id}: " if record.id is not None else "",
             f"{record.contract.value} by seat {taker}; seat {state.to_play} to play"
             f" after {len(record.played or ())} cards"]
    lines = ["".join(lines)]
    for seat, hand in enumerate(state.hands):
        role = "taker " if seat == taker else "defence"
        lines.append(f"  seat {seat} {role}  {format_hand(cards_of(hand))}")
    if state.trick:
        lines.append("  trick so far: " + " ".join(tokens(state.trick)))
    lines.append(f"  taker's camp has {points(state.taker_hp)} points so far")
    if "margin" not in r:
        verdict = {True: "contract MADE", False: "contract FAILS", None: "undecided"}[r["made"]]
    elif r["margin"] is not None:
        verdict = f"margin {_signed(r['margin'])}: contract {'made' if r['made'] else 'fails'}"
        if r.get("taker_points") is not None:
            verdict += f" (taker ends with {r['taker_points']} points, {r['oudlers']} oudlers)"
    else:
        made = {True: "made", False: "fails", None: "undecided"}[r["made"]]
        verdict = f"margin between {_signed(r['margin_bounds'][0])} and {_signed(r['margin_bounds'][1])}: {made}"
    if not r["complete"]:
        verdict += " [stopped by a limit: bounds proven so far]"
    lines.append(f"double-dummy: {verdict}   ({r['nodes']:,} nodes, {r['seconds']:.2f} s)")
    if r.get("pv"):
        lines.append("optimal line:")
        line = state.copy()
        start = line.tricks_done
        for card in parse_cards(r["pv"]):
            line.play(card)
        for t in line.tricks[start:]:
            played = "  ".join(f"{card_token(c)}({t.seat_of(i, line.players)})" for i, c in enumerate(t.cards))
            lines.append(f"  trick {line.tricks.index(t) + 1:2d}: {played}  -> seat {t.winner}")
    if r.get("cards"):
        lines.append("value of each card:")
        for tok, m in r["cards"].items():
            shown = _signed(m) if m is not None else "{} .. {}".format(*r["cards_bounds"][tok])
            lines.append(f"  {tok:>4s} {shown}")
    return "\n".join(lines)
