//! Set pieces (0.6): corners, direct and indirect free kicks, penalties, throw-ins and goal kicks
//! as actions with their own pipelines, takers and NPC candidates.
//!
//! The problem: engine 0.5 only put the ball back in play — the taker was the nearest player (the
//! best finisher at a penalty, by a skill name in code) and then played on as in open play, so a
//! corner was a cross from the flag, a free kick a pass, a penalty a shot from 11 m against a
//! keeper who simply tested his reflexes. The decision: a revision may carry a set-pieces document
//! (`set_pieces.schema.json`) naming, for each restart, who takes it (the outfield player ranked
//! highest by a derived pipeline, or the nearest), what he may do (deliver into one of the box
//! zones, shoot over a wall, play short, throw, kick long) and with which pipelines; a penalty
//! taker picks a side and the keeper guesses one by the content's odds. Every number is content;
//! the NPC weighs these candidates like any other (exact chances, the same utility) and the
//! decision log names the restart as the phase. Its limits: no offside, so indirect free kicks
//! come only from the fouls content tags `indirect`; deliveries land at fixed zones (runners
//! and markers go there during the dead time), and a wall is the defenders nearest the line to
//! goal, standing at the restart distance. Revisions without the document play 0.5's restarts.

use super::content::lookup::{self as content, ContentError};
use super::geometry::V2;
use super::state::RestartKind;
use microfut_core::catalog::{Diagnostic, Labels, declared_schema};
use microfut_core::ruleset::{PipelineKind, RangeTable, Ruleset};
use serde::Deserialize;
use std::sync::Arc;

/// Who takes a restart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Taker {
    /// The outfield player on the pitch with the highest value of this derived pipeline.
    Rank(usize),
    /// The outfield player nearest the spot.
    Nearest,
}

/// A point in the box a delivery aims at, in the attacking frame: `depth` metres from the goal
/// line, `offset` metres from the goal's centre towards the far side (negative: the near side).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    pub id: String,
    pub label: Labels,
    pub depth: f64,
    pub offset: f64,
}

/// Where a penalty taker may aim: `y` metres from the goal's centre (the keeper's left is
/// negative), a modifier to his test, and how often the keeper dives that way.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aim {
    pub id: String,
    pub label: Labels,
    pub y: f64,
    pub modifier: f64,
    pub keeper_guess: f64,
}

#[derive(Debug, Clone)]
pub struct Penalty {
    pub taker: Taker,
    /// The taker's test and the keeper's, when he dives the right way.
    pub shot: usize,
    pub save: usize,
    pub aims: Vec<Aim>,
}

#[derive(Debug, Clone)]
pub struct Corner {
    pub taker: Taker,
    pub delivery: usize,
    /// Team-mates within this distance may be played short.
    pub short_range: f64,
}

#[derive(Debug, Clone)]
pub struct FreeKick {
    pub taker: Taker,
    pub shot: usize,
    pub delivery: usize,
    /// A direct free kick may be shot at goal from up to this distance …
    pub direct_max_distance: f64,
    /// … and this shot angle (°).
    pub direct_max_angle: f64,
    /// It may be delivered into the box from this depth of the attacking half on (x, m).
    pub delivery_min_x: f64,
    /// Players in the wall by the distance to goal.
    pub wall: Arc<RangeTable>,
    /// Metres between two players of the wall.
    pub wall_spacing: f64,
    /// Whether deliveries are offered from a spot where a wall forms (a direct free kick within
    /// the shooting zone). Without them the taker shoots or plays it short there, and delivers
    /// from wide or deep spots, where no wall has taken markers out of the box.
    pub deliver_past_wall: bool,
}

#[derive(Debug, Clone)]
pub struct ThrowIn {
    pub taker: Taker,
    pub pipeline: usize,
    /// The longest throw (m).
    pub range: f64,
}

#[derive(Debug, Clone)]
pub struct GoalKick {
    pub pipeline: usize,
}

/// A revision's set pieces, resolved by name once.
#[derive(Debug, Clone)]
pub struct SetPieces {
    pub zones: Vec<Zone>,
    pub penalty: Penalty,
    pub corner: Corner,
    pub free_kick: FreeKick,
    pub throw_in: ThrowIn,
    pub goal_kick: GoalKick,
    /// The vocabulary slot the engine writes an aim's modifier into (penalties).
    pub aim_slot: usize,
}

