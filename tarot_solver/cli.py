"""The ``tarot-solve`` command line (also ``python -m tarot_solver``).

Every command is a subcommand of the click group :data:`main`; to add one, write
``@main.command()`` and follow these conventions, which the group enforces or
:func:`emit` provides:

* data goes to stdout, built completely before anything is written (call
  :func:`emit` once, at the end), so a command that fails writes nothing there;
  messages and progress go to stderr;
* any :class:`~tarot_solver.errors.TarotError` and any OS error (a missing file...)
  raised by a command becomes one line ``tarot-solve: error: <message>`` on stderr
  and exit status 2, without a traceback, and so does a click usage error;
* ``--json`` (:data:`json_option`) prints one JSON object on one line; ``-`` as a
  file name reads stdin.
"""

from __future__ import annotations

import errno
import io
import itertools
import json
import math
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections import Counter, deque
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any, Callable, Deque, Dict, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

import click
from click.core import ParameterSource

from . import __version__, _core
from . import advice as _advice
from . import ddtable as _ddtable
from . import history as _history
from . import tarotclub as _tarotclub
from .cards import TOTAL_HALF_POINTS, card_token, cards_of, count, parse_card, parse_cards, points, tokens
from .errors import Interrupted, RecordError, SchedulerError, TarotError, WorkerError, plural, printable, spelled
from .errors import one_line as _one_line
from .notation import format_hand, parse_deal, parse_hand
from .parallel import Progress, stop_local_workers
from .parallel import map_ordered as _map_ordered
from .records import VARIANT, DealRecord, check_seat, count_records, iter_records, one_card, read_record, read_text
from .rules import PlayState
from .sampling import View
from .scoring import POIGNEE_NAMES, SLAM_OUTCOMES, score
from .solver import DEFAULT_TABLE_MB, MAX_TABLE_MB, WORKER_TABLE_MB, Solver, SolveResult, solve_many
from .variant import VARIANTS, Contract, variant_for

PROG = "tarot-solve"
#: a task of a batch (`_batch`)
T = TypeVar("T")
#: the result of a command's run (`_kept_on_interrupt`)
R = TypeVar("R")
#: the key in ``ctx.meta`` of the copy of stdin that a batch with --strict reads twice (`_read`)
STDIN_COPY = "tarot_solver.stdin_copy"
#: the highest seat of the largest table (each command checks the seat against its own table)
MAX_SEAT = max(VARIANTS) - 1
#: the most local worker processes (-j) and Monte Carlo worlds (--worlds) a command takes
MAX_JOBS = 1024
MAX_WORLDS = 10 ** 9
CAMP_NAMES = {True: "attack", False: "defence", None: None}
#: a result's ``made`` in words
VERDICTS = {True: "made", False: "failed", None: "undecided"}


