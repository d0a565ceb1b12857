//! `microfut effects`: World 1 and its effect-resolution policy — resolve one effect with its
//! exact outcome distribution, play a mode's journey, replay a journey record, read an actor's
//! attributes from a record.

use super::render::{Lang, label, num, short, signed, trim};
use super::resolve::parse_sets;
use super::{CliError, CliResult, load_catalog};
use crate::catalog::Catalog;
use crate::effects::record::{JourneyRecord, pinned_world};
use crate::effects::{
    self, Actor, Distribution, Effect, EffectKind, Override, Policy, Run, Selector, TargetKind, What, World, autopilot,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, clap::Args)]
pub struct EffectsArgs {
    #[command(subcommand)]
    pub command: EffectsCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum EffectsCommand {
    /// Resolve one effect under a policy: the exact outcome distribution and every stage.
    Resolve(ResolveArgs),
    /// Play a mode's journey with the automatic player (and record it with --out).
    Journey(JourneyArgs),
    /// Replay a journey record under its pinned revision: "identical" or the first command that differs.
    Replay(ReplayArgs),
    /// Read an actor's attributes (CaptureOnly) from a journey record, after any command.
    Attributes(AttributesArgs),
}

#[derive(Debug, clap::Args)]
pub struct ResolveArgs {
    /// The policy (default: the revision's only policy).
    #[arg(long)]
    pub policy: Option<String>,
    /// `base=N` (the effect's authored amount) or an actor attribute (crit_chance=250,
    /// crit_bonus=100, armor=100, block=5…); each binding reads it from its side.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub sets: Vec<String>,
    /// The effect's tags, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "effect.damage")]
    pub tags: Vec<String>,
    /// The effect's channel.
    #[arg(long, default_value = "effect_amount")]
    pub channel: String,
    /// An override on the effect, e.g. critical=false, armor=false, block=false (repeat).
    #[arg(long = "override", value_name = "FIELD=BOOL")]
    pub overrides: Vec<String>,
    /// Content revision (default: the newest published, or the newest when none is published).
    #[arg(long)]
    pub revision: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

#[derive(Debug, clap::Args)]
pub struct JourneyArgs {
    #[arg(long)]
    pub seed: u64,
    /// The mode to play.
    #[arg(long, default_value = "w1_journey")]
    pub mode: String,
    /// Write the journey record here (for `microfut effects replay`; `-`: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub revision: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A journey record written by `microfut effects journey --out`.
    pub run: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct AttributesArgs {
    /// A journey record.
    pub run: PathBuf,
    /// Read after this many commands (default: all of them).
    #[arg(long)]
    pub at: Option<u64>,
    /// An actor of the combat active then (default: the hero, in combat or not).
    #[arg(long)]
    pub actor: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

pub fn run(content: Option<&Path>, args: EffectsArgs) -> CliResult {
    match args.command {
        EffectsCommand::Resolve(a) => resolve(content, a),
        EffectsCommand::Journey(a) => journey(content, a),
        EffectsCommand::Replay(a) => replay_file(content, &a.run),
        EffectsCommand::Attributes(a) => attributes(content, a),
    }
}

/// The effects world of a revision: the named one, else the newest published, else the newest.
pub fn world(catalog: &Catalog, version: Option<&str>) -> Result<Arc<World>, CliError> {
    let rev = match catalog.revision("effects", version) {
        Err(crate::catalog::CatalogError::NothingPublished(_)) => {
            let newest = catalog.ruleset("effects").ok().and_then(|e| e.revisions.keys().next_back().cloned());
            match newest {
                Some(v) => catalog.revision("effects", Some(&v.to_string())),
                None => catalog.revision("effects", version),
            }
        }
        other => other,
    }
    .map_err(CliError::input)?;
    let world = effects::compile(rev).map_err(|d| {
        CliError::input(format!(
            "{} has {} content error(s), first: {}; run `microfut validate`",
            rev.label(),
            d.len(),
            d[0]
        ))
    })?;
    Ok(Arc::new(world))
}

fn parse_override(text: &str) -> Result<Override, CliError> {
    let (field, value) =
        text.split_once('=').ok_or_else(|| CliError::input(format!("--override {text}: expected field=true|false")))?;
    let value: bool = value
        .trim()
        .parse()
        .map_err(|_| CliError::input(format!("--override {text}: '{value}' is not true or false")))?;
    let mut o = Override {
        selector: Selector::default(),
        effect_id: None,
        critical: None,
        armor: None,
        block: None,
        origin: "--override".into(),
        source: format!("--override {text}"),
    };
    match field.trim() {
        "critical" => o.critical = Some(value),
        "armor" => o.armor = Some(value),
        "block" => o.block = Some(value),
        other => {
            return Err(CliError::input(format!(
                "--override {text}: unknown field '{other}' (critical, armor, block)"
            )));
        }
    }
    Ok(o)
}

fn choose_policy<'w>(world: &'w World, id: Option<&str>) -> Result<&'w Policy, CliError> {
    let ids = || world.policies.iter().map(|p| p.id.as_str()).collect::<Vec<_>>().join(", ");
    match id {
        Some(id) => {
            world.policy(id).ok_or_else(|| CliError::input(format!("unknown policy '{id}' (policies: {})", ids())))
        }
        None if world.policies.len() == 1 => Ok(&world.policies[0]),
        None => Err(CliError::input(format!("name a policy with --policy ({})", ids()))),
    }
}

fn resolve(content: Option<&Path>, args: ResolveArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let world = world(&catalog, args.revision.as_deref())?;
    let policy = choose_policy(&world, args.policy.as_deref())?;
    let mut amount = None;
    let mut values: BTreeMap<String, f64> = BTreeMap::new();
    for (name, value) in parse_sets(&args.sets)? {
        if !value.is_finite() {
            return Err(CliError::input(format!("--set {name}: {value} is not a finite number")));
        }
        if name == "base" || name == "amount" {
            if value < 0.0 {
                return Err(CliError::input(format!("--set {name}={value}: an effect's amount is at least 0")));
            }
            amount = Some(value);
        } else if world.attributes.contains_key(&name) {
            if values.insert(name.clone(), value).is_some() {
                return Err(CliError::input(format!("--set {name} is given twice")));
            }
        } else {
            let known: Vec<&str> = world.attributes.keys().map(String::as_str).collect();
            return Err(CliError::input(format!(
                "--set {name}: not an attribute of {} (base, {})",
                world.revision_label(),
                known.join(", ")
            )));
        }
    }
    let amount = amount.ok_or_else(|| CliError::input("--set base=N: the effect's amount is needed"))?;
    let overrides = args.overrides.iter().map(|o| parse_override(o)).collect::<Result<Vec<_>, _>>()?;
    let tags: Vec<String> = args.tags.iter().map(|t| t.trim().to_string()).filter(|t| !t.is_empty()).collect();
    for t in &tags {
        declared(&world, "--tags", "tag", t, &world.tags)?;
    }
    declared(&world, "--channel", "channel", &args.channel, &world.channels)?;
    let effect = Effect {
        id: "effect".into(),
        kind: EffectKind::Amount,
        target: TargetKind::Enemy,
        channel: args.channel.clone(),
        tags,
        amount,
        resource: Some(world.life.clone()),
        op: crate::effects::AmountOp::Subtract,
        impacts: 1,
        status: None,
        duration: 0,
        attribute: None,
        overrides,
        source: "--set".into(),
    };
    let actor = Actor { id: "actor", values: &values, providers: &[], source: "--set" };
    let adapted = policy.adapt(&effect, &[]).map_err(CliError::input)?;
    let d = policy.distribution(&world.rs, &adapted, &actor, &actor).map_err(CliError::input)?;
    let report = report(&world, policy, &effect, &d);
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report).expect("serializes"));
    } else {
        out!("{}", table(&world, policy, &effect, &d, args.lang));
    }
    Ok(())
}

