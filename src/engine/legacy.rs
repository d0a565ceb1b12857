//! Values revisions published before Microfut 0.5.3 were played with although they do not carry
//! them: engine 0.5.1 kept these in code. 0.5.3 moved them into its `params.json`; a published
//! revision is frozen, so its replays still need the values it was played with. Consulted only
//! for a parameter a revision lacks, and only for revisions older than [`FROM`]; a newer
//! revision without one of them is refused like any missing parameter.

use semver::Version;

/// The first Microfut revision that carries every parameter below.
pub const FROM: Version = Version::new(0, 5, 3);

/// (parameter, the value engine 0.5.1 used for it).
pub const BEFORE_0_5_3: &[(&str, f64)] = &[
    ("take_on_reach_factor", 2.0),
    ("still_threshold", 0.1),
    ("neutral_after_still_rounds", 2.0),
    ("arrival_tolerance", 0.05),
    ("urgent_sprint_share", 0.5),
    ("receive_reach_factor", 2.0),
    ("carry_min_range", 0.5),
    ("dribble_cone", 60.0),
    ("cross_runner_lanes", 3.0),
    ("cross_runner_step_x", 1.5),
    ("cross_runner_step_y", 3.0),
    ("clearance_spread", 40.0),
    ("parry_spread", 70.0),
];

/// The value a revision older than [`FROM`] was played with, if it is one of these.
pub fn value(ruleset: &str, version: &Version, id: &str) -> Option<f64> {
    if ruleset != "microfut" || *version >= FROM {
        return None;
    }
    BEFORE_0_5_3.iter().find(|(k, _)| *k == id).map(|&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_older_microfut_revisions_fall_back() {
        assert_eq!(value("microfut", &Version::new(0, 5, 2), "parry_spread"), Some(70.0));
        assert_eq!(value("microfut", &Version::new(0, 5, 3), "parry_spread"), None);
        assert_eq!(value("trilha", &Version::new(0, 5, 2), "parry_spread"), None);
        assert_eq!(value("microfut", &Version::new(0, 5, 1), "tackle_reach"), None);
    }
}
