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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
    /// Every kind, as intents name them.
    pub const ALL: [Kind; 6] = [Kind::Carry, Kind::Pass, Kind::Cross, Kind::Shoot, Kind::Dribble, Kind::Throw];

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

/// What a declared action comes to once the round's players have moved (the rules' step 4,
/// which draws no die): known exactly when it is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Branch {
    /// The action's own test is rolled (a pass, a throw, a cross, a shot, a penalty).
    Test,
    /// A carry or a dribble meets a defender who tackles: the carrier's test against his,
    /// compared by margins.
    Duel,
    /// Nobody can reach the carrier where his run ends: no test is rolled.
    Unchallenged,
    /// The defender who can reach him holds off and contains him: no test is rolled.
    Contained,
    /// The man a dribble aims at is no longer within reach when the run ends: no test is rolled.
    OutOfReach,
}

impl Branch {
    pub fn name(self) -> &'static str {
        match self {
            Branch::Test => "test",
            Branch::Duel => "duel",
            Branch::Unchallenged => "unchallenged",
            Branch::Contained => "contained",
            Branch::OutOfReach => "out_of_reach",
        }
    }
}

/// One test as it will be rolled: whose, which pipeline, against what, with which chance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TestOdds {
    /// Player index …
    pub player: usize,
    /// … and his shirt.
    pub shirt: u32,
    /// Pipeline index in the ruleset.
    pub pipeline: usize,
    /// The difficulty's whole part (`None`: the test is impossible, a requirement fails) and the
    /// fraction with which it is rolled against the next one up (0.6).
    pub difficulty: Option<i32>,
    pub fraction: f64,
    /// Exact chance of success: bit for bit the `probability` of the roll that resolves it.
    pub probability: f64,
}

/// The odds a person is shown for one of his candidates, priced on the geometry its roll will
/// use: the candidate's own step 4 (every player's movement, the carrier's run) is played on the
/// match as it stands, the action's test inputs are set by the functions the action itself
/// rolls with, and everything is put back (`Match::price_for_person`). Every figure here is
/// exact under the rules; the NPC's estimates stay on the candidate (`probability`, `success`,
/// `goal_chance`), computed before the movement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    pub branch: Branch,
    /// The action's own test (in a duel: the carrier's); `None` when no test will be rolled.
    pub test: Option<TestOdds>,
    /// The defender's test in a duel.
    pub opponent: Option<TestOdds>,
    /// In a duel: the chance the carrier wins it (the content's duel table over both margins).
    pub wins: Option<f64>,
    /// In a duel the carrier loses: the share of such duels called as fouls, which give his
    /// side a free kick (0.6 `tackle_foul_share`, outside the defender's box; 0 otherwise).
    pub foul_share: Option<f64>,
    /// The headline a person reads. For a pass, a throw, a cross, a shot or a penalty: its
    /// test's chance. For a carry or a dribble: the chance his side still has the ball (or a
    /// free kick) after the challenge — `wins + (1 − wins) × foul_share` in a duel, 1 without one.
    pub headline: f64,
    /// The chance of a goal, for a shot (its blockers and the keeper, every margin) and a
    /// penalty (the keeper's dive by the content's odds); `None` for other actions.
    pub goal: Option<f64>,
    /// Metres gained towards the opponents' goal: to where the ball is aimed, or to where the
    /// carrier's run ends.
    pub gain: f64,
}

impl Odds {
    /// The headline of a duel from its parts, the one formula the engine and its tests use.
    pub fn duel_keep(wins: f64, foul_share: f64) -> f64 {
        wins + (1.0 - wins) * foul_share
    }
}

/// One action the carrier could try, with every term of its score.
///
/// The numeric terms (`probability`, `success`, `goal_chance`, `gain`, `threat`, …) are the
/// NPC's: estimated on the positions before the round's movement, as it scores them (the
/// decision log writes them). A person's candidates also carry `odds`, the exact figures on
/// the geometry the roll will use.
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
    /// The NPC's estimate of the chance the action's own test succeeds: exact on the
    /// positions before the round's movement (1 for a carry, which has no test of its own).
    pub probability: f64,
    /// The NPC's estimate of the chance the team keeps the ball through the action
    /// (interceptions, duels, reception included), before the round's movement.
    pub success: f64,
    /// The NPC's estimate of the chance the action ends in a goal (a shot; a cross headed in),
    /// else 0.
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
    pub(super) unweighed: Option<(microfut_core::dice::Difficulty, f64)>,
    /// The exact odds of a person's candidate (`None` for the NPC's, and in the decision log).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub odds: Option<Odds>,
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
            odds: None,
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

    /// What the candidate tries, in words: `pass to #9`, `deliver to the far post`.
    pub fn describe(&self) -> String {
        let zone = || self.zone.as_deref().unwrap_or_default().replace('_', " ");
        match (self.kind, self.target) {
            (Kind::Carry, Target::Direction(d)) => format!("carry the ball {d}° off the line to goal"),
            (Kind::Pass, Target::Player(s)) => format!("pass to #{s}"),
            (Kind::Throw, Target::Player(s)) => format!("throw to #{s}"),
            (Kind::Dribble, Target::Player(s)) => format!("take on #{s}"),
            (Kind::Shoot, _) if self.zone.is_some() => format!("shoot {}", zone()),
            (Kind::Shoot, _) => "shoot".to_string(),
            (Kind::Cross, _) if self.zone.is_some() => format!("deliver to the {}", zone()),
            (Kind::Cross, _) => "cross into the box".to_string(),
            (k, _) => k.name().to_string(),
        }
    }

    /// A short explanation for a person choosing among candidates: a person's candidate with its
    /// exact odds (the NPC's estimates named as such), the NPC's with its terms.
    pub fn explain(&self) -> String {
        let what = self.describe();
        let pct = |p: f64| format!("{:.0}%", p * 100.0);
        let Some(o) = &self.odds else {
            return format!(
                "{what}: test {:.0}%, keeps the ball {:.0}%, gains {:.0} m, threat {:.2}",
                self.probability * 100.0,
                self.success * 100.0,
                self.gain,
                self.threat
            );
        };
        let head = match (o.branch, o.wins, o.opponent) {
            (Branch::Duel, Some(wins), Some(d)) => format!(
                "keeps the ball {} = wins the duel with #{} {}{}",
                pct(o.headline),
                d.shirt,
                pct(wins),
                match o.foul_share {
                    Some(s) if s > 0.0 => format!(" + fouled in {} of the rest", pct(s)),
                    _ => String::new(),
                }
            ),
            (Branch::Unchallenged, ..) => "keeps the ball 100% (nobody can reach him)".into(),
            (Branch::Contained, ..) => "keeps the ball 100% (the man who can reach him holds off)".into(),
            (Branch::OutOfReach, ..) => "keeps the ball 100% (his man is out of reach: no duel)".into(),
            _ => format!("test {}", pct(o.headline)),
        };
        let mut parts = vec![head];
        match (self.kind, o.goal) {
            (_, Some(g)) => parts.push(format!("goal {}", pct(g))),
            (Kind::Pass | Kind::Throw | Kind::Cross, None) => {
                parts.push(format!("keeps the ball ≈{} (NPC's estimate)", pct(self.success)));
                if self.kind == Kind::Cross {
                    parts.push(format!("goal ≈{} (NPC's estimate)", pct(self.goal_chance)));
                }
            }
            _ => {}
        }
        if self.kind != Kind::Shoot {
            parts.push(format!("gains {:.0} m", o.gain));
        }
        format!("{what}: {}", parts.join(", "))
    }
}
