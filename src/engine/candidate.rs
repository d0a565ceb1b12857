//! What the carrier could try (document §33): the kinds of action, what each aims at, the
//! intent a person declares, and a candidate with every term of its score.
//!
//! Its own module because everything reads it — the NPC generates and scores candidates
//! (`npc.rs`), estimates price them (`estimate.rs`), actions execute them, the decision log
//! writes them — and none of those should have to import the NPC to name a candidate.

use super::geometry::V2;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Carry,
    Pass,
    Cross,
    Shoot,
    Dribble,
    /// A throw-in to a team-mate (0.6 set pieces).
    Throw,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Carry => "carry",
            Kind::Pass => "pass",
            Kind::Cross => "cross",
            Kind::Shoot => "shoot",
            Kind::Dribble => "dribble",
            Kind::Throw => "throw",
        }
    }
}

/// What an action aims at: a direction (degrees from the line to the opponent's goal), a player
/// (shirt number: a team-mate for a pass, an opponent for a dribble), or nothing (shot, cross).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Target {
    Direction(i32),
    Player(u32),
    None,
}

/// An intent as a person declares it: `{"kind": "pass", "target": 9}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intent {
    pub kind: Kind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
    /// A set piece's zone (a delivery's, `far_post`) or a penalty's side (`left`), 0.6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

impl fmt::Display for Intent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.target, &self.zone) {
            (k, None, Some(z)) => write!(f, "{} → {z}", k.name()),
            (Kind::Carry, Some(d), _) => write!(f, "carry {d}°"),
            (k, Some(t), _) => write!(f, "{} #{t}", k.name()),
            (k, None, None) => f.write_str(k.name()),
        }
    }
}

/// One action the carrier could try, with every term of its score.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub kind: Kind,
    pub target: Target,
    /// Where the action sends the ball or the carrier (world coordinates).
    pub dest: V2,
    /// The receiver (pass) or the opponent to beat (dribble), by player index.
    #[serde(skip)]
    pub other: Option<usize>,
    /// A set piece's zone or penalty side (0.6), by id …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<std::sync::Arc<str>>,
    /// … and by index in the content's list.
    #[serde(skip)]
    pub zone_index: Option<u8>,
    /// The pipeline of the action's own test when it is not the kind's usual one (a throw-in,
    /// a goal kick, a delivery, a free kick, a penalty).
    #[serde(skip)]
    pub pipe: Option<usize>,
    /// Exact probability that the action's own test succeeds.
    pub probability: f64,
    /// Probability that the team keeps the ball through the action (interceptions, duels,
    /// reception included).
    pub success: f64,
    /// Probability that the action ends in a goal (a shot; a cross headed in), else 0.
    pub goal_chance: f64,
    /// That probability against the content's expected keeper (engine 0.5.6), which the NPC
    /// weighs instead; `None`: the NPC weighs `goal_chance`.
    #[serde(skip)]
    pub(super) priced_goal: Option<f64>,
    pub progression: f64,
    /// Metres gained towards the opponents' goal (progression before it is normalised).
    pub gain: f64,
    pub threat: f64,
    pub turnover_risk: f64,
    pub personality_modifier: f64,
    pub match_state_modifier: f64,
    /// The content's constant for the kind (0.6 `bias`; 0 before).
    #[serde(skip_serializing_if = "is_zero")]
    pub bias: f64,
    pub noise: f64,
    pub score: f64,
    /// Set when the NPC did not weigh the candidate exactly (lazy evaluation, `npc.rs`): an upper
    /// bound of its score that was below the chosen candidate's exact score. Its `success`,
    /// `turnover_risk` and modifiers were not computed, and its `score` is −∞.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pruned: Option<f64>,
    /// A pass whose keep chance is still to be weighed: its test's difficulty and an upper bound
    /// of the keep chance (see `Match::pass_keep_bound`).
    #[serde(skip)]
    pub(super) unweighed: Option<(crate::dice::Difficulty, f64)>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Candidate {
    /// An unscored candidate aimed at a point (set pieces use it to shape runs).
    pub(super) fn aimed(kind: Kind, dest: V2) -> Candidate {
        Candidate {
            kind,
            target: Target::None,
            dest,
            other: None,
            zone: None,
            zone_index: None,
            pipe: None,
            probability: 0.0,
            success: 0.0,
            goal_chance: 0.0,
            priced_goal: None,
            progression: 0.0,
            gain: 0.0,
            threat: 0.0,
            turnover_risk: 0.0,
            personality_modifier: 0.0,
            match_state_modifier: 0.0,
            bias: 0.0,
            noise: 0.0,
            score: 0.0,
            pruned: None,
            unweighed: None,
        }
    }

    pub fn intent(&self) -> Intent {
        Intent {
            kind: self.kind,
            target: match self.target {
                Target::Direction(d) => Some(d),
                Target::Player(s) => Some(s as i32),
                Target::None => None,
            },
            zone: self.zone.as_deref().map(str::to_string),
        }
    }

    /// A short explanation for a person choosing among candidates.
    pub fn explain(&self) -> String {
        let what = match (self.kind, self.target) {
            (Kind::Carry, Target::Direction(d)) => format!("carry the ball {d}° off the line to goal"),
            (Kind::Pass, Target::Player(s)) => format!("pass to #{s}"),
            (Kind::Throw, Target::Player(s)) => format!("throw to #{s}"),
            (Kind::Dribble, Target::Player(s)) => format!("take on #{s}"),
            (Kind::Shoot, _) if self.zone.is_some() => format!("shoot {}", self.zone.as_deref().unwrap_or_default()),
            (Kind::Shoot, _) => "shoot".to_string(),
            (Kind::Cross, _) if self.zone.is_some() => {
                format!("deliver to the {}", self.zone.as_deref().unwrap_or_default().replace('_', " "))
            }
            (Kind::Cross, _) => "cross into the box".to_string(),
            (k, _) => k.name().to_string(),
        };
        format!(
            "{what}: test {:.0}%, keeps the ball {:.0}%, gains {:.0} m, threat {:.2}",
            self.probability * 100.0,
            self.success * 100.0,
            self.gain,
            self.threat
        )
    }
}
