//! Building a plausible squad for a budget, deterministically for a seed (document §19).
//!
//! The budget is split as content says (baseline 80 % structure, 15 % identity, 5 % eccentricity):
//! - structure: every slot of the squad structure (role × tier) starts from its role's base profile
//!   (the floor, paid first) and receives a share of the rest by its tier's weight, with jitter;
//! - identity: shared by affinity of the player's line and tier, spent on what the identity
//!   favours (mostly where his archetype agrees);
//! - eccentricity: a few designated players (a veteran specialist, a prodigy, a memorable
//!   combination) spend it on their focus.
//!
//! Each player spends his allocations one level at a time, choosing among the traits he favours
//! with probability ∝ weight / cost^aversion, never past the top of a scale, his age cap or his
//! allocation. Expensive levels — an 18 — are therefore rare by economics, not by a lock. XP a
//! player cannot spend goes back to a pool shared again by tier weight. The squad is validated
//! before it is returned: the output always passes `club validate`.

use super::rules::{Archetype, ClubRules, Focus};
use super::{Club, ClubPersonality};
use crate::sheet::{Foot, Personality, Roles, Sheet, SheetRules, Trait, TraitKind, XpRules, name_hint, thousands};
use microfut_core::dice::Dice;
use microfut_core::ruleset::{Missing, Ruleset};
use std::collections::{BTreeMap, BTreeSet};

/// What to generate.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Net XP the squad may cost.
    pub budget: u64,
    /// An identity of the club rules; chosen from the seed when absent.
    pub identity: Option<String>,
    /// Chosen from the seed when absent.
    pub personality: Option<ClubPersonality>,
    pub seed: u64,
    pub name: Option<String>,
    pub id: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Missing(#[from] Missing),
    #[error(transparent)]
    Rules(#[from] crate::sheet::rules::RulesError),
    #[error("unknown identity '{id}'{hint} (identities: {known})")]
    UnknownIdentity { id: String, hint: String, known: String },
    #[error("personality {axis} = {value} is outside {lo}..{hi}")]
    Personality { axis: &'static str, value: i32, lo: i32, hi: i32 },
    #[error(
        "budget {} XP is too small for {players} legal players: their role floors cost {} net XP, more than the structure share ({}% = {} XP); the smallest budget this revision's generator accepts is {} XP",
        thousands(*budget as f64), thousands(*floor), share * 100.0, thousands(*structure), thousands(*minimum as f64)
    )]
    BudgetTooSmall { budget: u64, players: usize, floor: f64, share: f64, structure: f64, minimum: u64 },
    #[error("club id '{0}' must start with a letter and hold only a-z, 0-9 and _")]
    BadId(String),
    #[error("the club name is blank; give --name a name, or leave it out to have one made from the seed")]
    BlankName,
    #[error("the club rules are not usable: {0}; run `microfut validate`")]
    Content(String),
    #[error("the generated squad does not validate (a generator bug or a content gap): {0}")]
    Invalid(String),
}

const BY: &str = "club generator";

/// One player under construction.
struct Draft {
    sheet: Sheet,
    tier: String,
    line: String,
    favours: BTreeMap<String, f64>,
    /// The eccentricity's focus, when the player is one.
    focus: Option<BTreeMap<String, f64>>,
}

struct Ctx {
    xp: XpRules,
    aversion: f64,
}

impl Ctx {
    /// Spends up to `budget` net XP on `sheet`, one level at a time; returns what is left.
    fn spend(&self, sheet: &mut Sheet, budget: f64, weights: &[(Trait, f64)], dice: &mut Dice) -> f64 {
        let mut remaining = budget;
        while let Some(cost) = self.buy_one(sheet, remaining, weights, dice) {
            remaining -= cost;
        }
        remaining
    }

