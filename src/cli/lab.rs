//! `microfut lab`: run rule scenarios many times and print win shares, lengths and their
//! confidence intervals; `--shard` for one slice on one machine, `lab merge` to add slices up.

pub use super::lab_args::{CalibrateArgs, LabArgs, LabCommand, MergeArgs};
use super::render::Lang;
use super::{CliError, CliResult, lab_report};
use crate::catalog::Catalog;
use crate::game::{Erased, Study};
use crate::lab::{self, Report, Request, Shard, Simulator};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn lab_lang(l: Lang) -> lab::Lang {
    match l {
        Lang::En => lab::Lang::En,
        Lang::PtBr => lab::Lang::PtBr,
    }
}

pub fn run(content: Option<&Path>, args: LabArgs) -> CliResult {
    match args.command {
        Some(LabCommand::Merge(m)) => return merge(m),
        Some(LabCommand::Calibrate(c)) => return calibrate(content, c),
        Some(LabCommand::Sensitivity(a)) => return super::lab_sensitivity::run(content, a),
        None => {}
    }
    let ruleset = args.ruleset.clone().expect("clap requires a ruleset");
    // Only the revisions this study plays are kept (peak memory); the others are checked.
    let versions = [args.revision.as_deref(), args.against.as_deref()];
    let versions = if args.against.is_some() { &versions[..] } else { &versions[..1] };
    let catalog = super::content::load_catalog_for_some(content, &ruleset, versions)?;
    let Some(game) = crate::find_game(&ruleset) else {
        let simulated: Vec<&str> = crate::GAMES.iter().map(|g| g.ruleset()).collect();
        let what = if catalog.rulesets.contains_key(&ruleset) {
            format!("ruleset '{ruleset}' has no lab simulator registered")
        } else {
            format!("unknown ruleset '{ruleset}'")
        };
        return Err(CliError::input(format!("{what} (rulesets with a lab simulator: {})", simulated.join(", "))));
    };
    let study = Study {
        revision: args.revision.as_deref(),
        against: args.against.as_deref(),
        home: args.home.as_deref(),
        away: args.away.as_deref(),
        bots: &args.bots,
    };
    let setup = game.lab(&catalog, &study).map_err(CliError::input)?;
    run_with(&Erased(setup.simulator.as_ref()), &catalog, content, args, &setup.inputs)
}

fn run_with<S: Simulator>(
    sim: &S,
    catalog: &Catalog,
    content: Option<&Path>,
    args: LabArgs,
    inputs: &[(&str, PathBuf)],
) -> CliResult {
    let shard = lab_report::shard(&args).map_err(CliError::input)?;
    let out_path = shard.map(|s| lab_report::shard_path(args.out.as_deref(), s));
    // Checked before any simulation: no folder, no missing folder, no input overwritten.
    let inputs: Vec<(&str, &Path)> = inputs.iter().map(|(w, p)| (*w, p.as_path())).collect();
    let plan = match &out_path {
        Some(p) => Some(crate::files::Plan::new(&[("--out", p)], &inputs)),
        None => outputs_plan(args.csv.as_deref(), args.html.as_deref(), &inputs),
    }
    .transpose()
    .map_err(CliError::input)?;
    let rev = catalog.revision(sim.ruleset(), args.revision.as_deref()).map_err(CliError::input)?;
    let against = match &args.against {
        Some(v) => Some(catalog.revision(sim.ruleset(), Some(v)).map_err(CliError::input)?),
        None => None,
    };
    let request = Request {
        revision: rev,
        against,
        scenarios: &args.scenarios,
        simulations: args.games.expect("clap requires --games"),
        seed: args.seed.expect("clap requires --seed"),
    };
    let prepared = lab::prepare(sim, &request).map_err(CliError::input)?;
    let command = lab_report::study_command(
        &args,
        content,
        &prepared.identity.revision.version,
        prepared.identity.against.as_ref().map(|b| b.version.as_str()),
        &prepared.identity.unit.id,
    );

    let shard_or_all = shard.unwrap_or(Shard::ALL);
    let range = shard_or_all.range(request.simulations);
    let arms = if against.is_some() { 2 } else { 1 };
    let total = (range.end - range.start) * prepared.identity.scenarios.len() as u64 * arms;
    let bar = progress_bar(total, args.quiet, &prepared.identity.unit.label.en);
    let started = Instant::now();
    let tick = |k: u64| bar.inc(k);
    let accs = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(t))
            .build()
            .map_err(|e| CliError::input(format!("cannot start {t} threads: {e}")))?
            .install(|| lab::run(sim, &prepared, shard_or_all, &tick)),
        None => lab::run(sim, &prepared, shard_or_all, &tick),
    };
    bar.finish_and_clear();
    let accs = accs.map_err(CliError::input)?;
    if !args.quiet {
        let threads = args.threads.map(usize::from).unwrap_or_else(rayon::current_num_threads);
        eprintln!(
            "{total} {} in {:.2} s on {threads} thread(s)",
            prepared.identity.unit.label.en,
            started.elapsed().as_secs_f64()
        );
    }

    if let (Some(s), Some(path), Some(plan)) = (shard, out_path, &plan) {
        plan.write(&[lab::shard_json(&prepared.identity, s, &accs, Some(&command)).as_bytes()])
            .map_err(CliError::input)?;
        if !args.quiet {
            outln!(
                "wrote shard {}/{} ({} {} of each of {} scenario(s), from {} to {}) to {}",
                s.index,
                s.count,
                range.end - range.start,
                prepared.identity.unit.label.en,
                prepared.identity.scenarios.len(),
                range.start,
                range.end.saturating_sub(1),
                path.display()
            );
        }
        return Ok(());
    }
    emit(&Report::new(prepared.identity, &accs), args.json, plan.as_ref(), Some(command.as_str()), args.lang)
}

