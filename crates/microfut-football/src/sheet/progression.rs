//! Progression (document §15–§17): XP awards, support XP, level purchases under the age cap, and
//! ageing. The record of it all lives in the sheet's `progression`, so a season can be audited.
//!
//! How an award flows, in the order given:
//! - raw XP goes to its channel (a trait: an attribute, a characteristic's training, a skill);
//!   a skill's raw XP also sends support XP — shares of the same raw XP — to its base attribute,
//!   its important characteristic and, when control modifies it, to the control skill, as the
//!   revision's `sheet_rules.json` maps them;
//! - raw XP becomes applied XP at the multiplier of the trait's *current* level. When applied XP
//!   pays the next level, the trait rises exactly one level and the rest of the raw XP continues at
//!   the new level's multiplier — so one award of 1,000 and ten of 100 end the same;
//! - a level is paid only if positive XP after it stays within the cap of the player's age; if not,
//!   the applied XP stays banked in the channel and is paid once the cap allows it (after ageing);
//! - characteristics are derived from attributes and RES practical, so they are recalculated on
//!   every change and the changes are recorded.
//!
//! Amounts are exact rationals ([`Xp`]), never floats.

use super::ledger::{Trait, TraitKind, XpRules};
use super::rules::{SHARE_PARAMS, SheetRules};
use super::xp::{Xp, XpError};
use super::{Sheet, SheetError};
use microfut_core::ruleset::{Missing, Ruleset, VarKind};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

pub use super::record::{Channel, Event, Progression};

