//! `microfut club validate` and `microfut club generate`.

use super::render::{Lang, label};
use super::sheet::{file_error, local, tidy, write_json};
use super::{CliError, CliResult, load_catalog};
use crate::club::generate::generate;
use crate::club::{Club, ClubPersonality, ClubReport, ClubRules, Request};
use crate::sheet::thousands;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct ClubArgs {
    #[command(subcommand)]
    pub command: ClubCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum ClubCommand {
    /// Check a club: squad size, budget, every player valid and within his age cap, cover for
    /// every line, unique shirt numbers. Exit 1 when any problem is found.
    Validate(ValidateArgs),
    /// Generate a plausible squad for a budget, deterministically for a seed.
    Generate(GenerateArgs),
}

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The club file (JSON, schemas/club.schema.json).
    pub club: PathBuf,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Net XP the squad may cost: a number, or a preset of the club rules (modest, established, elite).
    #[arg(long)]
    pub budget: String,
    /// Where the club concentrates development (an identity of the club rules); from the seed when absent.
    #[arg(long)]
    pub identity: Option<String>,
    /// Club personality as verticality,security,risk_tolerance (e.g. 2,-1,1); from the seed when absent.
    #[arg(long, value_name = "V,S,R", allow_hyphen_values = true)]
    pub personality: Option<String>,
    /// The seed: the same seed, budget and revision always give the same club.
    #[arg(long)]
    pub seed: u64,
    /// The club file to write (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Club name (default: from the seed).
    #[arg(long)]
    pub name: Option<String>,
    /// Club id (default: from the name).
    #[arg(long)]
    pub id: Option<String>,
    /// Content revision (default: the newest published).
    #[arg(long)]
    pub revision: Option<String>,
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, default_value_t = Lang::En)]
    pub lang: Lang,
}

pub fn run(content: Option<&Path>, args: ClubArgs) -> CliResult {
    match args.command {
        ClubCommand::Validate(a) => validate(content, a),
        ClubCommand::Generate(a) => generate_cmd(content, a),
    }
}

fn validate(content: Option<&Path>, args: ValidateArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    let (club, schema) = Club::read(&args.club).map_err(file_error)?;
    let report = club.validate(&rs, schema).map_err(CliError::input)?;
    let file = args.club.display().to_string();
    if args.json {
        let v = serde_json::json!({ "file": file, "valid": report.is_valid(), "report": report });
        outln!("{}", serde_json::to_string_pretty(&tidy(v)).expect("serializes"));
    } else {
        out!("{}", human_report(&report, &rs, args.lang));
        for p in &report.problems {
            outln!("error: {}", p.line(&file));
        }
        if report.is_valid() {
            outln!("club valid");
        }
    }
    if report.is_valid() { Ok(()) } else { Err(CliError::Found(format!("{} problem(s) found", report.problems.len()))) }
}

