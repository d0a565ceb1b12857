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
        /// The restart this pass (a throw-in, a goal kick, a short corner…) takes (0.6).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        set_piece: Option<String>,
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
        /// A set piece's delivery (0.6): the restart and the zone aimed at.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        set_piece: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
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
        /// A set piece's shot (0.6): a direct free kick (with its wall) or a penalty (with the
        /// side aimed at).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        set_piece: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        aim: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wall: Option<u32>,
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
        /// 0.6: impeding, punished by an indirect free kick.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        indirect: bool,
    },
    /// A player replaced from the bench (0.6).
    Substitution {
        off: Who,
        on: Who,
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeeperTest {
    pub value: f64,
    pub margin: i32,
    pub position_error: f64,
    /// At a penalty (0.6): the side the keeper dived to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guess: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub round: u32,
    pub minute: f64,
    #[serde(flatten)]
    pub kind: EventKind,
}