    /// Buys one level among the affordable ones (probability ∝ weight / cost^aversion) within
    /// `budget` and the age cap; returns its net cost, or `None` when nothing is affordable.
    fn buy_one(&self, sheet: &mut Sheet, budget: f64, weights: &[(Trait, f64)], dice: &mut Dice) -> Option<f64> {
        let cap = self.xp.cap(sheet.age as f64);
        let positive = self.xp.totals(sheet).positive;
        let mut options: Vec<(usize, f64, f64)> = Vec::with_capacity(weights.len());
        for (i, (t, w)) in weights.iter().enumerate() {
            let Some(level) = t.level(sheet) else { continue };
            if level >= self.xp.scale(t.kind).1 {
                continue;
            }
            let (net, pos) = self.xp.marginal(t, level);
            if net > budget || positive + pos > cap {
                continue;
            }
            options.push((i, net, w / net.max(1.0).powf(self.aversion)));
        }
        let total: f64 = options.iter().map(|o| o.2).sum();
        if options.is_empty() || total <= 0.0 {
            return None;
        }
        let mut r = dice.unit() * total;
        let mut pick = options[options.len() - 1];
        for o in &options {
            if r < o.2 {
                pick = *o;
                break;
            }
            r -= o.2;
        }
        let t = &weights[pick.0].0;
        let level = t.level(sheet).unwrap_or(0);
        t.set_level(sheet, level + 1);
        Some(pick.1)
    }
}

fn weighted<'a, T>(dice: &mut Dice, items: &'a [T], weight: impl Fn(&T) -> f64) -> Option<&'a T> {
    let total: f64 = items.iter().map(&weight).filter(|w| *w > 0.0).sum();
    if total <= 0.0 {
        return None;
    }
    let mut r = dice.unit() * total;
    let mut last = None;
    for it in items {
        let w = weight(it);
        if w <= 0.0 {
            continue;
        }
        last = Some(it);
        if r < w {
            return Some(it);
        }
        r -= w;
    }
    last
}

/// Role-wide favours plus the archetype's, weights added.
fn merged(a: &BTreeMap<String, f64>, b: &BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    let mut m = a.clone();
    for (k, w) in b {
        *m.entry(k.clone()).or_default() += w;
    }
    m
}

fn uniform_int(dice: &mut Dice, lo: i64, hi: i64) -> i64 {
    if hi <= lo { lo } else { lo + dice.below((hi - lo + 1) as u32) as i64 }
}

fn traits(favours: &BTreeMap<String, f64>) -> Vec<(Trait, f64)> {
    favours.iter().filter(|(_, w)| **w > 0.0).filter_map(|(k, w)| Trait::named(k).map(|t| (t, *w))).collect()
}

/// A club id from a name: lower case, accents folded, other characters as `_`.
pub fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c if c.is_ascii_alphanumeric() => c,
            _ => '_',
        };
        if c == '_' && (s.is_empty() || s.ends_with('_')) {
            continue;
        }
        s.push(c);
    }
    let s = s.trim_end_matches('_').to_string();
    if s.starts_with(|c: char| c.is_ascii_lowercase()) { s } else { format!("club_{s}") }
}

