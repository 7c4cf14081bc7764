"""The fixed, seeded set of realistic benchmark deals.

Realistic means what a table would play: the seat with the best classic hand
count takes, at the contract the count suggests, with the simple discard policy
(``tarot_solver.handcount``).  Such deals sit near the target and are the hard
ones; random deals with a random taker are mostly lopsided and easy.

``python benchmarks/deals.py`` rewrites ``benchmarks/deals.jsonl`` (deterministic
from the seed); the benchmarks read that file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Dict, Iterator, List

from tarot_solver.cards import mask_of, sorted_tokens, tokens
from tarot_solver.handcount import contract_for, hand_count, simple_discard
from tarot_solver.rules import is_petit_sec
from tarot_solver.variant import Contract

HERE = Path(__file__).resolve().parent
DEALS_FILE = HERE / "deals.jsonl"
SEED = 20261130
QUOTAS = {Contract.PRISE: 20, Contract.GARDE: 18, Contract.GARDE_SANS: 8, Contract.GARDE_CONTRE: 6}


def realistic_deals(seed: int = SEED) -> Iterator[Dict]:
    """Endless realistic deal records (FORMATS.md dicts) from a seed."""
    rng = random.Random(seed)
    n = 0
    while True:
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [deck[18 * i: 18 * i + 18] for i in range(4)]
        dog = deck[72:]
        masks = [mask_of(h) for h in hands]
        if any(is_petit_sec(m) for m in masks):
            continue
        counts = [hand_count(m) for m in masks]
        taker = counts.index(max(counts))
        contract = contract_for(counts[taker])
        if contract is None:
            continue
        dealer = rng.randrange(4)
        n += 1
        rec = {
            "id": f"bench-{n:03d}",
            "hands": [sorted_tokens(h) for h in hands],
            "dog": sorted_tokens(dog),
            "dealer": dealer,
            "taker": taker,
            "contract": contract.value,
        }
        if contract.taker_takes_dog:
            rec["discard"] = tokens(simple_discard(masks[taker] | mask_of(dog)))
        yield rec


def build(seed: int = SEED) -> List[Dict]:
    """The benchmark set: the first deals of each contract up to its quota."""
    left = dict(QUOTAS)
    out = []
    for rec in realistic_deals(seed):
        c = Contract(rec["contract"])
        if left[c] > 0:
            left[c] -= 1
            out.append(rec)
        if not any(left.values()):
            return out
    raise AssertionError("unreachable")


def load() -> List[Dict]:
    with open(DEALS_FILE) as f:
        return [json.loads(line) for line in f if line.strip()]


if __name__ == "__main__":
    deals = build()
    with open(DEALS_FILE, "w") as f:
        for rec in deals:
            f.write(json.dumps(rec) + "\n")
    print(f"wrote {len(deals)} deals to {DEALS_FILE}")