class InputError(click.ClickException):
    """Bad input: one line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"{PROG}: error: {self.format_message()}", err=True)


class SystemFailure(InputError):
    """A failure of the system, no fault of the input (a full disk, an I/O error): one
    line as for bad input, exit status 1."""

    exit_code = 1


#: the errors the system, not the input, is to blame for (SystemFailure)
_SYSTEM_FAILURES = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)


class TarotGroup(click.Group):
    """A click group turning input and usage errors of any subcommand into
    :class:`InputError` (one line, status 2), Ctrl-C into one line and status 130,
    a worker process that died or a full disk (:class:`SystemFailure`) into one line
    and status 1, and a closed stdout (``| head``) into a quiet stop with status 141, as a
    command killed by SIGPIPE."""

    def parse_args(self, ctx: click.Context, args: List[str]) -> List[str]:
        bare = not args  # (asked before: click's parser consumes the list)
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            if bare:  # bare `tarot-solve`: click's help
                raise
            # an unknown option before the command, as the command's own: one line
            raise InputError(_one_line(e.format_message()).rstrip(".") + f" (see '{PROG} --help')") from None

    def invoke(self, ctx: click.Context) -> Any:
        ended = False  # (the command has ended: its local workers are being stopped)
        try:
            try:
                result = super().invoke(ctx)
            except (KeyboardInterrupt, WorkerError):
                raise
            except BaseException as e:
                if not (isinstance(e, click.exceptions.Exit) and e.exit_code == 130):  # (stopped: run() does it)
                    ended = True
                    _workers_stopped_at_end()
                raise
            ended = True
            _workers_stopped_at_end()
            return result
        except (KeyboardInterrupt, WorkerError) as e:
            stopped, status = _stopped(e)
            click.echo(f"{PROG}: {stopped}" + (" while its workers stopped (the run had ended)" if ended else ""),
                       err=True)
            ctx.exit(status)
        except click.UsageError as e:
            # bad usage (an unknown option, a value out of range, options that exclude each
            # other...) is bad input too: one line, with where to look
            # (the parser's errors, such as an option's missing value, carry no context)
            path = [PROG, *e.ctx.command_path.split()[1:]] if e.ctx is not None else [
                PROG, *([ctx.invoked_subcommand] if ctx.invoked_subcommand else [])]
            where = f" (see '{' '.join(path)} --help')"
            raise InputError(_one_line(e.format_message()).rstrip(".") + where) from None
        except BrokenPipeError:
            # the reader is gone: nothing more can reach it, and flushing stdout at
            # exit would fail again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(141)
        except TarotError as e:
            if isinstance(e, SchedulerError) and e.key == "scheduler":
                e.key = "--scheduler"  # (the API's argument: on the command line, the option gives it)
            raise InputError(_one_line(str(e))) from None
        except OSError as e:
            if e.filename is None and e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                e.filename = "stdout"  # (the files this command writes are named: what fills up unnamed is stdout)
            text = f"{e.filename}: {e.strerror}" if e.filename is not None and e.strerror else str(e)
            raise (SystemFailure if e.errno in _SYSTEM_FAILURES else InputError)(_one_line(text)) from None
        except MemoryError as e:
            raise InputError(_one_line(f"{e or 'out of memory'}: try a smaller --table-mb")) from None


class Seconds(click.FloatRange):
    """A number of seconds in a range; not NaN (which every range test lets through)."""

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


def emit(result: Dict[str, Any], as_json: bool, render: Callable[[Dict[str, Any]], str]) -> None:
    """Write ``result`` to stdout in one piece: as one JSON line, or as ``render(result)``."""
    click.echo(json.dumps(result, ensure_ascii=False) if as_json else render(result))


def _kept_on_interrupt(compute: Callable[[], R]) -> Tuple[R, Optional[Interrupted]]:
    """``compute()`` and None; or, when a Ctrl-C or SIGTERM stopped it after some of
    its work had finished, the result over that work and the interrupt, for
    :func:`emit_run` to report."""
    try:
        return compute(), None
    except Interrupted as e:
        return e.partial, e


def emit_run(result: Dict[str, Any], as_json: bool, render: Callable[[Dict[str, Any], Optional[str]], str],
             stop: Optional[Interrupted], noun: str) -> None:
    """:func:`emit` the ``result`` of a run (``render``'s second argument: None, or how a
    signal stopped it, "interrupted" or "terminated").  A run that ``stop`` cut short
    then says on stderr how many units (``noun``: world, row) of how many finished, and
    ends with status 130 (143 for SIGTERM: :func:`run`), as a run stopped with nothing
    finished does."""
    stopped, status = (None, 0) if stop is None else _stopped(stop)
    emit(result, as_json, lambda r: render(r, stopped))
    if stop is not None:
        click.echo(f"{PROG}: {stopped} after {stop.done} of {plural(stop.total, noun)}", err=True)
        raise click.exceptions.Exit(status)


#: --players: the table sizes there are rules for (out of range: a usage error)
PLAYERS = click.IntRange(min(VARIANTS), max(VARIANTS))

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a report.")


@click.group(cls=TarotGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name=PROG, message=f"%(prog)s, version %(version)s (core: {_core.BUILD} build)")
def main() -> None:
    """Double-dummy solver and hand analyzer for French Tarot (FFT rules; 4, 3 or 5 players)."""


#: the signals that stop a run as Ctrl-C does, each with the exit status it ends with
STOP_SIGNALS: Dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}
#: the stop signals :func:`run` has received, in order (none: Ctrl-C, as in tests that call main)
_received: List[int] = []


#: whether this process runs the command (:func:`run`), whose local workers it stops as the command ends
_as_command = False


def _workers_stopped_at_end() -> None:
    """Stop this process's local workers as the command ends (run as the process only).

    Else the interpreter's exit stopped them (loky's exit hook, a tenth of a second or
    more), where a Ctrl-C or SIGTERM printed a KeyboardInterrupt traceback ("Exception
    ignored in: <module 'threading'>") and the process exited 0, as if none had come,
    or hung (the hook cut before it woke loky's manager thread) until a second signal,
    which ended it with status 0 and its workers left running.  Here, one raises
    KeyboardInterrupt as anywhere in the command.  Workers that do not
    stop within 5 s are left to the interpreter's exit, as before."""
    if _as_command:
        stop_local_workers(5.0)


def _stopped(e: BaseException) -> Tuple[str, int]:
    """How a run stopped by ``e`` (Ctrl-C, SIGTERM or a worker that died) begins its
    last message, and its exit status."""
    if isinstance(e, WorkerError):
        return f"error: {e}", 1
    return ("terminated" if _received and _received[0] == signal.SIGTERM else "interrupted"), 130


_RESOURCE_TRACKERS = tuple(f"ignore::UserWarning:{module}" for module in (
    "multiprocessing.resource_tracker", "joblib.externals.loky.backend.resource_tracker"))


def run() -> None:
    """The ``tarot-solve`` command: :func:`main`, with SIGTERM (``kill``, ``timeout``, a
    batch system) stopping a run as Ctrl-C does (whole output lines, the count written,
    status 143) instead of killing it outright, which left its workers running.

    After either, the local workers are stopped before the interpreter's teardown,
    which could hang on them (:func:`~tarot_solver.parallel.stop_local_workers`).  A
    second signal, or workers that do not stop within 5 s, end the process at once,
    its output already closed."""
    global _as_command
    _received.clear()  # (a script may call this more than once)
    _as_command = True
    # The resource trackers of a run stopped as its pool starts or ends clean up the
    # semaphores its workers left them, and warned of each on stderr after the
    # command's one line; they take the interpreter's -W options (warnoptions).
    for tracker in _RESOURCE_TRACKERS:
        if tracker not in sys.warnoptions:
            sys.warnoptions.append(tracker)

    def terminate(signum: int, frame: Any) -> None:
        _received.append(signum)
        raise KeyboardInterrupt

    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, terminate)
    try:
        main(prog_name=PROG)
    except SystemExit as e:
        if e.code == 130:
            status = STOP_SIGNALS[_received[0]] if _received else 130
            for signum in STOP_SIGNALS:
                signal.signal(signum, lambda signum, frame: os._exit(status))
            if not stop_local_workers(5.0):
                for stream in (sys.stdout, sys.stderr):
                    with suppress(Exception):
                        stream.flush()
                os._exit(status)
            raise SystemExit(status) from None
        raise


# Formatting helpers ---------------------------------------------------------------



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
@click.option("--points", "card_points", required=True, metavar="P",
              help="The taker's card points at the end (a multiple of 0.5).")
@click.option("--oudlers", type=click.IntRange(0, 3), required=True, help="Oudlers the taker ends with.")
@click.option("--petit-au-bout", type=click.Choice(["attack", "defence"]),
              help="The side that won the petit au bout.")
@click.option("--poignee", "poignees", type=click.Choice(POIGNEE_NAMES), multiple=True,
              help="A poignée declared (repeat for each one).")
@click.option("--slam", type=click.Choice(SLAM_OUTCOMES), help="Slam outcome.")
@click.option("--players", type=PLAYERS, default=4, show_default=True,
              help="Players at the table: 4, 3 (the taker scores 2U) or 5 (2U, his partner U).")
@click.option("--alone", is_flag=True, help="Five players: the taker played alone (he scores 4U).")
@json_option
def score_command(contract_name: str, card_points: str, oudlers: int, petit_au_bout: Optional[str],
                  poignees: Tuple[str, ...], slam: Optional[str], players: int, alone: bool, as_json: bool) -> None:
    """Score one deal from the taker's card points and oudlers (FFT scale)."""
    variant = variant_for(_players(None, players))
    if alone and not variant.partner_share:
        raise click.UsageError("--alone: only at five players is there a partner to play without")
    contract = _contract_option(contract_name)
    typed = spelled(card_points)  # (as given: 48.9999999999 is no 49, 1e23 no 1e+23)
    try:
        half = float(card_points) * 2
    except ValueError:
        raise RecordError(f"points '{typed}' are not a number", key="--points", token=typed) from None
    if not half.is_integer() or not 0 <= half <= TOTAL_HALF_POINTS:  # (a NaN and an infinity are neither)
        raise RecordError(f"points '{typed}' are not a multiple of 0.5 in 0..{TOTAL_HALF_POINTS // 2}",
                          key="--points", token=typed)
    with _named_as_options(taker_half_points="--points", slam="--slam", petit_au_bout="--petit-au-bout",
                           poignees="--poignee"):
        res = score(contract, int(half), oudlers,
                    petit_au_bout=None if petit_au_bout is None else petit_au_bout == "attack",
                    poignees=[POIGNEE_NAMES.index(p) for p in poignees], slam=slam, variant=variant,
                    partner=bool(variant.partner_share) and not alone)
    result = {
        "players": players,
        "contract": contract.value,
        "points": points(int(half)),
        "oudlers": oudlers,
        "target": points(variant.target_half_points(oudlers)),
        "petit_au_bout": petit_au_bout,
        "poignees": list(poignees),
        "slam": slam,
        "made": res.made,
        "margin": res.margin,
        "unit": res.unit,
        "taker": res.taker,
        "defender": res.defender,
    }
    if variant.partner_share:
        result["partner"] = res.partner
    emit(result, as_json, _render_score)


def _contract_option(name: str) -> Contract:
    """--contract's value, an error naming the option."""
    try:
        return Contract.parse(name)
    except TarotError as e:
        raise e.located(key="--contract")


def _render_score(r: Dict[str, Any]) -> str:
    return "\n".join([
        f"{r['contract']}: {r['points']} points with {plural(r['oudlers'], 'oudler')} (target {r['target']}):"
        f" {_result_line(r['made'], r['margin'])}",
        _bonus_line(r["petit_au_bout"], [f"{p} poignée" for p in r["poignees"]],
                    r["slam"] and f"slam ({r['slam']})"),
        f"unit {r['unit']}: taker {_signed(r['taker'])}"
        + (f", partner {_signed(r['partner'])}" if r.get("partner") is not None else "")
        + f", each defender {_signed(r['defender'])}"
        + (f" ({r['players']} players{', the taker alone' if 'partner' in r and r['partner'] is None else ''})"
           if r["players"] != 4 else ""),
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
        "scores": res.scores(taker, state.players, record.partner),
    }
    if record.called is not None:
        result.update(called=card_token(record.called), partner=record.partner)
    emit(result, as_json, lambda r: _render_replay(r, res.margin, _called(record)))


def _called(record: DealRecord) -> str:
    """`` calling KS (partner seat 4)`` at five players, else nothing."""
    if record.called is None:
        return ""
    partner = record.partner
    return f" calling {card_token(record.called)} (" + ("alone)" if partner is None else f"partner seat {partner})")


def _render_replay(r: Dict[str, Any], rounded: int, called: str = "") -> str:
    """The text of a replay; ``rounded``: the margin after the FFT rounding, which the
    scores use (the JSON's ``margin`` is before it)."""
    title = f"game {printable(r['id'], spaces=False)}: " if r["id"] is not None else ""
    before = f" ({_signed(r['margin'])} before the rounding)" if rounded != r["margin"] else ""
    if r["slam"]:
        slam: Optional[str] = f"slam ({r['slam']}{', announced' if r['slam_announced'] else ''})"
    else:
        slam = "slam announced, failed" if r["slam_announced"] else None
    return "\n".join([
        f"{title}{r['contract']} by seat {r['taker']}{called}",
        f"taker: {r['taker_points']} points with {plural(r['oudlers'], 'oudler')} (target {r['target']}):"
        f" {_result_line(r['made'], rounded)}{before}",
        _bonus_line(r["petit_au_bout"], [f"{p['level']} poignée (seat {p['seat']})" for p in r["poignees"]], slam),
        "scores: " + ", ".join(f"seat {s} {_signed(v)}" for s, v in enumerate(r["scores"])),
    ])


# solve -------------------------------------------------------------------------------


def _options(*options: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """One decorator for several click options, in the order given."""
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


def batch_options(output_help: str, *, items: str, bad: str, scope: str = "",
                  limits: str = "--nodes or --time-limit") -> Callable[[Callable[..., Any]],
                                                                                         Callable[..., Any]]:
    """The options of a batch over a file of records (`_batch`): -o, -j, --scheduler,
    --resume, --strict; ``scope`` starts the help of those that apply only to many records."""
    def said(text: str) -> str:
        return scope + text if scope else text[:1].upper() + text[1:]

    return _options(
        click.option("-o", "--output", type=click.Path(dir_okay=False), help=output_help),
        click.option("-j", "--jobs", type=click.IntRange(min=0, max=MAX_JOBS), default=0, show_default=True,
                     help=said("local worker processes (0: all cores; not with --scheduler).")),
        click.option("--scheduler", metavar="ADDR",
                     help=said("run on a Dask cluster (tcp://HOST:PORT; Dask's connect timeout, 30 s by"
                               " default, bounds the wait for it and for a worker).")),
        click.option("--resume", is_flag=True,
                     help=f"Skip the {items} already in --output and append the others (the lines there"
                          f" are kept as they are, whatever {limits} made them)."),
        click.option("--strict", is_flag=True,
                     help=said(f"check every {bad} before solving any and, if one is bad, stop with its error,"
                               " writing nothing (instead of skipping it).")),
    )


@main.command("solve")
@click.argument("file")
@click.option("--all-cards", is_flag=True, help="Also give the margin after each legal card of the player on turn.")
@click.option("--made-only", is_flag=True, help="Only answer whether the contract is made (one null-window search).")
@click.option("--time-limit", type=Seconds(min=0, min_open=True), metavar="S",
              help="Stop after S seconds and report the proven bounds (per deal; with --all-cards,"
                   " each card gets an equal share of what is left).")
@click.option("--nodes", "node_limit", type=click.IntRange(min=1), metavar="N",
              help="Stop after N search nodes and report the proven bounds (per deal; with --all-cards,"
                   " each card gets an equal share of what is left).")
@click.option("--table-mb", type=click.IntRange(min=1, max=MAX_TABLE_MB), metavar="M",
              help=f"Memory for the transposition table, in MiB (default {DEFAULT_TABLE_MB} for one deal;"
                   f" {WORKER_TABLE_MB} per worker for many deals or with --output).")
@batch_options("Write one JSON line per deal to this file ('-': stdout; FILE may then hold one deal).",
               items="deals", bad="record", scope="Many deals: ")
@json_option
@click.pass_context
def solve_command(ctx: click.Context, file: str, all_cards: bool, made_only: bool, time_limit: Optional[float],
                  node_limit: Optional[int], table_mb: Optional[int], output: Optional[str], jobs: int,
                  scheduler: Optional[str], resume: bool, strict: bool, as_json: bool) -> None:
    """Double-dummy solve of the position after the record's `played` cards (FILE, '-' for stdin).

    FILE may also be a deal typed in the one-line notation ("dealer=2 taker=1
    contract=garde discard=... / hand 0 / ... / dog": docs/notation.md).  FILE
    may hold many records (JSON Lines): each deal is then solved in turn, on all
    cores, with one line per deal (a JSON line with --json or --output); a bad
    record is reported with its line and skipped (exit status 2 at the end),
    unless --strict.
    """
    if all_cards and made_only:
        raise click.UsageError("--all-cards and --made-only exclude each other")
    one, records = _one_or_many(ctx, file, output, resume, strict, scheduler)
    if one is not None:
        _solve_one(one, all_cards, made_only, time_limit, node_limit, table_mb or DEFAULT_TABLE_MB, as_json)
        return
    tally: "Counter[str]" = Counter()
    pending: Deque[Tuple[int, DealRecord]] = deque()

    def states(items: Iterator[Tuple[int, DealRecord, PlayState]]) -> Iterator[PlayState]:
        for line, record, state in items:
            pending.append((line, record))
            yield state

    def solve_all(items: Iterator[Tuple[int, DealRecord, PlayState]],
                  total: Optional[int]) -> Iterator[Dict[str, Any]]:
        for r in solve_many(states(items), made_only=made_only, all_cards=all_cards, time_limit=time_limit,
                            node_limit=node_limit, table_mb=table_mb or WORKER_TABLE_MB, jobs=jobs, scheduler=scheduler,
                            progress=_progress("solve", rows_on_stdout=output in (None, "-")), total=total):
            line, record = pending.popleft()
            yield {"line": line, **_solve_json(record, r, made_only)}

    def count(result: Dict[str, Any]) -> None:
        # (on --resume) a line of analyze or table, or of solve with and without --made-only or --all-cards
        if made_only and "margin" in result:
            raise ValueError("a line of solve without --made-only")
        if not made_only and ("cards" in result) != all_cards:
            raise ValueError(f"a line of solve {'without' if all_cards else 'with'} --all-cards")
        for key in ("nodes", "made") if made_only else ("nodes", "margin"):
            if key not in result:
                raise KeyError(key)
        tally[VERDICTS[result["made"]]] += 1

    echo = (lambda r: _write_line(sys.stdout, r)) if as_json else (lambda r: click.echo(_solve_row(r)))
    skipped = _batch(ctx, file, records, lambda line, record: (line, record, record.state()),
                     solve_all, noun="deal", output=output, resume=resume, strict=strict, on_result=count,
                     echo=echo)
    click.echo(f"{plural(sum(tally.values()), 'deal')}: {tally['made']} made, {tally['failed']} failed, "
               f"{tally['undecided']} undecided", err=True)
    _raise_skipped(skipped, "record")


def _one_or_many(ctx: click.Context, file: str, output: Optional[str], resume: bool, strict: bool,
                 scheduler: Optional[str]) -> Tuple[Optional[DealRecord], Iterator[Tuple[int, Union[DealRecord,
                                                                                             TarotError]]]]:
    """The start of a command on one record or many (`solve`, `table`), its batch options
    checked: FILE's record when it holds one and no --output is asked for (a bad one
    raises), else None and FILE's records for :func:`_batch`."""
    if resume and output is None:
        raise click.UsageError("--resume needs --output (the file to complete)")
    _check_scheduler_option(ctx, scheduler)
    records = _read(ctx, file, strict)
    first = list(itertools.islice(records, 2))
    if len(first) == 1 and output is None:
        _, record = first[0]
        if isinstance(record, TarotError):
            raise record
        return record, iter(())
    return None, itertools.chain(first, records)


def _solve_one(record: DealRecord, all_cards: bool, made_only: bool, time_limit: Optional[float],
               node_limit: Optional[int], table_mb: int, as_json: bool) -> None:
    """`solve` on one record: its diagram and optimal line, or one JSON object (a complete
    game has its result as played)."""
    state = record.state()
    solver = Solver(table_mb)
    stop: Optional[Interrupted] = None
    with _watching(solver):
        if made_only:
            r = solver.made(state, time_limit=time_limit, node_limit=node_limit)
        else:
            # a Ctrl-C after the first of --all-cards keeps the cards finished
            r, stop = _kept_on_interrupt(lambda: solver.solve(state, time_limit=time_limit, node_limit=node_limit,
                                                              all_cards=all_cards))
    emit_run(_solve_json(record, r, made_only), as_json,
             lambda res, stopped: _render_solve(res, record, state, r.best, stopped), stop, "card")


def _solve_json(record: DealRecord, r: SolveResult, made_only: bool) -> Dict[str, Any]:
    """The JSON form of one solve (docs/formats.md)."""
    if made_only:
        result: Dict[str, Any] = {"id": record.id, "made": r.made, "complete": r.complete}
    else:
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
    return result


def _solve_row(r: Dict[str, Any]) -> str:
    """One deal of a many-deal `solve`, on one line."""
    name = printable(r["id"], spaces=False) if r["id"] not in (None, "") else f"line {r['line']}"
    verdict = VERDICTS[r["made"]]
    if r.get("margin") is not None:
        value = f"margin {_signed(r['margin'])}, "
    elif "margin_bounds" in r:
        lo, hi = r["margin_bounds"]
        value = f"margin between {_signed(lo)} and {_signed(hi)}, "
    else:
        value = ""
    cards = ""
    if r.get("cards"):  # (--all-cards: each card's margin, or its proven bounds)
        cards = "; cards: " + ", ".join(
            f"{tok} {_signed(m) if m is not None else _bounds_text(*r['cards_bounds'][tok])}"
            for tok, m in r["cards"].items())
    return f"{name}: {value}{verdict} ({r['nodes']:,} nodes, {r['seconds']:.2f} s){cards}"


def _status_text(solver: Solver) -> str:
    """What a running or interrupted solve has proven, in a few words."""
    st = solver.status
    if st is None:
        return f"{solver.nodes:,} nodes"
    lo, hi = st.bounds
    proven = f"margin {_signed(lo)}" if lo == hi else f"margin between {_signed(lo)} and {_signed(hi)}"
    testing = f", testing at least {_signed(st.target)}" if st.target is not None else ""
    return f"{proven} proven{testing}, {solver.nodes:,} nodes"


@contextmanager
def _watching(solver: Solver) -> Iterator[None]:
    """While ``solver`` runs, what it has proven so far on stderr (a
    :class:`Progress`: on a terminal after a second, twice a second; elsewhere a line a
    minute); on Ctrl-C, that as one line, status 130."""
    bar = Progress("solving:", None)
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.5):
            bar.show(f"{_status_text(solver)}, {bar.elapsed:.0f} s")

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    interrupted: Optional[KeyboardInterrupt] = None
    try:
        yield
    except KeyboardInterrupt as e:
        interrupted = e
    finally:
        stop.set()
        watcher.join()
        bar.close()
    if interrupted is not None:
        stopped, status = _stopped(interrupted)
        click.echo(f"{PROG}: {stopped}: {_status_text(solver)} in {bar.elapsed:.1f} s", err=True)
        raise click.exceptions.Exit(status)


def _render_solve(r: Dict[str, Any], record: Any, state: PlayState, best: Optional[Tuple[int, ...]] = None,
                  stopped: Optional[str] = None) -> str:
    """The text of one solve: the deal, the verdict, the optimal line and, with ``cards``, each card's
    value, the cards proven best (``best``) marked; ``stopped`` says how a signal ended it (its cards
    then those finished)."""
    taker = record.taker
    lines = [_deal_label(r),
             f"{record.contract.value} by seat {taker}{_called(record)}; "
             + ("the game is over" if state.over else f"seat {state.to_play} to play")
             + f" after {len(record.played or ())} cards"]
    lines = ["".join(lines)]
    for seat, hand in enumerate([] if state.over else state.hands):
        role = "taker  " if seat == taker else "partner" if state.camps[seat] else "defence"
        lines.append(f"  seat {seat} {role}  {format_hand(cards_of(hand))}")
    if state.trick:
        lines.append("  trick so far: " + " ".join(tokens(state.trick)))
    lines.append(f"  taker's camp has {plural(points(state.taker_hp), 'point')} so far")
    if "margin" not in r:
        verdict = {True: "contract MADE", False: "contract FAILS", None: "undecided"}[r["made"]]
        if not r["complete"]:
            verdict += " (margin between {} and {})".format(*map(_signed, r["margin_bounds"]))
    elif r["margin"] is not None:
        verdict = f"margin {_signed(r['margin'])}: contract {'made' if r['made'] else 'fails'}"
        if r.get("taker_points") is not None:
            verdict += f" (taker ends with {r['taker_points']} points, {plural(r['oudlers'], 'oudler')})"
    else:
        made = {True: "made", False: "fails", None: "undecided"}[r["made"]]
        verdict = f"margin between {_signed(r['margin_bounds'][0])} and {_signed(r['margin_bounds'][1])}: {made}"
    if not r["complete"]:
        verdict += f" [{stopped or 'stopped by a limit'}: bounds proven so far]"
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
        searched = (f"of the {len(r['cards'])} cards searched before it was {stopped}"
                    f" ({count(state.legal())} legal)" if stopped else "of each card")
        lines.append(f"value {searched} (* proven best for seat {state.to_play}):")
        marked = set(tokens(best or ()))
        for tok, m in r["cards"].items():
            shown = _signed(m) if m is not None else " .. ".join(map(_signed, r["cards_bounds"][tok]))
            lines.append(f"{'*' if tok in marked else ' '} {tok:>4s} {shown}")
    return "\n".join(lines)


# table (the double-dummy table of a deal) ------------------------------------------------


@main.command("table")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--nodes", "node_limit", type=click.IntRange(min=1), default=_ddtable.DEFAULT_NODES,
              show_default=True, metavar="N",
              help="Search nodes per question for make/fail, and as many for the margin (about 0.2 s a million);"
                   " a question left open is shown with its proven bounds.")
@click.option("--seat", "seats", type=click.IntRange(0, MAX_SEAT), multiple=True, metavar="S",
              help="Only this seat as the taker (repeat for more; default every seat).")
@click.option("--discards", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="Prise and garde: try K candidate discards per seat (the record's or the simple policy's first,"
                   " then those of the discard advice) and keep the best; each costs a question.")
@click.option("--table-mb", type=click.IntRange(min=1, max=MAX_TABLE_MB), default=WORKER_TABLE_MB,
              show_default=True, metavar="M", help="Memory for the transposition table of each worker, in MiB.")
@batch_options("Write one JSON line per deal to this file ('-': stdout; FILE may then hold one deal).",
               items="deals", bad="record", limits="--nodes, --seat or --discards")
@json_option
@click.pass_context
def table_command(ctx: click.Context, file: str, node_limit: int, seats: Tuple[int, ...], discards: int,
                  table_mb: int, output: Optional[str], jobs: int, scheduler: Optional[str], resume: bool,
                  strict: bool, as_json: bool) -> None:
    """Double-dummy table of the deal in FILE ('-' for stdin, or the deal typed in the
    one-line notation, "dealer=2 / hand 0 / ... / dog": docs/notation.md): for each seat
    as the taker, the margin and score of each contract, and the best bid.

    Prise and garde play alike, with the record's discard for its taker and the simple
    policy's for the other seats; at five players the taker calls as the record says,
    else as the simple policy does.  FILE may hold many records (JSON Lines): one table
    per deal (a JSON line with --json or --output); a bad record is reported with its
    line and skipped (exit status 2 at the end), unless --strict.
    """
    chosen = seats or None
    one, records = _one_or_many(ctx, file, output, resume, strict, scheduler)
    if one is not None:
        _ddtable.check_record(one, chosen, key="--seat")
        table, stop = _kept_on_interrupt(lambda: _ddtable.dd_table(
            one, node_limit=node_limit, seats=chosen, discards=discards, table_mb=table_mb, jobs=jobs,
            scheduler=scheduler, progress=_progress("table", rows_on_stdout=False)))
        emit_run(table.as_json(), as_json, _render_table, stop, "row")
        return

    def tables(items: Iterator[Tuple[int, DealRecord]], total: Optional[int]) -> Iterator[Dict[str, Any]]:
        lines: Deque[int] = deque()

        def records_of() -> Iterator[DealRecord]:
            for line, record in items:
                lines.append(line)
                yield record

        for table in _ddtable.dd_tables(records_of(), node_limit=node_limit, seats=chosen, discards=discards,
                                        table_mb=table_mb, jobs=jobs, scheduler=scheduler,
                                        progress=_progress("table", output in (None, "-")), total=total):
            yield {"line": lines.popleft(), **table.as_json()}

    tally: "Counter[str]" = Counter()

    def count(result: Dict[str, Any]) -> None:
        """Tally a table's questions (on --resume, those already in the output too)."""
        tally["deals"] += 1
        for row in result["rows"]:  # (KeyError: a line of another command)
            for name, cell in row["contracts"].items():
                if name != "prise":  # (the garde's card play)
                    tally["questions"] += 1
                    tally["decided"] += cell["made"] is not None
                    tally["exact"] += cell["margin"] is not None
            tally["seats"] += 1
            tally["best"] += len(row["best"]) == 1

    echo = (lambda r: _write_line(sys.stdout, r)) if as_json else (lambda r: click.echo(_render_table(r) + "\n"))
    skipped = _batch(ctx, file, records, lambda line, record: (line, _ddtable.check_record(record, chosen, "--seat")),
                     tables, noun="deal", output=output, resume=resume, strict=strict, on_result=count, echo=echo)
    click.echo(f"{plural(tally['deals'], 'deal')}, {plural(tally['seats'], 'seat')} taking: {tally['decided']} of"
               f" {tally['questions']} contracts made or failed for certain (prise and garde as one),"
               f" {tally['exact']} with their exact margin; the best bid proven for {tally['best']} of the seats",
               err=True)
    _raise_skipped(skipped, "record")


def _bounds_text(lo: float, hi: float) -> str:
    """An exact value, or proven bounds ``lo..hi``."""
    return _signed(lo) if lo == hi else f"{_signed(lo)}..{_signed(hi)}"


def _render_table(r: Dict[str, Any], stopped: Optional[str] = None) -> str:
    """The text of a double-dummy table: a line per seat taking (``stopped``: how a
    signal stopped the run, if one did, before the other seats' rows were done)."""
    n = r["node_limit"]
    limit = "no node limit" if n is None else f"{n:,} node{'' if n == 1 else 's'} a question"
    if r["discards"] > 1:
        limit += f", the best of {r['discards']} discards for prise/garde"
    label = _deal_label(r) or (f"line {r['line']}: " if "line" in r else "")
    dealer = f"dealer {r['dealer']}, " if r["dealer"] is not None else ""
    lines = [f"{label}double-dummy table: {dealer}seat {r['leader']} leads; {limit}"
             f" ({r['nodes']:,} nodes, {r['seconds']:.2f} s)"]
    five = any(row["called"] is not None for row in r["rows"])
    width = max(len(" ".join(row["discard"])) for row in r["rows"])
    head = f"seat  {'discard':<{width}s}  " + (f"{'calls':<14s}" if five else "")
    lines.append(head + f"{'prise/garde':>14s}   {'garde sans':>14s}   {'garde contre':>14s}   best bid (score)")
    for row in r["rows"]:
        cells = row["contracts"]
        mark = "*" if row["seat"] == r["taker"] else " "
        text = f"{row['seat']:>4d}{mark} {' '.join(row['discard']):<{width}s}  "
        if five:
            partner = "alone" if row["partner"] is None else f"seat {row['partner']}"
            text += f"{row['called']:>3s} {partner:<9s} "
        for name in ("garde", "garde_sans", "garde_contre"):
            lo, hi = cells[name]["margin_bounds"]
            text += f"{_bounds_text(lo, hi):>14s}{'?' if lo < 0 <= hi else ' '}  "
        best = row["best"]
        if len(best) == 1:
            text += " " + best[0].replace("_", " ")
            text += "" if best[0] == "pass" else f" ({_bounds_text(*cells[best[0]]['score_bounds'])})"
        else:
            text += " " + "/".join(b.replace("_", " ") for b in best) + "?"
        lines.append(text.rstrip())
    if r["taker"] is not None and any(row["seat"] == r["taker"] for row in r["rows"]):
        contract = f" ({r['contract'].replace('_', ' ')})" if r["contract"] is not None else ""
        lines.append(f"* the record's taker{contract}")
    if not r["complete"]:
        lines.append("a..b: margin bounds proven within the node limit; ?: made or failed still open")
    if stopped:
        lines.append(f"{stopped} before the rows of the other seats were finished")
    return "\n".join(lines)


# bid and discard (Monte Carlo advice) ---------------------------------------------------



def _deal_label(r: Dict[str, Any]) -> str:
    """'deal ID: ' before a report on a record that has an id."""
    return f"deal {printable(r['id'], spaces=False)}: " if r.get("id") is not None else ""


def _record_id(record: Optional[DealRecord]) -> Optional[str]:
    """The input record's ``id``, echoed in the advice's JSON (None for a typed hand)."""
    return None if record is None else record.id


def _hand_input(words: Sequence[str], name: str = "HAND") -> Tuple[List[int], Optional[DealRecord], Dict[str, str]]:
    """HAND, the argument's ``words`` (a typed hand the shell split is joined again): a
    hand typed on the command line, a text file holding one ('-': stdin), or a deal
    record file (named .json or .jsonl, or holding JSON).  Returns (the hand, None,
    where) or ([], the record, {}), ``where`` locating an error in the hand
    (:meth:`TarotError.located`): the argument (``name``) or the file."""
    arg = " ".join(words)
    if os.path.isdir(arg):  # (named as solve and table name it)
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), arg)
    if arg != "-" and not os.path.isfile(arg):
        try:
            return parse_hand(arg), None, {"key": name}
        except TarotError as e:
            if not any(sep in arg for sep in " ,:\t"):
                raise RecordError(f"'{spelled(arg)}' is neither a file nor a hand of cards",
                                  key=name, token=spelled(arg)) from None
            raise e.located(key=name)
    label = "<stdin>" if arg == "-" else arg
    text = read_text(arg)
    if text.lstrip().startswith(("{", "[")) or Path(arg).suffix.lower() in (".json", ".jsonl"):
        return [], read_record(arg, text), {}
    try:
        return parse_hand(text), None, {"file": label}
    except TarotError as e:
        raise e.located(file=label)


