//! Who stands where: the roles' lines, the pitch's measures and the formations' slots.

use super::names::Names;
use super::{ContentError, FormationsDoc, param_error};
use crate::engine::geometry::Pitch;
use crate::engine::state::Line;
use crate::sheet::Roles;
use microfut_core::catalog::{Diagnostic, declared_schema};
use microfut_core::ruleset::Ruleset;

pub(super) fn pitch(names: &Names) -> Pitch {
    let n = |id: &str| names.param(id);
    Pitch {
        length: n("pitch_length"),
        width: n("pitch_width"),
        goal_y: n("goal_center_y"),
        post_low: n("post_low_y"),
        post_high: n("post_high_y"),
        box_depth: n("box_depth"),
        box_half_width: n("box_half_width"),
    }
}

pub(super) fn check_pitch(r: &Ruleset, pitch: &Pitch) -> Result<(), ContentError> {
    for (id, v) in [("pitch_length", pitch.length), ("pitch_width", pitch.width)] {
        if v.is_nan() || v <= 0.0 {
            return Err(param_error(r, id, format!("the pitch needs a positive '{id}', not {v}")));
        }
    }

    Ok(())
}

/// The engine plays four lines; a role in another one would have no place in its play.
pub(super) fn check_role_lines(r: &Ruleset, roles: &Roles) -> Result<(), ContentError> {
    if let Some(role) = roles.roles.iter().find(|x| Line::from_id(&x.line).is_none()) {
        let (roles_file, at) =
            match r.revision.documents.iter().find(|(_, d)| declared_schema(d) == Some("roles.schema.json")) {
                Some((name, _)) => (
                    r.revision.file(name),
                    format!("/roles/{}/line", roles.roles.iter().position(|x| x.id == role.id).unwrap_or(0)),
                ),
                None => (r.revision.file("manifest.json"), String::new()),
            };
        return Err(ContentError::at(
            roles_file,
            at,
            format!(
                "role '{}' is in line '{}', which the match engine does not know (it plays {})",
                role.id,
                role.line,
                ["goalkeeper", "defence", "midfield", "attack"].join(", ")
            ),
        ));
    }
    Ok(())
}

/// The formation a side plays when it names none.
pub(super) fn default_formation(file: &str, fdoc: &FormationsDoc) -> Result<usize, ContentError> {
    fdoc.formations.iter().position(|f| f.id == fdoc.default).ok_or_else(|| {
        ContentError::at(file, "/default", format!("default formation '{}' is not defined", fdoc.default))
    })
}

/// Each formation: one goalkeeper, known roles, every slot on the pitch.
pub(super) fn check_formations(
    file: &str,
    fdoc: &FormationsDoc,
    roles: &Roles,
    pitch: &Pitch,
    problems: &mut Vec<Diagnostic>,
) {
    for (i, f) in fdoc.formations.iter().enumerate() {
        let at = format!("/formations/{i}");
        if f.slots.iter().filter(|s| roles.line_of(&s.role) == Some("goalkeeper")).count() != 1 {
            problems.push(Diagnostic::new(
                file,
                format!("{at}/slots"),
                format!("formation '{}' needs exactly one goalkeeper slot", f.id),
            ));
        }
        for (j, s) in f.slots.iter().enumerate() {
            if roles.role(&s.role).is_none() {
                problems.push(Diagnostic::new(
                    file,
                    format!("{at}/slots/{j}/role"),
                    format!("formation '{}' names unknown role '{}'", f.id, s.role),
                ));
            }
            // Slots are places on the pitch (the home side's half-turned frame reuses them).
            for (key, v, end) in [("x", s.x, pitch.length), ("y", s.y, pitch.width)] {
                if !(0.0..=end).contains(&v) {
                    problems.push(Diagnostic::new(
                        file,
                        format!("{at}/slots/{j}/{key}"),
                        format!("slot {key} = {v} is off the pitch (0 to {end})"),
                    ));
                }
            }
        }
    }
}
