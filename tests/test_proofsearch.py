"""Proof-number search near the root (tarot_solver.proofsearch) and the probes
that hand over to it (Solver._probe): the same verdicts as the reference
minimax and the depth-first search, the core left where it was."""

from __future__ import annotations

import random
from typing import Any, List, Optional, Tuple

from reference import minimax
from test_solver import random_position
from tarot_solver import solver as solver_module
from tarot_solver._core import Core
from tarot_solver.proofsearch import ProofSearch
from tarot_solver.rules import PlayState
from tarot_solver.solver import Solver, position_args


def loaded(st: PlayState, core: Core) -> Tuple[Any, ...]:
    core.set_position(*position_args(st), deal_tricks=st.variant.tricks)
    return where(core)


def budget(core: Core, node_limit: Optional[int] = None) -> Any:
    """Until ``node_limit`` nodes of ``core`` (None: no limit)."""
    return solver_module._Budget(core, None, node_limit)


def where(core: Core) -> Tuple[Any, ...]:
    return core.ntrick, core.tricks_left, core.to_play, core.legal_moves(), core.bounds()


def test_verdicts_agree_with_the_reference_minimax() -> None:
    # leaf probes of a few nodes leave most leaves unsettled: the tree grows
    # through tricks and reaches the ends of the deal
    rng = random.Random(23)
    core = Core(16 << 20)
    expanded = 0
    for _ in range(150):
        st = random_position(rng, rng.choice((1, 2, 3)))
        value = minimax(st)
        for beta in (value - 2, value, value + 1, value + 2):
            core.clear_table()
            before = loaded(st, core)
            tree = ProofSearch(core, st.camps, beta, leaf_nodes=2)  # (2 nodes a leaf: most stay open)
            assert tree.run(budget(core)) == (value >= beta)
            assert where(core) == before
            expanded += tree.size > 1
    assert expanded > 300


def test_verdicts_agree_with_the_depth_first_search() -> None:
    rng = random.Random(5)
    core = Core(16 << 20)
    exact = Solver(16)
    grown: List[int] = []
    for _ in range(12):
        st = random_position(rng, rng.choice((6, 7, 8)))
        value = round(2 * exact.solve(st, pv=False).margin)
        for beta in (value, value + 1):
            before = loaded(st, core)
            tree = ProofSearch(core, st.camps, beta, leaf_nodes=300)
            assert tree.run(budget(core)) == (value >= beta)
            assert where(core) == before
            grown.append(tree.size)
    assert max(grown) > 50


def test_limits_stop_the_tree_and_it_goes_on() -> None:
    rng = random.Random(8)
    exact = Solver(16)
    core = Core(16 << 20)
    while True:  # a position whose probe at its value needs a real search
        st = random_position(rng, 11)
        value = round(2 * exact.solve(st, pv=False).margin)
        loaded(st, core)
        core.clear_table()
        n0 = core.nodes
        core.probe(value - 1, value)
        if core.nodes - n0 > 20_000:
            break
    core.clear_table()
    before = loaded(st, core)
    tree = ProofSearch(core, st.camps, value, leaf_nodes=100)
    runs = 0
    settled = None
    while settled is None:
        limit = core.nodes + 500
        settled = tree.run(budget(core, limit))
        runs += 1
        assert core.nodes <= limit
        assert where(core) == before
    assert settled is True and runs > 1
    # a full tree stops growing
    small = ProofSearch(core, st.camps, value + 1, leaf_nodes=1, max_tree=20)
    assert small.run(budget(core)) is None and small.full
    core.clear_table()  # a limit of one node: the root alone, never expanded
    root = ProofSearch(core, st.camps, value + 1, leaf_nodes=1, max_tree=1)
    assert root.run(budget(core)) is None and root.full and root.size == 1
    # a run's leaf budget replaces the tree's: one probe at the root settles it
    core.clear_table()
    deep = ProofSearch(core, st.camps, value, leaf_nodes=1)
    assert deep.run(budget(core), leaf_nodes=10 ** 8) is True and deep.size == 1


class _Interrupting:
    """A core that raises KeyboardInterrupt at its n-th probe (as Ctrl-C does)."""

    def __init__(self, core: Core, n: int) -> None:
        self._core = core
        self._left = n

    def probe(self, *args: Any) -> Any:
        self._left -= 1
        if self._left == 0:
            raise KeyboardInterrupt
        return self._core.probe(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)


class _InterruptedAfterPlay(_Interrupting):
    """A core that raises KeyboardInterrupt just after its n-th card played: a Ctrl-C
    between the core's move and the tree's note of it."""

    def probe(self, *args: Any) -> Any:
        return self._core.probe(*args)

    def play(self, move: int) -> None:
        self._core.play(move)
        self._left -= 1
        if self._left == 0:
            raise KeyboardInterrupt


def test_an_interrupted_tree_leaves_the_core_where_it_was() -> None:
    rng = random.Random(4)
    core = Core(16 << 20)
    exact = Solver(16)
    interrupted = 0
    for n in (1, 2, 5, 17, 60, 200):
        st = random_position(rng, 9)
        value = round(2 * exact.solve(st, pv=False).margin)  # the hardest question
        before = loaded(st, core)
        for stopped in (_Interrupting(core, n), _InterruptedAfterPlay(core, n)):
            tree = ProofSearch(stopped, st.camps, value, leaf_nodes=5)  # type: ignore[arg-type]
            try:
                tree.run(budget(core))
            except KeyboardInterrupt:
                interrupted += 1
            assert where(core) == before
    assert interrupted >= 8


def test_probes_handing_over_to_the_tree_keep_exact_values(monkeypatch: Any) -> None:
    # with depth-first shares from a hundred nodes, the questions at the
    # value (the hardest) hand over to trees that grow in turn with them:
    # the answers and exact margins must not change
    rng = random.Random(17)
    states = [random_position(rng, rng.choice((10, 11))) for _ in range(12)]
    plain = Solver(16)
    values = [plain.solve(st, pv=False) for st in states]
    settled: List[bool] = []
    run = ProofSearch.run

    def recording(self: ProofSearch, *args: Any) -> Any:
        verdict = run(self, *args)
        if verdict is not None:
            settled.append(verdict)
        return verdict

    monkeypatch.setattr(ProofSearch, "run", recording)
    monkeypatch.setattr(solver_module, "_PLAIN_SHARE", 100)
    monkeypatch.setattr(solver_module, "_SHARE_GROWTH", 2)
    # the tree's turns twice the depth-first search's, so that it settles some
    monkeypatch.setattr(solver_module, "_TREE_RATIO", 2.0)
    monkeypatch.setattr(solver_module, "LEAF_NODES", 20)
    handed = Solver(16)
    for st, ref in zip(states, values):
        assert ref.margin is not None
        handed.clear()
        assert handed.made(st).made == ref.made
        handed.clear()
        assert handed.at_least(st, ref.margin).margin_bounds[0] >= ref.margin
        handed.clear()
        assert handed.at_least(st, ref.margin + 0.5).margin_bounds[1] < ref.margin + 0.5
        handed.clear()
        r = handed.solve(st)
        assert r.complete and r.margin == ref.margin
        assert r.pv and r.taker_points is not None
    assert len(settled) > 5 and True in settled and False in settled
