//! `microfut sheet`, `microfut train`, `microfut age`: a player sheet shown, trained and aged.

use super::render::{Lang, label, trim};
use super::{CliError, CliResult, load_catalog};
use crate::catalog::Labels;
use crate::ruleset::Ruleset;
use crate::sheet::progression::{Ageing, Outcome};
use crate::sheet::{Sheet, SheetError, SheetFileError, SheetRules, SheetView, Trainer, Xp, merge, thousands};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct SheetArgs {
    /// The sheet file (JSON, schemas/sheet.schema.json).
    pub file: PathBuf,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Language of labels.
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// The sheet file; updated in place unless --out is given.
    pub sheet: PathBuf,
    /// Raw XP for a channel (an attribute, characteristic or skill), e.g. passing=400; repeat.
    #[arg(long = "xp", value_name = "CHANNEL=AMOUNT", required = true)]
    pub xp: Vec<String>,
    /// Write the trained sheet here instead of over the input (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Show what would happen; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

#[derive(Debug, clap::Args)]
pub struct AgeArgs {
    /// The sheet file; updated in place unless --out is given.
    pub sheet: PathBuf,
    /// Years to add.
    #[arg(long)]
    pub years: u32,
    /// Write the aged sheet here instead of over the input (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[arg(long)]
    pub dry_run: bool,
    #[arg(long)]
    pub revision: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

/// Problems of a file as one error: a line each, naming the file and the JSON pointer.
pub fn located(file: &str, problems: &[SheetError]) -> CliError {
    let lines: Vec<String> = problems
        .iter()
        .map(|p| {
            let (pointer, message) = (crate::catalog::printable(&p.pointer), crate::catalog::printable(&p.message));
            if p.pointer.is_empty() { format!("{file}: {message}") } else { format!("{file}#{pointer}: {message}") }
        })
        .collect();
    CliError::Input(lines.join("\nerror: "))
}

pub fn file_error(e: SheetFileError) -> CliError {
    CliError::Input(e.to_string().replace('\n', "\nerror: "))
}

/// A sheet file read and checked under a revision; every problem at once when it is not valid.
/// `allow_over_cap` lets a sheet over its age cap through (the sheet view shows it).
pub fn checked_sheet(rs: &Ruleset, path: &Path, allow_over_cap: bool) -> Result<(Sheet, Vec<SheetError>), CliError> {
    let (sheet, schema) = Sheet::load(path).map_err(file_error)?;
    let problems = merge(schema, sheet.problems(rs).map_err(CliError::input)?);
    let blocking = if allow_over_cap { problems.iter().any(|p| !p.pointer.is_empty()) } else { !problems.is_empty() };
    if blocking {
        return Err(located(&path.display().to_string(), &problems));
    }
    Ok((sheet, problems))
}

/// Pretty JSON, all-or-nothing, through a symbolic link, keeping the file's permissions (see
/// `crate::files`): a failed command leaves nothing behind.
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).expect("serializes") + "\n";
    crate::files::write_one("output", path, text.as_bytes()).map_err(CliError::input)
}

/// Whole numbers as integers all through a JSON value (200, not 200.0).
pub fn tidy(v: Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.is_f64() => super::render::num(x),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(tidy).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, tidy(v))).collect()),
        other => other,
    }
}

fn rules(rs: &Ruleset) -> Result<SheetRules, CliError> {
    SheetRules::need(rs, "sheet view").map_err(CliError::input)
}

pub fn run_sheet(content: Option<&Path>, args: SheetArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    let (sheet, _) = checked_sheet(&rs, &args.file, true)?;
    let view = sheet.view(&rs).map_err(CliError::input)?;
    if args.json {
        let v = tidy(serde_json::to_value(&view).expect("serializes"));
        outln!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
    } else {
        let archetype = crate::club::ClubRules::from_revision(&rs.revision)
            .ok()
            .flatten()
            .and_then(|c| c.archetype_label(&view.archetype).cloned());
        out!("{}", human_sheet(&view, &rules(&rs)?, archetype.as_ref(), args.lang));
    }
    if view.problems.is_empty() {
        Ok(())
    } else {
        Err(CliError::Found(format!("{} violation(s)", view.problems.len())))
    }
}