/// A tag or channel the revision writes somewhere; any other is a typo, refused with the
/// closest declared name rather than resolved as an effect no rule selects.
fn declared(world: &World, option: &str, what: &str, name: &str, known: &BTreeSet<String>) -> Result<(), CliError> {
    if known.contains(name) {
        return Ok(());
    }
    let close = known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(name, k), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| format!(" (did you mean '{k}'?)"))
        .unwrap_or_default();
    let all: Vec<&str> = known.iter().map(String::as_str).collect();
    Err(CliError::input(format!(
        "{option} {shown}: {} declares no {what} '{shown}'{close}; its {what}s: {}",
        world.revision_label(),
        all.join(", "),
        shown = crate::catalog::printable(name),
    )))
}

/// What to say when no rule of the policy selects the effect: it then applies the amount as
/// written, which a typo in a selector would make silently.
fn unselected(policy: &Policy, effect: &Effect, d: &Distribution) -> Option<String> {
    if d.diagnostic.rule.is_some() {
        return None;
    }
    Some(format!(
        "no rule of policy {} selects an effect tagged [{}] on channel {}: its authored amount {} applies unchanged (no critical, armor or block)",
        policy.id,
        effect.tags.join(", "),
        effect.channel,
        trim(effect.amount)
    ))
}

