"""Perft, as chess engines check their move generators: every line of play a few cards
deep, walked by the rules module and by the compiled core side by side.

At every node both must give the same legal cards, the same player on turn and tricks
left, the same taker's points at each trick start and the same final margin where the
game ends.  The leaf counts of the example files are pinned, so a change to what is
legal shows here even where both engines change alike.
"""

from __future__ import annotations

import random
from typing import List

import pytest

from conftest import EXAMPLES
from tarot_solver import _core, cards
from tarot_solver.records import read_record
from tarot_solver.rules import PlayState
from tarot_solver.solver import position_args
from tarot_solver.variant import FIVE_PLAYERS, FOUR_PLAYERS, THREE_PLAYERS
from test_solver import random_position


def perft(core: _core.Core, state: PlayState, depth: int) -> int:
    """Leaves of the tree of every line ``depth`` cards deep (a game over is a leaf),
    checking the core against the rules at every node."""
    legal = cards.cards_of(state.legal())
    assert sorted(core.legal_moves()) == legal
    assert core.to_play == state.to_play
    assert core.tricks_left == state.total_tricks - state.tricks_done
    if core.ntrick == 0:
        assert core.taker_hp == state.taker_hp
    if state.over:
        assert core.value_if_over() == state.margin_hp()
        return 1
    assert core.value_if_over() is None
    if depth == 0:
        return 1
    leaves = 0
    for card in legal:
        after = state.copy()
        after.play(card)
        core.play(card)
        leaves += perft(core, after, depth - 1)
        core.undo()
    return leaves


def loaded(state: PlayState) -> _core.Core:
    core = _core.Core(1 << 20)
    core.set_position(*position_args(state), deal_tricks=state.variant.tricks)
    return core


@pytest.mark.parametrize("name, counts", [
    # a whole deal from its first lead, and positions in the middle of one (a trick in progress in some)
    ("deal", [18, 48, 276, 1256, 21352]),
    ("game", [18, 78, 576, 1801, 30617]),
    ("midgame", [1, 1, 8, 36, 96]),
    ("play", [7, 14, 28, 308, 720]),
    ("three", [24, 124, 676, 15548, 81414]),
    ("three-midgame", [10, 35, 76, 684, 1675]),
    ("five", [15, 37, 161, 506, 1302]),
    ("five-midgame", [8, 22, 24, 45, 132]),
])
def test_perft_of_the_examples(name: str, counts: List[int]) -> None:
    record = read_record(EXAMPLES / f"{name}.json")
    state = record.opening_state() if record.is_complete else record.position()
    core = loaded(state)
    assert [perft(core, state, depth) for depth in range(1, len(counts) + 1)] == counts


def test_core_and_rules_agree_along_every_line_to_the_end() -> None:
    # random positions one to three tricks from the end (some cards of the trick played),
    # every contract, the Excuse anywhere: each line is walked to the end of the game,
    # where the margins must agree too
    rng = random.Random(2026)
    leaves = 0
    for variant in (FOUR_PLAYERS, THREE_PLAYERS, FIVE_PLAYERS):
        for _ in range(60):
            state = random_position(rng, rng.choice((1, 2, 3)), variant)
            leaves += perft(loaded(state), state, 3 * variant.players)
    assert leaves > 10_000