#[derive(Debug, thiserror::Error)]
pub enum ProgressionError {
    #[error(transparent)]
    Missing(#[from] Missing),
    #[error(transparent)]
    Rules(#[from] super::rules::RulesError),
    /// The sheet is not valid under the revision; nothing was changed.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Sheet(Vec<SheetError>),
    #[error("unknown XP channel '{name}'{hint}; channels are the attributes, characteristics and skills: {known}")]
    UnknownChannel { name: String, hint: String, known: String },
    #[error("{channel}: raw XP must be positive, got {amount}")]
    NotPositive { channel: String, amount: Xp },
    #[error("/progression: {0}")]
    Record(String),
    #[error("/age: {from} + {years} year(s) is {to}, outside the age scale {min}..{max}")]
    AgeOutOfScale { from: u32, years: u32, to: u64, min: f64, max: f64 },
    #[error("ageing needs at least one year")]
    NoYears,
    #[error(transparent)]
    Xp(#[from] XpError),
}

/// A flow of raw XP into one channel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Flow {
    pub channel: String,
    /// `None` for direct XP; the awarded channel for support XP.
    pub from: Option<String>,
    pub raw: Xp,
    pub applied: Xp,
    /// The multipliers used, in order (more than one when a level was paid mid-flow).
    pub multipliers: Vec<Xp>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelUp {
    pub channel: String,
    pub from: i32,
    pub to: i32,
    pub cost: Xp,
    pub recalculated: BTreeMap<String, [i32; 2]>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Held {
    pub channel: String,
    pub next: i32,
    pub cost: Xp,
    pub positive_xp_after: f64,
    pub cap: f64,
}

/// What one award or ageing did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outcome {
    pub flows: Vec<Flow>,
    pub levels: Vec<LevelUp>,
    pub held: Vec<Held>,
    /// Channels touched, with their state after.
    pub channels: BTreeMap<String, ChannelState>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChannelState {
    pub level: i32,
    pub banked: Xp,
    /// Applied XP the next level costs; `None` at the top of the scale.
    pub next_cost: Option<Xp>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ageing {
    pub from: u32,
    pub to: u32,
    pub res_practical: [i32; 2],
    pub cap: [f64; 2],
    pub recalculated: BTreeMap<String, [i32; 2]>,
    /// Levels the higher cap let banked XP pay for.
    pub settled: Outcome,
}

impl Progression {
    /// The record stored in a sheet (none yet: empty).
    pub fn of(sheet: &Sheet) -> Result<Progression, ProgressionError> {
        if sheet.progression.is_null() {
            return Ok(Progression::default());
        }
        serde_json::from_value(sheet.progression.clone()).map_err(|e| ProgressionError::Record(e.to_string()))
    }

    pub fn store(&self, sheet: &mut Sheet) {
        sheet.progression = serde_json::to_value(self).expect("progression serializes");
    }
}

const BY: &str = "progression";

/// Applies XP and age to sheets under one revision.
pub struct Trainer<'a> {
    rs: &'a Ruleset,
    xp: XpRules,
    rules: SheetRules,
    shares: [Xp; 3],
    revision: String,
    derived: Vec<(String, usize)>,
}

impl<'a> Trainer<'a> {
    pub fn new(rs: &'a Ruleset) -> Result<Trainer<'a>, ProgressionError> {
        let xp = XpRules::from_ruleset(rs)?;
        let rules = SheetRules::need(rs, BY)?;
        let mut shares = [Xp::ZERO; 3];
        for (i, p) in SHARE_PARAMS.iter().enumerate() {
            shares[i] = Xp::from_content(rs.need_param(p, BY)?)?;
        }
        let derived = rs
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.kind == VarKind::Characteristic || v.id == "res_practical")
            .map(|(i, v)| (v.id.clone(), i))
            .collect();
        Ok(Trainer { rs, xp, rules, shares, revision: rs.label(), derived })
    }

    /// The channels XP may be awarded to.
    pub fn channels() -> Vec<String> {
        Trait::all().into_iter().map(|t| t.id).collect()
    }

    /// A session on a copy of a sheet: checked once, then any number of awards and birthdays,
    /// and [`Session::finish`] gives the sheet back with its record. A season's thousands of
    /// small awards go through one session.
    pub fn session(&'a self, sheet: &Sheet) -> Result<Session<'a>, ProgressionError> {
        let problems = sheet.problems(self.rs)?;
        if !problems.is_empty() {
            return Err(ProgressionError::Sheet(problems));
        }
        let prog = Progression::of(sheet)?;
        let recorded = prog
            .history
            .iter()
            .filter_map(|e| match e {
                Event::Capped { channel, next, age, .. } => Some((channel.clone(), *next, *age)),
                _ => None,
            })
            .collect();
        Ok(Session { trainer: self, sheet: sheet.clone(), prog, recorded })
    }

    /// Awards raw XP to channels, in order. On error the sheet is unchanged.
    pub fn award(&'a self, sheet: &mut Sheet, awards: &[(String, Xp)]) -> Result<Outcome, ProgressionError> {
        let mut session = self.session(sheet)?;
        let out = session.award(awards)?;
        *sheet = session.finish();
        Ok(out)
    }

    /// Ages a sheet: RES practical and characteristics follow, and banked XP the higher cap now
    /// allows is paid. On error the sheet is unchanged.
    pub fn age(&'a self, sheet: &mut Sheet, years: u32) -> Result<Ageing, ProgressionError> {
        let mut session = self.session(sheet)?;
        let out = session.age(years)?;
        *sheet = session.finish();
        Ok(out)
    }

    /// The raw XP flows of an award: each channel's own, then its support (document §15).
    fn flows(&self, awards: &[(String, Xp)]) -> Result<Vec<(Trait, Option<String>, Xp)>, ProgressionError> {
        let mut flows = Vec::new();
        for (name, amount) in awards {
            let t = Trait::named(name).ok_or_else(|| {
                let known = Self::channels();
                let refs: Vec<&str> = known.iter().map(String::as_str).collect();
                ProgressionError::UnknownChannel {
                    name: name.clone(),
                    hint: super::check::hint(name, &refs),
                    known: known.join(", "),
                }
            })?;
            if !amount.is_positive() {
                return Err(ProgressionError::NotPositive { channel: name.clone(), amount: *amount });
            }
            flows.push((t.clone(), None, *amount));
            if t.kind == TraitKind::Skill
                && let Some(s) = self.rules.support(&t.id)
            {
                let mut support = vec![(s.attribute.clone(), self.shares[0])];
                if let Some(c) = &s.characteristic {
                    support.push((c.clone(), self.shares[1]));
                }
                if s.modified_by_control {
                    support.push((self.rules.control_skill.clone(), self.shares[2]));
                }
                for (to, share) in support {
                    let Some(target) = Trait::named(&to) else { continue };
                    let raw = amount.checked_mul(share)?;
                    if raw.is_positive() {
                        flows.push((target, Some(t.id.clone()), raw));
                    }
                }
            }
        }
        Ok(flows)
    }

    /// The applied XP the next level of a trait costs at `level`; `None` at the top.
    pub fn next_cost(&self, t: &Trait, level: i32) -> Result<Option<Xp>, ProgressionError> {
        if level >= self.xp.scale(t.kind).1 {
            return Ok(None);
        }
        Ok(Some(Xp::from_content(self.xp.marginal(t, level).0)?))
    }

    /// The level whose multiplier applies: the trait's level, or for training the
    /// characteristic's current value.
    fn multiplier_level(&self, sheet: &Sheet, t: &Trait) -> Result<i32, ProgressionError> {
        match t.kind {
            TraitKind::Training => {
                let values = sheet.values(self.rs).map_err(|e| ProgressionError::Sheet(vec![e]))?;
                Ok(values.get(self.rs.need_var(&t.id, BY)?) as i32)
            }
            _ => Ok(t.level(sheet).unwrap_or(0)),
        }
    }

    fn apply(&self, s: &mut Session, t: &Trait, raw: Xp, out: &mut Outcome) -> Result<Flow, ProgressionError> {
        let mut flow = Flow { channel: t.id.clone(), from: None, raw, applied: Xp::ZERO, multipliers: Vec::new() };
        let ch = s.prog.channels.entry(t.id.clone()).or_default();
        ch.raw = ch.raw.checked_add(raw)?;
        let mut remaining = raw;
        loop {
            self.settle(s, t, out)?;
            if remaining.is_zero() {
                break;
            }
            let level = t.level(&s.sheet).unwrap_or(0);
            let m = Xp::from_content(self.xp.multiplier(self.multiplier_level(&s.sheet, t)?))?;
            if flow.multipliers.last() != Some(&m) {
                flow.multipliers.push(m);
            }
            let banked = s.prog.channels[&t.id].banked;
            let need = match self.next_cost(t, level)? {
                Some(cost) => cost.checked_sub(banked)?,
                None => Xp::ZERO,
            };
            // Pay the next level from this flow when it can and the cap allows; otherwise bank it
            // all at this level's multiplier.
            let take = if need.is_positive() && m.is_positive() && self.cap_allows(&s.sheet, t, level) {
                let raw_needed = need.checked_div(m)?;
                (remaining >= raw_needed).then_some((raw_needed, need))
            } else {
                None
            };
            let (used, applied) = match take {
                Some(x) => x,
                None => (remaining, remaining.checked_mul(m)?),
            };
            remaining = remaining.checked_sub(used)?;
            flow.applied = flow.applied.checked_add(applied)?;
            let ch = s.prog.channels.get_mut(&t.id).expect("created above");
            ch.applied = ch.applied.checked_add(applied)?;
            ch.banked = ch.banked.checked_add(applied)?;
            if take.is_none() {
                self.settle(s, t, out)?;
                break;
            }
        }
        Ok(flow)
    }

    fn cap_allows(&self, sheet: &Sheet, t: &Trait, level: i32) -> bool {
        let positive = self.xp.totals(sheet).positive + self.xp.marginal(t, level).1;
        positive <= self.xp.cap(sheet.age as f64)
    }

    /// Pays levels from the channel's bank while it covers the next cost and the cap allows.
    fn settle(&self, s: &mut Session, t: &Trait, out: &mut Outcome) -> Result<(), ProgressionError> {
        loop {
            let level = t.level(&s.sheet).unwrap_or(0);
            let Some(cost) = self.next_cost(t, level)? else { return Ok(()) };
            let banked = s.prog.channels.get(&t.id).map(|c| c.banked).unwrap_or_default();
            if banked < cost {
                return Ok(());
            }
            let age = s.sheet.age;
            let cap = self.xp.cap(age as f64);
            if !self.cap_allows(&s.sheet, t, level) {
                let after = self.xp.totals(&s.sheet).positive + self.xp.marginal(t, level).1;
                let held = Held { channel: t.id.clone(), next: level + 1, cost, positive_xp_after: after, cap };
                if !out.held.contains(&held) {
                    out.held.push(held);
                }
                if s.recorded.insert((t.id.clone(), level + 1, age)) {
                    s.prog.history.push(Event::Capped {
                        revision: self.revision.clone(),
                        age,
                        channel: t.id.clone(),
                        next: level + 1,
                        cost,
                        positive_xp_after: after,
                        cap,
                    });
                }
                return Ok(());
            }
            let before = self.derived_values(&s.sheet)?;
            t.set_level(&mut s.sheet, level + 1);
            let after = self.derived_values(&s.sheet)?;
            let recalculated = diff(&before, &after);
            let ch = s.prog.channels.get_mut(&t.id).expect("banked implies a channel");
            ch.banked = ch.banked.checked_sub(cost)?;
            s.prog.history.push(Event::Level {
                revision: self.revision.clone(),
                age,
                channel: t.id.clone(),
                from: level,
                to: level + 1,
                cost,
                positive_xp: self.xp.totals(&s.sheet).positive,
                cap,
                recalculated: recalculated.clone(),
            });
            out.levels.push(LevelUp { channel: t.id.clone(), from: level, to: level + 1, cost, recalculated });
        }
    }

    fn note_channel(&self, work: &Sheet, prog: &Progression, t: &Trait, out: &mut Outcome) {
        let level = t.level(work).unwrap_or(0);
        let banked = prog.channels.get(&t.id).map(|c| c.banked).unwrap_or_default();
        let next_cost = self.next_cost(t, level).ok().flatten();
        out.channels.insert(t.id.clone(), ChannelState { level, banked, next_cost });
    }

    fn derived_values(&self, sheet: &Sheet) -> Result<BTreeMap<String, i32>, ProgressionError> {
        let values = sheet.values(self.rs).map_err(|e| ProgressionError::Sheet(vec![e]))?;
        Ok(self.derived.iter().map(|(id, slot)| (id.clone(), values.get(*slot) as i32)).collect())
    }
}

/// Awards and birthdays applied to one sheet; see [`Trainer::session`].
pub struct Session<'a> {
    trainer: &'a Trainer<'a>,
    sheet: Sheet,
    prog: Progression,
    /// (channel, next level, age) of every hold already in the history: recorded once.
    recorded: BTreeSet<(String, i32, u32)>,
}

impl Session<'_> {
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    pub fn progression(&self) -> &Progression {
        &self.prog
    }

    /// The sheet with its progression record.
    pub fn finish(mut self) -> Sheet {
        self.prog.store(&mut self.sheet);
        self.sheet
    }

    /// Runs `f` on the session, undoing everything it did if it fails.
    fn atomic<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, ProgressionError>) -> Result<T, ProgressionError> {
        let (sheet, channels, len, recorded) =
            (self.sheet.clone(), self.prog.channels.clone(), self.prog.history.len(), self.recorded.clone());
        let r = f(self);
        if r.is_err() {
            self.sheet = sheet;
            self.prog.channels = channels;
            self.prog.history.truncate(len);
            self.recorded = recorded;
        }
        r
    }

    /// Awards raw XP to channels, in order; on error the session is as before.
    pub fn award(&mut self, awards: &[(String, Xp)]) -> Result<Outcome, ProgressionError> {
        let t = self.trainer;
        let flows = t.flows(awards)?;
        self.atomic(|s| {
            let mut given: BTreeMap<String, Xp> = BTreeMap::new();
            for (name, amount) in awards {
                let e = given.entry(name.clone()).or_default();
                *e = e.checked_add(*amount)?;
            }
            s.prog.history.push(Event::Award { revision: t.revision.clone(), age: s.sheet.age, xp: given });
            let mut out = Outcome::default();
            for (tr, from, raw) in flows {
                let flow = t.apply(s, &tr, raw, &mut out)?;
                out.flows.push(Flow { from, ..flow });
                t.note_channel(&s.sheet, &s.prog, &tr, &mut out);
            }
            Ok(out)
        })
    }

    /// Adds years; on error the session is as before.
    pub fn age(&mut self, years: u32) -> Result<Ageing, ProgressionError> {
        let t = self.trainer;
        if years == 0 {
            return Err(ProgressionError::NoYears);
        }
        let from = self.sheet.age;
        let to = from as u64 + years as u64;
        let age_var = &t.rs.vars[t.rs.need_var("age", BY)?];
        if (to as f64) > age_var.max {
            return Err(ProgressionError::AgeOutOfScale { from, years, to, min: age_var.min, max: age_var.max });
        }
        self.atomic(|s| {
            let before = t.derived_values(&s.sheet)?;
            let cap_before = t.xp.cap(from as f64);
            s.sheet.age = to as u32;
            let after = t.derived_values(&s.sheet)?;
            let cap_after = t.xp.cap(to as f64);
            let recalculated = diff(&before, &after);
            let res = |m: &BTreeMap<String, i32>| m.get("res_practical").copied().unwrap_or(0);
            s.prog.history.push(Event::Aged {
                revision: t.revision.clone(),
                from,
                to: s.sheet.age,
                cap_before,
                cap_after,
                recalculated: recalculated.clone(),
            });
            let mut settled = Outcome::default();
            let pending: Vec<String> = s.prog.channels.keys().cloned().collect();
            for ch in pending {
                if let Some(tr) = Trait::named(&ch) {
                    t.settle(s, &tr, &mut settled)?;
                    if settled.levels.iter().any(|l| l.channel == ch) {
                        t.note_channel(&s.sheet, &s.prog, &tr, &mut settled);
                    }
                }
            }
            Ok(Ageing {
                from,
                to: s.sheet.age,
                res_practical: [res(&before), res(&after)],
                cap: [cap_before, cap_after],
                recalculated,
                settled,
            })
        })
    }
}

fn diff(before: &BTreeMap<String, i32>, after: &BTreeMap<String, i32>) -> BTreeMap<String, [i32; 2]> {
    before.iter().filter_map(|(k, b)| after.get(k).filter(|a| *a != b).map(|a| (k.clone(), [*b, *a]))).collect()
}
