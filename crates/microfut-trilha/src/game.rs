//! One game of Trilha do Mandacaru, played by the compiled rules with the given dice.

use super::compile::{MAX_DICE, MAX_SEATS, Rules};
use super::doc::{BeyondFinish, EndRule, StrategyKind, Ties};
use microfut_core::dice::Dice;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The round in which it ended (1-based; a round is every seat playing once).
    pub rounds: u32,
    /// Seats (turn-order indices) that won, as bits; several when a tie is shared.
    pub winners: u32,
}

impl Outcome {
    pub fn winner_count(&self) -> u32 {
        self.winners.count_ones()
    }
    pub fn won(&self, seat: usize) -> bool {
        self.winners & (1 << seat) != 0
    }
}

/// Plays one game. Each turn rolls every die (in order) and moves by the one the seat's strategy
/// picks; a random pick draws once more, and only when there is a choice.
pub fn play(rules: &Rules, dice: &mut Dice) -> Outcome {
    let n = rules.seats.len();
    let count = rules.dice_count as usize;
    let mut pos = [0i32; MAX_SEATS];
    for (p, s) in pos.iter_mut().zip(&rules.seats) {
        *p = s.start;
    }
    let mut faces = [0i32; MAX_DICE];
    let mut round = 0;
    loop {
        round += 1;
        let mut reached = false;
        for (seat, (at, rule)) in pos.iter_mut().zip(&rules.seats).enumerate() {
            for f in &mut faces[..count] {
                *f = dice.die(rules.dice_sides) as i32;
            }
            let from = *at;
            let to = match rule.strategy {
                StrategyKind::FarthestAfterEffect => {
                    faces[..count].iter().map(|&f| rules.land(from + f)).max().expect("at least one die")
                }
                StrategyKind::Uniform => {
                    let pick = if count == 1 { 0 } else { dice.below(count as u32) as usize };
                    rules.land(from + faces[pick])
                }
            };
            *at = to;
            if to >= rules.finish {
                match rules.end {
                    EndRule::FirstToFinish => return Outcome { rounds: round, winners: 1 << seat },
                    EndRule::CompleteTheRound => reached = true,
                }
            }
        }
        if reached {
            return Outcome { rounds: round, winners: farthest(rules, &pos[..n]) };
        }
    }
}

/// The winners once the round is complete: the pawns farthest along, settled by the tie rule.
fn farthest(rules: &Rules, pos: &[i32]) -> u32 {
    let along = |p: i32| match rules.beyond_finish {
        BeyondFinish::Counts => p,
        BeyondFinish::Capped => p.min(rules.finish),
    };
    let best = pos.iter().map(|&p| along(p)).max().expect("seats");
    let tied = pos.iter().enumerate().filter(|(_, p)| along(**p) == best).fold(0u32, |m, (i, _)| m | 1 << i);
    match rules.ties {
        Ties::Shared => tied,
        Ties::EarlierSeat => tied & tied.wrapping_neg(),
        Ties::LaterSeat => 1 << (31 - tied.leading_zeros()),
    }
}
