//! The one thing a ruleset provides to run in the lab.

use super::metric::{Metric, Unit};
use crate::catalog::{Diagnostic, Revision};
use crate::dice::Dice;

/// A ruleset's simulator: compiles a (possibly patched) revision, declares what it measures and
/// plays one simulation. The lab owns everything else — scenarios, seeds, threads, sums,
/// intervals, shards and output — so a new ruleset plugs in by implementing this trait and
/// registering it in the `lab` command.
pub trait Simulator: Sync {
    /// The compiled rules of one scenario, shared read-only by all threads.
    type Rules: Send + Sync;

    /// The ruleset id in the catalog (`trilha`).
    fn ruleset(&self) -> &'static str;

    /// What one simulation is called (`games`, `matches`).
    fn unit(&self) -> Unit;

    /// Compiles and checks a revision; problems are content diagnostics (file + JSON pointer).
    fn compile(&self, revision: &Revision) -> Result<Self::Rules, Vec<Diagnostic>>;

    /// What a simulation under these rules observes. Slots follow this order (see
    /// [`super::metric::slot`]). Metric ids must not be one of [`super::metric::RESERVED_KEYS`].
    fn metrics(&self, rules: &Self::Rules) -> Vec<Metric>;

    /// Plays simulation number `index` with its own dice and writes its observations into `out`
    /// (zeroed before the call). The same (rules, index, dice) must give the same observations.
    /// A simulation the rules cannot finish (a pipeline that met NaN) is an error, and the run
    /// stops: no number is made of it.
    fn simulate(&self, rules: &Self::Rules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String>;

    /// What the simulations depend on beyond the revision (Microfut: the two clubs), as a line
    /// that names it and fingerprints it: it is part of a run's identity, so shards of runs with
    /// different setups never merge, and the report prints it.
    fn setup(&self) -> Option<String> {
        None
    }
}