def _check_hand(cards: List[int], where: Dict[str, str], players: int) -> None:
    """A typed hand's size and cards for the table, an error naming the argument or file."""
    try:
        _advice.check_hand(cards, variant=variant_for(players))
    except TarotError as e:
        raise e.located(**where)


def _check_seats(players: int, **options: Optional[int]) -> None:
    """Seats given as options (--seat, --dealer...) against the table's size."""
    for name, value in options.items():
        if value is not None:
            check_seat(value, f"--{name}", players)


#: --called of bid and discard: the taker's call is part of the advice's question
CALL_POLICY_HELP = ("Five players: the card the taker calls [default: the record's, else the taker's"
                    " simple policy: the callable card he lacks in his longest suit].")


def table_options(called_help: str = CALL_POLICY_HELP) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--players and, at five players, --called (``called_help`` says what it is to the command)."""
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option("--called", metavar="CARD", help=called_help)(f)
        return click.option("--players", type=PLAYERS, help="Players at the table: 4, 3 (hands of 24) or 5 (hands of 15)"
                                                        " [default: the record's, else 4].")(f)
    return decorate


def _called_option(record: Optional[DealRecord], seat: Optional[int], called: Optional[str]) -> Optional[int]:
    """The card called: --called, else the record's when the taker is the seat advised."""
    if called is not None:
        return one_card(called, "--called")
    return record.called if record is not None and seat == record.taker else None


