//! What a sheet costs (document §14): one ledger line per purchase or credit, positive XP spent,
//! credits, net cost, the age cap (§17) and the band (§20).
//!
//! Every number comes from the revision: step tables, free levels and factors. A trait's line runs
//! from its free level to its level: above it each level bought is paid (a purchase), below it each
//! level not bought is credited. Training costs are cumulative totals.

use super::{ATTRIBUTES, CHARACTERISTICS, SKILLS, Sheet};
use microfut_core::catalog::Labels;
use microfut_core::expr::Lookup;
use microfut_core::ruleset::{Missing, RangeTable, Ruleset, TableKind};
use serde::Serialize;
use std::sync::Arc;

/// Which part of a sheet a trait is, and so which XP rules price it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TraitKind {
    Attribute,
    /// Training of a characteristic (−3..+3); the trait id is the characteristic's.
    Training,
    Skill,
}

/// One purchasable trait of a sheet: `dx`, `speed` (its training), `passing`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Trait {
    pub kind: TraitKind,
    pub id: String,
}

impl Trait {
    /// The trait a channel or content key names: attributes, characteristics (their training) and
    /// skills share one namespace.
    pub fn named(id: &str) -> Option<Trait> {
        let kind = if ATTRIBUTES.contains(&id) {
            TraitKind::Attribute
        } else if CHARACTERISTICS.contains(&id) {
            TraitKind::Training
        } else if SKILLS.contains(&id) {
            TraitKind::Skill
        } else {
            return None;
        };
        Some(Trait { kind, id: id.to_string() })
    }

    /// Every trait in sheet order: attributes, training, skills.
    pub fn all() -> Vec<Trait> {
        let mut v: Vec<Trait> =
            ATTRIBUTES.iter().map(|a| Trait { kind: TraitKind::Attribute, id: a.to_string() }).collect();
        v.extend(CHARACTERISTICS.iter().map(|c| Trait { kind: TraitKind::Training, id: c.to_string() }));
        v.extend(SKILLS.iter().map(|s| Trait { kind: TraitKind::Skill, id: s.to_string() }));
        v
    }

    /// The vocabulary variable holding the trait's level.
    pub fn var(&self) -> String {
        match self.kind {
            TraitKind::Training => format!("training_{}", self.id),
            _ => self.id.clone(),
        }
    }

    /// The JSON pointer of the trait in a sheet.
    pub fn pointer(&self) -> String {
        match self.kind {
            TraitKind::Attribute => format!("/attributes/{}", self.id),
            TraitKind::Training => format!("/training/{}", self.id),
            TraitKind::Skill => format!("/skills/{}", self.id),
        }
    }

    /// The trait's level on a sheet (training absent = 0; a missing attribute or skill = None).
    pub fn level(&self, sheet: &Sheet) -> Option<i32> {
        match self.kind {
            TraitKind::Attribute => sheet.attributes.get(&self.id).copied(),
            TraitKind::Training => Some(sheet.training.get(&self.id).copied().unwrap_or(0)),
            TraitKind::Skill => sheet.skills.get(&self.id).copied(),
        }
    }

    pub fn set_level(&self, sheet: &mut Sheet, level: i32) {
        match self.kind {
            TraitKind::Attribute => {
                sheet.attributes.insert(self.id.clone(), level);
            }
            TraitKind::Training => {
                sheet.training.insert(self.id.clone(), level);
            }
            TraitKind::Skill => {
                sheet.skills.insert(self.id.clone(), level);
            }
        }
    }
}

/// The XP rules of a revision, looked up once by name.
#[derive(Clone)]
pub struct XpRules {
    attribute_step: Arc<RangeTable>,
    skill_step: Arc<RangeTable>,
    training_total: Arc<RangeTable>,
    multiplier: Arc<RangeTable>,
    band: Arc<RangeTable>,
    age_cap: Arc<dyn Lookup>,
    /// Anchor points of the cap when it is a curve, to show the interpolation.
    cap_points: Vec<(f64, f64)>,
    pub attribute_free: i32,
    pub skill_free: i32,
    /// Cost factor per attribute, in `ATTRIBUTES` order.
    factors: [f64; 4],
    /// Level scale per trait kind (from the vocabulary): [min, max].
    pub scales: [(i32, i32); 3],
    pub sources: XpSources,
    pub band_labels: Vec<Option<Labels>>,
}

