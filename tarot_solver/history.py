"""Double-dummy analysis of played games: what perfect play would have made of each
game, and which cards cost how many points.

The value of a position is the taker's margin (card points minus the target for
the oudlers he ends with) under double-dummy play from there.  Along a complete
game, the position before every card is solved once (twice before a proven
error: the second solve, on the warm table, finds a best card), from the last
trick back to the first lead, with one :class:`~tarot_solver.solver.Solver`
whose table is kept warm along the game.  The value after a card is the value of the next
position, so a card's cost is the drop in value for its player's camp (the
taker maximises the margin, the defenders minimise it).  A forced card (the only
legal one) costs nothing and needs no solve.

Under a per-position budget (``time_limit`` or ``node_limit``) a solve may stop
with proven bounds only (positions before ``first_trick`` are not solved at all:
their bounds are the trivial ones).  Bounds are then narrowed by the order along the game (a
player can do no better than his best card: ``v[i] >= v[i+1]`` when the taker's
camp plays card ``i``, ``v[i] <= v[i+1]`` when the defence does), and a card is
reported as an error only when its cost is proven positive; its cost is exact only
when both values are.  Nothing is guessed.

Each game is analysed from a cleared table, so its result depends on the game and
the budget only, never on which games a worker analysed before: with complete
solves or a node budget, results are identical whatever the backend and worker
count (a time budget depends on the machine's speed).

:class:`Summary` totals the per-game results by role and by seat, incrementally,
from the JSON lines themselves, so a resumed run summarises the whole output.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from .cards import TOTAL_HALF_POINTS, card_token, cards_of, count, points
from .errors import RecordError, integer, plural, spelled
from .records import DealRecord, PathLike, _file_label, json_problem, json_type
from .rules import PlayState
from .scoring import ScoreResult
from .solver import WORKER_TABLE_MB, Solver, _check_limits, _check_table_mb, worker_solver
from .variant import VARIANTS, Contract

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: the roles of the summary; the partner (five players) counts only games that had one
ROLES = ("taker", "partner", "defence")

HalfBounds = Tuple[int, int]



@dataclass(frozen=True)
class AnalysisOptions:
    """The per-position budget and the solver's table size."""

    #: seconds per solved position (None: no limit; 0: no search, the positions keep their static bounds)
    time_limit: Optional[float] = None
    #: search nodes per solved position (None: no limit; 0: no search); deterministic, unlike time
    node_limit: Optional[int] = None
    table_mb: int = WORKER_TABLE_MB
    #: positions before this trick are not solved (their values keep trivial bounds)
    first_trick: int = 1

    def __post_init__(self) -> None:
        _check_limits(self.time_limit, self.node_limit)
        _check_table_mb(self.table_mb)
        first = integer("first_trick", self.first_trick, "a trick number")  # (numpy's integers too)
        if first < 1:
            raise ValueError(f"first_trick must be a trick number, 1 or more, not {self.first_trick!r}")
        object.__setattr__(self, "first_trick", first)  # (frozen)


@dataclass(frozen=True)
class Mistake:
    """A played card proven to lose points against double-dummy play.

    ``cost`` holds proven bounds in half-points (low > 0); ``best`` is a card
    keeping the value (None when the position before it was not solved exactly).
    """

    index: int  # position of the card in ``played``
    trick: int  # 1-based
    seat: int
    card: int
    best: Optional[int]
    cost: HalfBounds

    @property
    def exact(self) -> bool:
        return self.cost[0] == self.cost[1]

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "trick": self.trick,
            "seat": self.seat,
            "card": card_token(self.card),
            "best": None if self.best is None else card_token(self.best),
            "cost": points(self.cost[0]) if self.exact else None,
        }
        if not self.exact:
            out["cost_bounds"] = [points(self.cost[0]), points(self.cost[1])]
        return out