def _players(record: Optional[DealRecord], players: Optional[int]) -> int:
    """The table's size: ``--players`` (checked), else the record's, else four."""
    if players is not None:
        if record is not None and record.variant.players != players:
            raise click.UsageError(f"--players {players}: the deal record is a {record.variant.players}-player deal")
        return players
    return record.variant.players if record is not None else VARIANT.players


#: a play position's keys (advice.View) and the options of `play` that give them
_VIEW_OPTIONS: Dict[str, Optional[str]] = dict(
    seat="--seat", taker="--taker", contract="--contract", dealer="--dealer", leader="--leader", dog="--dog",
    discard="--discard", played="--played", poignees="--poignee", called="--called")


@contextmanager
def _named_as_options(record: Optional[DealRecord] = None, /, **options: Optional[str]) -> Iterator[None]:
    """An error of the advice about a value given on the command line names the
    option (``bids`` as ``--bids``, ``played[3]`` as ``--played[3]``); keyword
    ``bids="--bids"`` maps the advice's key to its option, None where the option
    was not given (the value came from the deal ``record``, whose key the error
    keeps, located in its file and record)."""
    try:
        yield
    except TarotError as e:
        name, index = (e.key or "").partition("[")[::2]
        option = options.get(name)
        if option is not None:
            e.key = option + (f"[{index}" if index else "")
        elif record is not None and name in options:
            raise record._located(e)
        raise