/// Where in content each rule lives, for ledger lines.
#[derive(Debug, Clone, Serialize)]
pub struct XpSources {
    pub attribute_step: String,
    pub skill_step: String,
    pub training_total: String,
    pub multiplier: String,
    pub band: String,
    pub age_cap: String,
    pub attribute_free: String,
    pub skill_free: String,
    pub factors: [String; 4],
}

const BY: &str = "sheet ledger";

impl XpRules {
    pub fn from_ruleset(rs: &Ruleset) -> Result<XpRules, Missing> {
        let table_source = |id: &str| rs.table(id).map(|t| t.source.clone()).unwrap_or_default();
        let param_source =
            |id: &str| rs.params.iter().find(|p| p.id == id).map(|p| p.source.clone()).unwrap_or_default();
        let cap = rs.need_curve("age_cap", BY)?;
        let cap_points = match &cap.kind {
            TableKind::Curve(c) => c.points.clone(),
            TableKind::Range(_) => Vec::new(),
        };
        let mut factors = [0.0; 4];
        let mut factor_sources: [String; 4] = Default::default();
        for (i, a) in ATTRIBUTES.iter().enumerate() {
            let id = format!("xp_factor_{a}");
            factors[i] = rs.need_param(&id, BY)?;
            factor_sources[i] = param_source(&id);
        }
        let scale = |var: &str| -> Result<(i32, i32), Missing> {
            let v = &rs.vars[rs.need_var(var, BY)?];
            Ok((v.min as i32, v.max as i32))
        };
        let band = rs.need_range_table("sheet_band", BY)?;
        let scales = [scale(ATTRIBUTES[0])?, scale(&format!("training_{}", CHARACTERISTICS[0]))?, scale(SKILLS[0])?];
        // A free level outside its trait's scale is refused by the sheet rules' meaning check
        // (`free_level_problems`); kept inside here so that no ledger loops past the levels
        // that exist even when that check was bypassed.
        let free = |id: &str, (lo, hi): (i32, i32)| -> Result<i32, Missing> {
            Ok((rs.need_param(id, BY)?.round() as i32).clamp(lo, hi.max(lo)))
        };
        Ok(XpRules {
            attribute_step: rs.need_range_table("xp_attribute_step", BY)?,
            skill_step: rs.need_range_table("xp_skill_step", BY)?,
            training_total: rs.need_range_table("xp_training_total", BY)?,
            multiplier: rs.need_range_table("xp_level_multiplier", BY)?,
            band_labels: rs.table("sheet_band").map(|t| t.bin_labels.clone()).unwrap_or_default(),
            band,
            age_cap: cap.lookup(),
            cap_points,
            attribute_free: free("xp_attribute_free_level", scales[0])?,
            skill_free: free("xp_skill_free_level", scales[2])?,
            factors,
            scales,
            sources: XpSources {
                attribute_step: table_source("xp_attribute_step"),
                skill_step: table_source("xp_skill_step"),
                training_total: table_source("xp_training_total"),
                multiplier: table_source("xp_level_multiplier"),
                band: table_source("sheet_band"),
                age_cap: table_source("age_cap"),
                attribute_free: param_source("xp_attribute_free_level"),
                skill_free: param_source("xp_skill_free_level"),
                factors: factor_sources,
            },
        })
    }

