//! `microfut serve`: the web page, the HTTP API and the run store (see `crate::api`).

use super::{CliError, CliResult, load_catalog};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// The most mebibytes (MiB) the store's file may use — its pages in use (those freed by
    /// deleting or pruning runs are room again) and its WAL: over it, `POST /runs` and
    /// `POST /effects/journeys` are refused (409 `store_full`); runs in progress still advance.
    #[arg(long, value_name = "MiB", default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..=1 << 32), allow_hyphen_values = true)]
    pub max_store_mb: u64,
    #[command(flatten)]
    pub connections: ConnectionArgs,
}

/// How long the server waits on a client and how many it serves at once (both servers).
#[derive(Debug, Clone, clap::Args)]
pub struct ConnectionArgs {
    /// Connections served at once (default: 1024, lowered to fit the open-file limit). At the
    /// limit, a new connection takes the slot of the one that has waited longest on its client.
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Seconds a client has to send a request's head, from connecting or from its first byte.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    pub header_timeout: Duration,
    /// Seconds a kept-alive connection may stay idle between requests.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub idle_timeout: Duration,
    /// Seconds a client has to send a request's body once its head is read (then 408).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub body_timeout: Duration,
    /// Seconds an answer may wait on a client that does not read it before the connection closes.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub write_timeout: Duration,
}

impl ConnectionArgs {
    pub fn limits(&self) -> Result<crate::server::Limits, CliError> {
        Ok(crate::server::Limits {
            max_connections: crate::server::connection_limit(self.max_connections).map_err(CliError::input)?,
            header_timeout: self.header_timeout,
            idle_timeout: self.idle_timeout,
            body_timeout: self.body_timeout,
            write_timeout: self.write_timeout,
        })
    }
}

/// A duration in seconds (fractions allowed), between a millisecond and a day.
fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !(0.001..=86_400.0).contains(&v) {
        return Err(format!("{s} s is outside 0.001–86400 s"));
    }
    Ok(Duration::from_secs_f64(v))
}

pub fn run(content: Option<&Path>, args: ServeArgs) -> CliResult {
    let limits = args.connections.limits()?;
    let catalog = load_catalog(content)?;
    let store_limits = crate::store::Limits { max_runs: args.max_runs, max_bytes: args.max_store_mb << 20 };
    crate::api::serve(catalog, args.bind, &args.db, store_limits, limits).map_err(CliError::input)
}