def _record_seat(record: DealRecord, seat: Optional[int]) -> int:
    """The seat advised from a record: --seat (checked by :func:`_check_seats`), else its taker."""
    if seat is not None:
        return seat
    if record.taker is None:
        raise record._located(RecordError("the deal record names no taker: say whose hand to use with --seat",
                                          key="taker"))
    return record.taker


def _summary_json(s: "_advice.Summary") -> Dict[str, Any]:
    return {
        "p_make": round(s.p_make, 4),
        "p_make_ci": [round(x, 4) for x in s.p_make_ci],
        "expected_margin": round(s.expected_margin, 2),
        "expected_margin_bounds": [round(x, 2) for x in s.expected_margin_bounds],
        "expected_score": round(s.expected_score, 1),
        "expected_score_ci": [round(x, 1) for x in s.expected_score_ci],
        "made": s.made,
        "failed": s.failed,
        "undecided": s.undecided,
    }


def _run_json(run: "_advice.RunInfo") -> Dict[str, Any]:
    return {
        "worlds": run.worlds,
        "worlds_requested": run.requested,
        "seed": run.seed,
        "undecided_worlds": run.undecided_worlds,
        "node_budget": run.node_budget,
        "margin_budget": run.margin_budget,
        "nodes": run.nodes,
        "seconds": round(run.seconds, 3),
        "cpu_seconds": round(run.cpu_seconds, 3),
    }


_SUMMARY_HEADER = f"{'P(make)':>7s}  {'95% interval':>12s}  {'undecided':>9s}  {'E[margin]':>9s}  " \
                  f"{'E[score]':>8s}  {'95% interval':>14s}"


def _summary_row(s: Dict[str, Any]) -> str:
    lo, hi = s["p_make_ci"]
    slo, shi = s["expected_score_ci"]
    return (f"{s['p_make']:7.2f}  [{lo:4.2f}, {hi:4.2f}]  {s['undecided']:9d}  {s['expected_margin']:+9.1f}  "
            f"{s['expected_score']:+8.0f}  [{slo:+5.0f}, {shi:+5.0f}]")


def _measured(s: Dict[str, Any]) -> bool:
    """Whether some world decided this option (else its expected score is the 0 of undecided worlds)."""
    return bool(s["made"] + s["failed"])


def _run_lines(r: Dict[str, Any], stopped: Optional[str]) -> List[str]:
    """The lines of an advice's report on its run (``stopped``: how a signal stopped it, else the
    time budget did if it has fewer worlds than asked for)."""
    lines = [f"{plural(r['worlds'], 'world')} (seed {r['seed']}"
             + (f"; {stopped or 'time budget reached'} after {r['worlds']} of {r['worlds_requested']}"
                if r["worlds"] < r["worlds_requested"] else "")
             + f"), budgets {r['node_budget']:,} + {r['margin_budget']:,} nodes per question,"
             f" {r['seconds']:.1f} s"]
    if r["undecided_worlds"]:
        one = r["undecided_worlds"] == 1
        lines.append(f"{r['undecided_worlds']} of {plural(r['worlds'], 'world')}"
                     f" {'has' if one else 'have'} a question the solver left undecided within its budget:"
                     f" {'it counts' if one else 'they count'} as made or failed by a hair, at even odds, in the"
                     " estimates, and as both in the intervals")
    return lines


_with_budget_options = _options(
    click.option("--worlds", type=click.IntRange(min=1, max=MAX_WORLDS), default=_advice.DEFAULT_WORLDS,
                 show_default=True,
                 help="Number of sampled worlds."),
    click.option("--seed", type=click.IntRange(min=0), default=_advice.DEFAULT_SEED, show_default=True,
                 help="Seed of the worlds: world i is the same whatever -j."),
    click.option("-j", "--jobs", type=click.IntRange(min=0, max=MAX_JOBS), default=0,
                 help="Worker processes (default: all cores; 1 runs here)."),
    click.option("--time-budget", type=Seconds(min=0, min_open=True), metavar="S",
                 help="Stop after S seconds, with the worlds finished by then (worlds 0 to n-1; the first"
                      " is always solved, within its node budgets)."),
    click.option("--node-budget", type=click.IntRange(min=1), default=_advice.DEFAULT_NODE_BUDGET,
                 show_default=True, metavar="N", help="Search nodes for each make/fail question."),
    click.option("--margin-budget", type=click.IntRange(min=0), metavar="N",
                 help="Further nodes to bracket the margin (an undecided question gets two probes of a"
                      " fifth of it each) [default: the node budget; 0: make/fail only]."),
    click.option("--table-mb", type=click.IntRange(min=1, max=MAX_TABLE_MB), default=_advice.DEFAULT_TABLE_MB,
                 show_default=True, help="Transposition table per worker."),
)


@main.command("bid")
@click.argument("hand", nargs=-1, required=True)
@click.option("--seat", type=click.IntRange(0, MAX_SEAT),
              help="The seat whose hand it is [default: the record's taker (a record with none needs"
                   " --seat); 0 for a typed hand].")
@click.option("--dealer", type=click.IntRange(0, MAX_SEAT),
              help="The dealer [default: the record's, else the seat before the first bidder].")
@click.option("--bids", metavar="BIDS",
              help="The bids made before this seat, from the dealer's right: 'pass,garde'"
                   " [default: the record's, else all passed].")
@table_options()
@_with_budget_options
@json_option
def bid_command(hand: Tuple[str, ...], seat: Optional[int], dealer: Optional[int], bids: Optional[str],
                players: Optional[int], called: Optional[str], worlds: int, seed: int, jobs: int,
                time_budget: Optional[float], node_budget: int, margin_budget: Optional[int], table_mb: int,
                as_json: bool) -> None:
    """Monte Carlo bid advice for HAND (18 cards; 24 at three players, 15 at five; typed, quoted or not, a
    text file, or a deal record file; '-' reads either from stdin)."""
    cards, record, where = _hand_input(hand)
    players = _players(record, players)
    if record is None:  # (first: a hand of another table's size says which)
        _check_hand(cards, where, players)
    _check_seats(players, seat=seat, dealer=dealer)
    prior = None
    if bids is not None:
        # commas or spaces between bids: an empty one between two commas is refused; 'garde sans'
        # and 'garde contre' are one bid each, as a contract's name is read elsewhere
        spelled_out = re.sub(r"(?i)\bgarde[\s_-]+(sans|contre)\b", r"garde_\1", bids.strip())
        prior = re.split(r"\s*,\s*|\s+", spelled_out) if spelled_out else []
    if record is not None:
        seat = _record_seat(record, seat)
        cards = list(record.hands[seat])
        dealer = record.dealer if dealer is None else dealer
        if bids is None and record.bids is not None and dealer is not None:
            if record.dealer is not None and dealer != record.dealer:
                # (the record's bids went round from its dealer's right: read from another seat's,
                # they would be given to the wrong players)
                raise record._located(RecordError(
                    f"the record's bids were made from its dealer's right (dealer {record.dealer}): with another"
                    " dealer, give the bids before this seat with --bids", key="--dealer", token=str(dealer)))
            prior = (list(record.bids) + ["pass"] * players)[:(seat - dealer - 1) % players]
    with _named_as_options(record, bids=None if bids is None else "--bids",
                           called=None if called is None else "--called"):
        res, stop = _kept_on_interrupt(lambda: _advice.bid_advice(
            cards, seat=seat or 0, dealer=dealer, bids=prior, worlds=worlds, seed=seed, jobs=jobs,
            time_budget=time_budget, node_budget=node_budget, margin_budget=margin_budget, table_mb=table_mb,
            players=players, called=_called_option(record, seat, called)))
    result: Dict[str, Any] = {
        "id": _record_id(record),
        "players": players,
        **({} if res.called is None else {"called": card_token(res.called)}),
        "seat": res.seat,
        "dealer": res.dealer,
        "hand": tokens(res.hand),
        "bids": list(res.bids),
        "hand_count": res.hand_count,
        "hand_count_contract": None if res.hand_count is None else
        res.hand_count_contract.value if res.hand_count_contract else "pass",
        "contracts": {a.contract.value: {"allowed": a.allowed, **_summary_json(a.summary)} for a in res.contracts},
        "recommendation": res.recommendation.value if res.recommendation else "pass",
        "discard_policy": "simple",
        **_run_json(res.run),
    }
    emit_run(result, as_json, _render_bid, stop, "world")


def _render_bid(r: Dict[str, Any], stopped: Optional[str] = None) -> str:
    bids = f", after {' '.join(r['bids'])}" if r["bids"] else ""
    called = f", calling {r['called']}" if "called" in r else ""
    lines = [f"{_deal_label(r)}seat {r['seat']} (dealer {r['dealer']}{bids}{called}): {format_hand(r['hand'])}",
             f"hand count {r['hand_count']}: {r['hand_count_contract']}" if r["hand_count"] is not None
             else f"hand count: none at {r['players']} players (the classic count is for hands of 18)",
             *_run_lines(r, stopped), "",
             f"{'contract':12s}  {_SUMMARY_HEADER}"]
    for name, s in r["contracts"].items():
        lines.append(f"{name:12s}  {_summary_row(s)}" + ("" if s["allowed"] else "  (below the bids)"))
    lines.append("")
    rec = r["recommendation"]
    open_ = [s for s in r["contracts"].values() if s["allowed"]]
    if rec == "pass" and not open_:
        lines.append("recommendation: pass (no contract is left to bid above a garde contre)")
    elif rec == "pass" and not any(_measured(s) for s in open_):
        lines.append("recommendation: pass (no world decided for any open contract within the node budget:"
                     " not measured)")
    elif rec == "pass":
        lines.append("recommendation: pass (no open contract has a positive expected score)")
    else:
        lines.append(f"recommendation: {rec} (expected score {r['contracts'][rec]['expected_score']:+.0f})")
    return "\n".join(lines)


def _cards_option(value: Optional[str], key: str,
                  parse: Callable[[str], List[int]] = parse_cards) -> Optional[List[int]]:
    """The cards of an option's value (None when not given), an error naming the option."""
    if value is None:
        return None
    try:
        return parse(value)
    except TarotError as e:
        raise e.located(key=key)


@main.command("discard")
@click.argument("hand", nargs=-1, required=True)
@click.option("--dog", metavar="DOG", help="The dog: six cards, three at five players [default: the record's].")
@click.option("--contract", "contract_name", metavar="C", help="prise or garde [default: the record's].")
@click.option("--seat", type=click.IntRange(0, MAX_SEAT),
              help="The taker's seat [default: 0, or the record's taker].")
