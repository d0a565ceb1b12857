//! `microfut trilha`: things only Trilha has, such as its printable board.

use super::render::Lang;
use super::{CliError, CliResult, load_catalog};
use crate::lab::scenario;
use crate::trilha::{self, board};
use std::path::Path;

#[derive(Debug, clap::Args)]
pub struct TrilhaArgs {
    #[command(subcommand)]
    pub command: TrilhaCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TrilhaCommand {
    /// Print the board as an A4-landscape SVG (297 × 210 mm): `microfut trilha board > tabuleiro.svg`.
    Board(BoardArgs),
}

#[derive(Debug, clap::Args)]
pub struct BoardArgs {
    /// The revision to draw (default: the newest published).
    #[arg(long, value_name = "VERSION")]
    pub revision: Option<String>,
    /// Draw the board of this lab scenario (its overlay applied).
    #[arg(long, value_name = "ID")]
    pub scenario: Option<String>,
    /// Language of the board's words.
    #[arg(long, value_enum, default_value_t)]
    pub lang: Lang,
}

pub fn run(content: Option<&Path>, args: TrilhaArgs) -> CliResult {
    let TrilhaCommand::Board(a) = args.command;
    let catalog = load_catalog(content)?;
    let rev = catalog.revision("trilha", a.revision.as_deref()).map_err(CliError::input)?;
    let invalid = |rev: &crate::catalog::Revision, d: Vec<crate::catalog::Diagnostic>| {
        CliError::input(format!("{} has {} content error(s), first: {}", rev.label(), d.len(), d[0]))
    };
    let patched = match &a.scenario {
        None => rev.clone(),
        Some(id) => {
            let list = scenario::scenarios(rev).map_err(|d| invalid(rev, d))?;
            let s = list.iter().find(|s| &s.id == id).ok_or_else(|| {
                let known: Vec<&str> = list.iter().map(|s| s.id.as_str()).collect();
                CliError::input(format!("unknown scenario '{id}' in {} (scenarios: {})", rev.label(), known.join(", ")))
            })?;
            scenario::apply(rev, s).map_err(|d| invalid(rev, d))?
        }
    };
    let rules = trilha::compile(&patched).map_err(|d| invalid(rev, d))?;
    let lang = match a.lang {
        Lang::En => board::Lang::En,
        Lang::PtBr => board::Lang::PtBr,
    };
    super::lab::print_out(&board::svg(&rules, lang))
}