@dataclass(frozen=True)
class GameAnalysis:
    """The double-dummy analysis of one complete game.

    ``values[i]`` bounds (half-points) the value of the position before card ``i``;
    ``values[-1]`` (after the last card) is the final margin.  ``undecided`` counts the cards whose cost
    is neither proven zero nor proven positive.
    """

    id: Optional[str]
    taker: int
    contract: Contract
    values: List[HalfBounds]
    mistakes: List[Mistake]
    undecided: int
    result: ScoreResult
    scores: List[int]
    partner: Optional[int] = None  # the taker's called partner (five players)

    @property
    def complete(self) -> bool:
        """Every position's value is exact."""
        return all(lo == hi for lo, hi in self.values)

    @property
    def dd_made(self) -> Optional[bool]:
        """Whether double-dummy play makes the contract; None when not proven either way."""
        lo, hi = self.values[0]
        return True if lo >= 0 else (False if hi < 0 else None)

    def to_json(self, line: Optional[int] = None) -> Dict[str, Any]:
        """The output line of ``tarot-solve analyze`` (``line``: the game's line in the history)."""
        lo, hi = self.values[0]
        out: Dict[str, Any] = {"id": self.id}
        if line is not None:
            out["line"] = line
        out.update({
            "taker": self.taker,
            **({} if self.partner is None else {"partner": self.partner}),
            "contract": self.contract.value,
            "dd_margin": points(lo) if lo == hi else None,
            "dd_margin_bounds": [points(lo), points(hi)],
            "dd_made": self.dd_made,
            "actual_margin": points(self.values[-1][0]),
            "made": self.result.made,
            "scores": self.scores,
            "errors": [m.to_json() for m in self.mistakes],
            "complete": self.complete,
            "undecided": self.undecided,
        })
        return out


# Analysis ------------------------------------------------------------------------------

def _half_bounds(bounds: Tuple[float, float]) -> HalfBounds:
    return int(round(bounds[0] * 2)), int(round(bounds[1] * 2))


def narrow(before: HalfBounds, after: HalfBounds, taker: bool) -> Tuple[HalfBounds, HalfBounds]:
    """Narrow the proven bounds of two consecutive positions with the order between them.

    A player can do no better than his best card: when the taker's camp plays the
    card between them, ``before >= after``; when the defence does, ``before <= after``.
    """
    (lo0, hi0), (lo1, hi1) = before, after
    if taker:
        return (max(lo0, lo1), hi0), (lo1, min(hi1, hi0))
    return (lo0, min(hi0, hi1)), (max(lo1, lo0), hi1)


def settle(values: List[HalfBounds], taker_plays: List[bool], forced: List[bool]) -> None:
    """Narrow the bounds along a game until nothing changes: :func:`narrow` around
    each card, and around a forced card (the only legal one) both positions have
    the same value, so both get the intersection of their bounds."""
    changed = True
    while changed:
        changed = False
        for i in list(range(len(taker_plays))) + list(reversed(range(len(taker_plays)))):
            if forced[i]:
                both = (max(values[i][0], values[i + 1][0]), min(values[i][1], values[i + 1][1]))
                pair = (both, both)
            else:
                pair = narrow(values[i], values[i + 1], taker_plays[i])
            if pair != (values[i], values[i + 1]):
                values[i], values[i + 1] = pair
                changed = True


def card_cost(before: HalfBounds, after: HalfBounds, taker: bool) -> HalfBounds:
    """Proven bounds on what a card cost its camp, from the values around it (half-points)."""
    if taker:
        low, high = before[0] - after[1], before[1] - after[0]
    else:
        low, high = after[0] - before[1], after[1] - before[0]
    return max(low, 0), max(high, 0)


