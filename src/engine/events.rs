//! What happened, round by round: the match's telemetry and the body of a run record.

use serde::{Deserialize, Serialize};

/// A player by team (0 home, 1 away) and shirt number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    pub team: u8,
    pub shirt: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    KickOff {
        team: u8,
    },
    Restart {
        restart: String,
        team: u8,
        x: f64,
        y: f64,
    },
    Pass {
        by: Who,
        to: Who,
        distance: f64,
        margin: i32,
        outcome: String,
        completed: bool,
    },
    Interception {
        by: Who,
        from: Who,
        margin: i32,
    },
    Cross {
        by: Who,
        margin: i32,
        x: f64,
        y: f64,
    },
    AerialDuel {
        won_by: Who,
        contestants: u32,
    },
    Shot {
        by: Who,
        distance: f64,
        margin: i32,
        probability: f64,
        header: bool,
        target_y: f64,
        outcome: String,
        /// The keeper's test against it, when the shot reached him.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        keeper: Option<KeeperTest>,
    },
    Block {
        by: Who,
        shooter: Who,
    },
    Save {
        by: Who,
        margin: i32,
        outcome: String,
    },
    Goal {
        by: Who,
        team: u8,
    },
    Duel {
        carrier: Who,
        defender: Who,
        carrier_margin: i32,
        defender_margin: i32,
        dribbling: bool,
        outcome: String,
    },
    Foul {
        by: Who,
        on: Who,
        penalty: bool,
    },
    LooseBall {
        x: f64,
        y: f64,
    },
    Gathered {
        by: Who,
    },
    HalfTime,
    FullTime {
        score: [u32; 2],
    },
}

/// A keeper's test against a shot on target: his value, his margin and how far he stood from
/// the ideal point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KeeperTest {
    pub value: f64,
    pub margin: i32,
    pub position_error: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub round: u32,
    pub minute: f64,
    #[serde(flatten)]
    pub kind: EventKind,
}
