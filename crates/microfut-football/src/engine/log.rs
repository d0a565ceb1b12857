//! The NPC decision log (document §33): every field needed to audit a decision, kept in a ring
//! buffer so it never grows past its retention; older decisions are counted, not kept.

use serde::{Serialize, Serializer};
use std::sync::Arc;

/// One candidate as the log keeps it. Kept as plain numbers (the log holds thousands of these):
/// a pruned candidate's `final_score` is its bound, and it serializes as the JSON below says.
#[derive(Debug, Clone)]
pub struct CandidateLog {
    pub kind: &'static str,
    /// Written as the intent a person would declare (`pass #9`, `carry 30°`).
    pub target: super::candidate::Intent,
    pub success_probability: f64,
    pub progression: f64,
    pub threat: f64,
    pub turnover_risk: f64,
    pub personality_modifier: f64,
    pub match_state_modifier: f64,
    /// The content's constant for the kind (0.6), when it has one.
    pub bias: f64,
    pub noise: f64,
    /// The score; for a pruned candidate, the upper bound that showed it could not be chosen.
    pub final_score: f64,
    /// The NPC did not weigh this candidate exactly (lazy evaluation): its bound was below the
    /// chosen candidate's score. Written as `"pruned": {"bound": …, "reason": "bound below
    /// chosen"}`, with `turnover_risk`, the modifiers and `final_score` — the terms that need the
    /// chance of keeping the ball — `null`.
    pub pruned: bool,
}

/// Why a pruned candidate was not weighed exactly.
pub const BOUND_BELOW_CHOSEN: &str = "bound below chosen";

impl Serialize for CandidateLog {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct AsText<'a>(&'a super::candidate::Intent);
        impl Serialize for AsText<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self.0)
            }
        }
        #[derive(Serialize)]
        struct Pruned {
            bound: f64,
            reason: &'static str,
        }
        let weighed = |x: f64| (!self.pruned).then_some(x);
        let mut st = s.serialize_struct("CandidateLog", 12)?;
        st.serialize_field("kind", self.kind)?;
        st.serialize_field("target", &AsText(&self.target))?;
        st.serialize_field("success_probability", &self.success_probability)?;
        st.serialize_field("progression", &self.progression)?;
        st.serialize_field("threat", &self.threat)?;
        st.serialize_field("turnover_risk", &weighed(self.turnover_risk))?;
        st.serialize_field("personality_modifier", &weighed(self.personality_modifier))?;
        st.serialize_field("match_state_modifier", &weighed(self.match_state_modifier))?;
        if self.bias == 0.0 {
            st.skip_field("bias")?;
        } else {
            st.serialize_field("bias", &self.bias)?;
        }
        st.serialize_field("noise", &self.noise)?;
        st.serialize_field("final_score", &weighed(self.final_score))?;
        if self.pruned {
            st.serialize_field("pruned", &Pruned { bound: self.final_score, reason: BOUND_BELOW_CHOSEN })?;
        } else {
            st.skip_field("pruned")?;
        }
        st.end()
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct StateSummary {
    pub minute: f64,
    pub score: [u32; 2],
    pub goal_diff: i32,
    pub ball: [f64; 2],
    /// The restart being taken (`corner`, `throw_in`, …), or the phase of open play by the
    /// ball's depth as content names it (`open_play` when it names none).
    pub phase: std::borrow::Cow<'static, str>,
}

/// The club's personality and its in-match adaptation as the NPC weighed them.
pub type Personality = crate::club::PersonalityAxes<f64>;

#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    pub engine_version: &'static str,
    pub seed: u64,
    pub round: u32,
    /// Shared with every decision of the club's players (built once per match).
    pub club_id: Arc<str>,
    pub club_personality: Personality,
    pub adaptation: Personality,
    pub player_id: Arc<str>,
    pub match_state_summary: StateSummary,
    pub candidate_actions: Vec<CandidateLog>,
    pub selected_action: usize,
    pub human: bool,
    /// The value of possession every candidate's risk weighed besides the danger (0.6.4's
    /// `npc.possession_value`), absent from the log of a revision without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub possession_value: Option<f64>,
}

/// A bounded log: the last `retention` decisions, and how many were dropped before them.
#[derive(Debug, Clone, Default)]
pub struct DecisionLog {
    retention: usize,
    ring: Vec<Decision>,
    next: usize,
    dropped: u64,
}

impl DecisionLog {
    pub fn new(retention: usize) -> Self {
        DecisionLog { retention, ring: Vec::with_capacity(retention.min(4096)), next: 0, dropped: 0 }
    }

    /// Counts a decision that is not kept (retention 0).
    pub fn push_dropped(&mut self) {
        self.dropped += 1;
    }

    /// An empty candidate list for the next decision: the buffer of the decision the next
    /// `push` overwrites once the ring is full (a match at the default retention would otherwise
    /// free one list and allocate another for every decision it plays), else a new one.
    pub fn spare_candidates(&mut self) -> Vec<CandidateLog> {
        if self.retention > 0 && self.ring.len() >= self.retention {
            let mut v = std::mem::take(&mut self.ring[self.next].candidate_actions);
            v.clear();
            v
        } else {
            Vec::new()
        }
    }

    pub fn push(&mut self, d: Decision) {
        if self.retention == 0 {
            self.dropped += 1;
        } else if self.ring.len() < self.retention {
            self.ring.push(d);
        } else {
            self.ring[self.next] = d;
            self.next = (self.next + 1) % self.retention;
            self.dropped += 1;
        }
    }

    /// Kept decisions, oldest first.
    pub fn decisions(&self) -> impl Iterator<Item = &Decision> {
        let (a, b) = self.ring.split_at(self.next.min(self.ring.len()));
        b.iter().chain(a.iter())
    }

    pub fn len(&self) -> usize {
        self.ring.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    pub fn retention(&self) -> usize {
        self.retention
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(round: u32) -> Decision {
        Decision {
            engine_version: "t",
            seed: 0,
            round,
            club_id: "".into(),
            club_personality: Personality { verticality: 0.0, security: 0.0, risk_tolerance: 0.0 },
            adaptation: Personality { verticality: 0.0, security: 0.0, risk_tolerance: 0.0 },
            player_id: "".into(),
            match_state_summary: StateSummary {
                minute: 0.0,
                score: [0, 0],
                goal_diff: 0,
                ball: [0.0, 0.0],
                phase: "".into(),
            },
            candidate_actions: Vec::new(),
            selected_action: 0,
            human: false,
            possession_value: None,
        }
    }

    #[test]
    fn keeps_the_last_decisions_and_counts_the_rest() {
        let mut log = DecisionLog::new(3);
        for r in 0..7 {
            log.push(d(r));
        }
        let rounds: Vec<u32> = log.decisions().map(|d| d.round).collect();
        assert_eq!(rounds, [4, 5, 6]);
        assert_eq!(log.dropped(), 4);
        let mut none = DecisionLog::new(0);
        none.push(d(1));
        assert_eq!((none.len(), none.dropped()), (0, 1));
    }
}