/// `passing=400` pairs; refuses malformed, non-positive and repeated channels.
pub fn parse_awards(items: &[String]) -> Result<Vec<(String, Xp)>, CliError> {
    let mut out: Vec<(String, Xp)> = Vec::new();
    for item in items {
        let (k, v) =
            item.split_once('=').ok_or_else(|| CliError::input(format!("--xp {item}: expected channel=amount")))?;
        let k = k.trim().to_string();
        let amount = Xp::parse(v).map_err(|e| CliError::input(format!("--xp {item}: {e}")))?;
        if !amount.is_positive() {
            return Err(CliError::input(format!("--xp {item}: raw XP must be positive")));
        }
        if out.iter().any(|(o, _)| *o == k) {
            return Err(CliError::input(format!("--xp {k} is given twice")));
        }
        out.push((k, amount));
    }
    Ok(out)
}

pub fn run_train(content: Option<&Path>, args: TrainArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    let awards = parse_awards(&args.xp)?;
    let trainer = Trainer::new(&rs).map_err(CliError::input)?;
    let (mut sheet, _) = checked_sheet(&rs, &args.sheet, false)?;
    let file = args.sheet.display().to_string();
    let outcome = trainer.award(&mut sheet, &awards).map_err(|e| CliError::input(format!("{file}: {e}")))?;
    let target = args.out.clone().unwrap_or_else(|| args.sheet.clone());
    let human = || Ok(human_outcome(&sheet, &outcome, &rules(&rs)?, &rs, args.lang));
    finish_session(&sheet, &target, args.dry_run, args.json.then(|| ("outcome", serde_json::json!(outcome))), human)
}

pub fn run_age(content: Option<&Path>, args: AgeArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    let trainer = Trainer::new(&rs).map_err(CliError::input)?;
    let (mut sheet, _) = checked_sheet(&rs, &args.sheet, false)?;
    let file = args.sheet.display().to_string();
    let ageing = trainer.age(&mut sheet, args.years).map_err(|e| CliError::input(format!("{file}: {e}")))?;
    let target = args.out.clone().unwrap_or_else(|| args.sheet.clone());
    let human = || Ok(human_ageing(&sheet, &ageing, &rules(&rs)?, &rs, args.lang));
    finish_session(&sheet, &target, args.dry_run, args.json.then(|| ("ageing", serde_json::json!(ageing))), human)
}

/// The end of `train` and `age`: write the sheet (unless a dry run), then print the session as
/// JSON (`{"sheet", "written", <key>: …}`) or for people, followed by where it was written.
fn finish_session(
    sheet: &Sheet,
    target: &Path,
    dry_run: bool,
    json: Option<(&str, serde_json::Value)>,
    human: impl FnOnce() -> Result<String, CliError>,
) -> CliResult {
    if !dry_run {
        write_json(target, sheet)?;
    }
    let written = (!dry_run).then(|| target.display().to_string());
    match json {
        Some((key, value)) => {
            let mut v = serde_json::json!({ "sheet": sheet.name, "written": written });
            v[key] = value;
            outln!("{}", serde_json::to_string_pretty(&tidy(v)).expect("serializes"));
        }
        None => {
            out!("{}", human()?);
            if let Some(w) = written {
                outln!("wrote {w}");
            }
        }
    }
    Ok(())
}

fn signed(x: f64) -> String {
    if x > 0.0 { format!("+{}", thousands(x)) } else { thousands(x) }
}

/// A number as people read it in the language: `25,900.5` in English, `25.900,5` in Portuguese.
pub fn local(text: String, lang: Lang) -> String {
    match lang {
        Lang::En => text,
        Lang::PtBr => text
            .chars()
            .map(|c| match c {
                ',' => '.',
                '.' => ',',
                c => c,
            })
            .collect(),
    }
}

