//! Values revisions published before some parameters existed were played with: engine 0.5.1 kept
//! them in code. 0.5.3 moved thirteen of them into its `params.json`, 0.5.4 two more, 0.6.0 two more
//! (and names its penalty taker by a content rule), 0.6.21 the beaten defender's window; a published
//! revision is frozen, so its replays still need the values it was played with. Consulted only
//! for a parameter a revision lacks, and only for revisions older than the one that introduced
//! it; a newer revision without one of them is refused like any missing parameter.

use semver::Version;

/// (parameter, the value engine 0.5.1 used for it, the first Microfut revision that carries it).
pub const IN_CODE_BEFORE: &[(&str, f64, Version)] = &[
    ("take_on_reach_factor", 2.0, Version::new(0, 5, 3)),
    ("still_threshold", 0.1, Version::new(0, 5, 3)),
    ("neutral_after_still_rounds", 2.0, Version::new(0, 5, 3)),
    ("arrival_tolerance", 0.05, Version::new(0, 5, 3)),
    ("urgent_sprint_share", 0.5, Version::new(0, 5, 3)),
    ("receive_reach_factor", 2.0, Version::new(0, 5, 3)),
    ("carry_min_range", 0.5, Version::new(0, 5, 3)),
    ("dribble_cone", 60.0, Version::new(0, 5, 3)),
    ("cross_runner_lanes", 3.0, Version::new(0, 5, 3)),
    ("cross_runner_step_x", 1.5, Version::new(0, 5, 3)),
    ("cross_runner_step_y", 3.0, Version::new(0, 5, 3)),
    ("clearance_spread", 40.0, Version::new(0, 5, 3)),
    ("parry_spread", 70.0, Version::new(0, 5, 3)),
    ("penalty_box_clearance", 1.0, Version::new(0, 5, 4)),
    ("touchline_margin", 1.0, Version::new(0, 5, 4)),
    ("intercept_line_end", 0.02, Version::new(0, 6, 0)),
    ("kickoff_line_gap", 1.0, Version::new(0, 6, 0)),
    ("beaten_rounds", 1.0, Version::new(0, 6, 21)),
];

/// 0.5's penalty taker: the outfield player with the best value of this skill. Revisions with
/// set pieces name their own rule (`set_pieces.json`).
pub const PENALTY_SKILL_BEFORE_0_6: &str = "finishing";

/// The value a revision older than the parameter's first carrier was played with.
pub fn value(ruleset: &str, version: &Version, id: &str) -> Option<f64> {
    if ruleset != "microfut" {
        return None;
    }
    IN_CODE_BEFORE.iter().find(|(k, _, since)| *k == id && version < since).map(|&(_, v, _)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_revisions_older_than_the_carrier_fall_back() {
        assert_eq!(value("microfut", &Version::new(0, 5, 2), "parry_spread"), Some(70.0));
        assert_eq!(value("microfut", &Version::new(0, 5, 3), "parry_spread"), None);
        assert_eq!(value("microfut", &Version::new(0, 5, 3), "touchline_margin"), Some(1.0));
        assert_eq!(value("microfut", &Version::new(0, 5, 4), "touchline_margin"), None);
        assert_eq!(value("trilha", &Version::new(0, 5, 2), "parry_spread"), None);
        assert_eq!(value("microfut", &Version::new(0, 5, 1), "tackle_reach"), None);
    }
}
