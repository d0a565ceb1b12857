//! An effects revision's documents → a [`World`], with every meaning check the schemas cannot
//! express, each located by file and JSON pointer and all reported together: names (pipelines,
//! stages, inputs, formulas, bindings, attributes, statuses, cards…), the policy's order and
//! scopes, overlapping rules, overrides no rule can honour, and the world's references.
//!
//! Vocabulary, formulas and pipelines are the ruleset's own documents, compiled by
//! [`microfut_core::ruleset::compile_partial`]: a pipeline that fails there is reported there, and the
//! checks here still run on everything else.

use super::doc::*;
use super::model::*;
use microfut_core::catalog::{Diagnostic, Revision, declared_schema, escape_token};
use microfut_core::ruleset::{Pipeline, Ruleset};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A pointer from tokens, each escaped.
fn ptr(tokens: &[&str]) -> String {
    tokens.iter().map(|t| format!("/{}", escape_token(t))).collect()
}

fn at(file: &str, pointer: &str) -> String {
    format!("{file}#{pointer}")
}

fn split(source: &str) -> (&str, &str) {
    source.split_once('#').unwrap_or((source, ""))
}

/// Pipeline ids the revision declares, compiled or not: a reference to one that failed to
/// compile is not reported a second time.
fn declared_pipelines(rev: &Revision) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for doc in rev.documents.values() {
        if declared_schema(doc) == Some("pipelines.schema.json") {
            for section in ["pipelines", "derived"] {
                for p in doc.get(section).and_then(Value::as_array).into_iter().flatten() {
                    if let Some(id) = p.get("id").and_then(Value::as_str) {
                        ids.insert(id.to_string());
                    }
                }
            }
        }
    }
    ids
}

fn hint<'a>(name: &str, known: impl Iterator<Item = &'a String>) -> String {
    let known: Vec<&String> = known.collect();
    let close = known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(name, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| format!(" (did you mean '{k}'?)"));
    match close {
        Some(c) => c,
        None if known.is_empty() => " (none declared)".into(),
        None => format!(" (known: {})", known.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")),
    }
}

/// The JSON node a `file#pointer` source names, for fingerprints.
fn node(rev: &Revision, source: &str) -> Value {
    let (file, pointer) = split(source);
    let name = file.strip_prefix(&format!("{}/", rev.dir)).unwrap_or(file);
    rev.documents.get(name).and_then(|d| d.pointer(pointer)).cloned().unwrap_or(Value::Null)
}

fn formulas_node(rev: &Revision) -> Value {
    let all: Vec<Value> = rev
        .documents
        .values()
        .filter(|d| declared_schema(d) == Some("formulas.schema.json"))
        .filter_map(|d| d.get("formulas").cloned())
        .collect();
    Value::Array(all)
}

struct Ctx<'a> {
    rev: &'a Revision,
    rs: &'a Ruleset,
    declared: BTreeSet<String>,
    out: Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn error(&mut self, file: &str, pointer: impl Into<String>, message: impl Into<String>) {
        self.out.push(Diagnostic::new(file, pointer, message));
    }

    /// A pipeline by id; an unknown one is reported (not when it was declared but failed).
    fn pipeline(&mut self, file: &str, pointer: &str, id: &str) -> Option<usize> {
        if let Some(i) = self.rs.pipeline_index(id) {
            return Some(i);
        }
        if !self.declared.contains(id) {
            let known: Vec<String> = self.rs.pipelines.iter().map(|p| p.id.clone()).collect();
            let h = hint(id, known.iter());
            self.error(file, pointer, format!("unknown pipeline '{id}'{h}"));
        }
        None
    }

    fn var(&mut self, file: &str, pointer: &str, id: &str) -> Option<usize> {
        let slot = self.rs.var(id);
        if slot.is_none() {
            let known: Vec<String> = self.rs.vars.iter().map(|v| v.id.clone()).collect();
            let h = hint(id, known.iter());
            self.error(file, pointer, format!("unknown vocabulary variable '{id}'{h}"));
        }
        slot
    }
}

/// Compiles and checks an effects revision.
pub fn compile(rev: &Revision) -> Result<World, Vec<Diagnostic>> {
    let (rs, out) = microfut_core::ruleset::compile_partial(rev);
    let Some(rs) = rs else { return Err(out) };
    let mut cx = Ctx { rev, rs: &rs, declared: declared_pipelines(rev), out };
    let world = rev.one_document::<WorldDoc>(WORLD_SCHEMA, "an effects revision", &mut cx.out);
    let cards = rev.one_document::<CardsDoc>(CARDS_SCHEMA, "an effects revision", &mut cx.out);
    let policies = rev.one_document::<PoliciesDoc>(POLICIES_SCHEMA, "an effects revision", &mut cx.out);
    let modes = rev.one_document::<ModesDoc>(MODES_SCHEMA, "an effects revision", &mut cx.out);
    let (
        Some((world_file, world)),
        Some((cards_file, cards)),
        Some((policies_file, policies)),
        Some((modes_file, modes)),
    ) = (world, cards, policies, modes)
    else {
        return Err(finish(cx.out));
    };

    let attributes = attributes(&mut cx, &world_file, &world);
    let statuses = statuses(&mut cx, &world_file, &world, &attributes);
    let relics = relics(&mut cx, &world_file, &world, &attributes);
    let check = Refs { attributes: &attributes, statuses: &statuses };
    let cards = cards_of(&mut cx, &cards_file, &cards, &check);
    let enemies = enemies(&mut cx, &world_file, &world, &check);
    let hero = hero(&mut cx, &world_file, &world, &attributes, &cards, &relics);
    let encounters = encounters(&mut cx, &world_file, &world, &attributes, &enemies);
    let journeys = journeys(&mut cx, &world_file, &world, &encounters, &cards, &relics);
    for (i, p) in policies.policies.iter().enumerate() {
        if let Some(j) = policies.policies[..i].iter().position(|o| o.id == p.id) {
            // A mode names its policy by id: two of one id would leave it ambiguous.
            cx.error(
                &policies_file,
                format!("/policies/{i}/id"),
                format!("policy '{}' declared twice (also /policies/{j}): a mode selects a policy by its id", p.id),
            );
        }
    }
    let (policies, complete): (Vec<Policy>, Vec<bool>) = policies
        .policies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| policy(&mut cx, &policies_file, i, p, &attributes))
        .unzip();
    let modes = modes_of(&mut cx, &modes_file, &modes, &policies, &journeys, &attributes);
    overrides(&mut cx, &policies, &complete, &modes, &cards, &enemies, &statuses);

    if !cx.out.is_empty() {
        return Err(finish(cx.out));
    }
    drop(cx);
    let (tags, channels) = vocabulary_of_effects(&policies, &cards, &enemies, &statuses);
    Ok(World {
        tags,
        channels,
        rs: Arc::new(rs),
        label: world.label.clone(),
        life: world.life_attribute.clone(),
        cost: world.cost_attribute.clone(),
        attributes,
        hero: hero.expect("checked"),
        statuses,
        relics,
        enemies,
        encounters,
        journeys,
        cards,
        policies,
        modes,
        autopilot: world.autopilot,
    })
}