@click.option("--dealer", type=click.IntRange(0, MAX_SEAT),
              help="The dealer [default: the record's, else the seat before the taker].")
@click.option("--candidates", type=click.IntRange(min=1), default=_advice.DEFAULT_CANDIDATES, show_default=True,
              help="Most discards to evaluate.")
@table_options()
@_with_budget_options
@json_option
def discard_command(hand: Tuple[str, ...], dog: Optional[str], contract_name: Optional[str], seat: Optional[int],
                    dealer: Optional[int], candidates: int, players: Optional[int], called: Optional[str],
                    worlds: int, seed: int, jobs: int,
                    time_budget: Optional[float], node_budget: int, margin_budget: Optional[int],
                    table_mb: int, as_json: bool) -> None:
    """Monte Carlo discard advice for the taker's HAND (as for bid) and the DOG."""
    cards, record, where = _hand_input(hand)
    players = _players(record, players)
    if record is None:  # (first: a hand of another table's size says which)
        _check_hand(cards, where, players)
    _check_seats(players, seat=seat, dealer=dealer)
    dog_cards: Optional[List[int]] = None
    contract = _contract_option(contract_name) if contract_name is not None else None
    if record is not None:
        seat = _record_seat(record, seat)
        cards = list(record.hands[seat])
        dog_cards = list(record.dog)
        dealer = record.dealer if dealer is None else dealer
        contract = record.contract if contract is None else contract
    if dog is not None:
        dog_cards = _cards_option(dog, "--dog", parse_hand)
    if dog_cards is None:
        raise click.UsageError("missing option '--dog' (the cards of the dog)")
    if contract is None:
        raise click.UsageError("missing option '--contract' (prise or garde)")
    with _named_as_options(record, dog=None if dog is None else "--dog",
                           contract=None if contract_name is None else "--contract",
                           called=None if called is None else "--called"):
        res, stop = _kept_on_interrupt(lambda: _advice.discard_advice(
            cards, dog_cards, contract, seat=seat or 0, dealer=dealer, worlds=worlds, seed=seed, jobs=jobs,
            time_budget=time_budget, node_budget=node_budget, margin_budget=margin_budget, candidates=candidates,
            table_mb=table_mb, players=players, called=_called_option(record, seat, called)))
    result: Dict[str, Any] = {
        "id": _record_id(record),
        "players": players,
        **({} if res.called is None else {"called": card_token(res.called)}),
        "seat": res.seat,
        "dealer": res.dealer,
        "contract": res.contract.value,
        "hand": tokens(res.hand),
        "dog": tokens(res.dog),
        "candidates": [{"discard": tokens(c.discard), "policy": c.policy, **_summary_json(c.summary)}
                       for c in res.candidates],
        "recommendation": tokens(res.recommendation),
        **_run_json(res.run),
    }
    emit_run(result, as_json, _render_discard, stop, "world")


def _render_discard(r: Dict[str, Any], stopped: Optional[str] = None) -> str:
    called = f", calling {r['called']}" if "called" in r else ""
    width = max(22, *(len(" ".join(c["discard"])) for c in r["candidates"]))
    lines = [f"{_deal_label(r)}{r['contract']} by seat {r['seat']} (dealer {r['dealer']}{called}):"
             f" {format_hand(r['hand'])}",
             f"dog: {' '.join(r['dog'])}",
             *_run_lines(r, stopped), "",
             f"{'rank':4s}  {'discard':{width}s}  {_SUMMARY_HEADER}"]
    for i, c in enumerate(r["candidates"], 1):
        lines.append(f"{i:4d}  {' '.join(c['discard']):{width}s}  {_summary_row(c)}"
                     + ("  (simple policy)" if c["policy"] else ""))
    lines += ["", "recommendation: discard " + " ".join(r["recommendation"])
              + ("" if _measured(r["candidates"][0])
                 else " (no world decided for it within the node budget: its rank is not measured)")]
    return "\n".join(lines)


@main.command("play")
@click.argument("position", nargs=-1, required=True)
@click.option("--seat", type=click.IntRange(0, MAX_SEAT), help="The seat whose hand POSITION is.")
@click.option("--taker", type=click.IntRange(0, MAX_SEAT), help="The taker's seat.")
@click.option("--contract", "contract_name", metavar="C", help="The contract: prise, garde, garde_sans, garde_contre.")
@click.option("--dealer", type=click.IntRange(0, MAX_SEAT),
              help="The dealer (the first lead is from his right).")
@click.option("--leader", type=click.IntRange(0, MAX_SEAT), help="The seat that led the first trick.")
@click.option("--dog", metavar="CARDS", help="The dog, shown in a prise or garde.")
@click.option("--discard", metavar="CARDS",
              help="The taker's discard, six cards or three at five players (for the taker), or the trumps"
                   " shown from the discard.")
@click.option("--played", metavar="CARDS", help="The cards played so far, from the first lead.")
@click.option("--poignee", "poignees", type=(click.IntRange(0, MAX_SEAT), str), multiple=True,
              metavar="SEAT CARDS", help="A poignée shown: the seat and its cards (repeat for each).")
@table_options("Five players, with a hand as POSITION: the card the taker called (needed; a deal"
               " record gives its own).")
@_with_budget_options
@json_option
def play_command(position: Tuple[str, ...], seat: Optional[int], taker: Optional[int], contract_name: Optional[str],
                 dealer: Optional[int], leader: Optional[int], dog: Optional[str], discard: Optional[str],
                 played: Optional[str], poignees: Tuple[Tuple[int, str], ...], players: Optional[int],
                 called: Optional[str], worlds: int, seed: int, jobs: int,
                 time_budget: Optional[float], node_budget: int, margin_budget: Optional[int],
                 table_mb: int, as_json: bool) -> None:
    """Monte Carlo advice on the card to play, from what the player on turn can see.

    POSITION is a deal record file, whose `played` cards stop where the player on
    turn is to play; or that player's cards as dealt (typed, quoted or not, or a text file; 18,
    or 24 with --players 3, 15 with --players 5 and --called), with --seat,
    --taker, --contract, --dealer or --leader, the --dog of a prise or garde,
    --discard, --played and --poignee saying what he has seen.  '-' reads either
    from stdin.
    """
    given = {"--seat": seat, "--taker": taker, "--contract": contract_name, "--dealer": dealer, "--leader": leader,
             "--dog": dog, "--discard": discard, "--played": played, "--poignee": poignees or None,
             "--called": called}
    cards, record, where = _hand_input(position, "POSITION")
    players = _players(record, players)
    target: Union[DealRecord, View]
    if record is not None:
        named = [flag for flag, value in given.items() if value is not None]
        if named:
            raise click.UsageError(f"{', '.join(named)}: the deal record says where the play stands;"
                                   " these options go with a hand")
        target = record
    else:
        for flag in ("--seat", "--taker", "--contract"):
            if given[flag] is None:
                raise click.UsageError(f"missing option '{flag}' (with a hand as POSITION)")
        if dealer is None and leader is None:
            raise click.UsageError("missing option '--dealer' or '--leader' (with a hand as POSITION)")
        if called is None and variant_for(players).partner_share:
            raise click.UsageError("missing option '--called' (the card the taker called, at five players)")
        _check_hand(cards, where, players)
        _check_seats(players, seat=seat, taker=taker, dealer=dealer, leader=leader)
        if dealer is not None and leader is not None and leader not in ((dealer + 1) % players, taker):
            # (as a record's leader and dealer must agree; the taker leads after announcing a slam)
            raise RecordError(f"seat {leader} leads, but the dealer's right (seat {(dealer + 1) % players}) leads"
                              f" the first trick, or the taker (seat {taker}) after announcing a slam",
                              key="--leader", token=str(leader))
    # with a hand, every value of the view is an option's (a record's errors keep its keys)
    with _named_as_options(**({} if record is not None else _VIEW_OPTIONS)):
        if record is None:
            assert seat is not None and taker is not None and contract_name is not None
            target = _advice.view_of(seat, cards, taker=taker, contract=_contract_option(contract_name),
                                     leader=leader if leader is not None else ((dealer or 0) + 1) % players,
                                     dog=_cards_option(dog, "--dog"), discard=_cards_option(discard, "--discard"),
                                     played=played or [],
                                     poignees=[(s, _cards_option(c, "--poignee") or []) for s, c in poignees],
                                     players=players, called=_called_option(None, seat, called))
        res, stop = _kept_on_interrupt(lambda: _advice.play_advice(
            target, worlds=worlds, seed=seed, jobs=jobs, time_budget=time_budget, node_budget=node_budget,
            margin_budget=margin_budget, table_mb=table_mb))
    result: Dict[str, Any] = {
        "id": _record_id(record),
        "players": players,
        "seat": res.seat,
        "taker": res.taker,
        "contract": res.contract.value,
        "camp": "taker" if res.taker_camp else "defence",
        "trick_number": res.tricks_done + 1,
        "trick": tokens(res.trick),
        "hand": tokens(res.hand),
        "choices": [{"cards": tokens(c.cards), **_summary_json(c.summary)} for c in res.choices],
        "recommendation": card_token(res.recommendation),
        **({} if target.called is None else {"called": card_token(target.called)}),
        **_run_json(res.run),
    }
    emit_run(result, as_json, _render_play, stop, "world")


def _render_play(r: Dict[str, Any], stopped: Optional[str] = None) -> str:
    if r["seat"] == r["taker"]:
        role = f"the taker, {r['contract']}"
    else:
        side = "the taker's partner" if r["camp"] == "taker" else "a defender"
        role = f"{side}, seat {r['taker']}'s {r['contract']}"
    if "called" in r:
        role += f", calling {r['called']}"
    width = max(14, *(len(" ".join(c["cards"])) for c in r["choices"]))
    lines = [f"{_deal_label(r)}seat {r['seat']} to play ({role}), trick {r['trick_number']}"
             + (f", on the table: {' '.join(r['trick'])}" if r["trick"] else ", on lead"),
             f"hand: {format_hand(r['hand'])}",
             *_run_lines(r, stopped), "",
             f"{'rank':4s}  {'card':{width}s}  {_SUMMARY_HEADER}"]
    for i, c in enumerate(r["choices"], 1):
        lines.append(f"{i:4d}  {' '.join(c['cards']):{width}s}  {_summary_row(c)}")
    best = ("the highest expected score for the taker" if r["camp"] == "taker"
            else "the lowest expected unit U, what a defender pays: the taker scores 2U with a partner, 4U alone"
            if r["players"] == 5 else "the lowest expected score for the taker")
    lines += ["", f"recommendation: play {r['recommendation']}"
              + (" (the only legal card)" if len(r["choices"]) == 1 and len(r["choices"][0]["cards"]) == 1
                 else f" ({best})" if _measured(r["choices"][0])
                 else " (no world decided for it within the node budget: its rank is not measured)")]
    return "\n".join(lines)


