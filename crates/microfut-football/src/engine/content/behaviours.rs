//! What a revision switches on by declaring a parameter: behaviours of play (fouls, deflections
//! behind, cover, the keeper's reset for headers) and the NPC's speed levers. Each absent one
//! leaves the plainer play, and dice, of the revisions that do not declare it.

use super::MapGrid;
use super::{BY, ContentError, PENALTY_TAKER_SKILL, Pipes, Slots, param_error};
use crate::engine::geometry::Pitch;
use crate::engine::set_pieces::SetPieces;
use crate::sheet::Roles;
use microfut_core::catalog::declared_schema;
use microfut_core::ruleset::Ruleset;

/// The NPC may weigh less, as long as it plays as well (issue 15): content parameters that
/// trade a little precision in the NPC's estimates and off-ball positioning for speed. Each is
/// optional; absent, the engine plays exactly as before (older revisions replay unchanged).
#[derive(Debug, Clone, Default)]
pub struct Levers {
    /// `npc_pass_reach` (m): team-mates farther than this are not offered a pass, whatever the
    /// passer's range.
    pub pass_reach: Option<f64>,
    /// `positioning_cadence` (rounds, ≥ 2) with `positioning_near_radius` (m, default 0): an
    /// off-ball player farther than the radius from the ball, whose destination comes from the
    /// team shape, works it out again only every `cadence` rounds (staggered by player) and
    /// otherwise keeps walking to the last one.
    pub positioning: Option<(u32, f64)>,
    /// `npc_map_grid` (m): the opportunity and danger maps read from a table of their values
    /// on a grid of this spacing, interpolated bilinearly, instead of evaluated at each spot.
    pub map_grid: Option<MapGrid>,
}

/// Behaviours a revision switches on by declaring their parameters; each absent one leaves the
/// plainer play (and dice) of the revisions that do not declare it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Behaviours {
    /// A defender in his own box commits a foul only with a margin this much worse.
    pub foul_box_offset: Option<f64>,
    /// Share of parried saves that go behind for a corner.
    pub parry_behind_share: Option<f64>,
    /// Share of headed clearances from crosses that go behind for a corner.
    pub clearance_behind_share: Option<f64>,
    /// How far goal-side of a carrier who has just beaten a defender the beaten man's nearest
    /// team-mate steps across to cover (m).
    pub cover_distance: Option<f64>,
    /// The foul check reads how badly the defender lost the duel (his margin minus the
    /// carrier's) instead of his own margin (0.5), when this is 1.
    pub foul_on_difference: bool,
    /// The share of the contacts the foul check calls that the referee gives (the rest play on).
    pub foul_share: Option<f64>,
    /// The share of the duels a defender wins outside his own box that the referee calls as a
    /// foul (he went through the man): a free kick for the carrier's side, not a tackle.
    pub tackle_foul_share: Option<f64>,
    /// Engine 0.5.9: how far the defending keeper moves towards his spot for the header while
    /// the cross is in the air, per metre the ball travels (m/m); absent, he meets the header
    /// where he stood for the cross.
    pub keeper_cross_reset: Option<f64>,
}

impl Behaviours {
    pub(super) fn load(r: &Ruleset) -> Result<Behaviours, ContentError> {
        let share = |id: &str| -> Result<Option<f64>, ContentError> {
            match r.param(id) {
                Some(v) if !(0.0..=1.0).contains(&v) => {
                    Err(param_error(r, id, format!("parameter '{id}' is a share between 0 and 1 (is {v})")))
                }
                v => Ok(v),
            }
        };
        Ok(Behaviours {
            foul_box_offset: r.param("foul_box_offset"),
            parry_behind_share: share("parry_behind_share")?,
            clearance_behind_share: share("clearance_behind_share")?,
            cover_distance: r.param("cover_distance"),
            foul_on_difference: r.param("foul_on_difference").is_some_and(|v| v != 0.0),
            foul_share: share("foul_share")?,
            tackle_foul_share: share("tackle_foul_share")?,
            keeper_cross_reset: match r.param("keeper_cross_reset") {
                Some(v) if v < 0.0 => {
                    return Err(param_error(
                        r,
                        "keeper_cross_reset",
                        format!("parameter 'keeper_cross_reset' is a distance per metre, not negative (is {v})"),
                    ));
                }
                v => v,
            },
        })
    }
}

/// Without set pieces, the penalty taker is the outfield player best at the skill the revision's
/// roles name (`penalty_taker_skill`), or, for a published revision before set pieces, its entry
/// in upgrades.json.
pub(super) fn penalty_skill(
    r: &Ruleset,
    roles: &Roles,
    set_pieces: &Option<SetPieces>,
) -> Result<Option<usize>, ContentError> {
    if set_pieces.is_some() {
        return Ok(None);
    }
    let upgrade = r.revision.upgrade.as_ref();
    let skill = roles
        .penalty_taker_skill
        .as_deref()
        .or_else(|| upgrade.and_then(|u| u.values.get(PENALTY_TAKER_SKILL)?.as_str()))
        .ok_or_else(|| {
            let file = r.revision.documents.iter().find(|(_, d)| declared_schema(d) == Some("roles.schema.json"));
            ContentError::at(
                file.map_or_else(|| r.revision.file("manifest.json"), |(name, _)| r.revision.file(name)),
                "/penalty_taker_skill",
                "without set pieces (a set_pieces.json document) the match engine needs the skill that picks \
                 the penalty taker",
            )
        })?;
    Ok(Some(r.need_var(skill, BY).map_err(|m| ContentError::Missing(vec![m]))?))
}

/// Issue 15's levers, each read only when the revision declares it (see [`Levers`]).
pub(super) fn levers(r: &Ruleset, pipes: &Pipes, slots: &Slots, pitch: &Pitch) -> Result<Levers, ContentError> {
    let positive = |id: &str| -> Result<Option<f64>, ContentError> {
        match r.param(id) {
            Some(v) if !(v > 0.0 && v.is_finite()) => {
                Err(param_error(r, id, format!("parameter '{id}' must be a positive number of metres (is {v})")))
            }
            v => Ok(v),
        }
    };
    let positioning = match r.param("positioning_cadence") {
        None => None,
        // Its range is the parameter's domain, in content; the engine needs only a whole count.
        Some(k) if k.fract() != 0.0 || k < 1.0 => {
            return Err(param_error(
                r,
                "positioning_cadence",
                format!("parameter 'positioning_cadence' is a whole number of rounds, 1 or more (is {k})"),
            ));
        }
        Some(k) => {
            let radius = match r.param("positioning_near_radius") {
                Some(v) if !(v >= 0.0 && v.is_finite()) => {
                    return Err(param_error(
                        r,
                        "positioning_near_radius",
                        format!("parameter 'positioning_near_radius' must be 0 or more metres (is {v})"),
                    ));
                }
                v => v.unwrap_or(0.0),
            };
            // A cadence of 1 is every round: the lever off.
            (k >= 2.0).then_some((k as u32, radius))
        }
    };
    let map_grid = match positive("npc_map_grid")? {
        None => None,
        Some(step) => Some(
            MapGrid::new(r, [pipes.opportunity, pipes.danger], [slots.spot_x, slots.spot_y], pitch, step)
                .map_err(|m| param_error(r, "npc_map_grid", m))?,
        ),
    };
    Ok(Levers { pass_reach: positive("npc_pass_reach")?, positioning, map_grid })
}