/// Every tag and every channel the revision writes anywhere: in the policies' selectors and
/// bypasses, on effects of cards, abilities and status ticks, in overrides. A name outside them
/// is a typo, not a tag no rule happens to select.
fn vocabulary_of_effects(
    policies: &[Policy],
    cards: &BTreeMap<String, Card>,
    enemies: &BTreeMap<String, Enemy>,
    statuses: &BTreeMap<String, Status>,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut tags, mut channels) = (BTreeSet::new(), BTreeSet::new());
    let mut selectors: Vec<&Selector> = Vec::new();
    for p in policies {
        for r in &p.rules {
            selectors.push(&r.selector);
            tags.extend(r.armor_bypass_tag.iter().chain(&r.block_bypass_tag).cloned());
        }
        tags.extend(p.bypasses.iter().map(|b| b.tag.clone()));
    }
    let mut effects: Vec<&Effect> = statuses.values().filter_map(|s| s.tick.as_ref()).collect();
    let mut overrides: Vec<&Override> = Vec::new();
    for c in cards.values() {
        effects.extend(&c.effects);
        overrides.extend(c.components.iter().chain(c.upgrades.values().flat_map(|u| &u.components)));
    }
    for a in enemies.values().flat_map(|e| &e.script) {
        effects.extend(&a.effects);
        overrides.extend(&a.components);
    }
    for e in effects {
        tags.extend(e.tags.iter().cloned());
        if !e.channel.is_empty() {
            channels.insert(e.channel.clone());
        }
        overrides.extend(&e.overrides);
    }
    selectors.extend(overrides.iter().map(|o| &o.selector));
    for sel in selectors {
        tags.extend(sel.required_tags.iter().chain(&sel.excluded_tags).cloned());
        channels.extend(sel.channels.iter().chain(&sel.excluded_channels).cloned());
    }
    (tags, channels)
}

fn finish(mut out: Vec<Diagnostic>) -> Vec<Diagnostic> {
    out.sort();
    out.dedup();
    out
}

fn attributes(cx: &mut Ctx, file: &str, w: &WorldDoc) -> BTreeMap<String, AttributeDecl> {
    let mut out = BTreeMap::new();
    for (id, a) in &w.attributes {
        let p = ptr(&["attributes", id]);
        if a.kind == AttributeKind::Stat && (a.maximum.is_some() || a.at_turn_start != TurnStart::Keep) {
            cx.error(file, &p, format!("'{id}' is a stat: only resources have a maximum or change at turn start"));
        }
        if let Some(m) = &a.maximum
            && w.attributes.get(m).is_none_or(|d| d.kind != AttributeKind::Stat)
        {
            cx.error(file, format!("{p}/maximum"), format!("'{m}' is not a declared stat"));
        }
        if a.at_turn_start == TurnStart::Refill && a.maximum.is_none() {
            cx.error(file, format!("{p}/atTurnStart"), "a resource that refills needs a maximum to refill to");
        }
        out.insert(
            id.clone(),
            AttributeDecl {
                id: id.clone(),
                label: a.label.clone(),
                kind: a.kind,
                maximum: a.maximum.clone(),
                at_turn_start: a.at_turn_start,
            },
        );
    }
    for (field, id) in [("/lifeAttribute", &w.life_attribute), ("/costAttribute", &w.cost_attribute)] {
        match out.get(id) {
            Some(a) if a.kind == AttributeKind::Resource => {}
            _ => cx.error(file, field, format!("'{id}' is not a declared resource")),
        }
    }
    out
}

fn check_attribute(
    cx: &mut Ctx,
    attrs: &BTreeMap<String, AttributeDecl>,
    file: &str,
    pointer: &str,
    id: &str,
    kind: Option<AttributeKind>,
) -> bool {
    match attrs.get(id) {
        None => {
            let h = hint(id, attrs.keys());
            cx.error(file, pointer, format!("unknown attribute '{id}'{h}"));
            false
        }
        Some(a) if kind.is_some_and(|k| k != a.kind) => {
            let want = if kind == Some(AttributeKind::Resource) {
                "a resource (a value effects change)"
            } else {
                "a stat (resources change only through effects)"
            };
            cx.error(file, pointer, format!("'{id}' must be {want}"));
            false
        }
        Some(_) => true,
    }
}

fn modifiers(
    cx: &mut Ctx,
    attrs: &BTreeMap<String, AttributeDecl>,
    file: &str,
    base: &str,
    docs: &[ModifierDoc],
) -> Vec<Modifier> {
    let mut out = Vec::new();
    for (i, m) in docs.iter().enumerate() {
        let p = format!("{base}/modifiers/{i}");
        check_attribute(cx, attrs, file, &format!("{p}/attribute"), &m.attribute, Some(AttributeKind::Stat));
        out.push(Modifier { attribute: m.attribute.clone(), amount: m.amount, source: at(file, &p) });
    }
    out
}