fn merge(args: MergeArgs) -> CliResult {
    let inputs: Vec<(&str, &Path)> = args.files.iter().map(|p| ("shard", p.as_path())).collect();
    let plan = outputs_plan(args.csv.as_deref(), args.html.as_deref(), &inputs).transpose().map_err(CliError::input)?;
    let merged = lab::merge_files(&args.files).map_err(CliError::input)?;
    emit(
        &Report::new(merged.identity, &merged.accumulators),
        args.json,
        plan.as_ref(),
        merged.command.as_deref(),
        args.lang,
    )
}

/// The CSV and HTML outputs of a report, planned together (all or nothing), or none.
fn outputs_plan(
    csv: Option<&Path>,
    html: Option<&Path>,
    inputs: &[(&str, &Path)],
) -> Option<Result<crate::files::Plan, crate::files::WriteError>> {
    let outputs: Vec<(&str, &Path)> =
        [("--csv", csv), ("--html", html)].into_iter().filter_map(|(w, p)| p.map(|p| (w, p))).collect();
    (!outputs.is_empty()).then(|| crate::files::Plan::new(&outputs, inputs))
}

/// Writes the planned CSV and HTML report (the page names `command`) and prints the table or
/// JSON.
fn emit(
    report: &Report,
    json: bool,
    plan: Option<&crate::files::Plan>,
    command: Option<&str>,
    lang: Lang,
) -> CliResult {
    if let Some(plan) = plan {
        let mut contents: Vec<String> = Vec::new();
        for what in plan.outputs() {
            contents.push(match what {
                "--csv" => report.csv(lab_lang(lang)),
                _ => report.html(lab_lang(lang), command),
            });
        }
        let bytes: Vec<&[u8]> = contents.iter().map(|c| c.as_bytes()).collect();
        plan.write(&bytes).map_err(CliError::input)?;
    }
    if json {
        print_out(&(serde_json::to_string_pretty(&report.json()).expect("serializes") + "\n"))
    } else {
        print_out(&report.markdown(lab_lang(lang)))
    }
}

/// Prints to stdout; a reader that stopped early (`| head`) is not an error.
pub(super) fn print_out(text: &str) -> CliResult {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::input(format!("cannot write to standard output: {e}")))
        }
        _ => Ok(()),
    }
}

fn progress_bar(total: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {unit} · {{elapsed}} · eta {{eta}}"))
        .expect("valid template");
    bar.set_style(style);
    bar
}

/// Writes the calibration set's clubs, all of them or none (`files::Plan`), into an existing
/// folder.
fn export_clubs(
    catalog: &Catalog,
    rules: &crate::engine::Rules,
    targets: &crate::calibrate::Targets,
    reference: Option<&crate::club::Club>,
    dir: &Path,
    json: bool,
) -> CliResult {
    if !dir.is_dir() {
        return Err(CliError::input(format!("--export-clubs {}: no such folder", dir.display())));
    }
    let clubs = crate::calibrate::Clubs::of(catalog, rules, targets, reference).map_err(CliError::input)?;
    // A club's name is a key of the calibration document: it names a file in `dir`, nothing else.
    if let Some(bad) = clubs
        .by_name
        .keys()
        .find(|n| n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(CliError::input(format!(
            "calibration.json#/clubs/{bad}: a club name must be letters, digits, '_' or '-' to name its file"
        )));
    }
    let paths: Vec<(String, PathBuf)> = clubs
        .by_name
        .keys()
        .map(|name| (format!("--export-clubs ({name})"), dir.join(format!("{name}.json"))))
        .collect();
    let outputs: Vec<(&str, &Path)> = paths.iter().map(|(w, p)| (w.as_str(), p.as_path())).collect();
    let plan = crate::files::Plan::new(&outputs, &[]).map_err(CliError::input)?;
    let texts: Vec<String> =
        clubs.by_name.values().map(|c| serde_json::to_string_pretty(c).expect("serializes") + "\n").collect();
    let bytes: Vec<&[u8]> = texts.iter().map(|t| t.as_bytes()).collect();
    plan.write(&bytes).map_err(CliError::input)?;
    if json {
        let written: serde_json::Map<String, serde_json::Value> = clubs
            .by_name
            .iter()
            .zip(&paths)
            .map(|((name, club), (_, p))| {
                (name.clone(), serde_json::json!({ "id": club.id, "name": club.name, "file": p.display().to_string() }))
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({ "revision": rules.rs.version.to_string(), "clubs": written })
            )
            .expect("serializes")
        );
    } else {
        outln!("The calibration clubs of {}:", rules.rs.label());
        for ((name, club), (_, p)) in clubs.by_name.iter().zip(&paths) {
            outln!("  {name:<14} {} ({})  → {}", club.name, club.id, p.display());
        }
    }
    Ok(())
}