/// Left-aligned columns, the last one free.
fn table(rows: &[Vec<String>], right: &[usize]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; n];
    for r in rows {
        for (i, c) in r.iter().enumerate().take(n.saturating_sub(1)) {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::from("  ");
        for (i, c) in r.iter().enumerate() {
            let pad = widths[i].saturating_sub(c.chars().count());
            if i + 1 == r.len() {
                line.push_str(c);
            } else if right.contains(&i) {
                line.push_str(&" ".repeat(pad));
                line.push_str(c);
                line.push_str("  ");
            } else {
                line.push_str(c);
                line.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub fn human_sheet(v: &SheetView, r: &SheetRules, archetype: Option<&Labels>, lang: Lang) -> String {
    let l = |k: &str| label(&r.label(k), lang).to_string();
    let lab = |x: &Labels| label(x, lang).to_string();
    let mut out = String::new();
    let role = v.role_label.as_ref().map_or(v.role.clone(), |x| format!("{} ({})", lab(x), v.role));
    out.push_str(&format!(
        "{}  #{}  {}   ({} {}, {})\n",
        v.name,
        v.shirt,
        role,
        v.ruleset,
        v.revision,
        super::render::short(&v.fingerprint)
    ));
    let foot = l(match v.foot {
        crate::sheet::Foot::Left => "foot_left",
        crate::sheet::Foot::Right => "foot_right",
        crate::sheet::Foot::Both => "foot_both",
    });
    let mut ident = vec![format!("{}: {}", l("age"), v.age)];
    if let Some(c) = &v.club {
        ident.insert(0, format!("{}: {c}", l("club")));
    }
    ident.push(format!("{}: {foot}", l("foot")));
    ident.push(format!("{}: {}", l("archetype"), archetype.map_or(v.archetype.clone(), &lab)));
    out.push_str(&format!("  {}\n\n", ident.join("   ")));

    out.push_str(&format!("{}\n", l("attributes")));
    let mut rows: Vec<Vec<String>> =
        v.attributes.iter().map(|a| vec![lab(&a.label), a.value.to_string(), String::new()]).collect();
    let rp = &v.res_practical;
    rows.push(vec![
        l("res_practical"),
        rp.value.to_string(),
        format!(
            "{} {} ({} {})   {}",
            l("age_penalty"),
            local(signed(rp.age_penalty), lang),
            l("age").to_lowercase(),
            v.age,
            rp.source
        ),
    ]);
    out.push_str(&table(&rows, &[1]));

    out.push_str(&format!("\n{}\n", l("characteristics")));
    let mut rows = vec![vec![String::new(), l("computed_base"), l("training"), l("final"), l("cost")]];
    for c in &v.characteristics {
        rows.push(vec![
            lab(&c.label),
            local(trim(c.base), lang),
            if c.training > 0 { format!("+{}", c.training) } else { c.training.to_string() },
            c.value.to_string(),
            local(thousands(c.cost), lang),
        ]);
    }
    out.push_str(&table(&rows, &[1, 2, 3, 4]));

    out.push_str(&format!("\n{}\n", l("skills")));
    let rows: Vec<Vec<String>> = v.skills.iter().map(|s| vec![lab(&s.label), s.value.to_string()]).collect();
    out.push_str(&table(&rows, &[1]));

    let p = &v.personality;
    out.push_str(&format!(
        "\n{}: {} {}, {} {}, {} {}\n",
        l("personality"),
        l("confidence"),
        p.confidence,
        l("collectivity"),
        p.collectivity,
        l("integrity"),
        p.integrity
    ));

    let lg = &v.ledger;
    out.push_str(&format!("\n{}\n", l("ledger")));
    let mut rows = vec![vec![l("item"), l("levels"), l("xp"), l("steps"), l("source")]];
    for line in &lg.lines {
        let steps: Vec<String> = line.steps.iter().map(|s| local(trim((s / line.factor).abs()), lang)).collect();
        let sign = if line.xp < 0.0 { "-" } else { "" };
        let steps = match (line.factor != 1.0, steps.len() > 1 && line.xp < 0.0) {
            (true, _) => format!("{sign}{} × ({})", local(trim(line.factor), lang), steps.join(" + ")),
            (false, true) => format!("-({})", steps.join(" + ")),
            (false, false) => format!("{sign}{}", steps.join(" + ")),
        };
        let levels = if line.kind == crate::sheet::TraitKind::Training {
            format!("{} → {}", line.from, if line.to > 0 { format!("+{}", line.to) } else { line.to.to_string() })
        } else {
            format!("{} → {}", line.from, line.to)
        };
        rows.push(vec![lab(&line.label), levels, local(signed(line.xp), lang), steps, line.sources.join(", ")]);
    }
    out.push_str(&table(&rows, &[2]));
    let mut rows = vec![
        vec![l("positive_xp"), local(thousands(lg.positive), lang)],
        vec![l("credits"), local(thousands(lg.credits), lang)],
        vec![l("net_xp"), local(thousands(lg.net), lang)],
    ];
    let anchors = lg
        .cap_anchors
        .map(|a| {
            let n = |x: f64| local(thousands(x), lang);
            format!("   ({} {} → {}, {} → {})", l("interpolated"), a[0], n(a[1]), a[2], n(a[3]))
        })
        .unwrap_or_default();
    rows.push(vec![
        format!("{} ({})", l("age_cap"), lg.age),
        format!(
            "{}   {}{anchors}",
            local(thousands(lg.cap), lang),
            if lg.within_cap { l("within_cap") } else { l("over_cap") }
        ),
    ]);
    let band = lg.band.label.as_ref().map_or(lg.band.tag.clone(), lab);
    rows.push(vec![l("band"), format!("{band} {}   {}", lg.band.range, lg.band_source)]);
    out.push_str(&table(&rows, &[]));

    out.push_str(&format!("\n{}: ", l("problems")));
    if v.problems.is_empty() {
        out.push_str(&format!("{}\n", l("none")));
    } else {
        out.push('\n');
        for p in &v.problems {
            out.push_str(&format!("  {p}\n"));
        }
    }
    out
}

fn var_label(rs: &Ruleset, id: &str, lang: Lang) -> String {
    rs.var(id).map(|s| label(&rs.vars[s].label, lang).to_string()).unwrap_or_else(|| id.to_string())
}

/// The label of a channel: its trait's variable (a characteristic's channel is its training).
fn channel_label(rs: &Ruleset, channel: &str, lang: Lang) -> String {
    let var = crate::sheet::Trait::named(channel).map_or(channel.to_string(), |t| t.var());
    var_label(rs, &var, lang)
}

fn human_outcome(sheet: &Sheet, o: &Outcome, r: &SheetRules, rs: &Ruleset, lang: Lang) -> String {
    let l = |k: &str| label(&r.label(k), lang).to_string();
    let mut out = format!("{} — {} {}\n", sheet.name, l("age"), sheet.age);
    let mut rows = vec![vec![l("channel"), String::new(), l("raw_xp"), l("multiplier"), l("applied_xp")]];
    if o.flows.is_empty() {
        rows.clear();
    }
    for f in &o.flows {
        let from = match &f.from {
            Some(s) => format!("{} {s}", l("support")),
            None => l("direct"),
        };
        let ms: Vec<String> = f.multipliers.iter().map(|m| format!("×{}", local(m.to_string(), lang))).collect();
        rows.push(vec![
            f.channel.clone(),
            from,
            local(f.raw.to_string(), lang),
            ms.join(" → "),
            local(f.applied.to_string(), lang),
        ]);
    }
    out.push_str(&table(&rows, &[2, 4]));
    for lv in &o.levels {
        let mut line = format!(
            "  {} {}: {} → {} ({} {})",
            channel_label(rs, &lv.channel, lang),
            l("level_up"),
            lv.from,
            lv.to,
            l("cost"),
            lv.cost
        );
        if !lv.recalculated.is_empty() {
            let rec: Vec<String> =
                lv.recalculated.iter().map(|(k, [a, b])| format!("{} {a} → {b}", var_label(rs, k, lang))).collect();
            line.push_str(&format!("; {}: {}", l("recalculated"), rec.join(", ")));
        }
        out.push_str(&line);
        out.push('\n');
    }
    for h in &o.held {
        out.push_str(&format!(
            "  {} → {}: {} ({} {} > {} {})\n",
            channel_label(rs, &h.channel, lang),
            h.next,
            l("capped"),
            l("positive_xp"),
            local(thousands(h.positive_xp_after), lang),
            l("age_cap"),
            local(thousands(h.cap), lang)
        ));
    }
    let mut rows = vec![vec![l("channel"), l("level"), l("banked"), l("next_cost")]];
    for (ch, s) in &o.channels {
        rows.push(vec![
            channel_label(rs, ch, lang),
            s.level.to_string(),
            local(s.banked.to_string(), lang),
            s.next_cost.map_or("—".into(), |c| local(c.to_string(), lang)),
        ]);
    }
    out.push_str(&table(&rows, &[1, 2, 3]));
    out
}

fn human_ageing(sheet: &Sheet, a: &Ageing, r: &SheetRules, rs: &Ruleset, lang: Lang) -> String {
    let l = |k: &str| label(&r.label(k), lang).to_string();
    let mut out = format!("{} {}: {} → {}\n", sheet.name, l("aged"), a.from, a.to);
    out.push_str(&format!("  {}: {} → {}\n", l("res_practical"), a.res_practical[0], a.res_practical[1]));
    let n = |x: f64| local(thousands(x), lang);
    out.push_str(&format!("  {}: {} → {}\n", l("age_cap"), n(a.cap[0]), n(a.cap[1])));
    for (k, [x, y]) in &a.recalculated {
        if k != "res_practical" {
            out.push_str(&format!("  {}: {x} → {y}\n", var_label(rs, k, lang)));
        }
    }
    if !a.settled.levels.is_empty() {
        out.push_str(&human_outcome(sheet, &a.settled, r, rs, lang));
    }
    out
}
