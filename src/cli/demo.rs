//! The default job: the rules document's worked examples, resolved from the embedded content
//! with every number explained.

use super::render::{self, Lang};
use super::resolve::evaluate;
use super::{CliResult, load_catalog};
use crate::dice::{DiceSpec, Odds};
use std::path::Path;

#[derive(Debug, clap::Args, Default)]
pub struct DemoArgs {
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    /// Language of labels.
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

fn sets(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// The worked examples name the part of the sheet the 0.5 document's tests read; a later
/// revision may read more of it (0.6's home crowd reads willpower, derived from iq). Such values
/// are given at the middle of the scale, and only to a pipeline that reads them, so every value
/// the demo passes is one the resolution uses (`resolve` refuses unused ones).
fn completed(rs: &crate::ruleset::Ruleset, pipeline: &str, example: &[(&str, f64)]) -> Vec<(String, f64)> {
    const REST_OF_SHEET: [(&str, f64); 1] = [("iq", 10.0)];
    let mut given = sets(example);
    if let Some(p) = rs.pipeline(pipeline) {
        for (name, value) in REST_OF_SHEET {
            let extra = vec![(name.to_string(), value)];
            if !given.iter().any(|(k, _)| k == name) && rs.unused(p, &extra).is_none() {
                given.extend(extra);
            }
        }
    }
    given
}

pub fn run(content: Option<&Path>, args: DemoArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    outln!("Microfut — you decide the intention, the player tries to execute it, and you cheer.\n");

    outln!("1. Pass of 18 m (rules document, worked example): DX 14, Passe 15, Domínio 13, ST 11, Chute 12,");
    outln!("   favourable orientation (30°), nearest opponent at 4 m; the dice show 12.\n");
    let pass = completed(
        &rs,
        "pass",
        &[
            ("dx", 14.0),
            ("passing", 15.0),
            ("control", 13.0),
            ("st", 11.0),
            ("kicking", 12.0),
            ("distance", 18.0),
            ("orientation", 30.0),
            ("nearest_opponent", 4.0),
        ],
    );
    out!("{}", render::human(&evaluate(&rs, "pass", &pass, Some(12), None)?, args.lang));

    outln!("\n2. Face-to-face finish: 9 m, central, free (nearest opponent 10 m), DX 15, Finalização 16,");
    outln!("   Domínio 14, ST 13, Chute 15; in the document the value saturates at the clamp; the dice show 10.\n");
    let shot = completed(
        &rs,
        "finishing",
        &[
            ("dx", 15.0),
            ("finishing", 16.0),
            ("control", 14.0),
            ("st", 13.0),
            ("kicking", 15.0),
            ("distance", 9.0),
            ("angle", 0.0),
            ("orientation", 0.0),
            ("nearest_opponent", 10.0),
        ],
    );
    let finish = evaluate(&rs, "finishing", &shot, Some(10), None)?;
    out!("{}", render::human(&finish, args.lang));
    if finish.res.raw <= finish.res.value {
        // The revision chosen is not the document's: say so rather than let the heading mislead.
        outln!(
            "   (on {} the value does not reach the clamp: this revision makes finishing harder than the document)",
            rs.label()
        );
    }

    let p = Odds::new(DiceSpec::D3D6).success(8);
    outln!("\n3. The old roll-under target 13 is difficulty 8 now: P(3d6 ≥ 8) = {p} = {:.2}%.", p.as_f64() * 100.0);

    // A whole match between two sample clubs, when the revision carries the match engine's content.
    match crate::run::rules_for(&catalog, args.revision.as_deref()) {
        Ok(rules) => {
            let home = super::matchday::load_club(&catalog, "esporte_clube_mandacaru", &rules.rs)?;
            let away = super::matchday::load_club(&catalog, "sociedade_esportiva_serra_azul", &rules.rs)?;
            let mut m = crate::engine::Match::new(rules, &home, &away, 2026, crate::engine::Options::default())
                .map_err(super::CliError::input)?;
            m.run().map_err(super::CliError::input)?;
            let (s, score) = (m.stats(), m.score());
            outln!(
                "\n4. A match, every play resolved like the ones above ({} rounds, seed 2026):\n",
                m.round_hashes().len()
            );
            outln!("   {} {} – {} {}", home.name, score[0], score[1], away.name);
            outln!(
                "   shots {}–{}, on target {}–{}, passes completed {:.0}%–{:.0}%, possession {:.0}%–{:.0}%",
                s[0].shots,
                s[1].shots,
                s[0].on_target,
                s[1].on_target,
                100.0 * s[0].pass_completion(),
                100.0 * s[1].pass_completion(),
                s[0].possession,
                s[1].possession
            );
            outln!(
                "   (microfut match --home esporte_clube_mandacaru --away sociedade_esportiva_serra_azul --seed 2026)"
            );
        }
        Err(e) => outln!("\n(no match: {e})"),
    }
    // The suggestion carries exactly the values the demo resolved, so it runs on this revision too.
    let flags: Vec<String> = pass.iter().map(|(k, v)| format!("--set {k}={v}")).collect();
    outln!("\nTry: microfut resolve pass {} \\", flags[..flags.len().min(5)].join(" "));
    let revision = args.revision.as_deref().map(|r| format!(" --revision {r}")).unwrap_or_default();
    outln!("       {}{revision} --json", flags[flags.len().min(5)..].join(" "));
    Ok(())
}
