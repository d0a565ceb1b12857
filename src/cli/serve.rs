//! `microfut serve`: the web page, the HTTP API and the run store (see `crate::api`).

use super::{CliError, CliResult, load_catalog};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// The SQLite run store (created when missing).
    #[arg(long, default_value = "microfut.db")]
    pub db: PathBuf,
    /// The most runs the store keeps (World 1's journeys are counted apart): `POST /runs`
    /// beyond it is refused (409 `store_full`) until runs are deleted or pruned.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..), allow_hyphen_values = true)]
    pub max_runs: u64,
}

pub fn run(content: Option<&Path>, args: ServeArgs) -> CliResult {
    let catalog = load_catalog(content)?;
    crate::api::serve(catalog, args.bind, &args.db, args.max_runs).map_err(CliError::input)
}