def analyze_game(record: DealRecord, options: AnalysisOptions = AnalysisOptions(),
                 solver: Optional[Solver] = None) -> GameAnalysis:
    """Analyse a complete game (see the module docstring); raises :class:`TarotError`
    if the record is not a complete, playable game."""
    for name, value, kind, wanted in (("record", record, DealRecord, "DealRecord"),
                                      ("options", options, AnalysisOptions, "AnalysisOptions"),
                                      ("solver", solver, (Solver, type(None)), "a Solver or None")):
        if not isinstance(value, kind):
            raise TypeError(f"{name} must be {wanted}, not {type(value).__name__}")
    final = record.final_state()
    taker, contract, _ = record.play_setup()
    result = record.score(final)
    played = list(record.played or ())
    positions: List[PlayState] = []
    state = record.opening_state()
    for card in played:
        positions.append(state.copy())
        state.play(card)
    taker_plays = [p.taker_to_play for p in positions]

    if solver is None:
        solver = worker_solver(options.table_mb)
    solver.clear()
    unknown = (-final.variant.target_half_points(0), TOTAL_HALF_POINTS - final.variant.target_half_points(3))
    values: List[HalfBounds] = [unknown] * len(played) + [(final.margin_hp(),) * 2]
    first = (options.first_trick - 1) * final.players
    best: Dict[int, Optional[int]] = {}
    forced = [count(p.legal()) == 1 for p in positions]
    for i in reversed(range(len(played))):
        position = positions[i]
        if forced[i]:
            values[i] = values[i + 1]
            continue
        if i < first:
            continue
        solved = solver.solve(position, time_limit=options.time_limit, node_limit=options.node_limit, pv=False)
        values[i], values[i + 1] = narrow(_half_bounds(solved.margin_bounds), values[i + 1], taker_plays[i])
        if solved.complete and card_cost(values[i], values[i + 1], taker_plays[i])[0] > 0:
            # an error: a best card from a second solve, cheap now that the table is hot
            line = solver.solve(position, time_limit=options.time_limit, node_limit=options.node_limit).pv
            if line:
                best[i] = line[0]
    settle(values, taker_plays, forced)

    mistakes: List[Mistake] = []
    undecided = 0
    for i, card in enumerate(played):
        cost = card_cost(values[i], values[i + 1], taker_plays[i])
        if cost[0] > 0:
            if i not in best and values[i][0] == values[i][1]:  # exact only once settled: probe for a card
                best[i] = _keeping_card(solver, positions[i], card, values[i][0], taker_plays[i], options)
            mistakes.append(Mistake(index=i, trick=i // final.players + 1, seat=positions[i].to_play,
                                    card=card, best=best.get(i), cost=cost))
        elif cost[1] > 0:
            undecided += 1
    return GameAnalysis(id=record.id, taker=taker, contract=contract, values=values, mistakes=mistakes,
                        undecided=undecided, result=result, scores=result.scores(taker, final.players, record.partner),
                        partner=record.partner)


def _keeping_card(solver: Solver, position: PlayState, played: int, value: int, taker: bool,
                  options: AnalysisOptions) -> Optional[int]:
    """A legal card other than ``played`` proven to keep ``value`` (half-points, exact) at
    ``position``, by a null-window probe per card under the per-position budget; None
    if none is proven.  For a position whose value only the order along the game made
    exact, where its own solve stopped before a best card was known."""
    for card in cards_of(position.legal() & ~(1 << played)):
        after = position.copy()
        after.play(card)
        if after.over:
            low = high = after.margin_hp()
        else:  # the taker keeps the value if it is at least it; a defender if it is at most it
            r = solver.at_least(after, points(value if taker else value + 1), time_limit=options.time_limit,
                                node_limit=options.node_limit)
            low, high = _half_bounds(r.margin_bounds)
        if (low >= value) if taker else (high <= value):
            return card
    return None


def analyze_task(item: Tuple[int, DealRecord, AnalysisOptions]) -> Dict[str, Any]:
    """One batch task, run on a worker: ``(line, record, options)`` to the output line."""
    line, record, options = item
    return analyze_game(record, options).to_json(line)


# Summaries -----------------------------------------------------------------------------