# analyze and convert (batch analysis of hand histories, TarotClub import) --------------


#: seconds per position when neither --time-limit nor --nodes is given
ANALYZE_TIME_LIMIT = 2.0


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while a line is written, so an output file only ever ends
    with whole lines; a signal caught meanwhile is handed on after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: List[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: caught.append(signum)) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
    if caught:
        signal.raise_signal(caught[0])


def _write_line(out: IO[str], obj: Dict[str, Any]) -> None:
    """One JSON line, written whole and flushed."""
    text = json.dumps(obj, ensure_ascii=False) + "\n"
    with _interrupts_held():
        out.write(text)
        out.flush()


def _require(module: str, extra: str, option: str) -> None:
    """Fail before any work if an optional extra is missing."""
    try:
        __import__(module)
    except ImportError:
        raise InputError(f"{option} needs the optional extra: pip install 'tarot-solver[{extra}]'") from None


def _check_plot(path: str, history: str, output: Optional[str]) -> None:
    """--plot's file, before any work: an image format matplotlib writes (no suffix:
    matplotlib adds .png), in a directory that exists, and neither the ``history`` read
    nor the ``output`` written (the image would overwrite it)."""
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix and suffix not in formats:
        raise InputError(f"--plot {path}: matplotlib writes no '.{suffix}' images (it writes"
                         f" {', '.join('.' + f for f in sorted(formats))})")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise InputError(f"--plot {path}: no directory {folder}")
    image = path if suffix else path.rstrip(".") + ".png"  # (as matplotlib names it)
    if _same_file(history, image):
        raise InputError(f"--plot {path} is the input file: its records would be overwritten by the image")
    if output not in (None, "-") and _same_file(output, image):
        raise InputError(f"--plot {path} is the --output file: its lines would be overwritten by the image")
    from matplotlib.figure import Figure

    figure = Figure()  # (a format whose writer needs more, as .pgf a LaTeX program, fails now, not after the run)
    figure.text(0, 0, "0")
    try:
        figure.savefig(io.BytesIO(), format=suffix or None)
    except Exception as e:  # (whatever the writer raises: a probe of this machine)
        raise InputError(f"--plot {path}: matplotlib cannot write '.{suffix}' images here:"
                         f" {_one_line(str(e) or type(e).__name__)}") from None


def _check_scheduler_option(ctx: click.Context, scheduler: Optional[str]) -> None:
    """--scheduler needs the dask extra, and leaves the parallelism to the cluster's
    workers: a -j given with it would be silently ignored, so it is refused."""
    if scheduler is None:
        return
    if ctx.get_parameter_source("jobs") not in (None, ParameterSource.DEFAULT):
        raise click.UsageError("-j/--jobs and --scheduler exclude each other (the cluster's workers set the"
                               " parallelism)")
    _require("dask.distributed", "dask", "--scheduler")


#: a task of `analyze` (`_history.analyze_task`)
AnalyzeTask = Tuple[int, DealRecord, _history.AnalysisOptions]


@main.command("analyze")
@click.argument("history")
@batch_options("Write the game lines to this file ('-': stdout, and a --summary after them).", items="games",
               bad="game")
@click.option("--time-limit", type=Seconds(min=0), metavar="S",
              help=f"Search seconds per position (0: none; default {ANALYZE_TIME_LIMIT:g}, none with --nodes;"
                   " with both, whichever comes first).")
@click.option("--nodes", type=click.IntRange(min=0), default=0, metavar="N",
              help="Search nodes per position (0: none); results do not depend on the machine.")
@click.option("--table-mb", type=click.IntRange(min=1, max=MAX_TABLE_MB), default=WORKER_TABLE_MB, show_default=True,
              help="Transposition table per worker.")
@click.option("--from-trick", type=click.IntRange(1, max(v.tricks for v in VARIANTS.values())), default=1,
              show_default=True, metavar="N", help="Solve only the positions from trick N on (the endgame).")
@click.option("--summary", "show_summary", is_flag=True,
              help="Print a summary by role and seat (without --output, instead of the game lines).")
@click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE.png",
              help="Draw the distribution of error costs per role.")
@click.option("--json", "as_json", is_flag=True,
              help="With --summary: print it as one JSON object (alone it changes nothing: the game lines"
                   " are JSON lines anyway).")
@click.pass_context
def analyze_command(ctx: click.Context, history: str, output: Optional[str], jobs: int, scheduler: Optional[str],
                    resume: bool, strict: bool, time_limit: Optional[float], nodes: int, table_mb: int,
                    from_trick: int, show_summary: bool, plot: Optional[str], as_json: bool) -> None:
    """Double-dummy analysis of the complete games of HISTORY (JSON Lines, '-' for stdin).

    One JSON line per game: the double-dummy margin before the first card, the
    actual result and scores, and every card that lost points (docs/analyze.md).
    A bad game is reported with its line and skipped (exit status 2 at the end),
    unless --strict.
    """
    if resume and output is None:
        raise click.UsageError("--resume needs --output (the file to complete)")
    _check_scheduler_option(ctx, scheduler)
    if plot:
        _require("matplotlib", "plot", "--plot")
        _check_plot(plot, history, output)
    if time_limit is None:
        time_limit = 0.0 if nodes else ANALYZE_TIME_LIMIT
    # --nodes 0 and --time-limit 0 mean no limit: the API's None (its 0 searches nothing)
    options = _history.AnalysisOptions(time_limit=time_limit or None, node_limit=nodes or None, table_mb=table_mb,
                                       first_trick=from_trick)
    summary = _history.Summary()
    echo = None if show_summary else (lambda r: _write_line(sys.stdout, r))

    past_the_end: "Counter[int]" = Counter()  # games too short for --from-trick, by table size

    def playable(line: int, record: DealRecord) -> AnalyzeTask:
        record.final_state()  # complete and playable, else a TarotError
        return line, record, options

    def counted(tasks: Iterator[AnalyzeTask]) -> Iterator[AnalyzeTask]:
        """The tasks, the games past --from-trick counted as they are run (--strict prepares each game twice)."""
        for task in tasks:
            _, record, _ = task
            if from_trick > record.variant.tricks:
                past_the_end[record.variant.players] += 1
            yield task

    skipped = _batch(ctx, history, _read(ctx, history, strict), playable,
                     lambda items, total: _map_ordered(_history.analyze_task, counted(items), jobs=jobs,
                                                       scheduler=scheduler, progress=_progress(
                                                           "analyze", rows_on_stdout=output == "-" or (
                                                               output is None and not show_summary)), total=total),
                     noun="game", output=output, resume=resume, strict=strict, on_result=summary.add, echo=echo)
    for players, n in sorted(past_the_end.items()):
        click.echo(f"{PROG}: note: --from-trick {from_trick} is past the last trick of {plural(n, 'game')}"
                   f" at {players} players ({variant_for(players).tricks} tricks): nothing was solved in"
                   f" {'it' if n == 1 else 'them'}",
                   err=True)
    if show_summary:
        emit(summary.to_json(), as_json, lambda _: summary.render())
    if plot:
        summary.plot(plot)
    _raise_skipped(skipped, "game")


