//! Whether a club is legal (document §18): squad size, total net cost within the budget, every
//! player valid and within his age cap, cover for every line, unique shirt numbers. Every problem
//! is reported, per player and field.

use super::Club;
use super::rules::ClubRules;
use crate::sheet::rules::RulesError;
use crate::sheet::{Roles, SheetError, Xp, XpRules, merge};
use microfut_core::catalog::Diagnostic;
use microfut_core::ruleset::{Missing, Ruleset};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// One problem, located by JSON pointer into the club file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClubProblem {
    pub pointer: String,
    /// `Ivo Batista (#9)` when the problem is a player's.
    pub player: Option<String>,
    pub message: String,
}

impl ClubProblem {
    /// The problem as `microfut club validate` prints it for `file`:
    /// `file#/squad/3 (Ivo Batista (#9)): message`. The server words its refusals the same way.
    pub fn line(&self, file: &str) -> String {
        let at = if self.pointer.is_empty() { String::new() } else { format!("#{}", self.pointer) };
        let who = self.player.as_ref().map(|w| format!(" ({w})")).unwrap_or_default();
        format!("{file}{at}{who}: {}", self.message)
    }
}

impl fmt::Display for ClubProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "/".to_string() } else { self.pointer.clone() };
        match &self.player {
            Some(p) => write!(f, "{at} ({p}): {}", self.message),
            None => write!(f, "{at}: {}", self.message),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerSummary {
    pub index: usize,
    pub name: String,
    pub shirt: u32,
    pub role: String,
    pub line: Option<String>,
    pub age: u32,
    pub positive: f64,
    pub net: f64,
    pub cap: f64,
    pub band: String,
    pub band_label: Option<microfut_core::catalog::Labels>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClubReport {
    pub club: String,
    pub name: String,
    pub revision: String,
    pub budget: u64,
    pub total_net: f64,
    /// Budget minus the squad's net cost, exactly (it may exceed 2⁶⁴: a string in JSON).
    pub left: Xp,
    pub players: Vec<PlayerSummary>,
    /// Players per line.
    pub lines: BTreeMap<String, usize>,
    pub problems: Vec<ClubProblem>,
}

impl ClubReport {
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
}

const BY: &str = "club validation";

impl Club {
    /// Checks a club under a revision. `schema` holds problems the club file's schema found (see
    /// [`Club::read`]); they are merged with these checks so a field is reported once.
    pub fn validate(&self, rs: &Ruleset, schema: Vec<Diagnostic>) -> Result<ClubReport, RulesError> {
        let rules = ClubRules::need(rs, BY)?;
        let roles = match Roles::from_revision(&rs.revision) {
            Ok(Some(r)) => r,
            _ => {
                return Err(Missing {
                    revision: rs.label(),
                    what: "document",
                    name: "roles.json".into(),
                    needed_by: BY,
                }
                .into());
            }
        };
        let xp = XpRules::from_ruleset(rs)?;
        let mut problems: Vec<ClubProblem> = Vec::new();
        let mut club_level: Vec<SheetError> = Vec::new();
        let who = |i: usize| {
            let s = &self.squad[i];
            format!("{} (#{})", s.name, s.shirt)
        };

        if self.name.trim().is_empty() {
            club_level.push(SheetError::new("/name", "a club needs a name"));
        }
        let [lo, hi] = rules.personality.scale;
        let p = &self.personality;
        for (k, v) in [("verticality", p.verticality), ("security", p.security), ("risk_tolerance", p.risk_tolerance)] {
            if v < lo || v > hi {
                club_level.push(SheetError::new(format!("/personality/{k}"), format!("{v} is outside {lo}..{hi}")));
            }
        }
        if rules.identity(&self.identity).is_none() {
            let known: Vec<&str> = rules.generator.identities.iter().map(|i| i.id.as_str()).collect();
            club_level.push(SheetError::new(
                "/identity",
                format!(
                    "unknown identity '{}'{} (identities: {})",
                    self.identity,
                    crate::sheet::name_hint(&self.identity, &known),
                    known.join(", ")
                ),
            ));
        }
        if self.squad.len() != rules.squad.size {
            club_level.push(SheetError::new(
                "/squad",
                format!("{} players; a squad has {}", self.squad.len(), rules.squad.size),
            ));
        }

        let mut players = Vec::new();
        let mut lines: BTreeMap<String, usize> = roles.lines.iter().map(|l| (l.id.clone(), 0)).collect();
        // Exact: a budget up to u64::MAX has no f64 image, and the sum of the players' costs
        // is compared with it and subtracted from it.
        let mut total = Xp::ZERO;
        let mut player_problems: Vec<SheetError> = Vec::new();
        for (i, s) in self.squad.iter().enumerate() {
            for e in s.problems(rs)? {
                player_problems.push(SheetError::new(format!("/squad/{i}{}", e.pointer), e.message));
            }
            if let Some(c) = &s.club
                && c != &self.id
                && c != &self.name
            {
                player_problems.push(SheetError::new(
                    format!("/squad/{i}/club"),
                    format!("'{c}', but this is {} ({})", self.name, self.id),
                ));
            }
            let totals = xp.totals(s);
            total = Xp::from_content(totals.net).and_then(|n| total.checked_add(n)).unwrap_or(total);
            let line = roles.line_of(&s.role).map(str::to_string);
            if let Some(l) = &line {
                *lines.entry(l.clone()).or_default() += 1;
            }
            players.push(PlayerSummary {
                index: i,
                name: s.name.clone(),
                shirt: s.shirt,
                role: s.role.clone(),
                line,
                age: s.age,
                positive: totals.positive,
                net: totals.net,
                cap: xp.cap(s.age as f64),
                band: xp.band(totals.net).tag,
                band_label: xp.band(totals.net).label,
            });
        }
        let mut worn: BTreeMap<u32, usize> = BTreeMap::new();
        for (i, s) in self.squad.iter().enumerate() {
            if let Some(&first) = worn.get(&s.shirt) {
                player_problems.push(SheetError::new(
                    format!("/squad/{i}/shirt"),
                    format!("#{} is also worn by {} (/squad/{first})", s.shirt, self.squad[first].name),
                ));
            } else {
                worn.insert(s.shirt, i);
            }
        }
        let budget = Xp::whole(i128::from(self.budget));
        let left = budget.checked_sub(total).unwrap_or(Xp::ZERO);
        if total > budget {
            club_level.push(SheetError::new(
                "/budget",
                format!(
                    "the squad costs {} net XP, over the budget of {} by {}",
                    total.grouped(),
                    budget.grouped(),
                    Xp::ZERO.checked_sub(left).unwrap_or(Xp::ZERO).grouped()
                ),
            ));
        }
        for (line, min) in &rules.squad.min_per_line {
            let have = lines.get(line).copied().unwrap_or(0);
            if have < *min {
                let label = roles.lines.iter().find(|l| &l.id == line).map_or(line.as_str(), |l| l.label.en.as_str());
                club_level.push(SheetError::new(
                    "/squad",
                    format!(
                        "{have} player(s) in the {} line ({line}); cover needs at least {min}",
                        label.to_lowercase()
                    ),
                ));
            }
        }

        club_level.extend(player_problems);
        for e in merge(schema, club_level) {
            let player = e
                .pointer
                .strip_prefix("/squad/")
                .and_then(|rest| rest.split('/').next())
                .and_then(|i| i.parse::<usize>().ok())
                .filter(|i| *i < self.squad.len())
                .map(who);
            problems.push(ClubProblem { pointer: e.pointer, player, message: e.message });
        }
        Ok(ClubReport {
            club: self.id.clone(),
            name: self.name.clone(),
            revision: rs.label(),
            budget: self.budget,
            total_net: total.to_f64(),
            left,
            players,
            lines,
            problems,
        })
    }
}