@dataclass
class _Tally:
    """Totals of one row of the summary (a role or a seat)."""

    games: int = 0
    taken: int = 0
    made: int = 0
    dd_made: int = 0
    errors: int = 0
    lost_hp: int = 0  # proven lower bounds
    unproven_costs: int = 0

    def to_json(self) -> Dict[str, Any]:
        return {
            "games": self.games, "taken": self.taken, "made": self.made, "dd_made": self.dd_made,
            "errors": self.errors, "errors_per_game": self._per_game(self.errors),
            "points_lost": points(self.lost_hp), "points_lost_per_game": self._per_game(self.lost_hp / 2),
            "unproven_costs": self.unproven_costs,
        }

    def _per_game(self, total: float) -> Optional[float]:
        return round(total / self.games, 3) if self.games else None


def _half(value: Union[int, float]) -> int:
    return int(round(value * 2))


def _checked_line(game: Mapping[str, Any]) -> Tuple[int, Optional[int]]:
    """The taker and partner of an output line, once the values the summary counts are
    checked to be of this command's making (an edited line met by ``--resume`` must
    be refused, not counted as some other seat or result): ValueError otherwise."""
    def seat(value: Any) -> int:
        if type(value) is not int or not 0 <= value < players:
            raise ValueError(f"not a seat of {players}: {value!r}")
        return value

    def number(value: Any) -> bool:
        return type(value) in (int, float) and value >= 0

    def keys(value: Any, *names: str) -> None:
        missing = [k for k in names if k not in value] if isinstance(value, Mapping) else names
        if missing:
            raise ValueError(f"not an output line of analyze: no key {missing[0]!r}")

    keys(game, "scores", "taker", "made", "complete", "dd_made", "undecided", "errors")
    scores = game["scores"]
    if not isinstance(scores, list) or len(scores) not in VARIANTS or any(type(x) is not int for x in scores):
        raise ValueError(f"not the scores of a table: {scores!r}")
    players = len(scores)
    taker = seat(game["taker"])
    partner = game.get("partner")
    if partner is not None and seat(partner) == taker:
        raise ValueError("the taker as his own partner")
    for key, fits in (("made", lambda v: isinstance(v, bool)), ("complete", lambda v: isinstance(v, bool)),
                      ("dd_made", lambda v: v is None or isinstance(v, bool)),
                      ("undecided", lambda v: type(v) is int and v >= 0), ("errors", lambda v: isinstance(v, list))):
        if not fits(game[key]):
            raise ValueError(f"{key} {spelled(game[key], quoted=True)}: not a value this command writes")
    for error in game["errors"]:
        keys(error, "seat", "cost")
        seat(error["seat"])
        cost = error["cost"]
        bounds = error.get("cost_bounds") if cost is None else [cost, cost]
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(map(number, bounds))):
            raise ValueError(f"not an error's cost: {cost!r}, bounds {bounds!r}")
    return taker, partner