/// The JSON of one effect's resolution: outcomes, every stage per branch, settlements, the
/// policy diagnostic.
pub fn report(world: &World, policy: &Policy, effect: &Effect, d: &Distribution) -> Value {
    let rs = &world.rs;
    let pipeline = d.diagnostic.pipeline.as_ref().and_then(|p| rs.pipeline_index(p));
    let mut stages = Vec::new();
    if let Some(p) = pipeline {
        let explained: Vec<_> = d.branches.iter().map(|b| effects::resolve::explain(rs, p, &b.trace)).collect();
        for (k, row) in explained[0].contributions.iter().enumerate() {
            let bucket = policy.bucket_of(&row.stage);
            stages.push(json!({
                "stage": row.stage,
                "bucket": bucket.map(|(i, _)| policy.buckets[i].id.clone()),
                "scope": bucket.map(|(_, s)| s),
                "label": row.label,
                "op": row.op,
                "source": row.source,
                "branches": d.branches.iter().zip(&explained).map(|(b, e)| json!({
                    "tier": b.tier,
                    "amount": num(e.contributions[k].amount),
                    "running": num(e.contributions[k].running),
                })).collect::<Vec<_>>(),
            }));
        }
    }
    let settlements: Vec<Value> = policy
        .settlements
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let b = &policy.bindings[s.binding];
            json!({
                "stage": s.stage,
                "binding": b.id,
                "attribute": b.attribute,
                "branches": d.branches.iter().map(|br| json!({
                    "tier": br.tier,
                    "consumed": num(br.settled.iter().filter(|(x, _)| *x == policy.settlements[i].binding).map(|(_, a)| a).sum()),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "policy": policy.id,
        "revision": {"ruleset": rs.id, "version": rs.version.to_string(), "fingerprint": rs.fingerprint},
        "effect": {"amount": num(effect.amount), "tags": effect.tags, "channel": effect.channel},
        "critical": d.tiers.map(|t| json!({
            "chance": num(t.chance),
            "guaranteedTiers": t.guaranteed,
            "nextTierChance": num(t.next_chance),
            "bonusPerTier": num(t.bonus),
        })),
        "outcomes": d.outcomes.iter().map(|o| json!({"amount": num(o.amount), "probability": num(o.probability)})).collect::<Vec<_>>(),
        "expected": num(d.expected()),
        "stages": stages,
        "settlements": settlements,
        "resolutionPolicy": d.diagnostic,
        "warnings": unselected(policy, effect, d).into_iter().collect::<Vec<_>>(),
    })
}

fn percent(p: f64) -> String {
    format!("{} %", trim(p * 100.0))
}

fn table(world: &World, policy: &Policy, effect: &Effect, d: &Distribution, lang: Lang) -> String {
    let rs = &world.rs;
    let pt = lang == Lang::PtBr;
    let mut out =
        format!("{} — {}   ({}, {})\n", policy.id, label(&policy.label, lang), rs.label(), short(&rs.fingerprint));
    let diag = &d.diagnostic;
    match &diag.rule {
        Some(rule) => out.push_str(&format!(
            "  {} {rule} · pipeline {}\n",
            if pt { "regra" } else { "rule" },
            diag.pipeline.as_deref().unwrap_or("-")
        )),
        None if pt => out.push_str(&format!(
            "  aviso: nenhuma regra da política {} seleciona um efeito com as tags [{}] no canal {}: vale a quantidade autorada {}, sem crítico, Armor nem Block\n",
            policy.id,
            effect.tags.join(", "),
            effect.channel,
            trim(effect.amount)
        )),
        None => out.push_str(&format!("  warning: {}\n", unselected(policy, effect, d).unwrap_or_default())),
    }
    if let Some(t) = d.tiers {
        out.push_str(&if pt {
            format!(
                "  crítico: chance {} % → {} tier(s) garantido(s), {} de mais um; bônus {} % por tier\n",
                trim(t.chance),
                t.guaranteed,
                percent(t.next_chance),
                trim(t.bonus)
            )
        } else {
            format!(
                "  critical: chance {} % → {} guaranteed tier(s), {} for one more; bonus {} % per tier\n",
                trim(t.chance),
                t.guaranteed,
                percent(t.next_chance),
                trim(t.bonus)
            )
        });
    } else if diag.rule.is_some() {
        out.push_str(if pt { "  sem crítico\n" } else { "  no critical\n" });
    }
    for o in &diag.overrides {
        out.push_str(&format!(
            "  override {} {}={}{}\n",
            o.origin,
            o.field,
            o.value,
            if o.decided {
                ""
            } else if pt {
                " (vencido por uma proibição)"
            } else {
                " (overruled by a prohibition)"
            }
        ));
    }
    if !diag.bypass_tags.is_empty() {
        out.push_str(&format!("  bypass: {}\n", diag.bypass_tags.join(", ")));
    }
    if let Some(p) = diag.pipeline.as_ref().and_then(|p| rs.pipeline_index(p)) {
        let explained: Vec<_> = d.branches.iter().map(|b| effects::resolve::explain(rs, p, &b.trace)).collect();
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut header = vec![if pt { "etapa" } else { "stage" }.to_string(), "bucket".to_string()];
        for b in &d.branches {
            header.push(format!("tier {} ({})", b.tier, percent(b.probability)));
        }
        header.push(if pt { "origem" } else { "source" }.to_string());
        for (k, row) in explained[0].contributions.iter().enumerate() {
            let mut cells = vec![
                row.stage.clone(),
                policy.bucket_of(&row.stage).map(|(i, _)| policy.buckets[i].id.clone()).unwrap_or_default(),
            ];
            for e in &explained {
                let c = &e.contributions[k];
                let amount = match c.op {
                    "mul" => format!("×{}", trim(c.amount)),
                    "set" => format!("={}", trim(c.amount)),
                    _ if c.kind == "base" => trim(c.amount),
                    _ => signed(c.amount),
                };
                cells.push(format!("{amount} → {}", trim(c.running)));
            }
            cells.push(row.source.clone());
            rows.push(cells);
        }
        out.push_str(&align(&header, &rows));
    }
    out.push_str(&format!("  {}\n", if pt { "resultado  probabilidade" } else { "outcome  probability" }));
    for o in &d.outcomes {
        out.push_str(&format!("  {:>7}  {:>11}\n", trim(o.amount), percent(o.probability)));
    }
    for s in &policy.settlements {
        let b = &policy.bindings[s.binding];
        let consumed: Vec<String> = d
            .branches
            .iter()
            .map(|br| trim(br.settled.iter().filter(|(x, _)| *x == s.binding).map(|(_, a)| a).sum()))
            .collect();
        if consumed.iter().any(|c| c != "0") {
            out.push_str(&format!(
                "  {} {} {}: {}\n",
                if pt { "settlement consome de" } else { "settlement consumes from" },
                b.attribute,
                if pt { "por tier" } else { "per tier" },
                consumed.join(" / ")
            ));
        }
    }
    out
}

fn align(header: &[String], rows: &[Vec<String>]) -> String {
    let n = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate().take(n - 1) {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::from(" ");
        for (i, c) in cells.iter().enumerate() {
            if i + 1 == n {
                s.push_str(&format!(" {c}"));
            } else if i < 2 {
                s.push_str(&format!(" {:<w$}", c, w = widths[i]));
            } else {
                s.push_str(&format!(" {:>w$}", c, w = widths[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

/// One encounter of a journey as the summary shows it.
struct EncounterLine {
    index: usize,
    encounter: String,
    victory: Option<bool>,
    turns: u32,
    hero_life: f64,
    dealt: f64,
    crits: u32,
}

fn summarise(world: &World, run: &Run) -> Vec<EncounterLine> {
    let mut lines: Vec<EncounterLine> = Vec::new();
    for e in run.events() {
        match &e.what {
            What::EncounterStarted { encounter, .. } => lines.push(EncounterLine {
                index: lines.len() + 1,
                encounter: encounter.clone(),
                victory: None,
                turns: 0,
                hero_life: 0.0,
                dealt: 0.0,
                crits: 0,
            }),
            What::Effect { source, target, resource, amount, tier, op, .. } => {
                if let Some(l) = lines.last_mut()
                    && source == "hero"
                    && target != "hero"
                    && *op == crate::effects::AmountOp::Subtract
                {
                    if *resource == world.life {
                        l.dealt += amount;
                    }
                    if tier.is_some_and(|t| t > 0) {
                        l.crits += 1;
                    }
                }
            }
            What::EncounterEnded { victory, turns, life } => {
                if let Some(l) = lines.last_mut() {
                    l.victory = Some(*victory);
                    l.turns = *turns;
                    l.hero_life = *life;
                }
            }
            _ => {}
        }
    }
    lines
}

fn journey(content: Option<&Path>, args: JourneyArgs) -> CliResult {
    // The record's file is checked before the journey is played (see `crate::files`).
    let outputs: Vec<(&str, &Path)> = args.out.iter().map(|p| ("--out", p.as_path())).collect();
    let plan = crate::files::Plan::new(&outputs, &[]).map_err(CliError::input)?;
    let catalog = load_catalog(content)?;
    let world = world(&catalog, args.revision.as_deref())?;
    let mut run =
        Run::new(world.clone(), &args.mode, args.seed, format!("run-{}", args.seed)).map_err(CliError::input)?;
    autopilot::play_out(&mut run).map_err(CliError::input)?;
    let record = JourneyRecord::of(&run);
    if !plan.is_empty() {
        let mut text = serde_json::to_string_pretty(&record).expect("records serialise");
        text.push('\n');
        plan.write(&[text.as_bytes()]).map_err(CliError::input)?;
    }
    let lines = summarise(&world, &run);
    let victory = run.victory().unwrap_or(false);
    if args.json {
        let v = json!({
            "mode": run.mode().id,
            "policy": record.policy,
            "revision": {"ruleset": world.rs.id, "version": world.rs.version.to_string(), "fingerprint": world.rs.fingerprint},
            "seed": args.seed,
            "victory": victory,
            "encountersWon": run.encounters_won(),
            "commands": run.sequence(),
            "encounters": lines.iter().map(|l| json!({
                "encounter": l.encounter,
                "victory": l.victory,
                "turns": l.turns,
                "heroLife": num(l.hero_life),
                "damageDealt": num(l.dealt),
                "criticalImpacts": l.crits,
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
        return Ok(());
    }
    let pt = args.lang == Lang::PtBr;
    let mode = run.mode();
    outln!(
        "{} — {}   ({}, {}; {} {})",
        mode.id,
        label(&mode.label, args.lang),
        world.revision_label(),
        short(world.fingerprint()),
        if pt { "política" } else { "policy" },
        run.policy().map(|p| p.id.as_str()).unwrap_or(if pt { "nenhuma" } else { "none" })
    );
    let header: Vec<String> = if pt {
        ["#", "encontro", "resultado", "turnos", "vida depois", "dano causado", "impactos críticos"]
    } else {
        ["#", "encounter", "result", "turns", "life after", "damage dealt", "critical impacts"]
    }
    .iter()
    .map(|s| s.to_string())
    .collect();
    let rows: Vec<Vec<String>> = lines
        .iter()
        .map(|l| {
            let e = &world.encounters[&l.encounter];
            vec![
                l.index.to_string(),
                label(&e.label, args.lang).to_string(),
                match (l.victory, pt) {
                    (Some(true), false) => "won".into(),
                    (Some(true), true) => "vitória".into(),
                    (Some(false), false) => "lost".into(),
                    (Some(false), true) => "derrota".into(),
                    (None, _) => "-".into(),
                },
                l.turns.to_string(),
                trim(l.hero_life),
                trim(l.dealt),
                l.crits.to_string(),
            ]
        })
        .collect();
    out!("{}", align_all(&header, &rows));
    outln!(
        "{} {}: {} {} {}, {} {}",
        if pt { "jornada" } else { "journey" },
        match (victory, pt) {
            (true, false) => "won",
            (true, true) => "vencida",
            (false, false) => "lost",
            (false, true) => "perdida",
        },
        run.encounters_won(),
        if pt { "de" } else { "of" },
        run.journey().steps.len(),
        run.sequence(),
        if pt { "comandos" } else { "commands" }
    );
    if let Some(out) = &args.out {
        outln!("{} {}", if pt { "registro em" } else { "recorded in" }, out.display());
    }
    Ok(())
}

fn align_all(header: &[String], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::from(" ");
        for (i, c) in cells.iter().enumerate() {
            if i == 1 {
                s.push_str(&format!(" {:<w$}", c, w = widths[i]));
            } else {
                s.push_str(&format!(" {:>w$}", c, w = widths[i]));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header);
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

fn read_record(path: &Path) -> Result<JourneyRecord, CliError> {
    let bytes =
        crate::files::read_input("a journey record", path, crate::files::RECORD_LIMIT).map_err(CliError::input)?;
    JourneyRecord::parse(&bytes).map_err(|e| blame(path, "cannot read", e))
}

/// A record's problem named at the record (`file#pointer`) when it is a field of it.
fn blame(path: &Path, doing: &str, e: crate::effects::record::RecordError) -> CliError {
    CliError::input(crate::effects::record::refusal(&path.display().to_string(), doing, e).message)
}

/// `microfut effects replay`: `microfut replay` with the game given.
pub fn replay_file(content: Option<&Path>, path: &Path) -> CliResult {
    let name = path.display().to_string();
    let value = super::replay::read_record_json(content, path, "a journey record", "a journey record")?;
    let report = super::replay::replay(content, &crate::effects::Effects, &name, value)?;
    super::replay::print(&report, false)
}

fn attributes(content: Option<&Path>, args: AttributesArgs) -> CliResult {
    let record = read_record(&args.run)?;
    let catalog = load_catalog(content)?;
    let world = pinned_world(&catalog, &record).map_err(|e| blame(&args.run, "cannot read", e))?;
    let at = args.at.unwrap_or(record.commands.len() as u64);
    if at as usize > record.commands.len() {
        return Err(CliError::input(format!("--at {at}: the record has {} commands", record.commands.len())));
    }
    let mut run = Run::new(world, &record.mode, record.seed, record.run_id.clone()).map_err(CliError::input)?;
    for c in &record.commands[..at as usize] {
        run.apply(c).map_err(CliError::input)?;
    }
    let read = match &args.actor {
        None => effects::project::character_attributes(&run),
        Some(actor) => {
            let combat = run
                .combat()
                .map(|c| c.id.clone())
                .ok_or_else(|| CliError::input(format!("--actor {actor}: no combat is active after command {at}")))?;
            effects::project::combat_actor_attributes(&run, &combat, actor).map_err(CliError::input)?
        }
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&read).expect("serializes"));
    } else {
        out!("{}", effects::project::render(&read, args.lang == Lang::PtBr));
    }
    Ok(())
}