    /// The free levels' problems: each must be a level that exists — a whole number within its
    /// trait's scale — or no ledger could be drawn from it. At the parameter's value.
    pub fn free_level_problems(rs: &Ruleset) -> Vec<microfut_core::catalog::Diagnostic> {
        let mut out = Vec::new();
        for (id, var) in [("xp_attribute_free_level", ATTRIBUTES[0]), ("xp_skill_free_level", SKILLS[0])] {
            let (Some(p), Some(slot)) = (rs.params.iter().find(|p| p.id == id), rs.var(var)) else { continue };
            let v = &rs.vars[slot];
            if p.value.fract() != 0.0 || p.value < v.min || p.value > v.max {
                let (file, pointer) = microfut_core::ruleset::split_source(&p.source);
                out.push(microfut_core::catalog::Diagnostic::new(
                    file,
                    format!("{pointer}/value"),
                    format!("'{id}' is {}; a free level is a whole level of the scale {}..{}", p.value, v.min, v.max),
                ));
            }
        }
        out
    }

    /// [min, max] level of a trait kind.
    pub fn scale(&self, kind: TraitKind) -> (i32, i32) {
        self.scales[kind as usize]
    }

    fn factor(&self, t: &Trait) -> f64 {
        match t.kind {
            TraitKind::Attribute => ATTRIBUTES.iter().position(|a| *a == t.id).map_or(1.0, |i| self.factors[i]),
            _ => 1.0,
        }
    }

    /// The level a trait costs nothing at.
    pub fn free_level(&self, kind: TraitKind) -> i32 {
        match kind {
            TraitKind::Attribute => self.attribute_free,
            TraitKind::Skill => self.skill_free,
            TraitKind::Training => 0,
        }
    }

    /// Net XP of a trait at a level: positive for purchases, negative for credits.
    pub fn net(&self, t: &Trait, level: i32) -> f64 {
        match t.kind {
            TraitKind::Training => self.training_total.value(level as f64),
            kind => {
                let table = if kind == TraitKind::Attribute { &self.attribute_step } else { &self.skill_step };
                let free = self.free_level(kind);
                let f = self.factor(t);
                if level > free {
                    ((free + 1)..=level).map(|l| f * table.value(l as f64)).sum()
                } else {
                    -((level + 1)..=free).map(|l| f * table.value(l as f64)).sum::<f64>()
                }
            }
        }
    }

    /// The signed XP of each level between the free level and `level`, in order away from the
    /// free level.
    pub fn steps(&self, t: &Trait, level: i32) -> Vec<f64> {
        match t.kind {
            TraitKind::Training => {
                let v = |l: i32| self.training_total.value(l as f64);
                if level > 0 {
                    (1..=level).map(|l| v(l) - v(l - 1)).collect()
                } else {
                    (level..0).rev().map(|l| v(l) - v(l + 1)).collect()
                }
            }
            kind => {
                let table = if kind == TraitKind::Attribute { &self.attribute_step } else { &self.skill_step };
                let free = self.free_level(kind);
                let f = self.factor(t);
                if level > free {
                    ((free + 1)..=level).map(|l| f * table.value(l as f64)).collect()
                } else {
                    ((level + 1)..=free).rev().map(|l| -f * table.value(l as f64)).collect()
                }
            }
        }
    }

    /// What raising a trait one level from `level` changes: (net XP, positive XP).
    pub fn marginal(&self, t: &Trait, level: i32) -> (f64, f64) {
        let (a, b) = (self.net(t, level), self.net(t, level + 1));
        (b - a, b.max(0.0) - a.max(0.0))
    }

    /// The applied-XP multiplier at a current level (document §15).
    pub fn multiplier(&self, level: i32) -> f64 {
        self.multiplier.value(level as f64)
    }

    /// The XP cap at an age (document §17), interpolated between anchors.
    pub fn cap(&self, age: f64) -> f64 {
        self.age_cap.lookup(age)
    }

    /// The anchors either side of an age, when the cap is a curve and the age falls between two.
    pub fn cap_anchors(&self, age: f64) -> Option<((f64, f64), (f64, f64))> {
        let p = &self.cap_points;
        p.windows(2).find(|w| w[0].0 < age && age < w[1].0).map(|w| (w[0], w[1]))
    }