@dataclass
class Summary:
    """Totals over analysed games (their output lines), by role and by seat.

    Kept incrementally with bounded memory: the error costs are counted by value
    (a multiple of 0.5), not listed.  A cost that is not proven exactly counts
    with its proven lower bound in the points lost, and not in the distribution.
    """

    games: int = 0
    made: int = 0
    dd_made: int = 0
    dd_failed: int = 0
    incomplete: int = 0
    undecided_cards: int = 0
    roles: Dict[str, _Tally] = field(default_factory=lambda: {r: _Tally() for r in ROLES})
    #: by seat, as many as the largest table seen (three to five players)
    seats: List[_Tally] = field(default_factory=list)
    #: per role: exact cost in half-points -> number of errors
    costs: Dict[str, "Counter[int]"] = field(default_factory=lambda: {r: Counter() for r in ROLES})

    def add(self, game: Mapping[str, Any]) -> None:
        """Count one game from its output line (:meth:`GameAnalysis.to_json`); ValueError if
        its values are not of this command's making."""
        taker, partner = _checked_line(game)
        self.games += 1
        self.made += bool(game["made"])
        self.dd_made += game["dd_made"] is True
        self.dd_failed += game["dd_made"] is False
        self.incomplete += not game["complete"]
        self.undecided_cards += game["undecided"]
        for role in ROLES:
            self.roles[role].games += role != "partner" or partner is not None
        players = len(game["scores"])
        self.seats += [_Tally() for _ in range(players - len(self.seats))]
        for tally in self.seats[:players]:
            tally.games += 1
        for tally in (self.roles["taker"], self.seats[taker]):
            tally.taken += 1
            tally.made += bool(game["made"])
            tally.dd_made += game["dd_made"] is True
        for error in game["errors"]:
            role = "taker" if error["seat"] == taker else "partner" if error["seat"] == partner else "defence"
            exact = error["cost"] is not None
            low = _half(error["cost"] if exact else error["cost_bounds"][0])
            for tally in (self.roles[role], self.seats[error["seat"]]):
                tally.errors += 1
                tally.lost_hp += low
                tally.unproven_costs += not exact
            if exact:
                self.costs[role][low] += 1

    def to_json(self) -> Dict[str, Any]:
        return {
            "games": self.games,
            "made": self.made,
            "dd_made": self.dd_made,
            "dd_failed": self.dd_failed,
            "dd_undecided": self.games - self.dd_made - self.dd_failed,
            "incomplete": self.incomplete,
            "undecided_cards": self.undecided_cards,
            "roles": {role: tally.to_json() for role, tally in self.roles.items() if self._shown(role)},
            "seats": [tally.to_json() for tally in self.seats],
        }

    def _shown(self, role: str) -> bool:
        """Whether a role has a row: the partner's only once a game had one."""
        return role != "partner" or self.roles[role].games > 0

    def render(self) -> str:
        """The summary as a text table."""
        head = ("", "games", "taken", "made", "dd made", "errors", "errors/game", "points lost", "lost/game")
        rows = [head]
        named = [(role, self.roles[role]) for role in ROLES if self._shown(role)]
        named += [(f"seat {s}", t) for s, t in enumerate(self.seats)]
        for name, tally in named:
            j = tally.to_json()
            taken = name not in ("partner", "defence")
            rows.append((name, str(j["games"]), str(j["taken"]) if taken else "-",
                         str(j["made"]) if taken else "-", str(j["dd_made"]) if taken else "-",
                         str(j["errors"]), _fixed(j["errors_per_game"]), str(j["points_lost"]),
                         _fixed(j["points_lost_per_game"])))
        widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
        lines = [f"{plural(self.games, 'game')}: contracts made {self.made}; under double-dummy play"
                 f" made {self.dd_made}, failed {self.dd_failed}"
                 + (f", undecided {self.games - self.dd_made - self.dd_failed}"
                    if self.dd_made + self.dd_failed < self.games else "")]
        lines += ["  ".join(cell.ljust(w) if c == 0 else cell.rjust(w) for c, (cell, w) in enumerate(zip(r, widths)))
                  for r in rows]
        unproven = sum(t.unproven_costs for t in self.roles.values())
        if self.incomplete:
            lines.append(f"{plural(self.incomplete, 'game')} not proven throughout (a search limit or --from-trick):"
                         f" {plural(self.undecided_cards, 'card')} undecided, {plural(unproven, 'error')} counted"
                         f" at {'its' if unproven == 1 else 'their'} proven lower bound")
        return "\n".join(lines)

    def figure(self) -> "Figure":
        """The distribution of exact error costs per role, one panel a role, as a
        matplotlib Figure (to show in a notebook, or save).  Drawn without pyplot, so
        the backend of the script or notebook that asks is left as it was."""
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator

        roles = [role for role in ROLES if self._shown(role)]
        fig = Figure(figsize=(7, 2.5 * len(roles)))
        axes = fig.subplots(len(roles), 1, sharex=True, squeeze=False)[:, 0]
        top = max([hp for c in self.costs.values() for hp in c] + [2]) / 2
        bins = [b / 2 for b in range(0, int(top * 2) + 3)]
        for ax, role in zip(axes, roles):
            costs = self.costs[role]
            ax.hist([hp / 2 for hp in costs], bins=bins, weights=list(costs.values()), color="C1" if
                    role == "defence" else "C0")
            tally = self.roles[role]
            unproven = (f" (at least; {plural(tally.unproven_costs, 'inexact cost')} not drawn)"
                        if tally.unproven_costs else "")
            ax.set_title(f"{role}: {plural(tally.errors, 'error')} in {plural(tally.games, 'game')},"
                         f" {plural(points(tally.lost_hp), 'point')} lost{unproven}", fontsize=10)
            ax.set_ylabel("errors")
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # (a count: no 0.5 error)
        axes[-1].set_xlabel("cost of the error (card points)")
        fig.tight_layout()
        return fig

    def plot(self, path: PathLike) -> None:
        """Save :meth:`figure` into an image file (its format by the file's suffix)."""
        self.figure().savefig(path)