impl SetPieces {
    /// The zone a delivery of this kind of restart may aim at, by index.
    pub fn zone(&self, i: usize) -> Option<&Zone> {
        self.zones.get(i)
    }

    /// Which restarts the document covers (every one but the kick-off).
    pub fn covers(kind: RestartKind) -> bool {
        !matches!(kind, RestartKind::KickOff)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TakerDoc {
    rank: Option<String>,
    #[serde(default)]
    nearest: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Takers {
    penalty: TakerDoc,
    corner: TakerDoc,
    free_kick: TakerDoc,
    throw_in: TakerDoc,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PenaltyDoc {
    shot: String,
    save: String,
    aims: Vec<Aim>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CornerDoc {
    delivery: String,
    short_range: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FreeKickDoc {
    shot: String,
    delivery: String,
    direct_max_distance: f64,
    direct_max_angle: f64,
    delivery_min_x: f64,
    wall: String,
    wall_spacing: f64,
    /// Engine 0.5.5: whether the taker may deliver into the box from a spot where a wall stands
    /// (absent: yes, as before).
    #[serde(default)]
    deliver_past_wall: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThrowInDoc {
    pipeline: String,
    range: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalKickDoc {
    pipeline: String,
}

/// The document (`$schema` and `note` are for editors and people; the schema checks them).
#[derive(Debug, Deserialize)]
struct Doc {
    takers: Takers,
    zones: Vec<Zone>,
    penalty: PenaltyDoc,
    corner: CornerDoc,
    free_kick: FreeKickDoc,
    throw_in: ThrowInDoc,
    goal_kick: GoalKickDoc,
    /// The vocabulary variable an aim's modifier is written into.
    aim_variable: String,
}

/// The revision's set pieces, or `None` when it carries no set-pieces document (0.5).
pub fn resolve(rs: &Ruleset) -> Result<Option<SetPieces>, ContentError> {
    let Some((name, value)) =
        rs.revision.documents.iter().find(|(_, d)| declared_schema(d) == Some("set_pieces.schema.json"))
    else {
        return Ok(None);
    };
    let file = rs.revision.file(name);
    let doc: Doc =
        microfut_core::catalog::from_value_located(value.clone(), "set_pieces.schema.json").map_err(|e| {
            let message = format!("cannot read as set_pieces.schema.json: {}", e.message);
            ContentError::Invalid(vec![Diagnostic::new(file.clone(), e.pointer, message)])
        })?;
    // Every name the document gives, checked where it is written; all reported together.
    let mut problems = Vec::new();
    let mut action = |id: &str, at: &str| action_pipeline(rs, &file, id, at, &mut problems);
    let penalty_shot = action(&doc.penalty.shot, "/penalty/shot");
    let penalty_save = action(&doc.penalty.save, "/penalty/save");
    let corner_delivery = action(&doc.corner.delivery, "/corner/delivery");
    let fk_shot = action(&doc.free_kick.shot, "/free_kick/shot");
    let fk_delivery = action(&doc.free_kick.delivery, "/free_kick/delivery");
    let throw = action(&doc.throw_in.pipeline, "/throw_in/pipeline");
    let goal_kick = action(&doc.goal_kick.pipeline, "/goal_kick/pipeline");
    let mut taker = |t: &TakerDoc, at: &str| taker_rule(rs, &file, t, at, &mut problems);
    let takers = [
        taker(&doc.takers.penalty, "/takers/penalty"),
        taker(&doc.takers.corner, "/takers/corner"),
        taker(&doc.takers.free_kick, "/takers/free_kick"),
        taker(&doc.takers.throw_in, "/takers/throw_in"),
    ];
    let wall = content::named_range_table(rs, &file, "/free_kick/wall", &doc.free_kick.wall)
        .map_err(|d| problems.push(d))
        .ok();
    let aim_slot = content::named_var(rs, &file, "/aim_variable", &doc.aim_variable).unwrap_or_else(|d| {
        problems.push(d);
        0
    });
    if !problems.is_empty() {
        return Err(ContentError::Invalid(problems));
    }
    check_values(&doc).map_err(|(at, why)| ContentError::Invalid(vec![Diagnostic::new(file.clone(), at, why)]))?;
    Ok(Some(SetPieces {
        zones: doc.zones,
        penalty: Penalty { taker: takers[0], shot: penalty_shot, save: penalty_save, aims: doc.penalty.aims },
        corner: Corner { taker: takers[1], delivery: corner_delivery, short_range: doc.corner.short_range },
        free_kick: FreeKick {
            taker: takers[2],
            shot: fk_shot,
            delivery: fk_delivery,
            direct_max_distance: doc.free_kick.direct_max_distance,
            direct_max_angle: doc.free_kick.direct_max_angle,
            delivery_min_x: doc.free_kick.delivery_min_x,
            wall: wall.expect("checked above"),
            wall_spacing: doc.free_kick.wall_spacing,
            deliver_past_wall: doc.free_kick.deliver_past_wall.unwrap_or(true),
        },
        throw_in: ThrowIn { taker: takers[3], pipeline: throw, range: doc.throw_in.range },
        goal_kick: GoalKick { pipeline: goal_kick },
        aim_slot,
    }))
}

/// The action pipeline named `id` at `at`, or a problem noted (and 0 in its place).
fn action_pipeline(rs: &Ruleset, file: &str, id: &str, at: &str, problems: &mut Vec<Diagnostic>) -> usize {
    match content::named_pipeline(rs, file, at, id) {
        Ok(i) if rs.pipelines[i].kind == PipelineKind::Action => i,
        Ok(_) => {
            let why = format!("pipeline '{id}' must be an action pipeline (rolled against the dice)");
            problems.push(Diagnostic::new(file, at, why));
            0
        }
        Err(d) => {
            problems.push(d);
            0
        }
    }
}

/// A taker rule at `at`: ranked by a derived pipeline or the nearest player; a problem noted
/// (and the nearest in its place) for anything else.
fn taker_rule(rs: &Ruleset, file: &str, t: &TakerDoc, at: &str, problems: &mut Vec<Diagnostic>) -> Taker {
    match (&t.rank, t.nearest) {
        (Some(id), false) => {
            let at = format!("{at}/rank");
            match content::named_pipeline(rs, file, &at, id) {
                Ok(i) if rs.pipelines[i].kind == PipelineKind::Derived => Taker::Rank(i),
                Ok(_) => {
                    let why = format!("pipeline '{id}' must be a derived value (it ranks players)");
                    problems.push(Diagnostic::new(file, at, why));
                    Taker::Nearest
                }
                Err(d) => {
                    problems.push(d);
                    Taker::Nearest
                }
            }
        }
        (None, true) => Taker::Nearest,
        _ => {
            problems.push(Diagnostic::new(
                file,
                at,
                "a taker is either ranked by a derived pipeline (rank) or the nearest player (nearest: true)",
            ));
            Taker::Nearest
        }
    }
}

/// The document's numbers: a zone and an aim at least, the keeper's guesses shares adding up to
/// 1, distances positive. The first problem: (pointer, why).
fn check_values(doc: &Doc) -> Result<(), (&'static str, String)> {
    if doc.zones.is_empty() {
        return Err(("/zones", "at least one delivery zone is needed".into()));
    }
    if doc.penalty.aims.is_empty() {
        return Err(("/penalty/aims", "at least one aim is needed".into()));
    }
    let guesses: f64 = doc.penalty.aims.iter().map(|a| a.keeper_guess).sum();
    if doc.penalty.aims.iter().any(|a| !(0.0..=1.0).contains(&a.keeper_guess)) || (guesses - 1.0).abs() > 1e-9 {
        let why = format!("the keeper's guesses are shares that add up to 1 (they add up to {guesses})");
        return Err(("/penalty/aims", why));
    }
    for (at, v) in [
        ("/corner/short_range", doc.corner.short_range),
        ("/free_kick/direct_max_distance", doc.free_kick.direct_max_distance),
        ("/free_kick/wall_spacing", doc.free_kick.wall_spacing),
        ("/throw_in/range", doc.throw_in.range),
    ] {
        if v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return Err((at, format!("must be positive (is {v})")));
        }
    }
    Ok(())
}

/// Where a zone lies in the attacking frame for a delivery from `from` (frame coordinates):
/// positive offsets go towards the far side.
pub fn zone_point(zone: &Zone, from: V2, pitch: &super::geometry::Pitch) -> V2 {
    let side = if from.y < pitch.goal_y { 1.0 } else { -1.0 };
    V2::new(pitch.length - zone.depth, pitch.goal_y + side * zone.offset)
}

// ---- taking set pieces ----

use super::Match;
use super::candidate::{Kind, Target};
use super::state::Line;

impl Match {
    /// The rule naming who takes a restart of this kind at `spot`, when the set pieces name one
    /// (the keeper takes goal kicks, as the restart says; a free kick outside the delivery zone
    /// is taken quickly by the player fouled).
    pub(super) fn set_piece_taker(&self, kind: RestartKind, t: usize, spot: V2) -> Option<Taker> {
        let sp = self.rules.set_pieces.as_ref()?;
        match kind {
            RestartKind::Penalty => Some(sp.penalty.taker),
            RestartKind::Corner => Some(sp.corner.taker),
            RestartKind::FreeKick | RestartKind::IndirectFreeKick => {
                (self.frame(t, spot).x >= sp.free_kick.delivery_min_x).then_some(sp.free_kick.taker)
            }
            RestartKind::ThrowIn => Some(sp.throw_in.taker),
            RestartKind::GoalKick | RestartKind::KickOff => None,
        }
    }

    /// Who would take a restart of this kind for team `t` at `spot` (world coordinates) as
    /// things stand, when the revision's set pieces name a rule for it. A read: no die.
    pub fn restart_taker(&self, kind: RestartKind, t: usize, spot: V2) -> Option<usize> {
        self.set_piece_taker(kind, t, spot).map(|rule| self.pick_taker(t, rule, spot))
    }

    /// The outfield player of team `t` a taker rule picks: the highest ranked (the first of
    /// equals), or the nearest to the spot.
    pub(super) fn pick_taker(&self, t: usize, rule: Taker, spot: V2) -> usize {
        let outfield = (0..self.play.state.players.len())
            .filter(|&p| self.play.state.players[p].team == t && self.play.state.players[p].line != Line::Goalkeeper);
        match rule {
            Taker::Rank(pipe) => outfield
                .map(|p| (self.estimate(p, pipe).value, p))
                .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
                .map(|(_, p)| p),
            Taker::Nearest => outfield.min_by(|&a, &b| {
                let da = self.play.state.players[a].pos.dist(spot);
                let db = self.play.state.players[b].pos.dist(spot);
                da.total_cmp(&db).then(a.cmp(&b))
            }),
        }
        .expect("a side fields outfield players")
    }

    /// A free kick of team `t` from where it may be delivered into the box (0.6).
    pub(super) fn delivery_spot(&self, kind: RestartKind, t: usize, spot: V2) -> bool {
        match (&self.rules.set_pieces, kind) {
            (Some(sp), RestartKind::FreeKick | RestartKind::IndirectFreeKick) => {
                self.frame(t, spot).x >= sp.free_kick.delivery_min_x
            }
            _ => false,
        }
    }

    /// A direct free kick close and central enough to be shot at goal by team `t`.
    pub(super) fn direct_shot_spot(&self, t: usize, spot: V2) -> bool {
        let Some(sp) = &self.rules.set_pieces else { return false };
        let pitch = self.rules.pitch;
        let f = self.frame(t, spot);
        f.dist(pitch.goal()) <= sp.free_kick.direct_max_distance
            && pitch.shot_angle(f, self.rules.params.shot_dx_floor) <= sp.free_kick.direct_max_angle
    }

    /// The middle of the delivery zones for a ball played from `spot` (world coordinates): where
    /// runners and markers gather during the dead time.
    pub(super) fn zones_centre(&self, sp: &SetPieces, t: usize, spot: V2) -> V2 {
        let pitch = self.rules.pitch;
        let from = self.frame(t, spot);
        let n = sp.zones.len() as f64;
        let sum = sp.zones.iter().fold(V2::ZERO, |acc, z| acc + zone_point(z, from, &pitch));
        self.frame(t, sum * (1.0 / n))
    }

    /// Players in the wall for a free kick from where player `c` stands.
    pub(super) fn wall_size(&self, c: usize) -> u32 {
        let Some(sp) = &self.rules.set_pieces else { return 0 };
        let t = self.play.state.players[c].team;
        let d = self.frame(t, self.play.state.players[c].pos).dist(self.rules.pitch.goal());
        sp.free_kick.wall.value(d).max(0.0).round() as u32
    }

    /// The defenders nearest the line from the free kick to goal stand in a wall across it, at
    /// the restart distance (the keeper stays in goal).
    pub(super) fn form_wall(&mut self, t: usize, taker: usize, spot: V2) {
        let Some(sp) = self.rules.set_pieces.clone() else { return };
        let pitch = self.rules.pitch;
        let goal = self.frame(t, pitch.goal());
        let size = self.wall_size(taker) as usize;
        if size == 0 {
            return;
        }
        let dir = (goal - spot).unit();
        let centre = spot + dir * self.rules.params.restart_distance;
        let across = V2::new(-dir.y, dir.x);
        let mut near: Vec<(f64, usize)> = (0..self.play.state.players.len())
            .filter(|&p| self.play.state.players[p].team != t && self.play.state.players[p].line != Line::Goalkeeper)
            .map(|p| (self.play.state.players[p].pos.dist(centre), p))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (k, &(_, p)) in near.iter().take(size).enumerate() {
            let offset = (k as f64 - (size as f64 - 1.0) / 2.0) * sp.free_kick.wall_spacing;
            let at = pitch.clamp(centre + across * offset);
            let pl = &mut self.play.state.players[p];
            pl.pos = at;
            pl.dir = dir * -1.0;
            pl.still = 0;
        }
    }

    /// The candidates of a set piece's taker (the restart being taken is `kind`).
    pub(super) fn set_piece_candidates(&mut self, c: usize, kind: RestartKind) {
        let Some(sp) = self.rules.set_pieces.clone() else { return };
        let t = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let pitch = self.rules.pitch;
        let goal_w = self.frame(t, pitch.goal());
        match kind {
            RestartKind::Penalty => {
                for (i, aim) in sp.penalty.aims.iter().enumerate() {
                    let (p_test, p_goal) = self.penalty_estimate(c, i);
                    let dest = self.frame(t, V2::new(pitch.length, pitch.goal_y + aim.y));
                    self.push_candidate(c, Kind::Shoot, Target::None, dest, None, p_test, p_test);
                    let cand = self.scratch.candidates.last_mut().expect("pushed");
                    cand.goal_chance = p_goal;
                    cand.zone = Some(aim.id.as_str().into());
                    cand.zone_index = Some(i as u8);
                    cand.pipe = Some(sp.penalty.shot);
                }
            }
            RestartKind::Corner => {
                self.deliveries(c, &sp, sp.corner.delivery);
                self.passes(c, Kind::Pass, self.rules.pipes.pass, sp.corner.short_range);
            }
            RestartKind::FreeKick | RestartKind::IndirectFreeKick => {
                // A wall stands where a direct free kick may be shot.
                let walled = kind == RestartKind::FreeKick && self.direct_shot_spot(t, cpos);
                if walled {
                    let (p_shot, p_goal, priced) = self.strike_estimate(c, sp.free_kick.shot);
                    self.push_candidate(c, Kind::Shoot, Target::None, goal_w, None, p_shot, p_shot);
                    let cand = self.scratch.candidates.last_mut().expect("pushed");
                    (cand.goal_chance, cand.priced_goal) = (p_goal, Some(priced));
                    cand.pipe = Some(sp.free_kick.shot);
                }
                if self.frame(t, cpos).x >= sp.free_kick.delivery_min_x && (sp.free_kick.deliver_past_wall || !walled) {
                    self.deliveries(c, &sp, sp.free_kick.delivery);
                }
                let range = self.get(c, self.rules.slots.range);
                self.passes(c, Kind::Pass, self.rules.pipes.pass, range);
            }
            RestartKind::ThrowIn => self.passes(c, Kind::Throw, sp.throw_in.pipeline, sp.throw_in.range),
            RestartKind::GoalKick => {
                let range = self.get(c, self.rules.slots.range);
                self.passes(c, Kind::Pass, sp.goal_kick.pipeline, range);
            }
            RestartKind::KickOff => {}
        }
        if self.scratch.candidates.is_empty() {
            // Nobody within reach (a throw with every team-mate far away): the nearest anyway.
            let range = f64::INFINITY;
            let (k, pipe) = match kind {
                RestartKind::ThrowIn => (Kind::Throw, sp.throw_in.pipeline),
                RestartKind::GoalKick => (Kind::Pass, sp.goal_kick.pipeline),
                _ => (Kind::Pass, self.rules.pipes.pass),
            };
            self.passes(c, k, pipe, range);
        }
    }

    /// A delivery to each of the content's zones.
    fn deliveries(&mut self, c: usize, sp: &SetPieces, pipe: usize) {
        let t = self.play.state.players[c].team;
        let from = self.frame(t, self.play.state.players[c].pos);
        for (i, z) in sp.zones.iter().enumerate() {
            let landing = self.frame(t, zone_point(z, from, &self.rules.pitch));
            let (p_cross, keep, goal, priced) = self.cross_estimate(c, landing, pipe);
            self.push_candidate(c, Kind::Cross, Target::None, landing, None, p_cross, keep);
            let cand = self.scratch.candidates.last_mut().expect("pushed");
            (cand.goal_chance, cand.priced_goal) = (goal, Some(priced));
            cand.zone = Some(z.id.as_str().into());
            cand.zone_index = Some(i as u8);
            cand.pipe = Some(pipe);
        }
    }

    /// A pass (or throw) with `pipe` to every team-mate from the shortest pass up to `range`.
    fn passes(&mut self, c: usize, kind: Kind, pipe: usize, range: f64) {
        let t = self.play.state.players[c].team;
        let cpos = self.play.state.players[c].pos;
        let min = self.rules.params.pass_min_distance;
        for r in 0..self.play.state.players.len() {
            if r == c || self.play.state.players[r].team != t {
                continue;
            }
            let rpos = self.play.state.players[r].pos;
            let d = cpos.dist(rpos);
            if d < min || d > range {
                continue;
            }
            let (p_pass, keep) = self.pass_estimate(c, r, rpos, pipe);
            let shirt = self.play.state.players[r].shirt;
            self.push_candidate(c, kind, Target::Player(shirt), rpos, Some(r), p_pass, keep);
            self.scratch.candidates.last_mut().expect("pushed").pipe = Some(pipe);
        }
    }

    /// (side, the taker's test, the chance of a goal) of every side a penalty of team `t` may be
    /// aimed at: the content's taker on the spot, the keeper on his line. A constructed read:
    /// the two are moved there, no die is drawn. Empty without set pieces.
    pub fn penalty_chances(&mut self, t: usize) -> Vec<(String, f64, f64)> {
        let Some(sp) = self.rules.set_pieces.clone() else { return Vec::new() };
        let pitch = self.rules.pitch;
        let spot = self.frame(t, V2::new(pitch.length - self.rules.params.penalty_spot_distance, pitch.goal_y));
        let taker = self.pick_taker(t, sp.penalty.taker, spot);
        let keeper = self.keeper(1 - t);
        let goal_dir = (self.frame(t, pitch.goal()) - spot).unit();
        self.place(taker, spot, goal_dir);
        self.place(keeper, self.frame(t, V2::new(pitch.length, pitch.goal_y)), goal_dir * -1.0);
        (0..sp.penalty.aims.len())
            .map(|i| {
                let (test, goal) = self.penalty_estimate(taker, i);
                (sp.penalty.aims[i].id.clone(), test, goal)
            })
            .collect()
    }

    /// Sets the penalty taker's context for aim `i` and evaluates his test.
    pub(super) fn prepare_penalty(&mut self, c: usize, i: usize) -> microfut_core::pipeline::Resolution {
        let sp = self.rules.set_pieces.clone().expect("penalties with set pieces");
        let aim = &sp.penalty.aims[i];
        let (_, _) = self.prepare_strike(c, sp.penalty.shot);
        self.set(c, sp.aim_slot, aim.modifier);
        self.estimate(c, sp.penalty.shot)
    }

    /// (the taker's test, the chance of a goal) aiming at side `i`: summed over his margins —
    /// on target, and not saved by a keeper who dives that way with the content's odds (a weak
    /// shot is saveable whichever way he dives).
    pub(super) fn penalty_estimate(&mut self, c: usize, i: usize) -> (f64, f64) {
        let sp = self.rules.set_pieces.clone().expect("penalties with set pieces");
        let res = self.prepare_penalty(c, i);
        let Some(d) = res.diff().filter(|_| res.possible) else { return (0.0, 0.0) };
        let t = self.play.state.players[c].team;
        let k = self.keeper(1 - t);
        self.prepare_keeper(k, c);
        let guess = sp.penalty.aims[i].keeper_guess;
        let spec = self.rules.rs.odds.spec();
        let mut goal = 0.0;
        for (dd, w) in [(d.d, 1.0 - d.f), (d.d + 1, d.f)] {
            if w == 0.0 {
                continue;
            }
            for total in spec.min_total()..=spec.max_total() {
                let p = self.rules.rs.odds.exactly(total).as_f64() * w;
                let margin = total as i32 - dd;
                let dives = match self.rules.margins.shot(margin) {
                    super::content::outcomes::ShotOutcome::OffTarget => continue,
                    super::content::outcomes::ShotOutcome::Weak => 1.0,
                    super::content::outcomes::ShotOutcome::OnTarget => guess,
                };
                self.set_scaled(k, self.rules.slots.shot_margin, margin as f64);
                let save = self.estimate(k, sp.penalty.save);
                let beaten = match save.diff().filter(|_| save.possible) {
                    Some(kd) => self.beat_keeper(margin, kd),
                    None => 1.0,
                };
                goal += p * (1.0 - dives * (1.0 - beaten));
            }
        }
        (res.chance(), goal)
    }

    /// A penalty aimed at side `i`: the taker's test, the keeper's dive (content odds), his test
    /// when he guessed right or the shot is weak.
    pub(super) fn penalty(&mut self, c: usize, i: usize) {
        let sp = self.rules.set_pieces.clone().expect("penalties with set pieces");
        let t = self.play.state.players[c].team;
        let res = self.prepare_penalty(c, i);
        let roll = self.roll(c, sp.penalty.shot, &res, super::projection::RollRole::Action);
        let margin = roll.margin;
        self.play.stats[t].shots += 1;
        self.play.stats[t].shot_probability_sum += res.chance();
        let from = self.play.state.players[c].pos;
        let aim = &sp.penalty.aims[i];
        let facts = ShotFacts {
            by: self.who(c),
            distance: round2(from.dist(self.frame(t, self.rules.pitch.goal()))),
            margin,
            probability: (res.chance() * 10_000.0).round() / 10_000.0,
            header: false,
            target_y: round2(self.rules.pitch.goal_y + aim.y),
            set_piece: Some("penalty".into()),
            aim: Some(aim.id.clone()),
            wall: None,
        };
        let outcome = if res.possible { self.rules.shot_outcome.of(margin as f64) } else { ShotOutcome::OffTarget };
        if outcome == ShotOutcome::OffTarget {
            self.shot_off_target(t, &facts);
            return;
        }
        self.play.stats[t].on_target += 1;
        let dive = self.keeper_dive(&sp.penalty.aims);
        let k = self.keeper(1 - t);
        let guess = Some(sp.penalty.aims[dive].id.clone());
        let (saved, keeper) = if dive == i || outcome == ShotOutcome::Weak {
            self.penalty_save(c, k, sp.penalty.save, margin, guess)
        } else {
            (false, super::events::KeeperTest { value: 0.0, margin: 0, position_error: 0.0, guess })
        };
        if !saved {
            self.play.stats[t].penalty_goals += 1;
            self.event(facts.event("goal", Some(keeper)));
            self.goal(c);
            return;
        }
        self.play.stats[1 - t].saves += 1;
        let kept = keeper.margin;
        self.event(facts.event("saved", Some(keeper)));
        let kw = self.who(k);
        self.event(EventKind::Save { by: kw, margin: kept, outcome: "hold".into() });
        self.hold(k);
    }

    /// The side the keeper dives to before the ball is struck, by the content's odds.
    fn keeper_dive(&mut self, aims: &[Aim]) -> usize {
        let u = self.play.dice.unit();
        let mut acc = 0.0;
        aims.iter()
            .position(|a| {
                acc += a.keeper_guess;
                u < acc
            })
            .unwrap_or(aims.len() - 1)
    }

    /// Keeper `k`'s save test against `c`'s penalty struck with `margin` (`save`: the test's
    /// pipeline): whether he saves it, and the test as the event tells it.
    fn penalty_save(
        &mut self,
        c: usize,
        k: usize,
        save: usize,
        margin: i32,
        guess: Option<String>,
    ) -> (bool, super::events::KeeperTest) {
        self.prepare_keeper(k, c);
        self.set_scaled(k, self.rules.slots.shot_margin, margin as f64);
        let (kres, kroll) = self.test(k, save, super::projection::RollRole::Save);
        let saved = if self.rules.params.save_rule == 0.0 { kroll.success } else { kroll.margin > margin };
        let test = super::events::KeeperTest {
            value: kres.value,
            margin: kroll.margin,
            position_error: round2(self.get(k, self.rules.slots.gk_position_error)),
            guess,
        };
        (saved, test)
    }
}

use super::actions::ShotFacts;
use super::content::outcomes::ShotOutcome;
use super::events::EventKind;
use super::round2;
