//! A revision's `club_rules.json`: what makes a squad valid (document §18) and every number of the
//! squad generator (§19). Read here, checked for meaning here; used by `validate` and `generate`.

use crate::sheet::rules::RulesError;
use crate::sheet::{Foot, Roles, SheetRules, Trait, TraitKind, XpRules};
use microfut_core::catalog::{Diagnostic, Labels, Revision};
use microfut_core::ruleset::Ruleset;
use serde::Deserialize;
use std::collections::BTreeMap;

pub const SCHEMA: &str = "club_rules.schema.json";

#[derive(Debug, Clone, Deserialize)]
pub struct ClubRules {
    pub squad: SquadRules,
    pub personality: ScaleRule,
    pub budgets: Vec<BudgetPreset>,
    pub generator: Generator,
    #[serde(skip)]
    pub file: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SquadRules {
    pub size: usize,
    pub min_per_line: BTreeMap<String, usize>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ScaleRule {
    pub scale: [i32; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct BudgetPreset {
    pub id: String,
    pub label: Labels,
    pub xp: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Split {
    pub structure: f64,
    pub identity: f64,
    pub eccentricity: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Tier {
    pub id: String,
    pub label: Labels,
    pub weight: f64,
    pub ages: [u32; 2],
}

#[derive(Debug, Clone, Deserialize)]
pub struct Slot {
    pub role: String,
    pub tier: String,
    pub count: usize,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Archetype {
    pub id: String,
    pub label: Labels,
    pub weight: f64,
    pub favours: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Profile {
    pub role: String,
    /// The level of every attribute and skill (and any training) a player of the role starts from.
    pub base: BTreeMap<String, i32>,
    /// What every player of the role also works on, beside his archetype's favours.
    #[serde(default)]
    pub favours: BTreeMap<String, f64>,
    pub archetypes: Vec<Archetype>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Identity {
    pub id: String,
    pub label: Labels,
    pub favours: BTreeMap<String, f64>,
    /// Affinity per line: how much of the identity's XP players of the line receive.
    pub lines: BTreeMap<String, f64>,
    /// Affinity per tier (absent: 1).
    #[serde(default)]
    pub tiers: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Focus {
    /// The top `top` traits of the player's archetype.
    ArchetypeTop,
    /// Every trait the archetype favours.
    Archetype,
    /// One of the eccentricity's combinations.
    Combination,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Combination {
    pub id: String,
    pub label: Labels,
    pub favours: BTreeMap<String, f64>,
    pub lines: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Eccentricity {
    pub id: String,
    pub label: Labels,
    pub share: f64,
    pub tiers: Vec<String>,
    pub lines: Vec<String>,
    pub ages: Option<[u32; 2]>,
    pub focus: Focus,
    #[serde(default)]
    pub top: usize,
    #[serde(default)]
    pub combinations: Vec<Combination>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FootWeight {
    pub foot: Foot,
    pub weight: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Names {
    pub first: Vec<String>,
    pub last: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Place {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ClubNames {
    pub prefixes: Vec<String>,
    pub places: Vec<Place>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Generator {
    pub split: Split,
    pub cost_aversion: f64,
    pub allocation_jitter: f64,
    pub identity_off_role: f64,
    pub tiers: Vec<Tier>,
    pub structure: Vec<Slot>,
    pub profiles: Vec<Profile>,
    pub identities: Vec<Identity>,
    pub eccentricities: Vec<Eccentricity>,
    /// Range of each club personality axis when the command does not give one.
    pub personality: [i32; 2],
    /// Range of each player personality trait (stored, neutral in 0.5).
    pub player_personality: [i32; 2],
    pub foot: Vec<FootWeight>,
    pub shirts: BTreeMap<String, Vec<u32>>,
    pub names: Names,
    pub club_names: ClubNames,
}

impl ClubRules {
    /// The revision's club rules; `None` when it has none (0.5.0 predates them).
    pub fn from_revision(rev: &Revision) -> Result<Option<ClubRules>, Vec<Diagnostic>> {
        crate::sheet::rules::read_rules(rev, SCHEMA, |r: &mut ClubRules, file| r.file = file)
    }

    /// The rules a command needs, or a message naming the revision that lacks them (or the
    /// first problem of rules that fail their meaning check).
    pub fn need(rs: &Ruleset, needed_by: &'static str) -> Result<ClubRules, RulesError> {
        let read = ClubRules::from_revision(&rs.revision);
        crate::sheet::rules::need_rules(rs, SCHEMA, needed_by, read, |r| (r.check(rs), r.file.clone()))
    }

    pub fn tier(&self, id: &str) -> Option<&Tier> {
        self.generator.tiers.iter().find(|t| t.id == id)
    }
    pub fn profile(&self, role: &str) -> Option<&Profile> {
        self.generator.profiles.iter().find(|p| p.role == role)
    }
    pub fn identity(&self, id: &str) -> Option<&Identity> {
        self.generator.identities.iter().find(|i| i.id == id)
    }
    pub fn preset(&self, id: &str) -> Option<&BudgetPreset> {
        self.budgets.iter().find(|b| b.id == id)
    }

    /// The label of an archetype a generated sheet carries: a role archetype, an eccentricity or
    /// a memorable combination.
    pub fn archetype_label(&self, id: &str) -> Option<&Labels> {
        let g = &self.generator;
        g.profiles
            .iter()
            .flat_map(|p| p.archetypes.iter().map(|a| (&a.id, &a.label)))
            .chain(g.eccentricities.iter().map(|e| (&e.id, &e.label)))
            .chain(g.eccentricities.iter().flat_map(|e| e.combinations.iter().map(|c| (&c.id, &c.label))))
            .find(|(i, _)| *i == id)
            .map(|(_, l)| l)
    }

    /// Meaning checks, with file and JSON pointer: every id resolves, every level is on its
    /// scale, every share adds up, and the structure can pass `club validate`.
    pub fn check(&self, rs: &Ruleset) -> Vec<Diagnostic> {
        let f = self.file.as_str();
        let mut out = Vec::new();
        let xp = XpRules::from_ruleset(rs);
        if let Err(e) = &xp {
            // Named where it belongs (params.json, tables.json …), not in this document.
            out.push(rs.locate(e));
        }
        let mut err = |p: String, m: String| out.push(Diagnostic::new(f, p, m));
        let roles = match Roles::from_revision(&rs.revision) {
            Ok(Some(r)) => Some(r),
            Ok(None) => {
                err(String::new(), "club rules need the revision's roles.json".into());
                None
            }
            Err(_) => None, // reported by the roles check
        };
        let sheet_rules = SheetRules::from_revision(&rs.revision).ok().flatten();
        let line_known = |l: &str| roles.as_ref().is_none_or(|r| r.lines.iter().any(|x| x.id == l));
        let role_known = |r: &str| roles.as_ref().is_none_or(|x| x.role(r).is_some());
        let line_of = |r: &str| roles.as_ref().and_then(|x| x.line_of(r)).map(str::to_string);
        let g = &self.generator;

        if self.squad.size == 0 {
            err("/squad/size".into(), "a squad needs players".into());
        }
        for l in self.squad.min_per_line.keys() {
            if !line_known(l) {
                err(format!("/squad/min_per_line/{l}"), format!("'{l}' is not a line of roles.json"));
            }
        }
        if self.personality.scale[0] > self.personality.scale[1] {
            err("/personality/scale".into(), "scale minimum above maximum".into());
        }
        for (i, b) in self.budgets.iter().enumerate() {
            if self.budgets[..i].iter().any(|o| o.id == b.id) {
                err(format!("/budgets/{i}/id"), format!("budget '{}' declared twice", b.id));
            }
        }

        let s = &g.split;
        let total = s.structure + s.identity + s.eccentricity;
        if (total - 1.0).abs() > 1e-9 {
            err("/generator/split".into(), format!("shares sum to {}, not 1", (total * 1e9).round() / 1e9));
        }
        for (p, v) in [("personality", g.personality), ("player_personality", g.player_personality)] {
            if v[0] > v[1] {
                err(format!("/generator/{p}"), "minimum above maximum".into());
            }
        }
        if g.personality[0] < self.personality.scale[0] || g.personality[1] > self.personality.scale[1] {
            err("/generator/personality".into(), "outside the club personality scale".into());
        }
        if let Some(sr) = &sheet_rules {
            let [lo, hi] = sr.personality.scale;
            if g.player_personality[0] < lo || g.player_personality[1] > hi {
                err("/generator/player_personality".into(), format!("outside the player personality scale {lo}..{hi}"));
            }
        }

        let age_scale = rs.var("age").map(|s| (rs.vars[s].min, rs.vars[s].max));
        let check_ages = |p: String, ages: [u32; 2], err: &mut dyn FnMut(String, String)| {
            if ages[0] > ages[1] {
                err(p, "youngest above oldest".into());
            } else if let Some((lo, hi)) = age_scale
                && ((ages[0] as f64) < lo || (ages[1] as f64) > hi)
            {
                err(p, format!("ages {}–{} leave the age scale {lo}..{hi}", ages[0], ages[1]));
            }
        };
        for (i, t) in g.tiers.iter().enumerate() {
            if g.tiers[..i].iter().any(|o| o.id == t.id) {
                err(format!("/generator/tiers/{i}/id"), format!("tier '{}' declared twice", t.id));
            }
            check_ages(format!("/generator/tiers/{i}/ages"), t.ages, &mut err);
        }

        let mut per_line: BTreeMap<String, usize> = BTreeMap::new();
        let mut count = 0;
        for (i, slot) in g.structure.iter().enumerate() {
            if !role_known(&slot.role) {
                err(format!("/generator/structure/{i}/role"), format!("'{}' is not a role of roles.json", slot.role));
            }
            if self.tier(&slot.tier).is_none() {
                err(format!("/generator/structure/{i}/tier"), format!("'{}' is not a tier", slot.tier));
            }
            if self.profile(&slot.role).is_none() {
                err(format!("/generator/structure/{i}/role"), format!("role '{}' has no profile", slot.role));
            }
            count += slot.count;
            if let Some(l) = line_of(&slot.role) {
                *per_line.entry(l).or_default() += slot.count;
            }
        }
        if count != self.squad.size {
            err(
                "/generator/structure".into(),
                format!("the structure makes {count} players, but a squad has {}", self.squad.size),
            );
        }
        if roles.is_some() {
            for (line, min) in &self.squad.min_per_line {
                let have = per_line.get(line).copied().unwrap_or(0);
                if have < *min {
                    err(
                        "/generator/structure".into(),
                        format!(
                            "the structure has {have} player(s) in line '{line}', fewer than the {min} a squad needs"
                        ),
                    );
                }
            }
        }

        let trait_ok = |k: &str| Trait::named(k).is_some();
        let check_favours = |p: String, fav: &BTreeMap<String, f64>, err: &mut dyn FnMut(String, String)| {
            for (k, w) in fav {
                if !trait_ok(k) {
                    err(format!("{p}/{k}"), format!("'{k}' is not an attribute, characteristic or skill"));
                } else if !(w.is_finite() && *w >= 0.0) {
                    err(format!("{p}/{k}"), "weights are zero or more".into());
                }
            }
            if !fav.values().any(|w| *w > 0.0) {
                err(p, "favours nothing".into());
            }
        };
        for (i, p) in g.profiles.iter().enumerate() {
            let pp = format!("/generator/profiles/{i}");
            if !role_known(&p.role) {
                err(format!("{pp}/role"), format!("'{}' is not a role of roles.json", p.role));
            }
            if g.profiles[..i].iter().any(|o| o.role == p.role) {
                err(format!("{pp}/role"), format!("role '{}' has two profiles", p.role));
            }
            for t in Trait::all() {
                if t.kind != TraitKind::Training && !p.base.contains_key(&t.id) {
                    err(format!("{pp}/base"), format!("missing the base level of '{}'", t.id));
                }
            }
            for (k, v) in &p.base {
                match (Trait::named(k), &xp) {
                    (None, _) => err(format!("{pp}/base/{k}"), format!("'{k}' is not a trait")),
                    (Some(t), Ok(xp)) => {
                        let (lo, hi) = xp.scale(t.kind);
                        if *v < lo || *v > hi {
                            err(format!("{pp}/base/{k}"), format!("{v} is outside {lo}..{hi}"));
                        }
                    }
                    _ => {}
                }
            }
            if let Ok(xp) = &xp {
                let positive: f64 = p
                    .base
                    .iter()
                    .filter_map(|(k, v)| Trait::named(k).map(|t| xp.net(&t, *v)))
                    .filter(|x| *x > 0.0)
                    .sum();
                let youngest = g
                    .structure
                    .iter()
                    .filter(|s| s.role == p.role)
                    .filter_map(|s| self.tier(&s.tier).map(|t| t.ages[0]))
                    .chain(g.eccentricities.iter().filter_map(|e| e.ages.map(|a| a[0])))
                    .min();
                if let Some(age) = youngest
                    && positive > xp.cap(age as f64)
                {
                    err(
                        format!("{pp}/base"),
                        format!(
                            "the base costs {positive} positive XP, over the cap at age {age} ({})",
                            xp.cap(age as f64)
                        ),
                    );
                }
            }
            if !p.favours.is_empty() {
                check_favours(format!("{pp}/favours"), &p.favours, &mut err);
            }
            for (j, a) in p.archetypes.iter().enumerate() {
                let ap = format!("{pp}/archetypes/{j}");
                if p.archetypes[..j].iter().any(|o| o.id == a.id) {
                    err(format!("{ap}/id"), format!("archetype '{}' declared twice", a.id));
                }
                check_favours(format!("{ap}/favours"), &a.favours, &mut err);
            }
            if !p.archetypes.iter().any(|a| a.weight > 0.0) {
                err(format!("{pp}/archetypes"), "no archetype has a positive weight".into());
            }
        }

        for (i, id) in g.identities.iter().enumerate() {
            let ip = format!("/generator/identities/{i}");
            if g.identities[..i].iter().any(|o| o.id == id.id) {
                err(format!("{ip}/id"), format!("identity '{}' declared twice", id.id));
            }
            check_favours(format!("{ip}/favours"), &id.favours, &mut err);
            for l in id.lines.keys() {
                if !line_known(l) {
                    err(format!("{ip}/lines/{l}"), format!("'{l}' is not a line of roles.json"));
                }
            }
            for t in id.tiers.keys() {
                if self.tier(t).is_none() {
                    err(format!("{ip}/tiers/{t}"), format!("'{t}' is not a tier"));
                }
            }
        }
        if g.identities.is_empty() {
            err("/generator/identities".into(), "at least one identity is needed".into());
        }

        let shares: f64 = g.eccentricities.iter().map(|e| e.share).sum();
        if !g.eccentricities.is_empty() && (shares - 1.0).abs() > 1e-9 {
            err("/generator/eccentricities".into(), format!("shares sum to {}, not 1", (shares * 1e9).round() / 1e9));
        }
        for (i, e) in g.eccentricities.iter().enumerate() {
            let ep = format!("/generator/eccentricities/{i}");
            if g.eccentricities[..i].iter().any(|o| o.id == e.id) {
                err(format!("{ep}/id"), format!("eccentricity '{}' declared twice", e.id));
            }
            for (j, t) in e.tiers.iter().enumerate() {
                if self.tier(t).is_none() {
                    err(format!("{ep}/tiers/{j}"), format!("'{t}' is not a tier"));
                }
            }
            for (j, l) in e.lines.iter().enumerate() {
                if !line_known(l) {
                    err(format!("{ep}/lines/{j}"), format!("'{l}' is not a line of roles.json"));
                }
            }
            if let Some(a) = e.ages {
                check_ages(format!("{ep}/ages"), a, &mut err);
            }
            match e.focus {
                Focus::ArchetypeTop if e.top == 0 => err(format!("{ep}/top"), "archetype_top needs top ≥ 1".into()),
                Focus::Combination if e.combinations.is_empty() => {
                    err(format!("{ep}/combinations"), "a combination focus needs combinations".into())
                }
                _ => {}
            }
            for (j, c) in e.combinations.iter().enumerate() {
                let cp = format!("{ep}/combinations/{j}");
                check_favours(format!("{cp}/favours"), &c.favours, &mut err);
                for (k, l) in c.lines.iter().enumerate() {
                    if !line_known(l) {
                        err(format!("{cp}/lines/{k}"), format!("'{l}' is not a line of roles.json"));
                    }
                }
            }
            if roles.is_some() {
                let eligible = g
                    .structure
                    .iter()
                    .any(|s| e.tiers.contains(&s.tier) && line_of(&s.role).is_some_and(|l| e.lines.contains(&l)));
                if !eligible {
                    err(ep.clone(), "no slot of the structure matches its tiers and lines".into());
                }
            }
        }

        let total_foot: f64 = g.foot.iter().map(|f| f.weight).sum();
        if total_foot <= 0.0 {
            err("/generator/foot".into(), "foot weights must not all be zero".into());
        }
        for (role, numbers) in &g.shirts {
            if !role_known(role) {
                err(format!("/generator/shirts/{role}"), format!("'{role}' is not a role of roles.json"));
            }
            if let Some(sr) = &sheet_rules {
                let [lo, hi] = sr.shirt.scale;
                for (j, n) in numbers.iter().enumerate() {
                    if (*n as i64) < lo as i64 || (*n as i64) > hi as i64 {
                        err(format!("/generator/shirts/{role}/{j}"), format!("{n} is outside {lo}..{hi}"));
                    }
                }
            }
        }
        out
    }
}

/// The meaning check of a revision's club rules (nothing when it has none).
pub fn content_check(rs: &Ruleset) -> Vec<Diagnostic> {
    match ClubRules::from_revision(&rs.revision) {
        Ok(Some(r)) => r.check(rs),
        Ok(None) => Vec::new(),
        Err(d) => d,
    }
}