/// Refuses a `--fixture` the calibration document does not have, listing those it has.
pub(super) fn known_fixtures(
    rules: &crate::engine::Rules,
    targets: &crate::calibrate::Targets,
    fixtures: &[String],
) -> CliResult {
    let ids: Vec<&str> =
        targets.fixtures.iter().map(|x| x.id.as_str()).chain(targets.leagues.iter().map(|l| l.id.as_str())).collect();
    for f in fixtures {
        if !ids.contains(&f.as_str()) {
            let known = &ids;
            return Err(CliError::input(format!(
                "--fixture {f}: {} has no such fixture (fixtures: {})",
                rules.rs.label(),
                if known.is_empty() { "none".into() } else { known.join(", ") }
            )));
        }
    }
    Ok(())
}

fn calibrate(content: Option<&Path>, args: CalibrateArgs) -> CliResult {
    use crate::calibrate::{Judging, Settings, Targets, calibrate};
    let catalog = super::content::load_catalog_for(content, "microfut", args.revision.as_deref())?;
    let rules = crate::run::rules_for(&catalog, args.revision.as_deref()).map_err(CliError::input)?;
    let targets = Targets::of(&rules).map_err(CliError::input)?;
    known_fixtures(&rules, &targets, &args.fixtures)?;
    // What a short run plays when the document does not say (the revisions before 0.6.21).
    let (short_matches, short_leagues) = targets.short.as_ref().map_or((100, 3), |s| (s.matches, s.leagues));
    let judging = match (args.judge, args.short) {
        (Some(super::lab_args::Judge::Point), _) | (None, false) => Judging::Point,
        (Some(super::lab_args::Judge::Interval), _) | (None, true) => Judging::Interval,
    };
    let settings = Settings {
        matches: args.matches.or(args.short.then_some(short_matches)).or(targets.matches).unwrap_or(200),
        leagues: args.short.then_some(short_leagues),
        judging,
        seed: args.seed,
        fixtures: args.fixtures.clone(),
        facts: !args.no_facts,
        reference: match &args.club {
            Some(c) => Some(super::matchday::load_club(&catalog, c, &rules.rs)?),
            None => None,
        },
    };
    if let Some(dir) = &args.export_clubs {
        return export_clubs(&catalog, &rules, &targets, settings.reference.as_ref(), dir, args.json);
    }
    let started = Instant::now();
    let checks = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(t))
            .build()
            .map_err(|e| CliError::input(format!("cannot start {t} threads: {e}")))?
            .install(|| calibrate(&catalog, rules.clone(), &targets, &settings)),
        None => calibrate(&catalog, rules.clone(), &targets, &settings),
    }
    .map_err(CliError::input)?;
    let failed = checks.iter().filter(|c| !c.pass).count();
    if args.json {
        let v = serde_json::json!({
            "revision": rules.rs.version.to_string(),
            "fingerprint": rules.rs.fingerprint,
            "reference_club": targets.reference_club,
            "matches": settings.matches,
            "seed": settings.seed,
            "short": args.short,
            "judging": settings.judging,
            "seconds": started.elapsed().as_secs_f64(),
            "checks": checks,
            "passed": checks.len() - failed,
            "failed": failed,
        });
        outln!("{}", serde_json::to_string_pretty(&v).expect("serializes"));
    } else {
        outln!(
            "Calibration of {} ({}) · {} matches per fixture and order · seed {} · {} judging{}\n",
            rules.rs.label(),
            super::render::short(&rules.rs.fingerprint),
            settings.matches,
            settings.seed,
            settings.judging.name(),
            if args.short { " · short" } else { "" }
        );
        let w = checks.iter().map(|c| c.fact.chars().count()).max().unwrap_or(0);
        let mut group = None;
        for c in &checks {
            let heading = (c.group.as_str(), c.order.as_deref());
            if group != Some(heading) {
                group = Some(heading);
                match c.order.as_deref() {
                    Some(order) => outln!("{} — {order}", c.group),
                    None => outln!("{}", c.group),
                }
            }
            outln!("  {}  {:<w$}  {}  (target: {})", if c.pass { "pass" } else { "FAIL" }, c.fact, c.figure, c.target);
        }
        outln!(
            "\n{} of {} checks pass ({:.0} s). Figures: estimate [95 % interval]; {} ({} judging).",
            checks.len() - failed,
            checks.len(),
            started.elapsed().as_secs_f64(),
            settings.judging.rule(),
            settings.judging.name()
        );
    }
    if failed == 0 { Ok(()) } else { Err(CliError::Found(format!("{failed} calibration check(s) fail"))) }
}