    /// The band of a net cost: its tag and bin label.
    pub fn band(&self, net: f64) -> Band {
        let i = self.band.bin_index(net);
        let bin = &self.band.bins[i];
        Band {
            tag: bin.tag.clone().unwrap_or_else(|| format!("{}", bin.value)),
            label: self.band_labels.get(i).cloned().flatten(),
            range: bin.interval.to_string(),
        }
    }

    /// Content paths behind a trait's line.
    pub fn line_sources(&self, t: &Trait) -> Vec<String> {
        match t.kind {
            TraitKind::Attribute => {
                let i = ATTRIBUTES.iter().position(|a| *a == t.id).unwrap_or(0);
                vec![self.sources.attribute_step.clone(), self.sources.factors[i].clone()]
            }
            TraitKind::Training => vec![self.sources.training_total.clone()],
            TraitKind::Skill => vec![self.sources.skill_step.clone()],
        }
    }

    /// Positive XP, credits and net of a sheet, without building lines.
    pub fn totals(&self, sheet: &Sheet) -> Totals {
        let mut t = Totals::default();
        for tr in Trait::all() {
            if let Some(level) = tr.level(sheet) {
                let net = self.net(&tr, level);
                if net > 0.0 {
                    t.positive += net;
                } else {
                    t.credits += net;
                }
            }
        }
        t.net = t.positive + t.credits;
        t
    }

    /// The full ledger of a sheet.
    pub fn ledger(&self, rs: &Ruleset, sheet: &Sheet) -> Ledger {
        let mut lines = Vec::new();
        for tr in Trait::all() {
            let Some(level) = tr.level(sheet) else { continue };
            let xp = self.net(&tr, level);
            if xp == 0.0 && level == self.free_level(tr.kind) {
                continue;
            }
            let label = rs.var(&tr.var()).map(|s| rs.vars[s].label.clone()).unwrap_or_default();
            lines.push(LedgerLine {
                item: tr.id.clone(),
                kind: tr.kind,
                label,
                from: self.free_level(tr.kind),
                to: level,
                xp,
                factor: self.factor(&tr),
                steps: self.steps(&tr, level),
                sources: self.line_sources(&tr),
            });
        }
        let positive: f64 = lines.iter().map(|l| l.xp).filter(|x| *x > 0.0).sum();
        let credits: f64 = lines.iter().map(|l| l.xp).filter(|x| *x < 0.0).sum();
        let net = positive + credits;
        let age = sheet.age as f64;
        let cap = self.cap(age);
        Ledger {
            lines,
            positive,
            credits,
            net,
            age: sheet.age,
            cap,
            cap_anchors: self.cap_anchors(age).map(|(a, b)| [a.0, a.1, b.0, b.1]),
            cap_source: self.sources.age_cap.clone(),
            within_cap: positive <= cap,
            band: self.band(net),
            band_source: self.sources.band.clone(),
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Totals {
    pub positive: f64,
    pub credits: f64,
    pub net: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    pub tag: String,
    pub label: Option<Labels>,
    /// The band's net-XP interval, e.g. `[9000, 14000)`.
    pub range: String,
}

/// One purchase (positive XP) or credit (negative XP).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LedgerLine {
    pub item: String,
    pub kind: TraitKind,
    pub label: Labels,
    pub from: i32,
    pub to: i32,
    pub xp: f64,
    /// The factor the steps include (2 for DX and IQ in the baseline).
    pub factor: f64,
    /// Signed XP per level, from the free level outwards.
    pub steps: Vec<f64>,
    pub sources: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ledger {
    pub lines: Vec<LedgerLine>,
    /// Positive XP spent.
    pub positive: f64,
    /// Credits (zero or negative).
    pub credits: f64,
    /// Net cost: positive XP plus credits.
    pub net: f64,
    pub age: u32,
    /// The XP cap at this age.
    pub cap: f64,
    /// [age, cap, age, cap] of the anchors the cap was interpolated between, if any.
    pub cap_anchors: Option<[f64; 4]>,
    pub cap_source: String,
    /// Whether positive XP stays within the cap.
    pub within_cap: bool,
    pub band: Band,
    pub band_source: String,
}
