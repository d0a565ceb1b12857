use super::content::load_catalog_for;
use super::render::{self, Lang, Shown};
use super::{CliError, CliResult};
use crate::dice::Dice;
use crate::ruleset::Ruleset;
use std::path::Path;

#[derive(Debug, clap::Args)]
pub struct ResolveArgs {
    /// Pipeline id (pass, finishing, control, speed, range, …).
    pub pipeline: String,
    /// An input, name=value; repeat for each (dx=14, distance=18, …).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub sets: Vec<String>,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Use this dice total instead of rolling.
    #[arg(long, conflicts_with = "seed")]
    pub roll: Option<u32>,
    /// Roll the dice from this seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Language of labels.
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

pub fn parse_sets(sets: &[String]) -> Result<Vec<(String, f64)>, CliError> {
    sets.iter()
        .map(|s| {
            let (k, v) = s.split_once('=').ok_or_else(|| CliError::input(format!("--set {s}: expected name=value")))?;
            let value: f64 =
                v.trim().parse().map_err(|_| CliError::input(format!("--set {s}: '{v}' is not a number")))?;
            Ok((k.trim().to_string(), value))
        })
        .collect()
}

/// Evaluates a pipeline with named inputs, ready to show.
pub fn evaluate<'a>(
    rs: &'a Ruleset,
    pipeline: &str,
    given: &[(String, f64)],
    roll: Option<u32>,
    seed: Option<u64>,
) -> Result<Shown<'a>, CliError> {
    let p = rs.pipeline(pipeline).ok_or_else(|| {
        let names: Vec<&str> = rs.pipelines.iter().map(|p| p.id.as_str()).collect();
        CliError::input(format!("unknown pipeline '{pipeline}' (known: {})", names.join(", ")))
    })?;
    let prepared = rs.prepare(p, given).map_err(CliError::input)?;
    // Every value given is used or refused: none is silently ignored.
    if let Some(e) = rs.unused(p, given) {
        return Err(CliError::input(e));
    }
    let mut trace = Vec::new();
    let res = p.resolve_traced(&prepared.inputs, &mut trace);
    if let Some(fault) = p.fault(&res) {
        return Err(CliError::input(fault));
    }
    let explanation = p.explain(&trace, &res);
    let dice = rs.dice();
    let roll = match (roll, seed, res.difficulty) {
        (Some(_), _, None) | (_, Some(_), None) => {
            return Err(CliError::input(format!("'{pipeline}' is a derived value: there is nothing to roll")));
        }
        (Some(total), _, Some(_)) => {
            if total < dice.min_total() || total > dice.max_total() {
                return Err(CliError::input(format!(
                    "--roll {total}: {}d{} totals run from {} to {}",
                    dice.count,
                    dice.sides,
                    dice.min_total(),
                    dice.max_total()
                )));
            }
            Some(res.with_total(total))
        }
        (None, Some(seed), Some(_)) => Some(res.roll(&mut Dice::new(seed), p)),
        (None, None, _) => None,
    };
    let derived = prepared.derived.iter().map(|&s| (rs.vars[s].id.clone(), prepared.inputs.get(s))).collect();
    // Derived values given on the command line: used as given, and shown as such.
    let overridden = given
        .iter()
        .filter(|(n, _)| rs.var(n).is_some_and(|s| rs.pipelines.iter().any(|q| q.output == Some(s))))
        .map(|(n, v)| (n.clone(), *v))
        .collect();
    Ok(Shown { rs, pipeline: p, res, explanation, derived, overridden, roll })
}

pub fn run(content: Option<&Path>, args: ResolveArgs) -> CliResult {
    let catalog = load_catalog_for(content, "microfut", args.revision.as_deref())?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    let given = parse_sets(&args.sets)?;
    let shown = evaluate(&rs, &args.pipeline, &given, args.roll, args.seed)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&render::json(&shown)).expect("serializes"));
    } else {
        out!("{}", render::human(&shown, args.lang));
    }
    Ok(())
}
