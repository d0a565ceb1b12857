#!/usr/bin/env python3
"""A plain Python simulator of Trilha do Mandacaru: the speed baseline of BENCHMARKS.md and an
independent check of the Rust simulator.

It reads the same content (content/trilha/<version>/), applies each scenario's overlay as a JSON
merge patch (RFC 7386) and plays the games with Python's own random generator, so its numbers
agree with `microfut lab trilha` within the confidence intervals, not digit for digit. Only the
standard library; one process, one core.

    tools/trilha_baseline.py [--games N] [--seed S] [--version 1.0.0] [--scenario ID ...]
"""
import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def load(version):
    folder = ROOT / "content" / "trilha" / version
    docs = {p.name: json.loads(p.read_text()) for p in folder.glob("*.json")}
    by_schema = {d.get("$schema", "").rsplit("/", 1)[-1]: name for name, d in docs.items()}
    return docs, by_schema


def compile_rules(docs, by_schema):
    board = docs[by_schema["trilha_board.schema.json"]]
    play = docs[by_schema["trilha_play.schema.json"]]
    strategies = docs[by_schema["trilha_strategies.schema.json"]]["strategies"]
    first, finish = board["track"]["first"], board["track"]["finish"]
    effect = {}
    for s in board["specials"].values():
        for sq in s["squares"]:
            effect[sq] = (s["move"], s["chain"])
    sides = play["dice"]["sides"]

    def land(sq):
        seen = set()
        while sq in effect and sq not in seen:
            seen.add(sq)
            move, chain = effect[sq]
            sq += move
            if not chain:
                break
        return sq

    landing = {sq: land(sq) for sq in range(first, finish + sides)}
    seats = sorted(play["seats"].values(), key=lambda s: s["order"])
    return {
        "finish": finish,
        "landing": landing,
        "count": play["dice"]["count"],
        "sides": sides,
        "starts": [s["start"] for s in seats],
        "smart": [strategies[s["strategy"]]["kind"] == "farthest_after_effect" for s in seats],
        "complete_round": play["end"]["rule"] == "complete_the_round",
        "capped": play["end"]["beyond_finish"] == "capped",
        "ties": play["ties"],
    }


def play_game(r, rng):
    """Returns (win share per seat, rounds, shared)."""
    pos = list(r["starts"])
    n, finish, landing = len(pos), r["finish"], r["landing"]
    count, sides = r["count"], r["sides"]
    rounds = 0
    while True:
        rounds += 1
        reached = False
        for i in range(n):
            faces = [rng.randint(1, sides) for _ in range(count)]
            if r["smart"][i]:
                to = max(landing[pos[i] + f] for f in faces)
            else:
                to = landing[pos[i] + (faces[0] if count == 1 else rng.choice(faces))]
            pos[i] = to
            if to >= finish:
                if not r["complete_round"]:
                    shares = [0.0] * n
                    shares[i] = 1.0
                    return shares, rounds, False
                reached = True
        if reached:
            along = [min(p, finish) if r["capped"] else p for p in pos]
            best = max(along)
            tied = [i for i in range(n) if along[i] == best]
            if r["ties"] == "earlier_seat":
                tied = tied[:1]
            elif r["ties"] == "later_seat":
                tied = tied[-1:]
            shares = [1.0 / len(tied) if i in tied else 0.0 for i in range(n)]
            return shares, rounds, len(tied) > 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--version", default="1.0.0")
    ap.add_argument("--scenario", nargs="*")
    a = ap.parse_args()
    docs, by_schema = load(a.version)
    scenarios = docs[by_schema["scenarios.schema.json"]]["scenarios"]
    if a.scenario:
        scenarios = [s for s in scenarios if s["id"] in a.scenario]
    rng = random.Random(a.seed)
    started = time.perf_counter()
    print(f"| scenario | win share p1 | win share p2 | win share p3 | mean rounds | shared wins |")
    print("|---|--:|--:|--:|--:|--:|")
    for s in scenarios:
        patched = {name: merge_patch(doc, s["overlay"].get(name, {})) for name, doc in docs.items()}
        r = compile_rules(patched, by_schema)
        n = len(r["starts"])
        wins = [0.0] * n
        wins2 = [0.0] * n
        rounds = rounds2 = shared = 0
        for _ in range(a.games):
            shares, k, tie = play_game(r, rng)
            for i in range(n):
                wins[i] += shares[i]
                wins2[i] += shares[i] * shares[i]
            rounds += k
            rounds2 += k * k
            shared += tie
        g = a.games

        def ci(s1, s2):
            m = s1 / g
            var = max(s2 / g - m * m, 0.0) * g / max(g - 1, 1)
            return m, 1.959964 * math.sqrt(var / g)

        cells = []
        for i in range(n):
            m, h = ci(wins[i], wins2[i])
            cells.append(f"{100 * m:.2f} ± {100 * h:.2f} %")
        m, h = ci(rounds, rounds2)
        cells.append(f"{m:.3f} ± {h:.3f}")
        cells.append(f"{100 * shared / g:.2f} %")
        print(f"| {s['id']} | " + " | ".join(cells) + " |")
    print(f"{len(scenarios) * a.games} games in {time.perf_counter() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
