//! Space Football in the lab: one simulation is one board drawn from its dice and two matches on
//! it between two built-in bots, each playing both colours, in this process with the search on
//! its node budget (so the same command gives the same numbers on any machine). It measures the
//! bots (points, wins) and the rules (white's advantage, how matches end, how long they last).

use super::board::{Board, Side};
use super::bots::{BotKind, Builtin, Thinking};
use super::compile::{Rules, compile};
use super::moves::Victory;
use super::referee::{self, Player};
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::dice::Dice;
use microfut_core::lab::{Format, Kind, Metric, Part, Simulator, Unit};
use std::time::Duration;

/// Two built-in bots, A and B.
pub struct SpaceSimulator {
    pub bots: [BotKind; 2],
}

fn labels(pt: &str, en: &str) -> Labels {
    Labels { pt_br: pt.into(), en: en.into() }
}

fn part(id: &str, pt: &str, en: &str) -> Part {
    Part { id: id.into(), label: labels(pt, en) }
}

impl SpaceSimulator {
    fn bot_parts(&self) -> [Part; 2] {
        let [a, b] = self.bots.map(BotKind::name);
        if a == b {
            [part("a", &format!("{a} 1"), &format!("{a} 1")), part("b", &format!("{b} 2"), &format!("{b} 2"))]
        } else {
            [part("a", a, a), part("b", b, b)]
        }
    }
}

impl Simulator for SpaceSimulator {
    type Rules = Rules;

    fn ruleset(&self) -> &'static str {
        "space"
    }

    fn unit(&self) -> Unit {
        Unit { id: "boards".into(), label: labels("tabuleiros", "boards") }
    }

    fn compile(&self, revision: &Revision) -> Result<Rules, Vec<Diagnostic>> {
        compile(revision)
    }

    fn setup(&self) -> Option<String> {
        let [a, b] = self.bots.map(BotKind::name);
        Some(format!("bots {a} v {b}, each with both colours on every board"))
    }

    fn metrics(&self, _: &Rules) -> Vec<Metric> {
        let [a, b] = self.bot_parts();
        let m = |id: &str, pt: &str, en: &str, scale, format, parts| Metric {
            id: id.into(),
            label: labels(pt, en),
            kind: Kind::Mean,
            scale,
            format,
            parts,
        };
        vec![
            m(
                "points_per_match",
                "pontos por partida",
                "points per match",
                2,
                Format::Number,
                vec![a.clone(), b.clone()],
            ),
            m(
                "result",
                "resultado",
                "result",
                2,
                Format::Percent,
                vec![
                    part("a_wins", &format!("vence {}", a.label.pt_br), &format!("{} wins", a.label.en)),
                    part("b_wins", &format!("vence {}", b.label.pt_br), &format!("{} wins", b.label.en)),
                    part("draw", "empate", "draw"),
                ],
            ),
            m("white_wins", "vitórias das brancas", "white wins", 2, Format::Percent, vec![]),
            m(
                "victory",
                "como termina",
                "how it ends",
                2,
                Format::Percent,
                vec![
                    part("goal", "gol", "goal"),
                    part("destruction", "destruição", "destruction"),
                    part("draw", "empate", "draw"),
                ],
            ),
            m("actions", "ações por partida", "actions per match", 2, Format::Number, vec![]),
            m("columns", "colunas (n)", "columns (n)", 1, Format::Number, vec![]),
        ]
    }

    /// Slots: points of A, B; A wins, B wins, draws; white wins; goal, destruction, draw;
    /// actions; n — each summed over the board's two matches (scale 2) but n.
    fn simulate(&self, rules: &Rules, _index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        let board = Board::draw(rules, dice, None).expect("n drawn from the revision's range");
        let seed = u64::from(dice.below(u32::MAX)) << 32 | u64::from(dice.below(u32::MAX));
        let time_limit = Duration::from_millis(rules.championship.time_limit_ms);
        let opts = referee::Options { time_limit, record: false };
        for (game, a_side) in [(0u8, Side::White), (1, Side::Black)] {
            let make = |k: BotKind, who: &str| {
                Builtin::new(k, rules, Dice::derived(seed, format!("{who}/{game}").as_bytes()), Thinking::Nodes)
            };
            let mut a = make(self.bots[0], "a");
            let mut b = make(self.bots[1], "b");
            let players: [&mut dyn Player; 2] = if a_side == Side::White { [&mut a, &mut b] } else { [&mut b, &mut a] };
            let o = referee::play(rules, board.clone(), players, &opts).outcome;
            let b_side = a_side.other();
            out[0] += i64::from(o.points[a_side.index()]);
            out[1] += i64::from(o.points[b_side.index()]);
            match o.winner {
                Some(w) if w == a_side => out[2] += 1,
                Some(_) => out[3] += 1,
                None => out[4] += 1,
            }
            out[5] += i64::from(o.winner == Some(Side::White));
            match o.victory {
                Victory::Goal => out[6] += 1,
                Victory::Destruction => out[7] += 1,
                // Built-in bots never answer invalidly; a draw is the only other end.
                Victory::Draw | Victory::OpponentInvalid => out[8] += 1,
            }
            out[9] += i64::from(o.actions);
        }
        out[10] = i64::from(board.n());
        Ok(())
    }
}
