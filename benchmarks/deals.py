"""The fixed, seeded set of realistic benchmark deals.

Realistic means what a table would play: the seat with the best classic hand
count takes, at the contract the count suggests, with the simple discard policy
(``tarot_solver.handcount``).  Such deals sit near the target and are the hard
ones; random deals with a random taker are mostly lopsided and easy.

``python benchmarks/deals.py`` rewrites ``benchmarks/deals.jsonl`` (deterministic
from the seed); the benchmarks read that file.

Three- and five-player deals (``players=3`` or ``5``) are drawn the same way; the
classic count, made for hands of 18, is read on a hand of 24 or 15 scaled to 18
cards, so that its thresholds keep their meaning (an approximation: those games have
no count of their own in this project).  At five players the taker calls by the
simple policy (``tarot_solver.handcount.simple_call``).
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Dict, Iterator, List

from tarot_solver.cards import TRUMP_BASE, mask_of, sorted_tokens, tokens
from tarot_solver.handcount import contract_for, hand_count, simple_call, simple_discard
from tarot_solver.rules import is_petit_sec
from tarot_solver.variant import Contract, variant_for

HERE = Path(__file__).resolve().parent
DEALS_FILE = HERE / "deals.jsonl"
SEED = 20261130
QUOTAS = {Contract.PRISE: 20, Contract.GARDE: 18, Contract.GARDE_SANS: 8, Contract.GARDE_CONTRE: 6}


def realistic_deals(seed: int = SEED, players: int = 4) -> Iterator[Dict]:
    """Endless realistic deal records (docs/formats.md dicts) from a seed."""
    rng = random.Random(seed)
    variant = variant_for(players)
    size = variant.hand_size
    n = 0
    while True:
        deck = list(range(78))
        rng.shuffle(deck)
        hands = [deck[size * i: size * i + size] for i in range(players)]
        dog = deck[size * players:]
        masks = [mask_of(h) for h in hands]
        if any(is_petit_sec(m) for m in masks):
            continue
        counts = [hand_count(m) * 18 // size for m in masks]
        taker = counts.index(max(counts))
        contract = contract_for(counts[taker])
        if contract is None:
            continue
        dealer = rng.randrange(players)
        n += 1
        rec = {
            "id": f"bench-{n:03d}",
            "hands": [sorted_tokens(h) for h in hands],
            "dog": sorted_tokens(dog),
            "dealer": dealer,
            "taker": taker,
            "contract": contract.value,
        }
        if players != 4:
            rec["players"] = players
        if variant.partner_share:
            rec["called"] = tokens([simple_call(masks[taker])])[0]
        if contract.taker_takes_dog:
            rec["discard"] = tokens(simple_discard(masks[taker] | mask_of(dog), variant))
        yield rec


def build(seed: int = SEED, players: int = 4) -> List[Dict]:
    """The benchmark set: the first deals of each contract up to its quota; at three and
    five players, the first 52 deals whatever their contract (the scaled count's mix of
    contracts is not the four-player game's)."""
    if players != 4:
        return list(itertools.islice(realistic_deals(seed, players), sum(QUOTAS.values())))
    left = dict(QUOTAS)
    out = []
    for rec in realistic_deals(seed, players):
        c = Contract(rec["contract"])
        if left[c] > 0:
            left[c] -= 1
            out.append(rec)
        if not any(left.values()):
            return out
    raise AssertionError("unreachable")


def strong_deals(top: int, count: int, seed: int = SEED) -> List[Dict]:
    """Gardes sans of a taker holding the ``top`` highest trumps, the rest of the
    deal at random: the hands a player bids without a second thought, which a
    solver must answer fast though their margins are far from the target (the
    defence's discards on his run of trumps are where the search goes)."""
    rng = random.Random(seed * 100 + top)
    high = set(range(TRUMP_BASE + 21 - top, TRUMP_BASE + 21))
    out: List[Dict] = []
    while len(out) < count:
        rest = [c for c in range(78) if c not in high]
        rng.shuffle(rest)
        others = rest[18 - top:]
        hands = [sorted(high) + rest[:18 - top]] + [others[18 * i: 18 * i + 18] for i in range(3)]
        dog = others[54:]
        if any(is_petit_sec(mask_of(h)) for h in hands):
            continue
        shift = rng.randrange(4)  # the taker's seat
        hands = hands[-shift:] + hands[:-shift] if shift else hands
        out.append({
            "id": f"strong{top}-{len(out) + 1:03d}",
            "hands": [sorted_tokens(h) for h in hands],
            "dog": sorted_tokens(dog),
            "dealer": rng.randrange(4),
            "taker": shift,
            "contract": Contract.GARDE_SANS.value,
        })
    return out


def load() -> List[Dict]:
    with open(DEALS_FILE) as f:
        return [json.loads(line) for line in f if line.strip()]


if __name__ == "__main__":
    deals = build()
    with open(DEALS_FILE, "w") as f:
        for rec in deals:
            f.write(json.dumps(rec) + "\n")
    print(f"wrote {len(deals)} deals to {DEALS_FILE}")
