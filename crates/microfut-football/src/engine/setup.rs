//! From two clubs to the first whistle: the starting XI and bench by role, kick-off positions.

use super::content::{Formation, Rules};
use super::geometry::V2;
use super::state::{Ball, Line, Player, Restart, RestartKind, State};
use crate::club::{Club, ClubPersonality};
use crate::sheet::Sheet;

#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("club '{club}' has {available} players; its formation needs at least {needed}")]
    TooFewPlayers { club: String, available: usize, needed: usize },
    #[error("club '{club}' has no goalkeeper for formation {formation}")]
    NoGoalkeeper { club: String, formation: String },
    #[error("club '{club}': unknown formation '{formation}' (known: {known})")]
    UnknownFormation { club: String, formation: String, known: String },
    #[error("club '{club}', player '{player}' {pointer}: {message}")]
    Sheet { club: String, player: String, pointer: String, message: String },
    #[error("club '{club}': shirt number {shirt} is worn twice")]
    DuplicateShirt { club: String, shirt: u32 },
    #[error("club '{club}' /personality/{axis}: {value} is outside {lo}..{hi}")]
    Personality { club: String, axis: &'static str, value: i32, lo: i32, hi: i32 },
}

/// A side as it takes the field.
#[derive(Debug, Clone)]
pub struct Team {
    pub club: Club,
    pub formation: usize,
    /// Sheet index for each formation slot.
    pub lineup: Vec<usize>,
    pub bench: Vec<usize>,
    pub personality: ClubPersonality,
}

fn quality(s: &Sheet) -> i32 {
    s.attributes.values().sum::<i32>() + s.skills.values().sum::<i32>()
}

/// Picks the best fit for every slot: the slot's own role first, then the same line, then anyone
/// (never a non-keeper in goal); ties by overall level, then by shirt number.
pub fn select(rules: &Rules, club: &Club, formation: Option<&str>) -> Result<Team, SetupError> {
    let f = rules.formation(formation).ok_or_else(|| SetupError::UnknownFormation {
        club: club.id.clone(),
        formation: formation.unwrap_or_default().to_string(),
        known: rules.formations.iter().map(|f| f.id.as_str()).collect::<Vec<_>>().join(", "),
    })?;
    let formation_index = rules.formations.iter().position(|x| x.id == f.id).expect("found above");
    check_club(rules, club, f.slots.len())?;
    let mut used = vec![false; club.squad.len()];
    let lineup = fill_slots(rules, club, f, &mut used)?;
    let bench = name_bench(rules, club, &used);
    Ok(Team { club: club.clone(), formation: formation_index, lineup, bench, personality: club.personality })
}

/// What a club must be to take the field: its personality within the content's bounds, at least
/// `needed` players, no shirt worn twice.
fn check_club(rules: &Rules, club: &Club, needed: usize) -> Result<(), SetupError> {
    if let Some([lo, hi]) = rules.club_personality {
        let p = club.personality;
        for (axis, value) in
            [("verticality", p.verticality), ("security", p.security), ("risk_tolerance", p.risk_tolerance)]
        {
            if value < lo || value > hi {
                return Err(SetupError::Personality { club: club.id.clone(), axis, value, lo, hi });
            }
        }
    }
    // The formation says how many take the field.
    if club.squad.len() < needed {
        return Err(SetupError::TooFewPlayers { club: club.id.clone(), available: club.squad.len(), needed });
    }
    let mut shirts = std::collections::BTreeSet::new();
    for s in &club.squad {
        if !shirts.insert(s.shirt) {
            return Err(SetupError::DuplicateShirt { club: club.id.clone(), shirt: s.shirt });
        }
    }
    Ok(())
}

/// The squad player for each of the formation's slots (marking each `used`).
fn fill_slots(rules: &Rules, club: &Club, f: &Formation, used: &mut [bool]) -> Result<Vec<usize>, SetupError> {
    let line_of = |s: &Sheet| rules.roles.line_of(&s.role).and_then(Line::from_id);
    let mut lineup = vec![usize::MAX; f.slots.len()];
    // Keepers first so an outfield slot never takes the only goalkeeper.
    let mut order: Vec<usize> = (0..f.slots.len()).collect();
    order.sort_by_key(|&i| rules.roles.line_of(&f.slots[i].role) != Some("goalkeeper"));
    for i in order {
        let slot = &f.slots[i];
        let slot_line = rules.roles.line_of(&slot.role).and_then(Line::from_id);
        let best = club
            .squad
            .iter()
            .enumerate()
            .filter(|(k, s)| {
                !used[*k] && (slot_line == Some(Line::Goalkeeper)) == (line_of(s) == Some(Line::Goalkeeper))
            })
            .max_by_key(|(_, s)| {
                let fit = if s.role == slot.role {
                    2
                } else if line_of(s) == slot_line {
                    1
                } else {
                    0
                };
                (fit, quality(s), std::cmp::Reverse(s.shirt))
            });
        match best {
            Some((k, _)) => {
                used[k] = true;
                lineup[i] = k;
            }
            None if slot_line == Some(Line::Goalkeeper) => {
                return Err(SetupError::NoGoalkeeper { club: club.id.clone(), formation: f.id.clone() });
            }
            None => {
                return Err(SetupError::TooFewPlayers {
                    club: club.id.clone(),
                    available: club.squad.len(),
                    needed: f.slots.len(),
                });
            }
        }
    }
    Ok(lineup)
}

