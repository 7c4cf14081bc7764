"""Proof-number search near the root, for the null-window questions that the
depth-first search does not settle within its share of a budget.

The core's alpha-beta is depth-first: near the start of a deal the card it
tries first fixes which proof it searches, and the proofs behind different
cards that all cut can differ by orders of magnitude (docs/solver.md).
Proof-number search (Allis, 1994) grows a tree of the first plies best-first
instead: each node counts the leaves still to prove (``pn``) or to disprove
(``dn``) to settle the question there, and the leaf expanded next is the one
that settles the root most cheaply.  Its leaves are settled by null-window
probes of the core under a small node budget (PN², Breuker, 1999), so the
tree stays small, and the core's table keeps what every probe proved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Sequence

from . import _core

if TYPE_CHECKING:
    from .solver import _Budget

_INF = 1 << 62
# Nodes of the core per leaf probe, unless a run says otherwise (the solver gives
# a tenth of its depth-first share, at least this); 20,000 and 200,000 answered
# the same two of the 19 unanswered benchmark deals within 60 M nodes
# (docs/solver-journal.md, session 23).
LEAF_NODES = 20_000
# Tree nodes created before the tree stops growing (at most about 150 bytes each,
# less as settled subtrees are dropped): a bound on its memory in long runs.
MAX_TREE = 500_000


class _Node:
    __slots__ = ("move", "maximizing", "pn", "dn", "children", "partial")

    def __init__(self, move: int, maximizing: bool) -> None:
        self.move = move
        self.maximizing = maximizing  # the taker's camp is to play
        self.pn = 1
        self.dn = 1
        # None: a leaf; empty: settled, its subtree dropped
        self.children: Optional[List[_Node]] = None
        self.partial: List[_Node] = []  # children of an expansion a limit stopped


def _proof(node: _Node) -> int:
    return node.pn


def _disproof(node: _Node) -> int:
    return node.dn


def _backup(node: _Node) -> None:
    """Recompute a node's numbers from its children's."""
    ch = node.children
    if not ch:
        return
    if node.maximizing:
        node.pn = min(c.pn for c in ch)
        node.dn = min(_INF, sum(c.dn for c in ch))
    else:
        node.pn = min(_INF, sum(c.pn for c in ch))
        node.dn = min(c.dn for c in ch)
    if node.pn == 0 or node.dn == 0:
        node.children = []


class ProofSearch:
    """A proof tree for "the value is at least ``beta``" (half-points) from the
    core's current position; :meth:`run` grows it, and may be called again
    with a larger budget to go on where it stopped."""

    def __init__(self, core: _core.Core, camps: Sequence[bool], beta: int,
                 leaf_nodes: Optional[int] = None, max_tree: Optional[int] = None) -> None:
        self._core = core
        self._camps = camps
        self._beta = beta
        self._leaf_nodes = leaf_nodes or LEAF_NODES
        self._max_tree = max_tree or MAX_TREE
        self._root: Optional[_Node] = None
        self.size = 0

    @property
    def full(self) -> bool:
        """The tree has reached its size limit and will not grow."""
        return self.size >= self._max_tree

    def run(self, budget: "_Budget", leaf_nodes: Optional[int] = None) -> Optional[bool]:
        """Grow the tree until the question is settled (True: at least
        ``beta``), ``budget`` is spent or the tree is full; None unless
        settled.  ``leaf_nodes``, when given, is this run's budget for each
        leaf's probe instead of the tree's.  The core is back at its position
        on return, also on KeyboardInterrupt."""
        leaf = self._leaf_nodes if leaf_nodes is None else leaf_nodes
        if self._root is None:
            root = self._node(-1)
            if not self._evaluate(root, budget, leaf):
                return None
            self._root = root
        root = self._root
        core = self._core
        home = self._depth()
        while root.pn and root.dn and not self.full:
            path = [root]
            node = root
            try:
                children = node.children
                while children is not None:
                    # the most proving leaf: the cheapest proof where one
                    # child suffices, the cheapest disproof where all must hold
                    node = min(children, key=_proof if node.maximizing else _disproof)
                    children = node.children
                    core.play(node.move)
                    path.append(node)
                if not self._expand(node, budget, leaf):
                    return None
            finally:
                while self._depth() > home:  # by the core's count: Ctrl-C may fall anywhere
                    core.undo()
            for node in reversed(path):
                _backup(node)
        if root.pn and root.dn:
            return None
        return root.pn == 0

    def _depth(self) -> int:
        """Cards played, counted from an arbitrary origin."""
        core = self._core
        return core.ntrick - core.tricks_left * len(self._camps)

    def _node(self, move: int) -> _Node:
        core = self._core
        self.size += 1
        return _Node(move, core.value_if_over() is None and bool(self._camps[core.to_play]))

    def _expand(self, node: _Node, budget: "_Budget", leaf_nodes: int) -> bool:
        """Give a leaf its children, each settled or numbered by a short probe;
        False when a limit stopped it (the leaf keeps the children so far
        aside, and the next expansion goes on from them)."""
        core = self._core
        children = node.partial
        done = {c.move for c in children}
        for move in core.candidates():
            if move in done:
                continue
            core.play(move)
            try:
                child = self._node(move)
                ok = self._evaluate(child, budget, leaf_nodes)
            finally:
                core.undo()
            if not ok:
                return False
            children.append(child)
            if (child.pn if node.maximizing else child.dn) == 0:
                break  # this child settles the node
        node.children = children
        node.partial = []
        return True

    def _evaluate(self, node: _Node, budget: "_Budget", leaf_nodes: int) -> bool:
        """Settle the position at ``node`` by a probe of at most
        ``leaf_nodes``, or number it by its moves (one leaf each: all must be
        refuted for the side to play to lose); False when ``budget`` ran out
        first."""
        core = self._core
        v = core.value_if_over()
        if v is None:
            v, ok = budget.probe(core, self._beta, core.nodes + leaf_nodes)
            if not ok:
                if budget.spent(core):
                    return False
                k = len(core.candidates())
                node.pn, node.dn = (1, k) if node.maximizing else (k, 1)
                return True
        node.pn, node.dn = (0, _INF) if v >= self._beta else (_INF, 0)
        return True