fn statuses(
    cx: &mut Ctx,
    file: &str,
    w: &WorldDoc,
    attrs: &BTreeMap<String, AttributeDecl>,
) -> BTreeMap<String, Status> {
    let mut out = BTreeMap::new();
    for (id, s) in &w.statuses {
        let p = ptr(&["statuses", id]);
        let mods = modifiers(cx, attrs, file, &p, &s.modifiers);
        let tick = s.tick.as_ref().map(|t| {
            check_attribute(cx, attrs, file, &format!("{p}/tick/resource"), &t.resource, Some(AttributeKind::Resource));
            Effect {
                id: id.clone(),
                kind: EffectKind::Amount,
                target: TargetKind::SelfActor,
                channel: t.channel.clone(),
                tags: t.tags.clone(),
                amount: 0.0,
                resource: Some(t.resource.clone()),
                op: t.op,
                impacts: 1,
                status: None,
                duration: 0,
                attribute: None,
                overrides: Vec::new(),
                source: at(file, &format!("{p}/tick")),
            }
        });
        if mods.is_empty() && tick.is_none() {
            cx.error(file, &p, "a status needs modifiers or a tick");
        }
        out.insert(id.clone(), Status { id: id.clone(), label: s.label.clone(), modifiers: mods, tick });
    }
    out
}

fn relics(cx: &mut Ctx, file: &str, w: &WorldDoc, attrs: &BTreeMap<String, AttributeDecl>) -> BTreeMap<String, Relic> {
    let mut out = BTreeMap::new();
    for (id, r) in &w.relics {
        let p = ptr(&["relics", id]);
        let mods = modifiers(cx, attrs, file, &p, &r.modifiers);
        out.insert(id.clone(), Relic { id: id.clone(), label: r.label.clone(), modifiers: mods });
    }
    out
}

struct Refs<'a> {
    attributes: &'a BTreeMap<String, AttributeDecl>,
    statuses: &'a BTreeMap<String, Status>,
}

fn effect(cx: &mut Ctx, refs: &Refs, file: &str, p: &str, e: &EffectDoc) -> Effect {
    let mut overrides = Vec::new();
    match e.kind {
        EffectKind::Amount => {
            if let Some(r) = &e.resource {
                check_attribute(cx, refs.attributes, file, &format!("{p}/resource"), r, Some(AttributeKind::Resource));
            }
        }
        EffectKind::Status => {
            if let Some(s) = &e.status {
                match refs.statuses.get(s) {
                    None => {
                        let h = hint(s, refs.statuses.keys());
                        cx.error(file, format!("{p}/status"), format!("unknown status '{s}'{h}"));
                    }
                    Some(st) if st.tick.is_some() && e.amount.is_none() => cx.error(
                        file,
                        p,
                        format!("status '{s}' ticks: the effect applying it carries the amount (\"amount\")"),
                    ),
                    Some(_) => {}
                }
            }
        }
        EffectKind::Modifier => {
            if let Some(a) = &e.attribute {
                check_attribute(cx, refs.attributes, file, &format!("{p}/attribute"), a, Some(AttributeKind::Stat));
            }
        }
    }
    if e.kind != EffectKind::Amount && (!e.rule_overrides.is_empty() || e.channel.is_some()) {
        cx.error(file, p, "only amount effects have a channel and rule overrides");
    }
    for (k, o) in e.rule_overrides.iter().enumerate() {
        overrides.push(Override::from_doc(o, None, "ruleOverrides", at(file, &format!("{p}/ruleOverrides/{k}"))));
    }
    Effect {
        id: e.id.clone(),
        kind: e.kind,
        target: e.target,
        channel: e.channel.clone().unwrap_or_default(),
        tags: e.tags.clone(),
        amount: e.amount.unwrap_or(0.0),
        resource: e.resource.clone(),
        op: e.op.unwrap_or(AmountOp::Subtract),
        impacts: e.impacts.unwrap_or(1),
        status: e.status.clone(),
        duration: e.duration.unwrap_or(0),
        attribute: e.attribute.clone(),
        overrides,
        source: at(file, p),
    }
}

fn effects(cx: &mut Ctx, refs: &Refs, file: &str, base: &str, docs: &[EffectDoc]) -> Vec<Effect> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (i, e) in docs.iter().enumerate() {
        let p = format!("{base}/effects/{i}");
        if !seen.insert(e.id.clone()) {
            cx.error(file, format!("{p}/id"), format!("effect '{}' declared twice", e.id));
        }
        out.push(effect(cx, refs, file, &p, e));
    }
    out
}

fn components(cx: &mut Ctx, file: &str, base: &str, docs: &[ComponentDoc], effect_ids: &[&str]) -> Vec<Override> {
    let mut out = Vec::new();
    for (i, c) in docs.iter().enumerate() {
        let p = format!("{base}/components/{i}");
        if let Some(e) = &c.effect_id
            && !effect_ids.contains(&e.as_str())
        {
            cx.error(
                file,
                format!("{p}/effectId"),
                format!("no effect '{e}' here (effects: {})", effect_ids.join(", ")),
            );
        }
        out.push(Override::from_doc(
            &c.rule,
            c.effect_id.clone(),
            c.component_id.clone(),
            at(file, &format!("{p}/rule")),
        ));
    }
    out
}

fn cards_of(cx: &mut Ctx, file: &str, doc: &CardsDoc, refs: &Refs) -> BTreeMap<String, Card> {
    let mut out = BTreeMap::new();
    for (id, c) in &doc.cards {
        let base = ptr(&["cards", id]);
        let effects = effects(cx, refs, file, &base, &c.effects);
        let ids: Vec<&str> = c.effects.iter().map(|e| e.id.as_str()).collect();
        let comps = components(cx, file, &base, &c.components, &ids);
        let mut upgrades = BTreeMap::new();
        for (uid, u) in &c.upgrades {
            let up = format!("{base}/upgrades/{}", escape_token(uid));
            for name in u.amounts.keys() {
                if !ids.contains(&name.as_str()) {
                    cx.error(
                        file,
                        format!("{up}/amounts/{}", escape_token(name)),
                        format!("no effect '{name}' on card '{id}' (effects: {})", ids.join(", ")),
                    );
                }
            }
            let comps = components(cx, file, &up, &u.components, &ids);
            upgrades.insert(
                uid.clone(),
                Upgrade {
                    id: uid.clone(),
                    label: u.label.clone(),
                    components: comps,
                    amounts: u.amounts.clone(),
                    cost: u.cost,
                },
            );
        }
        out.insert(
            id.clone(),
            Card {
                id: id.clone(),
                label: c.label.clone(),
                cost: c.cost,
                effects,
                components: comps,
                upgrades,
                source: at(file, &base),
            },
        );
    }
    out
}