fn valid_id(id: &str) -> bool {
    id.starts_with(|c: char| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Generates a club. The same revision, request and seed always give the same club.
pub fn generate(rs: &Ruleset, req: &Request) -> Result<Club, GenerateError> {
    let rules = ClubRules::need(rs, BY)?;
    let sheet_rules = SheetRules::need(rs, BY)?;
    let roles = match Roles::from_revision(&rs.revision) {
        Ok(Some(r)) => r,
        _ => {
            return Err(
                Missing { revision: rs.label(), what: "document", name: "roles.json".into(), needed_by: BY }.into()
            );
        }
    };
    let content = |m: String| GenerateError::Content(m);
    let g = &rules.generator;
    let ctx = Ctx { xp: XpRules::from_ruleset(rs)?, aversion: g.cost_aversion };
    let mut dice = Dice::derived(req.seed, b"microfut/club/generate");

    // Identity, personality, name.
    let identity = match &req.identity {
        Some(id) => rules.identity(id).ok_or_else(|| {
            let known: Vec<&str> = g.identities.iter().map(|i| i.id.as_str()).collect();
            GenerateError::UnknownIdentity { id: id.clone(), hint: name_hint(id, &known), known: known.join(", ") }
        })?,
        None => {
            if g.identities.is_empty() {
                return Err(content("no identities".into()));
            }
            &g.identities[dice.below(g.identities.len() as u32) as usize]
        }
    };
    let [plo, phi] = rules.personality.scale;
    let personality = match req.personality {
        Some(p) => {
            for (axis, value) in
                [("verticality", p.verticality), ("security", p.security), ("risk_tolerance", p.risk_tolerance)]
            {
                if value < plo || value > phi {
                    return Err(GenerateError::Personality { axis, value, lo: plo, hi: phi });
                }
            }
            p
        }
        None => {
            let [lo, hi] = g.personality;
            ClubPersonality {
                verticality: uniform_int(&mut dice, lo as i64, hi as i64) as i32,
                security: uniform_int(&mut dice, lo as i64, hi as i64) as i32,
                risk_tolerance: uniform_int(&mut dice, lo as i64, hi as i64) as i32,
            }
        }
    };
    let name = match &req.name {
        Some(n) if n.trim().is_empty() => return Err(GenerateError::BlankName),
        Some(n) => n.trim().to_string(),
        None => {
            let cn = &g.club_names;
            if cn.prefixes.is_empty() || cn.places.is_empty() {
                return Err(content("no club names".into()));
            }
            let prefix = &cn.prefixes[dice.below(cn.prefixes.len() as u32) as usize];
            let place = &cn.places[dice.below(cn.places.len() as u32) as usize];
            format!("{prefix} {}", place.name)
        }
    };
    let id = req.id.clone().unwrap_or_else(|| slug(&name));
    if !valid_id(&id) {
        return Err(GenerateError::BadId(id));
    }

    // The squad: every slot of the structure, from its role's base profile.
    let mut drafts: Vec<Draft> = Vec::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    let [pp_lo, pp_hi] = g.player_personality;
    for slot in &g.structure {
        let profile =
            rules.profile(&slot.role).ok_or_else(|| content(format!("role '{}' has no profile", slot.role)))?;
        let tier = rules.tier(&slot.tier).ok_or_else(|| content(format!("unknown tier '{}'", slot.tier)))?;
        let line = roles.line_of(&slot.role).ok_or_else(|| content(format!("unknown role '{}'", slot.role)))?;
        for _ in 0..slot.count {
            let archetype: &Archetype = weighted(&mut dice, &profile.archetypes, |a| a.weight)
                .ok_or_else(|| content(format!("role '{}' has no archetype", slot.role)))?;
            let age = uniform_int(&mut dice, tier.ages[0] as i64, tier.ages[1] as i64) as u32;
            let foot = weighted(&mut dice, &g.foot, |f| f.weight).map_or(Foot::Right, |f| f.foot);
            let player_name = pick_name(&mut dice, &rules, &mut names)?;
            let mut personality = Personality::default();
            for v in [&mut personality.confidence, &mut personality.collectivity, &mut personality.integrity] {
                *v = uniform_int(&mut dice, pp_lo as i64, pp_hi as i64) as i32;
            }
            let mut sheet = Sheet {
                schema: None,
                name: player_name,
                club: Some(name.clone()),
                age,
                shirt: 0,
                role: slot.role.clone(),
                foot,
                archetype: archetype.id.clone(),
                attributes: BTreeMap::new(),
                training: BTreeMap::new(),
                skills: BTreeMap::new(),
                personality,
                progression: serde_json::Value::Null,
            };
            for t in Trait::all() {
                let level = match (profile.base.get(&t.id), t.kind) {
                    (Some(l), _) => *l,
                    (None, TraitKind::Training) => 0,
                    (None, _) => return Err(content(format!("role '{}' has no base level for '{}'", slot.role, t.id))),
                };
                t.set_level(&mut sheet, level);
            }
            drafts.push(Draft {
                sheet,
                tier: slot.tier.clone(),
                line: line.to_string(),
                favours: merged(&profile.favours, &archetype.favours),
                focus: None,
            });
        }
    }

    // Eccentricities: designated players, their ages and focus.
    let mut eccentric_budget: Vec<(usize, f64)> = Vec::new();
    let mut unassigned_share = 0.0;
    for e in &g.eccentricities {
        let eligible = |d: &Draft, lines: &[String]| {
            d.focus.is_none() && e.tiers.contains(&d.tier) && e.lines.contains(&d.line) && lines.contains(&d.line)
        };
        let (focus, archetype_id, lines): (Option<BTreeMap<String, f64>>, String, Vec<String>) = match e.focus {
            Focus::Combination => {
                let usable: Vec<_> =
                    e.combinations.iter().filter(|c| drafts.iter().any(|d| eligible(d, &c.lines))).collect();
                if usable.is_empty() {
                    (None, String::new(), Vec::new())
                } else {
                    let c = usable[dice.below(usable.len() as u32) as usize];
                    (Some(c.favours.clone()), c.id.clone(), c.lines.clone())
                }
            }
            _ => (Some(BTreeMap::new()), e.id.clone(), e.lines.clone()),
        };
        let candidates: Vec<usize> = (0..drafts.len()).filter(|&i| eligible(&drafts[i], &lines)).collect();
        let Some(mut focus) = focus.filter(|_| !candidates.is_empty()) else {
            unassigned_share += e.share;
            continue;
        };
        let i = candidates[dice.below(candidates.len() as u32) as usize];
        let d = &mut drafts[i];
        match e.focus {
            Focus::ArchetypeTop => {
                let mut top: Vec<(&String, &f64)> = d.favours.iter().collect();
                top.sort_by(|a, b| b.1.total_cmp(a.1).then_with(|| a.0.cmp(b.0)));
                focus = top.into_iter().take(e.top).map(|(k, w)| (k.clone(), *w)).collect();
            }
            Focus::Archetype => focus = d.favours.clone(),
            Focus::Combination => {}
        }
        if let Some([lo, hi]) = e.ages {
            d.sheet.age = uniform_int(&mut dice, lo as i64, hi as i64) as u32;
        }
        d.sheet.archetype = archetype_id;
        d.focus = Some(focus);
        eccentric_budget.push((i, e.share));
    }

    // The floor, then the shares.
    let budget = req.budget as f64;
    let floor: f64 = drafts.iter().map(|d| ctx.xp.totals(&d.sheet).net).sum();
    let structure = budget * g.split.structure;
    if floor > structure {
        let minimum = (floor / g.split.structure).ceil().max(0.0) as u64;
        return Err(GenerateError::BudgetTooSmall {
            budget: req.budget,
            players: drafts.len(),
            floor,
            share: g.split.structure,
            structure,
            minimum,
        });
    }
    let jitter = g.allocation_jitter;
    let tier_weight = |t: &str| rules.tier(t).map_or(0.0, |t| t.weight);
    let structure_weights: Vec<f64> =
        drafts.iter().map(|d| tier_weight(&d.tier) * (1.0 + jitter * (2.0 * dice.unit() - 1.0))).collect();
    let shares = |weights: &[f64], amount: f64| -> Vec<f64> {
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| if total > 0.0 { (amount * w / total).floor() } else { 0.0 }).collect()
    };
    let structure_alloc = shares(&structure_weights, structure - floor);
    let identity_weights: Vec<f64> = drafts
        .iter()
        .map(|d| {
            identity.lines.get(&d.line).copied().unwrap_or(0.0) * identity.tiers.get(&d.tier).copied().unwrap_or(1.0)
        })
        .collect();
    let identity_alloc = shares(&identity_weights, budget * g.split.identity);
    let eccentric_total = budget * g.split.eccentricity;
    let mut pool = (structure - floor) - structure_alloc.iter().sum::<f64>();
    pool += budget * g.split.identity - identity_alloc.iter().sum::<f64>();
    pool += eccentric_total * unassigned_share;

    for (i, d) in drafts.iter_mut().enumerate() {
        let own = traits(&d.favours);
        pool += ctx.spend(&mut d.sheet, structure_alloc[i], &own, &mut dice);
        let ident: BTreeMap<String, f64> = identity
            .favours
            .iter()
            .map(|(k, w)| {
                let agrees = d.favours.get(k).is_some_and(|x| *x > 0.0);
                (k.clone(), if agrees { *w } else { w * g.identity_off_role })
            })
            .collect();
        pool += ctx.spend(&mut d.sheet, identity_alloc[i], &traits(&ident), &mut dice);
        if let (Some(focus), Some((_, share))) = (&d.focus, eccentric_budget.iter().find(|(j, _)| *j == i)) {
            let amount = (eccentric_total * share).floor();
            pool += eccentric_total * share - amount;
            pool += ctx.spend(&mut d.sheet, amount, &traits(focus), &mut dice);
        }
    }
    // What players could not spend goes round the squad one level at a time, the most weighted
    // players first, until nobody can buy anything with what is left.
    let mut order: Vec<usize> = (0..drafts.len()).collect();
    order.sort_by(|&a, &b| structure_weights[b].total_cmp(&structure_weights[a]).then(a.cmp(&b)));
    let favoured: Vec<Vec<(Trait, f64)>> = drafts.iter().map(|d| traits(&d.favours)).collect();
    let mut pool = pool.floor();
    loop {
        let mut bought = false;
        for &i in &order {
            if let Some(cost) = ctx.buy_one(&mut drafts[i].sheet, pool, &favoured[i], &mut dice) {
                pool -= cost;
                bought = true;
            }
        }
        if !bought {
            break;
        }
    }

    // Shirts: each role's preferred numbers, then the lowest free one.
    let [slo, shi] = sheet_rules.shirt.scale;
    let mut taken: BTreeSet<u32> = BTreeSet::new();
    for d in drafts.iter_mut() {
        let preferred = g.shirts.get(&d.sheet.role).cloned().unwrap_or_default();
        let shirt = preferred
            .into_iter()
            .find(|n| !taken.contains(n))
            .or_else(|| (slo.max(0) as u32..=shi.max(0) as u32).find(|n| !taken.contains(n)))
            .ok_or_else(|| content(format!("no shirt number left in {slo}..{hi}", hi = shi)))?;
        taken.insert(shirt);
        d.sheet.shirt = shirt;
    }

    let club = Club {
        schema: Some("../../../schemas/club.schema.json".into()),
        id,
        name,
        personality,
        identity: identity.id.clone(),
        budget: req.budget,
        squad: drafts.into_iter().map(|d| d.sheet).collect(),
    };
    // The output is checked as a club file is: its schema, then its legality.
    let mut schema = Vec::new();
    let value = serde_json::to_value(&club).expect("clubs serialise");
    microfut_core::catalog::validate_schema("generated club", "club.schema.json", &value, &mut schema);
    let report = club.validate(rs, schema)?;
    if !report.problems.is_empty() {
        let first: Vec<String> = report.problems.iter().take(3).map(|p| p.to_string()).collect();
        return Err(GenerateError::Invalid(first.join("; ")));
    }
    Ok(club)
}

fn pick_name(dice: &mut Dice, rules: &ClubRules, taken: &mut BTreeSet<String>) -> Result<String, GenerateError> {
    let n = &rules.generator.names;
    if n.first.is_empty() || n.last.is_empty() {
        return Err(GenerateError::Content("no player names".into()));
    }
    let mut name = String::new();
    for _ in 0..64 {
        let first = &n.first[dice.below(n.first.len() as u32) as usize];
        let last = &n.last[dice.below(n.last.len() as u32) as usize];
        name = format!("{first} {last}");
        if !taken.contains(&name) {
            break;
        }
    }
    let mut unique = name.clone();
    let mut k = 2;
    while taken.contains(&unique) {
        unique = format!("{name} {k}");
        k += 1;
    }
    taken.insert(unique.clone());
    Ok(unique)
}
