//! The NPC's document (`npc.json`): its weights, what it expects of a shot, how it carries,
//! crosses and defends, resolved and checked once, every problem at its key.

use super::*;
use crate::engine::geometry::Turn;
use crate::engine::state::Line;
use crate::sheet::Roles;
use microfut_core::catalog::Diagnostic;
use microfut_core::ruleset::Ruleset;

/// The NPC's rules; `problems` found before (the formations') are reported with its own.
pub(super) fn load(
    r: &Ruleset,
    file: &str,
    ndoc: NpcDoc,
    roles: &Roles,
    mut problems: Vec<Diagnostic>,
) -> Result<Npc, ContentError> {
    if ndoc.carry.directions.is_empty() {
        problems.push(Diagnostic::new(file, "/carry/directions", "carry needs at least one direction"));
    }
    let lines = carry_lines(file, &ndoc.carry.lines, roles, &mut problems);
    let mut values = |at: &str, v, context| expected_values(r, file, at, v, context, &mut problems);
    let expected_keeper = values("/shot/expected_keeper", ndoc.shot.expected_keeper.as_ref(), false);
    let expected_context = values("/shot/expected_context", ndoc.shot.expected_context.as_ref(), true);
    let expected_shooter = values("/shot/expected_shooter", ndoc.shot.expected_shooter.as_ref(), false);
    let plan_context = values("/plan_context", ndoc.plan_context.as_ref(), true);
    if !problems.is_empty() {
        return Err(ContentError::Invalid(problems));
    }
    let cross = ndoc.cross.map(|c| cross_npc(file, c, roles)).transpose()?;
    let possession_value = ndoc.possession_value.map(|v| possession_value(r, file, v)).transpose()?;
    let npc = Npc {
        weights: ndoc.weights,
        personality: ndoc.personality,
        shot: ShotNpc { goal_value: ndoc.shot.goal_value },
        expected_keeper,
        expected_context,
        expected_shooter,
        plan_context,
        noise: ndoc.noise,
        carry: CarryNpc {
            turns: ndoc.carry.directions.iter().map(|&d| Turn::of(d)).collect(),
            directions: ndoc.carry.directions,
            with_ball_pace: ndoc.carry.with_ball_pace,
            lines,
        },
        defending: ndoc.defending,
        retention: ndoc.retention,
        cross,
        phases: ndoc.phases,
        bias: ndoc.bias,
        possession_value,
    };
    if npc.phases.windows(2).any(|w| w[0].until_x >= w[1].until_x) {
        return Err(ContentError::at(file, "/phases", "phases must be listed by increasing until_x"));
    }
    Ok(npc)
}

/// The lines that may carry (`/carry/lines`); an unknown one goes to `problems`.
fn carry_lines(file: &str, ids: &[String], roles: &Roles, problems: &mut Vec<Diagnostic>) -> Vec<Line> {
    let mut lines = Vec::new();
    for (k, l) in ids.iter().enumerate() {
        if !roles.lines.iter().any(|x| &x.id == l) || Line::from_id(l).is_none() {
            problems.push(Diagnostic::new(
                file,
                format!("/carry/lines/{k}"),
                format!("carry names unknown line '{l}'"),
            ));
        }
        // Unknown lines are reported above; the stand-in is never played.
        lines.push(Line::from_id(l).unwrap_or(Line::Midfield));
    }
    lines
}

/// Lines named at `at` (`cross.runners`, `cross.markers`), each a line of the roles.
fn lines_of(file: &str, ids: &[String], at: &str, roles: &Roles) -> Result<Vec<Line>, ContentError> {
    ids.iter()
        .enumerate()
        .map(|(k, l)| {
            Line::from_id(l).filter(|_| roles.lines.iter().any(|x| &x.id == l)).ok_or_else(|| {
                ContentError::at(
                    file,
                    format!("/{}/{k}", at.replace('.', "/")),
                    format!("{at} names unknown line '{l}'"),
                )
            })
        })
        .collect()
}

/// `npc.cross`: who runs onto a cross and who marks them.
fn cross_npc(file: &str, c: CrossDoc, roles: &Roles) -> Result<CrossNpc, ContentError> {
    Ok(CrossNpc {
        probability: c.probability,
        runners: lines_of(file, &c.runners, "cross.runners", roles)?,
        markers: lines_of(file, &c.markers, "cross.markers", roles)?,
        box_runs: c.box_runs,
        box_runs_from_x: c.box_runs_from_x,
    })
}

/// `npc.possession_value` (0.6.4): a weight ≥ 0 and, optionally, the lead of a skill.
fn possession_value(r: &Ruleset, file: &str, v: PossessionValue) -> Result<PossessionValueNpc, ContentError> {
    if !(v.weight >= 0.0 && v.weight.is_finite()) {
        let why = format!("possession_value.weight must be a number ≥ 0 (is {})", v.weight);
        return Err(ContentError::at(file, "/possession_value/weight", why));
    }
    let lead = match v.lead {
        None => None,
        Some(l) if !l.per_point.is_finite() => {
            let why = format!("possession_value.lead.per_point must be a finite number (is {})", l.per_point);
            return Err(ContentError::at(file, "/possession_value/lead/per_point", why));
        }
        Some(l) => {
            let skill = r.var(&l.skill).ok_or_else(|| {
                let why = format!("possession_value.lead names unknown variable '{}'", l.skill);
                ContentError::at(file, "/possession_value/lead/skill", why)
            })?;
            Some((skill, l.per_point))
        }
    };
    Ok(PossessionValueNpc { weight: v.weight, lead })
}

/// `npc.shot.expected_keeper` (`context` false: each name a value of a player's sheet),
/// `npc.shot.expected_context` or `npc.plan_context` (`context` true: each name a context value),
/// at JSON pointer `at` (its last segment names the field), each value inside its variable's
/// scale; what is wrong goes to `problems`, reported with the document's others.
fn expected_values(
    r: &Ruleset,
    file: &str,
    at: &str,
    values: Option<&std::collections::BTreeMap<String, f64>>,
    context: bool,
    problems: &mut Vec<Diagnostic>,
) -> Vec<(usize, f64)> {
    use microfut_core::ruleset::doc::VarKind;
    let field = at.rsplit('/').next().unwrap_or(at);
    let mut out = Vec::new();
    for (name, &v) in values.into_iter().flatten() {
        let pointer = format!("{at}/{name}");
        let Some(slot) = r.var(name) else {
            problems.push(Diagnostic::new(file, &pointer, format!("{field} names unknown variable '{name}'")));
            continue;
        };
        let var = &r.vars[slot];
        let kind_fits = match var.kind {
            VarKind::Context => context,
            VarKind::Identity => false,
            _ => !context,
        };
        if !kind_fits {
            let what = if context { "a context value" } else { "a value of a player's sheet" };
            problems.push(Diagnostic::new(file, &pointer, format!("{field} names '{name}', which is not {what}")));
        } else if !(v.is_finite() && v >= var.min && v <= var.max) {
            problems.push(Diagnostic::new(
                file,
                &pointer,
                format!("{field}.{name} must lie in its scale [{}, {}] (is {v})", var.min, var.max),
            ));
        } else {
            out.push((slot, v));
        }
    }
    out
}
