//! The rules of play: which actions a side has, whether an action is legal (and why not), and
//! what it does.
//!
//! Every action is a (from, to) pair of squares, and the board decides what it is: a free square
//! one row ahead is a move, an opponent on a forward diagonal an attack, a team-mate ahead a
//! pass, a free square two rows ahead a two-step move, an opponent two rows ahead a suicide
//! attack. So an answer may leave its kind out; when it names one, it must be that one.

use super::board::{Board, Side, Square};
use super::compile::Actions;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Move,
    Attack,
    Suicide,
    Pass,
}

impl Kind {
    fn article(self) -> &'static str {
        if self == Kind::Attack { "an" } else { "a" }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Move => "move",
            Kind::Attack => "attack",
            Kind::Suicide => "suicide",
            Kind::Pass => "pass",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Action {
    #[serde(rename = "action")]
    pub kind: Kind,
    pub from: Square,
    pub to: Square,
}

impl Action {
    pub const fn new(kind: Kind, from: Square, to: Square) -> Action {
        Action { kind, from, to }
    }
    /// The same action seen from the other side (see [`Board::mirrored`]).
    pub fn mirrored(self, n: u8) -> Action {
        Action { kind: self.kind, from: self.from.mirrored(n), to: self.to.mirrored(n) }
    }
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} → {}", self.kind.name(), self.from, self.to)
    }
}

/// How a match was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Victory {
    /// A carrier entered the opponent's goal area.
    Goal,
    /// The opponent has no robot left.
    Destruction,
    /// The opponent's bot made an invalid action.
    OpponentInvalid,
    /// Neither side could act.
    Draw,
}

impl Victory {
    pub fn name(self) -> &'static str {
        match self {
            Victory::Goal => "goal",
            Victory::Destruction => "destruction",
            Victory::OpponentInvalid => "opponent_invalid",
            Victory::Draw => "draw",
        }
    }
}

/// What an action did to the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Continue,
    Won(Side, Victory),
}

/// Calls `f` with every legal action of `side`, robot by robot (rows, then columns, ascending),
/// until it returns false. Returns false when stopped early.
#[inline]
pub fn each(board: &Board, side: Side, rules: &Actions, mut f: impl FnMut(Action) -> bool) -> bool {
    let other = side.other();
    let fw = side.forward();
    let ball = board.ball();
    let carrier = board.holder() == Some(side);
    let attack = rules.attack;
    let carrier_attack = rules.attack && rules.carrier_attacks;
    let n = board.n();
    let last = i32::from(n) + 1;
    let cols: u32 = ((1u32 << n) - 1) << 1;
    // A row's squares as masks (bit c for column c): free, opponents', own. Off the field: none,
    // so columns 0 and n + 1 and rows beyond the goal areas need no separate test.
    let masks = |row: i32| -> (u32, u32, u32) {
        if row < 0 || row > last {
            return (0, 0, 0);
        }
        let (own, opp) = (board.row_mask(side, row as u8), board.row_mask(other, row as u8));
        (cols & !(own | opp), opp, own)
    };
    for r in 0..=n + 1 {
        let mut m = board.row_mask(side, r);
        if m == 0 {
            continue;
        }
        let ri = i32::from(r);
        let (free1, opp1, own1) = masks(ri + fw);
        let (free2, opp2, _) = masks(ri + 2 * fw);
        while m != 0 {
            let c = m.trailing_zeros() as u8;
            m &= m - 1;
            let from = Square::new(r, c);
            let has_ball = carrier && from == ball;
            for dc in -1i32..=1 {
                let tc = i32::from(c) + dc;
                let bit = 1u32 << tc;
                let kind = if free1 & bit != 0 {
                    Some(Kind::Move)
                } else if opp1 & bit != 0 {
                    (dc != 0 && if has_ball { carrier_attack } else { attack }).then_some(Kind::Attack)
                } else if own1 & bit != 0 {
                    (has_ball && rules.pass).then_some(Kind::Pass)
                } else {
                    None
                };
                if let Some(kind) = kind
                    && !f(Action::new(kind, from, Square::new((ri + fw) as u8, tc as u8)))
                {
                    return false;
                }
                if has_ball {
                    continue;
                }
                let kind = if free2 & bit != 0 {
                    rules.two_step_move.then_some(Kind::Move)
                } else if opp2 & bit != 0 {
                    rules.suicide_attack.then_some(Kind::Suicide)
                } else {
                    None
                };
                if let Some(kind) = kind
                    && !f(Action::new(kind, from, Square::new((ri + 2 * fw) as u8, tc as u8)))
                {
                    return false;
                }
            }
        }
    }
    true
}