def _fixed(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.2f}"


def game_key(game: Mapping[str, Any]) -> Union[str, int]:
    """What ``--resume`` recognises a game by: its id, or its line when it has none."""
    return game["id"] if game.get("id") is not None else int(game["line"])


#: what --resume says of an output line it cannot take for its own
FOREIGN_LINE = "not a line this command writes (with these options)"


def _foreign(e: BaseException) -> str:
    """The refusal of an output line that ``--resume`` cannot take, with why (cut short)."""
    if isinstance(e, json.JSONDecodeError):
        why = json_problem(e)
    else:
        why = f"no key {e}" if isinstance(e, KeyError) else str(e) or type(e).__name__
    return f"{FOREIGN_LINE}: {why if len(why) <= 100 else why[:97] + '...'}"


def _no_constant(name: str) -> Any:
    """NaN and Infinity, which JSON has not and this tool never writes: refused."""
    raise ValueError(f"{name}: not a JSON number")


def _whole_json(raw: bytes) -> bool:
    """Whether ``raw`` is one whole JSON document."""
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


def resume_output(path: PathLike, add: Callable[[Dict[str, Any]], None]) -> "Counter[Union[str, int]]":
    """The keys (:func:`game_key`) of the lines already in an output file, each with how
    many lines hold it (a history may repeat an id), for ``--resume``.

    Each line is passed to ``add`` (to summarise the whole file).  A last line
    without its newline is kept (the newline added) if it is whole, and removed if it
    was cut short (the writer was killed in it).  The keys are kept in memory: a few
    dozen bytes per line.
    """
    label = _file_label(path)
    keys: Counter[Union[str, int]] = Counter()

    def take(raw: bytes) -> None:
        """Count one line of the output (ValueError and the like if it is not one)."""
        game = json.loads(raw.rstrip(b"\r\n"), parse_constant=_no_constant)  # (its columns: of one line)
        if not isinstance(game, dict):
            raise ValueError(f"{json_type(game)}, not a JSON object")
        key = game_key(game)
        if not isinstance(key, (str, int)):  # (an id this tool never writes: a list...)
            raise TypeError(key)
        add(game)
        keys[key] += 1

    foreign = (ValueError, KeyError, TypeError, AttributeError, IndexError, OverflowError, RecursionError)
    whole = 0
    number = 0
    tail = b""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.endswith(b"\n"):
                tail = raw
                break
            whole += len(raw)
            if raw.strip():
                try:
                    take(raw)
                except foreign as e:
                    raise RecordError(_foreign(e), file=label, record=f"line {number}") from None
    if tail:
        try:
            take(tail)
        except foreign as e:
            # a line cut short is no JSON document, and starts as what this tool writes, however short the cut
            if _whole_json(tail) or not b'{"'.startswith(tail[:2]):
                raise RecordError(_foreign(e), file=label, record=f"line {number}") from None
            os.truncate(path, whole)
        else:
            with open(path, "ab") as end:
                end.write(b"\n")
    return keys