fn actor_values(
    cx: &mut Ctx,
    attrs: &BTreeMap<String, AttributeDecl>,
    file: &str,
    base: &str,
    values: &BTreeMap<String, f64>,
    life: &str,
) {
    for (k, v) in values {
        let p = format!("{base}/attributes/{}", escape_token(k));
        if !check_attribute(cx, attrs, file, &p, k, None) {
            continue;
        }
        if let Some(m) = attrs[k].maximum.as_ref()
            && let Some(max) = values.get(m)
            && v > max
        {
            cx.error(file, &p, format!("{k} {v} is above its maximum {m} {max}"));
        }
    }
    if !values.contains_key(life) {
        cx.error(file, format!("{base}/attributes"), format!("every actor needs its '{life}'"));
    }
}

fn enemies(cx: &mut Ctx, file: &str, w: &WorldDoc, refs: &Refs) -> BTreeMap<String, Enemy> {
    let mut out = BTreeMap::new();
    for (id, e) in &w.enemies {
        let base = ptr(&["enemies", id]);
        actor_values(cx, refs.attributes, file, &base, &e.attributes, &w.life_attribute);
        let mut script = Vec::new();
        let mut seen = BTreeSet::new();
        for (k, a) in e.script.iter().enumerate() {
            let ap = format!("{base}/script/{k}");
            if !seen.insert(a.id.clone()) {
                cx.error(file, format!("{ap}/id"), format!("ability '{}' declared twice", a.id));
            }
            let effects = effects(cx, refs, file, &ap, &a.effects);
            let ids: Vec<&str> = a.effects.iter().map(|e| e.id.as_str()).collect();
            let comps = components(cx, file, &ap, &a.components, &ids);
            script.push(Playable {
                id: a.id.clone(),
                upgrades: Vec::new(),
                label: a.label.clone(),
                cost: 0,
                effects,
                components: comps,
            });
        }
        out.insert(
            id.clone(),
            Enemy {
                id: id.clone(),
                label: e.label.clone(),
                attributes: e.attributes.clone(),
                script,
                source: at(file, &format!("{base}/attributes")),
            },
        );
    }
    out
}

fn hero(
    cx: &mut Ctx,
    file: &str,
    w: &WorldDoc,
    attrs: &BTreeMap<String, AttributeDecl>,
    cards: &BTreeMap<String, Card>,
    relics: &BTreeMap<String, Relic>,
) -> Option<Hero> {
    let h = &w.hero;
    actor_values(cx, attrs, file, "/hero", &h.attributes, &w.life_attribute);
    for (i, c) in h.deck.iter().enumerate() {
        if !cards.contains_key(c) {
            let hn = hint(c, cards.keys());
            cx.error(file, format!("/hero/deck/{i}"), format!("unknown card '{c}'{hn}"));
        }
    }
    for (i, r) in h.relics.iter().enumerate() {
        if !relics.contains_key(r) {
            let hn = hint(r, relics.keys());
            cx.error(file, format!("/hero/relics/{i}"), format!("unknown relic '{r}'{hn}"));
        }
    }
    Some(Hero {
        label: h.label.clone(),
        attributes: h.attributes.clone(),
        deck: h.deck.clone(),
        relics: h.relics.clone(),
        hand_size: h.hand_size,
        source: at(file, "/hero/attributes"),
    })
}

fn sided(
    cx: &mut Ctx,
    attrs: &BTreeMap<String, AttributeDecl>,
    file: &str,
    base: &str,
    docs: &[SidedModifierDoc],
) -> Vec<SidedModifier> {
    docs.iter()
        .enumerate()
        .map(|(i, m)| {
            let p = format!("{base}/modifiers/{i}");
            check_attribute(cx, attrs, file, &format!("{p}/attribute"), &m.attribute, Some(AttributeKind::Stat));
            SidedModifier {
                side: m.side,
                label: m.label.clone(),
                modifier: Modifier { attribute: m.attribute.clone(), amount: m.amount, source: at(file, &p) },
            }
        })
        .collect()
}

fn encounters(
    cx: &mut Ctx,
    file: &str,
    w: &WorldDoc,
    attrs: &BTreeMap<String, AttributeDecl>,
    enemies: &BTreeMap<String, Enemy>,
) -> BTreeMap<String, Encounter> {
    let mut out = BTreeMap::new();
    for (id, e) in &w.encounters {
        let base = ptr(&["encounters", id]);
        for (i, en) in e.enemies.iter().enumerate() {
            if !enemies.contains_key(en) {
                let h = hint(en, enemies.keys());
                cx.error(file, format!("{base}/enemies/{i}"), format!("unknown enemy '{en}'{h}"));
            }
        }
        let modifiers = sided(cx, attrs, file, &base, &e.modifiers);
        out.insert(
            id.clone(),
            Encounter { id: id.clone(), label: e.label.clone(), enemies: e.enemies.clone(), modifiers },
        );
    }
    out
}