def _batch(ctx: click.Context, source: str, records: Iterator[Tuple[int, Union[DealRecord, TarotError]]],
           prepare: Callable[[int, DealRecord], T],
           run: Callable[[Iterator[T], Optional[int]], Iterator[Dict[str, Any]]], *,
           noun: str, output: Optional[str], resume: bool, strict: bool,
           on_result: Callable[[Dict[str, Any]], None],
           echo: Optional[Callable[[Dict[str, Any]], None]]) -> List[int]:
    """The streaming loop of `analyze` and of `solve` on many records.

    ``records`` are those of the file ``source``.  Each good record becomes a
    task (``prepare(line, record)``, which raises :class:`TarotError` for a
    record that cannot be run); ``run`` turns the tasks into result lines, in
    order, told about how many there are for its progress counter (on a
    terminal).  Each line goes to ``output`` (written whole and flushed; with
    ``resume``, the good records whose key is already there, as many times as it
    is there, are skipped and the rest appended), else to ``echo``, and to
    ``on_result``.  A bad record is reported on stderr and skipped (its line
    number returned).  With ``strict`` it is all or nothing: every record (those
    already in ``output`` included) is read and prepared first, and the first bad
    one raises before any is run or ``output`` is read; then the file is read
    again (``records`` must come from :func:`_read`) for the run.  ``output``
    is opened only when the first result line is ready (an input that cannot be
    read, or holds no good record, leaves it as it was), and never when it is
    ``source``.  Ctrl-C leaves whole lines and exits 130.
    """
    if output == "-":  # the lines to stdout, as JSON
        if resume:
            raise click.UsageError("--resume needs a file as --output, not '-'")
        output, echo = None, (lambda r: _write_line(sys.stdout, r))
    if resume and output is not None and os.path.exists(output) and not os.path.isfile(output):
        raise click.UsageError(f"--resume needs a regular file as --output, not {output} (it would be read first)")
    if output is not None and os.path.exists(output) and _reads_output(source, output):
        raise InputError(f"--output {output} is the input file: its records would be overwritten")
    records = iter(records)
    first = list(itertools.islice(records, 1))  # a file that cannot be read raises here
    records = itertools.chain(first, records)
    skipped: List[int] = []

    def tasks(items: Iterator[Tuple[int, Union[DealRecord, TarotError]]],
              done: "Counter[Union[str, int]]") -> Iterator[T]:
        """The tasks of ``items`` but for the records ``done``.  An error reading
        the file, or a bad record with ``strict``, ends them; in the run, the pool
        raises it once the lines before it are out (map_ordered)."""
        for line, item in items:
            task: Union[T, TarotError]
            if isinstance(item, DealRecord):
                try:
                    task = prepare(line, item)
                except TarotError as e:  # (never in the output: it takes no line of it, a good record's with its id)
                    task = e
                else:
                    key = _history.game_key({"id": item.id, "line": line})
                    if done[key] > 0:
                        done[key] -= 1
                        continue
            else:
                task = item
            if isinstance(task, TarotError):
                if strict:
                    raise task
                skipped.append(line)  # a few bytes per bad record
                click.echo(f"{PROG}: skipped: {_one_line(str(task))}", err=True)
                continue
            yield task

    if output is not None:
        _check_writable(output)
    done: "Counter[Union[str, int]]" = Counter()
    out: Optional[IO[str]] = None
    written = kept = 0  # (kept: the lines --resume found in the output)
    try:
        if strict:  # all or nothing: the run starts once every record is known to be good
            for _ in tasks(records, Counter()):
                pass
            records = _read(ctx, source, strict)
        if resume and output is not None and os.path.exists(output):
            out = _open_output(output, resume)  # (locked before it is read)
            done = _history.resume_output(output, on_result)
            kept = sum(done.values())
        for result in run(tasks(records, done), _tasks_total(source, done)):
            if output is not None:
                try:
                    if out is None:
                        out = _open_output(output, resume)
                    with _interrupts_held():  # the line and its count at once: a Ctrl-C says what the file holds
                        _write_line(out, result)
                        written += 1
                except OSError as e:  # a full disk...: name the file; --resume mends a cut last line
                    hint = " (run again with --resume to finish)" if os.path.isfile(output) else ""
                    raise OSError(e.errno, f"{e.strerror}{hint}", output) from None
            else:
                if echo is not None:
                    echo(result)
                written += 1
            on_result(result)
        left = sum(done.values())  # (lines resumed that no record of the input took: another history's?)
        if left:
            click.echo(f"{PROG}: note: {output} holds {plural(left, 'line')} matching no record of"
                       f" {'stdin' if source == '-' else source}: kept (and counted by --summary)", err=True)
    except (KeyboardInterrupt, WorkerError) as e:
        stopped, status = _stopped(e)
        said = f"{plural(written, noun)} written"
        if output is None and echo is None:  # (--summary alone: it replaces the lines, and comes at the end)
            said = f"{plural(written, noun)} analysed, no summary written (-o FILE keeps the lines as they come)"
        elif output and not written:  # (never opened)
            said = f"no {noun} written; {_untouched(output)}"
        elif output:
            said += f" to {output}" + (f" ({kept + written} in all)" if kept else "")
        click.echo(f"{PROG}: {stopped}: {said}"
                   + ("; run again with --resume to finish" if output and (written or resume) else ""), err=True)
        ctx.exit(status)
    finally:
        if out is not None:
            failing = sys.exc_info()[1] is not None  # (a write's error, naming the file, is on its way)
            try:
                out.close()
            except OSError:
                if not failing:
                    raise
    return skipped


def _reads_output(source: str, output: str) -> bool:
    """Whether the input ``source`` is the existing file ``output``: a file named so, or
    standard input ('-') redirected from it (``< OUT``), which the run would truncate
    while reading it (the process's own stdin, fd 0: --strict may have swapped
    ``sys.stdin`` for a copy by now)."""
    if source != "-":
        return os.path.samefile(source, output)
    try:
        given, out = os.fstat(0), os.stat(output)
    except OSError:  # (no stdin)
        return False
    return stat.S_ISREG(given.st_mode) and os.path.samestat(given, out)


def _same_file(given: str, path: str) -> bool:
    """Whether the file ``given`` (or stdin, '-', redirected from it: :func:`_reads_output`)
    is ``path``, both there or not yet: a file written by the run would overwrite it."""
    if given != "-" and os.path.realpath(given) == os.path.realpath(path):
        return True
    return os.path.exists(path) and (given == "-" or os.path.exists(given)) and _reads_output(given, path)


def _read(ctx: click.Context, source: str, twice: bool) -> Iterator[Tuple[int, Union[DealRecord, TarotError]]]:
    """The records of the file ``source`` (:func:`iter_records`), from its start at each call.

    ``twice`` (a batch with --strict checks every record before its run) reads them
    twice: stdin is then copied, at the first call, to a temporary file that stands for it
    until the command ends (then deleted), so memory stays flat; a pipe given by name,
    which cannot be read twice, is refused (it can be given as '-')."""
    if twice and source == "-":
        spool = ctx.meta.get(STDIN_COPY)
        if spool is None:
            spool = ctx.meta[STDIN_COPY] = ctx.with_resource(tempfile.TemporaryFile())
            shutil.copyfileobj(sys.stdin.buffer, spool)
            text = io.TextIOWrapper(spool, encoding="utf-8")
            stdin, sys.stdin = sys.stdin, text

            def restore() -> None:  # (the copy itself is closed after: with_resource)
                sys.stdin = stdin
                text.detach()
            ctx.call_on_close(restore)
        spool.seek(0)
    elif twice and os.path.exists(source) and not (os.path.isfile(source) or os.path.isdir(source)):
        raise InputError(f"{source}: --strict reads the input twice, and a pipe can be read once: give it as '-'")
    elif source != "-" and "/" in source and not os.path.exists(source):
        return iter([(1, _typed_deal(source))])
    return iter_records(source)


def _typed_deal(text: str) -> Union[DealRecord, TarotError]:
    """A deal typed as FILE in the one-line notation (docs/notation.md), or its error.
    Text with no hand's groups (``S:KQ7``) that is no deal is a path to a missing file,
    as a path has no colon either (an OSError; where half its words are cards, with
    what the notation says of it too)."""
    try:
        return DealRecord.from_json(parse_deal(text))
    except TarotError as e:
        if ":" not in text:
            words = [w for w in text.replace("/", " ").split() if "=" not in w]
            hint = f", nor a deal in the one-line notation ({e})" if 2 * sum(map(_is_card, words)) >= len(words) else ""
            raise OSError(errno.ENOENT, os.strerror(errno.ENOENT) + hint, text) from None
        return e.located(file="FILE (a deal in the one-line notation)")


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except TarotError:
        return False
    return True


def _tasks_total(source: str, done: "Counter[Union[str, int]]") -> Optional[int]:
    """About how many records of ``source`` are left to run, for a progress counter on
    stderr."""
    total = count_records(source)
    return None if total is None else max(0, total - sum(done.values()))


def _untouched(path: str) -> str:
    """What a run that wrote no line says of its output ``path``, which it never opened."""
    return f"{path} {'left as it was' if os.path.exists(path) else 'not created'}"


def _open_output(path: str, resume: bool) -> IO[str]:
    """``path`` opened for a run's lines (emptied unless ``resume``), under an exclusive
    lock held until it is closed: two runs writing one output at once, as two resumed
    runs of one batch, would each append the games the other does.  A lock held by
    another run is bad input, naming the file; where there are no such locks (not on
    POSIX) there is none."""
    out = open(path, "a", encoding="utf-8")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return out
    try:
        fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        out.close()
        raise InputError(f"--output {path} is being written by another run: wait for it to end") from None
    if not resume and os.path.isfile(path):  # (not a device or a pipe, which have no length)
        out.truncate(0)
    return out


def _check_writable(path: str) -> None:
    """Raise the error opening ``path`` for writing would raise, without opening it
    (which would create or truncate it before any result is ready)."""
    if os.path.isdir(path):
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    target = path if os.path.exists(path) else (os.path.dirname(path) or ".")
    if not os.path.isdir(os.path.dirname(path) or "."):
        raise OSError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    if not os.access(target, os.W_OK):
        raise OSError(errno.EACCES, os.strerror(errno.EACCES), path)


def _progress(label: str, rows_on_stdout: bool) -> Optional[str]:
    """The label of a batch's progress counter on stderr (a :class:`Progress`), or None
    where the rows go to stdout and stdout is a terminal: they show the progress."""
    return None if rows_on_stdout and sys.stdout.isatty() else label


def _raise_skipped(skipped: List[int], noun: str) -> None:
    """Exit status 2 once a batch is done if it skipped bad records."""
    if skipped:
        lines = ", ".join(map(str, skipped[:10])) + (", ..." if len(skipped) > 10 else "")
        raise InputError(f"{plural(len(skipped), 'bad ' + noun)} skipped"
                         f" (line{'s' if len(skipped) > 1 else ''} {lines})")


@main.command("convert")
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the records to this file ('-': stdout, as without it).")
@click.option("--strict", is_flag=True, help="Stop at the first bad log, writing nothing.")
def convert_command(paths: Tuple[str, ...], output: Optional[str], strict: bool) -> None:
    """Convert TarotClub played-deal logs into deal records (JSON Lines).

    PATHS are log files or directories of them (their *.json files, by name, hidden ones aside).
    A bad log is reported and skipped (exit status 2 at the end), unless --strict.
    """
    if "-" in paths:
        raise InputError("-: TarotClub logs are read from files, not from stdin (a log's file name is its"
                         " record's id)")
    lines: List[str] = []
    bad: List[str] = []
    logs = _tarotclub.log_files(paths)
    output = None if output == "-" else output
    if output is not None and os.path.exists(output) and any(os.path.samefile(log, output) for log in logs
                                                             if os.path.exists(log)):
        raise InputError(f"--output {output} is one of the logs: it would be overwritten")
    for path in logs:
        try:
            record = _tarotclub.read_log(path)
        except (TarotError, OSError) as e:
            if strict:
                raise
            bad.append(str(path))
            text = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.strerror else str(e)
            click.echo(f"{PROG}: skipped: {_one_line(text)}", err=True)
            continue
        lines.append(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
    if output is None:
        click.echo("".join(lines), nl=False)
    elif not lines:  # (as analyze: an output is opened only for a line to write)
        click.echo(f"{PROG}: no deal written; {_untouched(output)}", err=True)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write("".join(lines))
        click.echo(f"{PROG}: {plural(len(lines), 'deal')} written to {output}", err=True)
    if bad:
        raise InputError(f"{plural(len(bad), 'bad log')} skipped")
