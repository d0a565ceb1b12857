//! A Space Football bot in Rust, speaking the referee's JSON-lines protocol on stdin/stdout.
//!
//! Build and run it against a built-in bot:
//!
//! ```sh
//! cargo build --release --example space_bot
//! microfut space match --white target/release/examples/space_bot --black @greedy --seed 1
//! ```
//!
//! In your own crate, copy this file to `src/main.rs` and add `serde_json = "1"` to Cargo.toml.
//! You always play white, towards row n + 1: the referee turns the board round when you are
//! black. Each turn: read a line, answer `{"from":[r,c],"to":[r,c]}` (optionally with
//! `"action"`), flush. Debugging output goes to stderr, never stdout.
//!
//! Strategy (simple on purpose): score each legal action one step ahead and take the best —
//! score a goal, take the ball, attack, pass or carry forward, otherwise advance the robot
//! furthest behind.

use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::io::{BufRead, Write};

type Sq = (i64, i64);

#[derive(Clone, Copy)]
struct Rules {
    two_step_move: bool,
    attack: bool,
    carrier_attacks: bool,
    suicide_attack: bool,
    pass: bool,
}

struct Position {
    n: i64,
    mine: BTreeSet<Sq>,
    theirs: BTreeSet<Sq>,
    ball: Sq,
    /// Whether one of our robots holds the ball.
    we_hold: bool,
    loose: bool,
}

fn squares(v: &Value) -> BTreeSet<Sq> {
    v.as_array().into_iter().flatten().map(|p| (p[0].as_i64().unwrap_or(0), p[1].as_i64().unwrap_or(0))).collect()
}

/// Every legal (kind, from, to) for white.
fn legal(p: &Position, r: Rules) -> Vec<(&'static str, Sq, Sq)> {
    let on_field = |(row, col): Sq| (0..=p.n + 1).contains(&row) && (1..=p.n).contains(&col);
    let free = |s: Sq| on_field(s) && !p.mine.contains(&s) && !p.theirs.contains(&s);
    let mut out = Vec::new();
    for &(row, col) in &p.mine {
        let carrier = p.we_hold && (row, col) == p.ball;
        for dc in -1..=1 {
            let t = (row + 1, col + dc);
            if free(t) {
                out.push(("move", (row, col), t));
            } else if p.theirs.contains(&t) && dc != 0 && r.attack && (!carrier || r.carrier_attacks) {
                out.push(("attack", (row, col), t));
            } else if p.mine.contains(&t) && carrier && r.pass {
                out.push(("pass", (row, col), t));
            }
            if carrier {
                continue;
            }
            let u = (row + 2, col + dc);
            if free(u) && r.two_step_move {
                out.push(("move", (row, col), u));
            } else if p.theirs.contains(&u) && r.suicide_attack {
                out.push(("suicide", (row, col), u));
            }
        }
    }
    out
}

fn score(p: &Position, (kind, from, to): (&str, Sq, Sq)) -> i64 {
    let carrier = p.we_hold && from == p.ball;
    match kind {
        "move" if carrier && to.0 == p.n + 1 => 1000,
        "attack" if to == p.ball => 900,
        "move" if p.loose && to == p.ball => 800,
        "suicide" if to == p.ball => 700,
        "pass" => 600 + to.0,
        "attack" => 500,
        "move" if carrier => 400 + to.0,
        "move" if to.0 == p.n + 1 => -100,
        _ => 100 - from.0,
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let msg: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("space_bot: cannot read the turn line: {e}");
                std::process::exit(2);
            }
        };
        let b = &msg["board"];
        let a = &msg["actions"];
        let flag = |k: &str| a[k].as_bool().unwrap_or(false);
        let rules = Rules {
            two_step_move: flag("two_step_move"),
            attack: flag("attack"),
            carrier_attacks: flag("carrier_attacks"),
            suicide_attack: flag("suicide_attack"),
            pass: flag("pass"),
        };
        let ball = (b["ball"][0].as_i64().unwrap_or(0), b["ball"][1].as_i64().unwrap_or(0));
        let p = Position {
            n: b["n"].as_i64().unwrap_or(0),
            mine: squares(&b["white"]),
            theirs: squares(&b["black"]),
            ball,
            we_hold: b["holder"] == "white",
            loose: b["holder"].is_null(),
        };
        // The first of the best-scoring actions (the referee only asks when there is one).
        let Some(best) = legal(&p, rules).into_iter().max_by_key(|&act| (score(&p, act), std::cmp::Reverse(act)))
        else {
            eprintln!("space_bot: no legal action");
            std::process::exit(2);
        };
        let (kind, from, to) = best;
        let answer = json!({"action": kind, "from": [from.0, from.1], "to": [to.0, to.1]});
        if writeln!(stdout, "{answer}").and_then(|()| stdout.flush()).is_err() {
            break;
        }
    }
}