fn journeys(
    cx: &mut Ctx,
    file: &str,
    w: &WorldDoc,
    encounters: &BTreeMap<String, Encounter>,
    cards: &BTreeMap<String, Card>,
    relics: &BTreeMap<String, Relic>,
) -> BTreeMap<String, Journey> {
    let mut out = BTreeMap::new();
    for (id, j) in &w.journeys {
        let base = ptr(&["journeys", id]);
        let mut steps = Vec::new();
        for (i, s) in j.steps.iter().enumerate() {
            let sp = format!("{base}/steps/{i}");
            if !encounters.contains_key(&s.encounter) {
                let h = hint(&s.encounter, encounters.keys());
                cx.error(file, format!("{sp}/encounter"), format!("unknown encounter '{}'{h}", s.encounter));
            }
            let mut rewards = Vec::new();
            for (k, r) in s.rewards.iter().enumerate() {
                let rp = format!("{sp}/rewards/{k}");
                if let Some(u) = &r.upgrade {
                    match cards.get(&u.card) {
                        None => cx.error(file, format!("{rp}/upgrade/card"), format!("unknown card '{}'", u.card)),
                        Some(c) if !c.upgrades.contains_key(&u.upgrade) => cx.error(
                            file,
                            format!("{rp}/upgrade/upgrade"),
                            format!(
                                "card '{}' has no upgrade '{}'{}",
                                u.card,
                                u.upgrade,
                                hint(&u.upgrade, c.upgrades.keys())
                            ),
                        ),
                        Some(_) => {}
                    }
                    rewards.push(Reward::Upgrade { card: u.card.clone(), upgrade: u.upgrade.clone() });
                }
                if let Some(rl) = &r.relic {
                    if !relics.contains_key(rl) {
                        cx.error(
                            file,
                            format!("{rp}/relic"),
                            format!("unknown relic '{rl}'{}", hint(rl, relics.keys())),
                        );
                    }
                    rewards.push(Reward::Relic(rl.clone()));
                }
                if let Some(c) = &r.card {
                    if !cards.contains_key(c) {
                        cx.error(file, format!("{rp}/card"), format!("unknown card '{c}'{}", hint(c, cards.keys())));
                    }
                    rewards.push(Reward::Card(c.clone()));
                }
                if let Some(h) = r.heal {
                    rewards.push(Reward::Heal(h));
                }
            }
            steps.push(JourneyStep { encounter: s.encounter.clone(), rewards });
        }
        out.insert(id.clone(), Journey { id: id.clone(), label: j.label.clone(), turn_limit: j.turn_limit, steps });
    }
    out
}

/// The ids of a pipeline's stages, base first.
fn stage_ids(p: &Pipeline) -> Vec<String> {
    std::iter::once("base".to_string()).chain(p.modifiers.iter().map(|m| m.id.clone())).collect()
}

