//! What a game gives everything above it: its ruleset id, the meaning checks of its revisions
//! and its simulator in the lab. The command line keeps one registry of games (`microfut::games`)
//! and asks it, instead of matching ruleset names in each command; the core itself names none.

use crate::catalog::{Catalog, Diagnostic, Revision};
use crate::dice::Dice;
use crate::lab::{Metric, Simulator, Unit};
use crate::ruleset::domain::Policy;
use std::any::Any;
use std::path::PathBuf;

/// A game on the catalog: what `validate`, the lab and the command line need of it.
pub trait Game: Sync {
    /// The ruleset id in the catalog (`microfut`, `trilha`).
    fn ruleset(&self) -> &'static str;

    /// Every meaning check of a revision beyond its schemas, each located (file + JSON pointer);
    /// parameter domains as `domains` says. Empty when the revision can be played.
    fn check(&self, revision: &Revision, domains: Policy) -> Vec<Diagnostic>;

    /// The simulator of a lab study of this game, with the files it read (so no output of the
    /// study overwrites them). A game refuses the options that are another game's, naming them.
    fn lab(&self, catalog: &Catalog, study: &Study) -> Result<LabSetup, String>;
}

/// What a lab study asks of a game beyond the lab's own options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Study<'a> {
    /// The revision studied (`None`: the newest published) and the one it is compared with.
    pub revision: Option<&'a str>,
    pub against: Option<&'a str>,
    /// Microfut's clubs (`--home`, `--away`): a file or a sample club's id.
    pub home: Option<&'a str>,
    pub away: Option<&'a str>,
    /// Space Football's bots (`--bots A,B`).
    pub bots: &'a [String],
}

/// A game's simulator for one study, and the input files it was made from.
pub struct LabSetup {
    pub simulator: Box<dyn AnySimulator>,
    /// `(option, path)` of every file read (`--home`, a club file).
    pub inputs: Vec<(&'static str, PathBuf)>,
}

impl LabSetup {
    pub fn of<S: Simulator + 'static>(simulator: S) -> LabSetup
    where
        S::Rules: 'static,
    {
        LabSetup { simulator: Box::new(simulator), inputs: Vec::new() }
    }
}

/// Compiled rules of any game, as the lab holds them behind [`AnySimulator`].
pub type AnyRules = Box<dyn Any + Send + Sync>;

/// A [`Simulator`] whose compiled rules' type is hidden, so games can sit in one registry. Every
/// [`Simulator`] is one; [`Erased`] turns one back into a [`Simulator`] for the lab.
pub trait AnySimulator: Sync {
    fn ruleset(&self) -> &'static str;
    fn unit(&self) -> Unit;
    fn compile(&self, revision: &Revision) -> Result<AnyRules, Vec<Diagnostic>>;
    fn metrics(&self, rules: &AnyRules) -> Vec<Metric>;
    fn simulate(&self, rules: &AnyRules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String>;
    fn setup(&self) -> Option<String>;
}

fn rules_of<S: Simulator>(rules: &AnyRules) -> &S::Rules
where
    S::Rules: 'static,
{
    // The lab hands a simulator only the rules that simulator compiled.
    rules.downcast_ref::<S::Rules>().expect("rules compiled by the same simulator")
}

impl<S: Simulator> AnySimulator for S
where
    S::Rules: 'static,
{
    fn ruleset(&self) -> &'static str {
        Simulator::ruleset(self)
    }
    fn unit(&self) -> Unit {
        Simulator::unit(self)
    }
    fn compile(&self, revision: &Revision) -> Result<AnyRules, Vec<Diagnostic>> {
        Simulator::compile(self, revision).map(|r| Box::new(r) as AnyRules)
    }
    fn metrics(&self, rules: &AnyRules) -> Vec<Metric> {
        Simulator::metrics(self, rules_of::<S>(rules))
    }
    fn simulate(&self, rules: &AnyRules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        Simulator::simulate(self, rules_of::<S>(rules), index, dice, out)
    }
    fn setup(&self) -> Option<String> {
        Simulator::setup(self)
    }
}

/// A boxed [`AnySimulator`] as a [`Simulator`]: what `lab::prepare` and `lab::run` take.
pub struct Erased<'a>(pub &'a dyn AnySimulator);

impl Simulator for Erased<'_> {
    type Rules = AnyRules;

    fn ruleset(&self) -> &'static str {
        self.0.ruleset()
    }
    fn unit(&self) -> Unit {
        self.0.unit()
    }
    fn compile(&self, revision: &Revision) -> Result<AnyRules, Vec<Diagnostic>> {
        self.0.compile(revision)
    }
    fn metrics(&self, rules: &AnyRules) -> Vec<Metric> {
        self.0.metrics(rules)
    }
    fn simulate(&self, rules: &AnyRules, index: u64, dice: &mut Dice, out: &mut [i64]) -> Result<(), String> {
        self.0.simulate(rules, index, dice, out)
    }
    fn setup(&self) -> Option<String> {
        self.0.setup()
    }
}

/// The game of a registry whose ruleset id is `ruleset`.
pub fn find<'a>(games: &[&'a dyn Game], ruleset: &str) -> Option<&'a dyn Game> {
    games.iter().copied().find(|g| g.ruleset() == ruleset)
}
