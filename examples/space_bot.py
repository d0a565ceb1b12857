#!/usr/bin/env python3
"""A Space Football bot in plain Python (standard library only).

The referee sends one JSON line per turn and reads one JSON line back:

    in:  {"protocol":"space-football/1","turn":1,"time_ms":1000,"colour":"white",
          "board":{"n":5,"white":[[1,2],[2,4]],"black":[[4,1],[5,3]],"ball":[2,4],"holder":"white"},
          "actions":{"two_step_move":true,"attack":true,"carrier_attacks":true,
                     "suicide_attack":true,"pass":true}}
    out: {"from":[2,4],"to":[3,4]}

You always play white, towards row n+1 (the referee turns the board round when you are black).
Run it:  microfut space match --white "python3 examples/space_bot.py" --black @greedy --seed 1

Strategy (simple on purpose): score every legal action one step ahead and take the best —
score a goal, take the ball, attack, pass or carry forward, and otherwise advance the robot
furthest behind.  Write debugging output to stderr, never to stdout.
"""
import json
import random
import sys


def legal_actions(n, mine, theirs, ball, holder, rules):
    """Every legal (kind, from, to) for white, whose robots move towards row n + 1."""
    def on_field(r, c):
        return 0 <= r <= n + 1 and 1 <= c <= n

    def free(r, c):
        return on_field(r, c) and (r, c) not in mine and (r, c) not in theirs

    out = []
    for (r, c) in sorted(mine):
        carrier = holder == "white" and (r, c) == ball
        for dc in (-1, 0, 1):
            t = (r + 1, c + dc)
            if free(*t):
                out.append(("move", (r, c), t))
            elif t in theirs and dc != 0 and rules["attack"] and (not carrier or rules["carrier_attacks"]):
                out.append(("attack", (r, c), t))
            elif t in mine and carrier and rules["pass"]:
                out.append(("pass", (r, c), t))
            if carrier:
                continue
            u = (r + 2, c + dc)
            if free(*u) and rules["two_step_move"]:
                out.append(("move", (r, c), u))
            elif u in theirs and rules["suicide_attack"]:
                out.append(("suicide", (r, c), u))
    return out


def score(action, n, ball, holder):
    kind, (fr, fc), (tr, tc) = action
    carrier = holder == "white" and (fr, fc) == ball
    if kind == "move" and carrier and tr == n + 1:
        return 1000                      # a goal
    if kind in ("attack", "suicide") and (tr, tc) == ball:
        return 900 if kind == "attack" else 700   # take the ball, or at least free it
    if kind == "move" and holder is None and (tr, tc) == ball:
        return 800                       # pick up the loose ball
    if kind == "pass":
        return 600 + tr
    if kind == "attack":
        return 500
    if kind == "move" and carrier:
        return 400 + tr
    if kind == "move" and tr == n + 1:
        return -100                      # a robot without the ball entering the goal is destroyed
    return 100 - fr                      # advance the robot furthest behind


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        b = msg["board"]
        n = b["n"]
        mine = {tuple(p) for p in b["white"]}
        theirs = {tuple(p) for p in b["black"]}
        ball = tuple(b["ball"])
        actions = legal_actions(n, mine, theirs, ball, b["holder"], msg["actions"])
        best = max(score(a, n, ball, b["holder"]) for a in actions)
        kind, frm, to = rng.choice([a for a in actions if score(a, n, ball, b["holder"]) == best])
        print(json.dumps({"action": kind, "from": list(frm), "to": list(to)}), flush=True)


if __name__ == "__main__":
    main()