/// The bench, best first, from the players not `used`: the content's keepers first, then the
/// rest — only where substitutions exist (0.6: before, it was named and never used).
fn name_bench(rules: &Rules, club: &Club, used: &[bool]) -> Vec<usize> {
    let line_of = |s: &Sheet| rules.roles.line_of(&s.role).and_then(Line::from_id);
    let mut rest: Vec<usize> = (0..club.squad.len()).filter(|k| !used[*k]).collect();
    rest.sort_by_key(|&k| (std::cmp::Reverse(quality(&club.squad[k])), club.squad[k].shirt));
    let mut bench = Vec::new();
    let bench_size = if rules.substitutions.is_some() { rules.bench.size } else { 0 };
    let keepers: Vec<usize> =
        rest.iter().copied().filter(|&k| line_of(&club.squad[k]) == Some(Line::Goalkeeper)).collect();
    bench.extend(keepers.iter().take(rules.bench.goalkeepers.min(bench_size)));
    for k in rest {
        if bench.len() >= bench_size {
            break;
        }
        if !bench.contains(&k) {
            bench.push(k);
        }
    }
    bench.truncate(bench_size);
    bench
}

/// Where a slot stands at kick-off, in the team's attacking frame: inside its own half.
pub fn kickoff_spot(rules: &Rules, team: &Team, slot: usize) -> V2 {
    let s = &rules.formations[team.formation].slots[slot];
    let line = rules.pitch.length / 2.0 - rules.params.kickoff_line_gap;
    // The deepest-reaching slot stands at the line (a formation of all-zero x stays put).
    let max_x = rules.formations[team.formation].slots.iter().map(|s| s.x).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    V2::new((s.x * line / max_x).min(line), s.y)
}

/// The players of both teams, on their kick-off spots, facing the opponent's goal.
pub fn players(rules: &Rules, teams: &[Team; 2]) -> Result<Vec<Player>, SetupError> {
    let mut out = Vec::with_capacity(22);
    for team in teams {
        // A substitute must be able to come on: his sheet is checked now, not at the stoppage.
        for &k in &team.bench {
            let sheet = &team.club.squad[k];
            sheet.values(&rules.rs).map_err(|e| SetupError::Sheet {
                club: team.club.id.clone(),
                player: sheet.name.clone(),
                pointer: e.pointer,
                message: e.message,
            })?;
        }
    }
    for (t, team) in teams.iter().enumerate() {
        for (slot, &k) in team.lineup.iter().enumerate() {
            let sheet = &team.club.squad[k];
            let mut inputs = sheet.values(&rules.rs).map_err(|e| SetupError::Sheet {
                club: team.club.id.clone(),
                player: sheet.name.clone(),
                pointer: e.pointer,
                message: e.message,
            })?;
            if let Some(away) = rules.slots.away_side {
                inputs.set(away, t as f64);
            }
            let role = &rules.formations[team.formation].slots[slot].role;
            // Every formation role's line is checked when the revision loads.
            let line = rules.roles.line_of(role).and_then(Line::from_id).expect("checked by Rules::new");
            out.push(Player {
                team: t,
                sheet: k,
                shirt: sheet.shirt,
                slot,
                line,
                inputs,
                pos: V2::ZERO,
                dir: V2::ZERO,
                stamina: rules.params.stamina_start,
                still: 0,
                error: V2::ZERO,
                beaten_by: None,
                distance_covered: 0.0,
                moved: 0.0,
                pace: 0,
                duel: false,
                with_ball: false,
            });
        }
    }
    Ok(out)
}

/// Puts everyone on their kick-off spots; `kicking` gets the ball at the centre.
pub fn line_up_for_kickoff(rules: &Rules, teams: &[Team; 2], state: &mut State, kicking: usize) {
    let pitch = rules.pitch;
    for p in state.players.iter_mut() {
        let spot = kickoff_spot(rules, &teams[p.team], p.slot);
        p.pos = if state.attacks_right[p.team] { spot } else { pitch.turn(spot) };
        p.dir = if state.attacks_right[p.team] { V2::new(1.0, 0.0) } else { V2::new(-1.0, 0.0) };
        p.error = V2::ZERO;
        p.beaten_by = None;
        p.still = 0;
    }
    // The most advanced player of the kicking side takes it from the centre spot.
    let taker = (0..state.players.len())
        .filter(|&i| state.players[i].team == kicking && state.players[i].line != Line::Goalkeeper)
        .max_by(|&a, &b| {
            let fa = frame_x(rules, state, a);
            let fb = frame_x(rules, state, b);
            fa.total_cmp(&fb).then(b.cmp(&a))
        })
        .expect("a team has outfield players");
    state.ball = pitch.centre();
    state.ball_state =
        Ball::Dead(Restart { kind: RestartKind::KickOff, team: kicking, spot: pitch.centre(), taker: Some(taker) });
}

fn frame_x(rules: &Rules, state: &State, p: usize) -> f64 {
    let pos = state.players[p].pos;
    if state.attacks_right[state.players[p].team] { pos.x } else { rules.pitch.length - pos.x }
}