fn policy(
    cx: &mut Ctx,
    file: &str,
    index: usize,
    p: &PolicyDoc,
    attrs: &BTreeMap<String, AttributeDecl>,
) -> Option<(Policy, bool)> {
    let before = cx.out.len();
    let base = format!("/policies/{index}");
    let amount_input = cx.var(file, &format!("{base}/amountInput"), &p.amount_input);

    // Buckets.
    let mut buckets = Vec::new();
    let mut stage_bucket: BTreeMap<String, usize> = BTreeMap::new();
    for (i, b) in p.buckets.iter().enumerate() {
        let bp = format!("{base}/buckets/{i}");
        if p.buckets[..i].iter().any(|o| o.id == b.id) {
            cx.error(file, format!("{bp}/id"), format!("bucket '{}' declared twice", b.id));
        }
        for (k, s) in b.stages.iter().enumerate() {
            if let Some(&other) = stage_bucket.get(s) {
                cx.error(
                    file,
                    format!("{bp}/stages/{k}"),
                    format!("stage '{s}' is already in bucket '{}'", p.buckets[other].id),
                );
            } else {
                stage_bucket.insert(s.clone(), i);
            }
        }
        buckets.push(Bucket { id: b.id.clone(), label: b.label.clone(), scope: b.scope, stages: b.stages.clone() });
    }

    // Bindings.
    let mut bindings: Vec<Binding> = Vec::new();
    let mut by_input: BTreeMap<usize, String> = BTreeMap::new();
    for (i, b) in p.bindings.iter().enumerate() {
        let bp = format!("{base}/bindings/{i}");
        if p.bindings[..i].iter().any(|o| o.id == b.id) {
            cx.error(file, format!("{bp}/id"), format!("binding '{}' declared twice", b.id));
        }
        check_attribute(cx, attrs, file, &format!("{bp}/attribute"), &b.attribute, None);
        if let Some(o) = p.bindings[..i].iter().find(|o| o.attribute == b.attribute && o.default != b.default) {
            cx.error(
                file,
                format!("{bp}/default"),
                format!(
                    "binding '{}' declares {} as the default of '{}', binding '{}' declares {}: one attribute has one default",
                    b.id, b.default, b.attribute, o.id, o.default
                ),
            );
        }
        if !b.default.is_finite() || !b.scale.is_finite() {
            cx.error(file, &bp, "default and scale must be finite numbers");
        }
        let input = b.input.as_ref().and_then(|v| cx.var(file, &format!("{bp}/input"), v));
        if let Some(slot) = input
            && let Some(other) = by_input.insert(slot, b.id.clone())
        {
            cx.error(file, format!("{bp}/input"), format!("binding '{other}' already fills '{}'", cx.rs.vars[slot].id));
        }
        // The default is read whenever an actor lacks the attribute: it must be in the domain
        // every value the binding reads is held to.
        if let Some(slot) = input {
            let var = &cx.rs.vars[slot];
            let v = b.default * b.scale;
            if !(v >= var.min && v <= var.max) {
                cx.error(
                    file,
                    format!("{bp}/default"),
                    format!(
                        "the default {} (×{} = {v}) is outside the scale of '{}', [{}, {}] ({}/scale)",
                        b.default, b.scale, var.id, var.min, var.max, var.source
                    ),
                );
            }
        }
        bindings.push(Binding {
            id: b.id.clone(),
            attribute: b.attribute.clone(),
            side: b.side,
            input,
            default: b.default,
            scale: b.scale,
            source: at(file, &bp),
        });
    }
    let binding = |cx: &mut Ctx, pointer: &str, id: &str| -> Option<usize> {
        let found = bindings.iter().position(|b| b.id == id);
        if found.is_none() {
            let ids: Vec<String> = bindings.iter().map(|b| b.id.clone()).collect();
            cx.error(file, pointer, format!("unknown binding '{id}'{}", hint(id, ids.iter())));
        }
        found
    };

    // Critical model.
    let critical = p.critical.as_ref().and_then(|c| {
        let cp = format!("{base}/critical");
        let chance = binding(cx, &format!("{cp}/chanceBinding"), &c.chance_binding);
        let bonus = binding(cx, &format!("{cp}/bonusBinding"), &c.bonus_binding);
        match cx.rs.formula(&c.tiers_formula) {
            None => {
                let known: Vec<String> = cx.rs.formulas.iter().map(|f| f.id.clone()).collect();
                let h = hint(&c.tiers_formula, known.iter());
                cx.error(file, format!("{cp}/tiersFormula"), format!("unknown formula '{}'{h}", c.tiers_formula));
            }
            Some(f) if f.arguments.len() != 1 => cx.error(
                file,
                format!("{cp}/tiersFormula"),
                format!(
                    "formula {} takes {} arguments; the tiers formula takes the chance only",
                    f.id,
                    f.arguments.len()
                ),
            ),
            Some(_) => {}
        }
        Some(Critical { chance: chance?, bonus: bonus?, formula: c.tiers_formula.clone() })
    });

    // Bypasses.
    let mut bypasses = Vec::new();
    for (i, b) in p.bypasses.iter().enumerate() {
        let bp = format!("{base}/bypasses/{i}");
        if let Some(bi) = binding(cx, &format!("{bp}/binding"), &b.binding) {
            if bypasses.iter().any(|o: &Bypass| o.tag == b.tag && o.binding == bi) {
                cx.error(file, &bp, format!("bypass of '{}' by '{}' declared twice", b.binding, b.tag));
            }
            bypasses.push(Bypass { tag: b.tag.clone(), binding: bi, value: b.value });
        }
    }

    // Provider inputs.
    let pv = &p.providers;
    let pp = format!("{base}/providers");
    let slots = [
        ("base", &pv.base),
        ("statuses", &pv.statuses),
        ("relics", &pv.relics),
        ("modifiers", &pv.modifiers),
        ("mode", &pv.mode),
        ("encounter", &pv.encounter),
    ]
    .map(|(k, v)| cx.var(file, &format!("{pp}/{k}"), v));
    let providers = match slots {
        [Some(base), Some(statuses), Some(relics), Some(modifiers), Some(mode), Some(encounter)] => {
            Some(ProviderSlots { base, statuses, relics, modifiers, mode, encounter })
        }
        _ => None,
    };

    // Rules.
    let mut rules = Vec::new();
    let mut rule_pipelines: BTreeSet<usize> = BTreeSet::new();
    for (i, r) in p.rules.iter().enumerate() {
        let rp = format!("{base}/rules/{i}");
        if p.rules[..i].iter().any(|o| o.id == r.id) {
            cx.error(file, format!("{rp}/id"), format!("rule '{}' declared twice", r.id));
        }
        let selector = Selector::from_doc(&r.selector);
        for (j, o) in p.rules[..i].iter().enumerate() {
            let other = Selector::from_doc(&o.selector);
            if selector.overlaps(&other) {
                cx.error(
                    file,
                    &rp,
                    format!(
                        "rule '{}' ({}) overlaps rule '{}' ({}, rules/{j}): an effect could match both, and ambiguity is refused — make the selectors exclusive (excludedTags, channels)",
                        r.id,
                        selector.describe(),
                        o.id,
                        other.describe()
                    ),
                );
            }
        }
        let amount = cx.pipeline(file, &format!("{rp}/amountPipelineId"), &r.amount_pipeline_id);
        let non_critical = r
            .non_critical_pipeline_id
            .as_ref()
            .and_then(|id| cx.pipeline(file, &format!("{rp}/nonCriticalPipelineId"), id));
        let critical_input = r.critical_input.as_ref().and_then(|v| cx.var(file, &format!("{rp}/criticalInput"), v));
        if let (Some(a), Some(stage)) = (amount, &r.critical_stage_id) {
            let ap = &cx.rs.pipelines[a];
            match ap.modifiers.iter().find(|m| m.id == *stage) {
                None => cx.error(
                    file,
                    format!("{rp}/criticalStageId"),
                    format!("pipeline '{}' has no stage '{stage}' (stages: {})", ap.id, stage_ids(ap).join(", ")),
                ),
                Some(m) => {
                    if let Some(slot) = critical_input
                        && !m.reads.contains(&slot)
                    {
                        cx.error(
                            file,
                            format!("{rp}/criticalInput"),
                            format!(
                                "the critical stage '{stage}' of '{}' does not read '{}'",
                                ap.id, cx.rs.vars[slot].id
                            ),
                        );
                    }
                }
            }
            if let Some(nc) = non_critical {
                let expected: Vec<String> = stage_ids(ap).into_iter().filter(|s| s != stage).collect();
                let found = stage_ids(&cx.rs.pipelines[nc]);
                if found != expected {
                    cx.error(
                        file,
                        format!("{rp}/nonCriticalPipelineId"),
                        format!(
                            "'{}' must be '{}' without its critical stage '{stage}': stages [{}], expected [{}]",
                            cx.rs.pipelines[nc].id,
                            ap.id,
                            found.join(", "),
                            expected.join(", ")
                        ),
                    );
                }
            }
        }
        for (field, tag) in [("armorBypassTag", &r.armor_bypass_tag), ("blockBypassTag", &r.block_bypass_tag)] {
            if let Some(t) = tag
                && !p.bypasses.iter().any(|b| b.tag == *t)
            {
                cx.error(
                    file,
                    format!("{rp}/{field}"),
                    format!("tag '{t}' has no bypass in the policy (\"bypasses\"): it would bypass nothing"),
                );
            }
        }
        // Order and scopes of every stage of the rule's pipelines.
        for (pid, which) in [(amount, "amountPipelineId"), (non_critical, "nonCriticalPipelineId")] {
            let Some(pid) = pid else { continue };
            rule_pipelines.insert(pid);
            let pl = &cx.rs.pipelines[pid];
            let mut last: Option<(usize, String)> = None;
            let stages = std::iter::once(&pl.base).chain(&pl.modifiers);
            for (k, s) in stages.enumerate() {
                let sid = if k == 0 { "base".to_string() } else { s.id.clone() };
                let Some(&bi) = stage_bucket.get(&sid) else {
                    cx.error(
                        file,
                        format!("{rp}/{which}"),
                        format!("stage '{sid}' of pipeline '{}' belongs to no bucket of the policy", pl.id),
                    );
                    continue;
                };
                if let Some((lb, ls)) = &last
                    && bi < *lb
                {
                    cx.error(
                        file,
                        format!("{rp}/{which}"),
                        format!(
                            "pipeline '{}' runs stage '{sid}' (bucket '{}') after '{ls}' (bucket '{}'), against the policy's order",
                            pl.id, p.buckets[bi].id, p.buckets[*lb].id
                        ),
                    );
                }
                last = Some((bi, sid.clone()));
                for &slot in &s.reads {
                    let name = &cx.rs.vars[slot].id;
                    let side = bindings.iter().find(|b| b.input == Some(slot)).map(|b| b.side);
                    let is_amount = Some(slot) == amount_input;
                    let is_tier = Some(slot) == critical_input;
                    let scope = p.buckets[bi].scope;
                    let problem = if is_tier && r.critical_stage_id.as_deref() != Some(&sid) {
                        Some(format!("reads the critical input '{name}', which only the critical stage reads"))
                    } else if !is_amount && !is_tier && side.is_none() {
                        Some(format!(
                            "reads '{name}', which is neither the policy's amount input, a binding's input nor the rule's critical input"
                        ))
                    } else {
                        match scope {
                            Scope::Actor if is_tier || side == Some(Side::Target) => Some(format!(
                                "is an actor (origin) stage but reads '{name}': it reads only the amount and the source's bindings"
                            )),
                            Scope::Target if is_amount || side == Some(Side::Source) => Some(format!(
                                "is a target stage but reads '{name}': target stages never rescale by the origin again"
                            )),
                            _ => None,
                        }
                    };
                    if let Some(msg) = problem {
                        cx.error(
                            file,
                            format!("{rp}/{which}"),
                            format!("stage '{sid}' of pipeline '{}' (bucket '{}') {msg}", pl.id, p.buckets[bi].id),
                        );
                    }
                }
            }
        }
        if let Some(a) = amount {
            rules.push(Rule {
                id: r.id.clone(),
                label: r.label.clone(),
                selector,
                amount_pipeline: a,
                non_critical_pipeline: non_critical,
                critical_stage: r.critical_stage_id.clone(),
                critical_input,
                armor_bypass_tag: r.armor_bypass_tag.clone(),
                block_bypass_tag: r.block_bypass_tag.clone(),
                source: at(file, &rp),
            });
        }
    }

    // Settlements.
    let mut settlements = Vec::new();
    for (i, s) in p.settlements.iter().enumerate() {
        let sp = format!("{base}/settlements/{i}");
        let found = rule_pipelines.iter().any(|&pi| cx.rs.pipelines[pi].modifiers.iter().any(|m| m.id == s.stage));
        if !found {
            cx.error(file, format!("{sp}/stage"), format!("no rule's pipeline has a stage '{}'", s.stage));
        }
        if let Some(bi) = binding(cx, &format!("{sp}/binding"), &s.binding) {
            let attr = &bindings[bi].attribute;
            if attrs.get(attr).is_some_and(|a| a.kind != AttributeKind::Resource) {
                cx.error(
                    file,
                    format!("{sp}/binding"),
                    format!("binding '{}' reads '{attr}', a stat: only a resource can be consumed", s.binding),
                );
            }
            settlements.push(Settlement { stage: s.stage.clone(), binding: bi });
        }
    }

    // Projection profiles.
    let formulas = formulas_node(cx.rev);
    let mut attributes = Vec::new();
    for (i, a) in p.attributes.iter().enumerate() {
        let ap = format!("{base}/attributes/{i}");
        if p.attributes[..i].iter().any(|o| o.attribute_id == a.attribute_id) {
            cx.error(file, format!("{ap}/attributeId"), format!("attribute '{}' projected twice", a.attribute_id));
        }
        let reads = a.reads.clone().unwrap_or_else(|| a.attribute_id.clone());
        let pointer = if a.reads.is_some() { format!("{ap}/reads") } else { format!("{ap}/attributeId") };
        check_attribute(cx, attrs, file, &pointer, &reads, None);
        if !a.transform.display_scale.is_finite()
            || a.transform.display_scale == 0.0
            || !a.transform.display_offset.is_finite()
        {
            cx.error(
                file,
                format!("{ap}/transform"),
                "displayScale must be a finite number other than 0, displayOffset finite",
            );
        }
        let Some(pi) = cx.pipeline(file, &format!("{ap}/pipelineId"), &a.pipeline_id) else { continue };
        if let Some(ps) = providers {
            let allowed = [ps.base, ps.statuses, ps.relics, ps.modifiers, ps.mode, ps.encounter];
            for &slot in &cx.rs.pipelines[pi].inputs {
                if !allowed.contains(&slot) {
                    cx.error(
                        file,
                        format!("{ap}/pipelineId"),
                        format!(
                            "pipeline '{}' reads '{}', which an attribute read does not fill (only the provider inputs)",
                            a.pipeline_id, cx.rs.vars[slot].id
                        ),
                    );
                }
            }
        }
        let source = cx.rs.pipelines[pi].source.clone();
        let fp = microfut_core::catalog::fingerprint(&BTreeMap::from([
            ("pipeline".to_string(), node(cx.rev, &source)),
            ("formulas".to_string(), formulas.clone()),
        ]));
        attributes.push(AttributeProfile {
            attribute_id: a.attribute_id.clone(),
            display_name: a.display_name.clone(),
            unit: a.unit.clone(),
            reads,
            pipeline: pi,
            pipeline_id: a.pipeline_id.clone(),
            pipeline_fingerprint: fp,
            context_tags: a.context_tags.clone(),
            transform: a.transform,
            source: at(file, &ap),
        });
    }
    for (i, b) in bindings.iter().enumerate() {
        if !attributes.iter().any(|a| a.attribute_id == b.attribute && a.reads == b.attribute) {
            cx.error(
                file,
                format!("{base}/bindings/{i}/attribute"),
                format!(
                    "binding '{}' reads attribute '{}', which has no projection profile in \"attributes\": execution and reads use the same pipeline",
                    b.id, b.attribute
                ),
            );
        }
    }

    // A policy with problems is still returned (without the rules that failed) so that the
    // override checks run on what did compile and every problem is reported at once; the
    // revision is refused anyway, as its diagnostics are not empty.
    let complete = cx.out.len() == before;
    let mut pipelines = serde_json::Map::new();
    for pi in rule_pipelines.iter().copied().chain(attributes.iter().map(|a| a.pipeline)) {
        let pl = &cx.rs.pipelines[pi];
        pipelines.insert(pl.id.clone(), node(cx.rev, &pl.source));
    }
    let fingerprint = microfut_core::catalog::fingerprint(&BTreeMap::from([
        ("policy".to_string(), node(cx.rev, &at(file, &base))),
        ("pipelines".to_string(), Value::Object(pipelines)),
        ("formulas".to_string(), formulas),
    ]));
    let policy = Policy {
        id: p.id.clone(),
        label: p.label.clone(),
        fingerprint,
        source: at(file, &base),
        amount_input: amount_input?,
        critical,
        buckets,
        bindings,
        bypasses,
        settlements,
        providers: providers?,
        rules,
        attributes,
    };
    Some((policy, complete))
}

