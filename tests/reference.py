"""A small, obviously correct double-dummy minimax over ``tarot_solver.rules``.

No pruning, no merging, no table: every legal card of every player is tried and
the value is the taker's final half-points minus twice his target
(``PlayState.margin_hp``).  Only a memo on the complete position (which cannot
change a minimax value) keeps four-trick endgames affordable.
"""

from __future__ import annotations

from typing import Dict, Tuple

from tarot_solver.cards import cards_of
from tarot_solver.rules import PlayState


def _key(s: PlayState) -> Tuple:
    return (
        tuple(s.hands), s.leader, tuple(s.trick), s.taker_hp,
        tuple(sorted(s.oudler_camp.items())), s.won_all(False), s.won_all(True), s.tricks_done,
    )


def minimax(state: PlayState, memo: Dict | None = None) -> int:
    """Exact value (half-points) of ``state`` under double-dummy play."""
    if memo is None:
        memo = {}
    if state.over:
        return state.margin_hp()
    k = _key(state)
    hit = memo.get(k)
    if hit is not None:
        return hit
    maximizing = state.camps[state.to_play]
    values = []
    for card in cards_of(state.legal()):
        child = state.copy()
        child.play(card)
        values.append(minimax(child, memo))
    v = max(values) if maximizing else min(values)
    memo[k] = v
    return v
