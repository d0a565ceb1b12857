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

/// Events in the order they happened, as the engine writes them since issue 50: a pass before
/// the loose ball it left. Engines before wrote that loose ball first (the pass event went out
/// once its completion was known); this puts such a pair — a loose ball directly followed by a
/// pass in the same round, which nothing else writes — the other way round, and leaves events
/// already in order as they are. A replay compares a record's events through it, so records
/// written before the fix still replay identically.
pub fn in_order_of_play(events: &[Event]) -> std::borrow::Cow<'_, [Event]> {
    let written_first = |w: &[Event]| {
        matches!((&w[0].kind, &w[1].kind), (EventKind::LooseBall { .. }, EventKind::Pass { .. }))
            && w[0].round == w[1].round
    };
    if !events.windows(2).any(written_first) {
        return std::borrow::Cow::Borrowed(events);
    }
    let mut out = events.to_vec();
    let mut i = 0;
    while i + 1 < out.len() {
        if written_first(&out[i..i + 2]) {
            out.swap(i, i + 1);
            i += 2;
        } else {
            i += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(round: u32, kind: EventKind) -> Event {
        Event { round, minute: 0.0, kind }
    }

    fn pass() -> EventKind {
        let w = Who { team: 0, shirt: 4 };
        EventKind::Pass {
            by: w,
            to: Who { team: 0, shirt: 9 },
            distance: 20.0,
            margin: -5,
            outcome: "misplaced".into(),
            completed: false,
            set_piece: None,
        }
    }

    /// An older engine's loose ball before its pass is put after it; events already in the
    /// order of play, and a loose ball of an earlier round before a pass, are left alone.
    #[test]
    fn a_pass_comes_before_the_loose_ball_it_left() {
        let loose = || EventKind::LooseBall { x: 1.0, y: 2.0 };
        let old = vec![at(3, EventKind::HalfTime), at(4, loose()), at(4, pass()), at(5, loose()), at(5, pass())];
        let now = in_order_of_play(&old);
        let kinds: Vec<(u32, bool)> = now.iter().map(|e| (e.round, matches!(e.kind, EventKind::Pass { .. }))).collect();
        assert_eq!(kinds, [(3, false), (4, true), (4, false), (5, true), (5, false)]);
        assert!(matches!(in_order_of_play(&now), std::borrow::Cow::Borrowed(_)), "already in order");
        let other_rounds = vec![at(4, loose()), at(5, pass())];
        assert!(matches!(in_order_of_play(&other_rounds), std::borrow::Cow::Borrowed(_)));
    }
}