pub fn human_report(r: &ClubReport, rs: &crate::ruleset::Ruleset, lang: Lang) -> String {
    let roles = crate::sheet::Roles::from_revision(&rs.revision).ok().flatten();
    let role_label = |id: &str| {
        roles.as_ref().and_then(|x| x.role(id)).map_or(id.to_string(), |x| label(&x.label, lang).to_string())
    };
    let rules = crate::sheet::SheetRules::from_revision(&rs.revision).ok().flatten();
    let l = |key: &str, fallback: &str| {
        rules.as_ref().map_or(fallback.to_string(), |r| label(&r.label(key), lang).to_string())
    };
    let mut out = format!("{} — {}   ({})\n", r.club, r.name, r.revision);
    let mut rows = vec![vec![
        "#".to_string(),
        l("name", "name"),
        l("role", "role"),
        l("age", "age"),
        l("band", "band"),
        l("net_xp", "net XP"),
        format!("{} / {}", l("positive_xp", "positive XP"), l("age_cap", "age cap")),
    ]];
    for p in &r.players {
        rows.push(vec![
            p.shirt.to_string(),
            p.name.clone(),
            role_label(&p.role),
            p.age.to_string(),
            p.band_label.as_ref().map_or(p.band.clone(), |b| label(b, lang).to_string()),
            local(thousands(p.net), lang),
            local(format!("{} / {}", thousands(p.positive), thousands(p.cap)), lang),
        ]);
    }
    let widths: Vec<usize> = (0..7).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    for row in &rows {
        let mut line = String::from(" ");
        for (i, c) in row.iter().enumerate() {
            let pad = " ".repeat(widths[i] - c.chars().count());
            if [0, 3, 5].contains(&i) {
                line.push_str(&format!(" {pad}{c} "));
            } else {
                line.push_str(&format!(" {c}{pad} "));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let order: Vec<String> = roles.as_ref().map(|x| x.lines.iter().map(|l| l.id.clone()).collect()).unwrap_or_default();
    let mut lines: Vec<(&String, &usize)> = r.lines.iter().collect();
    lines.sort_by_key(|(l, _)| order.iter().position(|o| o == *l).unwrap_or(usize::MAX));
    let lines: Vec<String> = lines.iter().map(|(l, n)| format!("{l} {n}")).collect();
    out.push_str(&format!("  lines: {}\n", lines.join(", ")));
    out.push_str(&format!(
        "  squad net cost {} of budget {} ({} left)\n",
        local(thousands(r.total_net), lang),
        local(crate::sheet::Xp::whole(i128::from(r.budget)).grouped(), lang),
        local(r.left.grouped(), lang)
    ));
    out
}

fn parse_personality(text: &str) -> Result<ClubPersonality, CliError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let bad = || {
        CliError::input(format!(
            "--personality {text}: expected three whole numbers verticality,security,risk_tolerance (e.g. 2,-1,1)"
        ))
    };
    if parts.len() != 3 {
        return Err(bad());
    }
    let n: Vec<i32> = parts.iter().map(|p| p.parse::<i32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    Ok(ClubPersonality { verticality: n[0], security: n[1], risk_tolerance: n[2] })
}

fn generate_cmd(content: Option<&Path>, args: GenerateArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    let rs = super::content::microfut_ruleset(&catalog, args.revision.as_deref())?;
    let rules = ClubRules::need(&rs, "club generator").map_err(CliError::input)?;
    let budget = match args.budget.trim().parse::<u64>() {
        Ok(b) => b,
        Err(_) => rules.preset(args.budget.trim()).map(|p| p.xp).ok_or_else(|| {
            let known: Vec<String> =
                rules.budgets.iter().map(|b| format!("{} ({})", b.id, thousands(b.xp as f64))).collect();
            CliError::input(format!(
                "--budget {}: not a number of XP nor a preset (presets: {})",
                args.budget,
                known.join(", ")
            ))
        })?,
    };
    let personality = args.personality.as_deref().map(parse_personality).transpose()?;
    let req = Request {
        budget,
        identity: args.identity.clone(),
        personality,
        seed: args.seed,
        name: args.name.clone(),
        id: args.id.clone(),
    };
    let club = generate(&rs, &req).map_err(CliError::input)?;
    let report = club.validate(&rs, Vec::new()).map_err(CliError::input)?;
    write_json(&args.out, &club)?;
    if args.json {
        let v = serde_json::json!({
            "written": args.out.display().to_string(),
            "seed": args.seed,
            "identity": club.identity,
            "personality": club.personality,
            "report": report,
        });
        outln!("{}", serde_json::to_string_pretty(&tidy(v)).expect("serializes"));
    } else {
        let identity = rules
            .identity(&club.identity)
            .map_or(club.identity.clone(), |i| format!("{} ({})", label(&i.label, args.lang), i.id));
        let p = club.personality;
        out!("{}", human_report(&report, &rs, args.lang));
        outln!(
            "  identity {identity}; personality verticality {}, security {}, risk tolerance {}; seed {}",
            p.verticality,
            p.security,
            p.risk_tolerance,
            args.seed
        );
        outln!("wrote {}", args.out.display());
    }
    Ok(())
}