fn modes_of(
    cx: &mut Ctx,
    file: &str,
    doc: &ModesDoc,
    policies: &[Policy],
    journeys: &BTreeMap<String, Journey>,
    attrs: &BTreeMap<String, AttributeDecl>,
) -> BTreeMap<String, Mode> {
    let mut out = BTreeMap::new();
    for (id, m) in &doc.modes {
        let base = ptr(&["modes", id]);
        let policy = m.effect_resolution_policy_id.as_ref().and_then(|pid| {
            let found = policies.iter().position(|p| p.id == *pid);
            if found.is_none() && !cx.rev.documents.values().any(|d| mentions_policy(d, pid)) {
                let ids: Vec<String> = policies.iter().map(|p| p.id.clone()).collect();
                cx.error(
                    file,
                    format!("{base}/effectResolutionPolicyId"),
                    format!("unknown policy '{pid}'{}", hint(pid, ids.iter())),
                );
            }
            found
        });
        if !journeys.contains_key(&m.journey_id) {
            cx.error(
                file,
                format!("{base}/journeyId"),
                format!("unknown journey '{}'{}", m.journey_id, hint(&m.journey_id, journeys.keys())),
            );
        }
        let modifiers = sided(cx, attrs, file, &base, &m.modifiers);
        out.insert(
            id.clone(),
            Mode { id: id.clone(), label: m.label.clone(), policy, journey: m.journey_id.clone(), modifiers },
        );
    }
    out
}