/// Every legal action of `side`, into `out` (cleared first).
pub fn legal(board: &Board, side: Side, rules: &Actions, out: &mut Vec<Action>) {
    out.clear();
    each(board, side, rules, |a| {
        out.push(a);
        true
    });
}

/// Whether `side` has any legal action.
#[inline]
pub fn has_legal(board: &Board, side: Side, rules: &Actions) -> bool {
    !each(board, side, rules, |_| false)
}

/// The kind of the action from `from` to `to` for `side`, or why it is not legal. `claimed` is
/// the kind the answer named, if any: it must match.
pub fn classify(
    board: &Board,
    side: Side,
    rules: &Actions,
    from: Square,
    to: Square,
    claimed: Option<Kind>,
) -> Result<Kind, String> {
    let (fr, fc) = (i32::from(from.row), i32::from(from.col));
    if !board.has(side, fr, fc) {
        return Err(match board.at(from) {
            Some(o) if board.on_field(fr, fc) => format!("{from} holds a {} robot, not one of yours", o.name()),
            _ if !board.on_field(fr, fc) => format!("{from} is off the field"),
            _ => format!("no robot of yours on {from}"),
        });
    }
    let (tr, tc) = (i32::from(to.row), i32::from(to.col));
    if !board.on_field(tr, tc) {
        return Err(format!("{to} is off the field"));
    }
    let ahead = (tr - fr) * side.forward();
    let dc = tc - fc;
    let has_ball = board.ball() == from;
    let other = side.other();
    if ahead <= 0 {
        return Err(format!("{from} → {to} does not go forward: robots never move back or sideways"));
    }
    if ahead > 2 || dc.abs() > 1 {
        return Err(format!("{to} is out of reach from {from}: one or two rows ahead, at most one column aside"));
    }
    let kind = if ahead == 1 {
        if board.free(tr, tc) {
            Kind::Move
        } else if board.has(other, tr, tc) {
            if dc == 0 {
                return Err(format!("{to} holds an opponent straight ahead: attacks are on the diagonals"));
            }
            if !rules.attack {
                return Err("attacks are not allowed under these rules".into());
            }
            if has_ball && !rules.carrier_attacks {
                return Err("the robot with the ball may not attack under these rules".into());
            }
            Kind::Attack
        } else {
            if !has_ball {
                return Err(format!("{to} is taken by a team-mate (only the robot with the ball passes)"));
            }
            if !rules.pass {
                return Err("passes are not allowed under these rules".into());
            }
            Kind::Pass
        }
    } else if has_ball {
        return Err("the robot with the ball acts only one row ahead".into());
    } else if board.free(tr, tc) {
        if !rules.two_step_move {
            return Err("two-step moves are not allowed under these rules".into());
        }
        Kind::Move
    } else if board.has(other, tr, tc) {
        if !rules.suicide_attack {
            return Err("suicide attacks are not allowed under these rules".into());
        }
        Kind::Suicide
    } else {
        return Err(format!("{to} is taken by a team-mate"));
    };
    match claimed {
        Some(c) if c != kind => {
            Err(format!("{from} → {to} is {} {}, not {} {}", kind.article(), kind.name(), c.article(), c.name()))
        }
        _ => Ok(kind),
    }
}

/// Plays a legal action of `side` (see [`classify`]) and says what it did to the match.
pub fn apply(board: &mut Board, side: Side, a: Action) -> Effect {
    let other = side.other();
    let carried = board.ball() == a.from;
    match a.kind {
        Kind::Move => {
            board.remove(side, a.from);
            if a.to.row == board.goal_row(side) {
                if carried {
                    return Effect::Won(side, Victory::Goal);
                }
                // Without the ball a robot entering the goal area is destroyed.
            } else {
                board.place(side, a.to);
                if carried {
                    board.set_ball(a.to);
                }
                // A robot without the ball that moves onto the loose ball takes it: it now stands
                // on the ball's square.
            }
        }
        Kind::Attack => {
            board.remove(other, a.to);
            board.remove(side, a.from);
            board.place(side, a.to);
            if carried {
                board.set_ball(a.to);
            }
        }
        // The ball, if the target had it, stays loose on the target's square.
        Kind::Suicide => {
            board.remove(other, a.to);
            board.remove(side, a.from);
        }
        Kind::Pass => board.set_ball(a.to),
    }
    if board.count(other) == 0 {
        Effect::Won(side, Victory::Destruction)
    } else if board.count(side) == 0 {
        Effect::Won(other, Victory::Destruction)
    } else {
        Effect::Continue
    }
}
