use super::CliResult;
use super::content::load_catalog_for;
use crate::dice::{DiceSpec, Odds};
use std::path::Path;

#[derive(Debug, clap::Args, Default)]
pub struct OddsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Content revision whose dice to use (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
}

pub fn run(content: Option<&Path>, args: OddsArgs) -> CliResult {
    let catalog = load_catalog_for(content, "microfut", args.revision.as_deref())?;
    let spec: DiceSpec = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?.dice();
    let odds = Odds::new(spec);
    let rows: Vec<(u32, crate::dice::Probability)> =
        (spec.min_total()..=spec.max_total()).map(|d| (d, odds.success(d as i32))).collect();
    if args.json {
        let v: Vec<_> = rows
            .iter()
            .map(|(d, p)| serde_json::json!({"difficulty": d, "favourable": p.favourable, "outcomes": p.outcomes, "probability": p.as_f64()}))
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"dice": format!("{}d{}", spec.count, spec.sides), "odds": v})
            )
            .expect("serializes")
        );
        return Ok(());
    }
    outln!("Success probability of {}d{} ≥ difficulty (Appendix B)", spec.count, spec.sides);
    outln!("{:>10}  {:>9}  {:>8}", "difficulty", "outcomes", "success");
    for (d, p) in rows {
        outln!("{:>10}  {:>9}  {:>7.2}%", d, format!("{}/{}", p.favourable, p.outcomes), p.as_f64() * 100.0);
    }
    Ok(())
}