/// Whether a policies document declares `id` (a policy that failed its checks is not unknown).
fn mentions_policy(doc: &Value, id: &str) -> bool {
    declared_schema(doc) == Some(POLICIES_SCHEMA)
        && doc
            .get("policies")
            .and_then(Value::as_array)
            .is_some_and(|ps| ps.iter().any(|p| p.get("id").and_then(Value::as_str) == Some(id)))
}

/// Every card (with each upgrade, and all of them) and every enemy ability, adapted under
/// every policy a mode selects: an override no rule can honour, or an effect two rules match,
/// is reported where it is written. A component that applies to nothing is a mistake too.
fn overrides(
    cx: &mut Ctx,
    policies: &[Policy],
    complete: &[bool],
    modes: &BTreeMap<String, Mode>,
    cards: &BTreeMap<String, Card>,
    enemies: &BTreeMap<String, Enemy>,
    statuses: &BTreeMap<String, Status>,
) {
    let used: BTreeSet<usize> = modes.values().filter_map(|m| m.policy).collect();
    let mut playables: Vec<(Playable, Vec<&Override>)> = Vec::new();
    for c in cards.values() {
        let mut variants: Vec<Vec<String>> = vec![Vec::new()];
        variants.extend(c.upgrades.keys().map(|u| vec![u.clone()]));
        if c.upgrades.len() > 1 {
            variants.push(c.upgrades.keys().cloned().collect());
        }
        let own: Vec<&Override> =
            c.components.iter().chain(c.upgrades.values().flat_map(|u| u.components.iter())).collect();
        for v in variants {
            if let Ok(p) = c.compose(&v) {
                playables.push((p, own.clone()));
            }
        }
    }
    for e in enemies.values() {
        for a in &e.script {
            playables.push((a.clone(), a.components.iter().collect()));
        }
    }
    let mut honoured: BTreeSet<String> = BTreeSet::new();
    let mut reported: BTreeSet<String> = BTreeSet::new();
    for &pi in &used {
        let policy = &policies[pi];
        for (p, _) in &playables {
            for e in &p.effects {
                if e.kind != EffectKind::Amount {
                    continue;
                }
                match policy.adapt(e, &p.components) {
                    Ok(a) => {
                        if a.rule.is_some() {
                            for o in p.components.iter().chain(&e.overrides).filter(|o| o.applies_to(e)) {
                                honoured.insert(o.source.clone());
                            }
                        }
                    }
                    Err(err) => {
                        let source = match &err {
                            super::resolve::AdaptError::Ambiguous { .. } => e.source.clone(),
                            super::resolve::AdaptError::NoArmorBypass { source_path, .. }
                            | super::resolve::AdaptError::NoBlockBypass { source_path, .. }
                            | super::resolve::AdaptError::NoCritical { source_path, .. } => source_path.clone(),
                        };
                        if reported.insert(format!("{source}{err}")) {
                            let (file, pointer) = split(&source);
                            cx.error(file, pointer, format!("under policy {}: {err}", policy.id));
                        }
                    }
                }
            }
        }
        for s in statuses.values() {
            if let Some(t) = &s.tick
                && let Err(err) = policy.select(t)
            {
                let (file, pointer) = split(&t.source);
                cx.error(file, pointer, format!("under policy {}: {err}", policy.id));
            }
        }
    }
    // An override aimed at a rule that failed to compile would be reported as applying to
    // nothing: that report waits until the policy compiles.
    if used.is_empty() || used.iter().any(|&pi| !complete[pi]) {
        return;
    }
    for (_, own) in &playables {
        for o in own {
            if !honoured.contains(&o.source) && reported.iter().all(|r| !r.starts_with(&o.source)) {
                let (file, pointer) = split(&o.source);
                cx.error(
                    file,
                    pointer,
                    format!(
                        "override '{}' ({}) applies to no effect a rule selects, under any mode's policy",
                        o.origin,
                        o.selector.describe()
                    ),
                );
            }
        }
    }
}
