//! Microfut: a data-driven rules engine for a football game resolved like a tabletop RPG.
//!
//! Data flows one way (ARCHITECTURE.md): `microfut-core` (catalog, expressions, dice, rulesets,
//! pipelines, the lab) → the games (`microfut-football`, `-trilha`, `-space`, `-effects`) →
//! `microfut-server` → this package, the `microfut` command. Cargo enforces the direction.
//! The crates' modules are re-exported here at the paths they have always had
//! (`microfut::catalog`, `microfut::engine`, `microfut::space`, …).

pub use microfut_core::{bot_process, catalog, dice, expr, files, game, lab, pipeline, record, ruleset};
pub use microfut_effects as effects;
pub use microfut_football::{calibrate, club, engine, run, season, sheet};
#[cfg(feature = "server")]
pub use microfut_server::{api, server, space_web, sqlite_file, store};
pub use microfut_space as space;
pub use microfut_trilha as trilha;

/// Every game this build plays, by ruleset id: what `validate`, the lab and the command line
/// ask instead of matching ruleset names.
pub const GAMES: [&dyn game::Game; 4] =
    [&microfut_effects::Effects, &microfut_football::Football, &microfut_space::Space, &microfut_trilha::Trilha];

/// The game whose ruleset id is `ruleset`.
pub fn find_game(ruleset: &str) -> Option<&'static dyn game::Game> {
    game::find(&GAMES, ruleset)
}

/// The command line (`microfut …`): only with the `cli` feature (the default), so the library
/// alone does not pull clap, indicatif and the servers into its users' builds.
#[cfg(feature = "cli")]
pub mod cli;
