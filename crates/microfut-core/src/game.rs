//! What a game gives everything above it: its ruleset id, the meaning checks of its revisions,
//! its simulator in the lab and the replay of its records. The command line keeps one registry of games (`microfut::games`)
//! and asks it, instead of matching ruleset names in each command; the core itself names none.

use crate::catalog::{Catalog, Diagnostic, Revision};
use crate::dice::Dice;
use crate::lab::{Metric, Simulator, Unit};
use crate::record::{Record, Refusal, ReplayReport};
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

    /// The `format` its records declare (`microfut-run/1`), or none for a game that keeps no
    /// record of its play.
    fn record_format(&self) -> Option<&'static str> {
        None
    }

    /// Reads a record of this game (`name` is what messages call it: its file), checked as its
    /// format requires, every problem named by the record's JSON pointer.
    fn read_record(&self, name: &str, _record: serde_json::Value) -> Result<Box<dyn Record>, Refusal> {
        Err(Refusal::at(
            name,
            "/ruleset",
            format!("{}: this game keeps no record of its play, so there is nothing to replay", self.ruleset()),
        ))
    }

    /// Replays a record on `catalog`, which must hold the revision the record pins
    /// ([`Record::pin`]; a command reads the record first to load only that one).
    fn replay(&self, catalog: &Catalog, name: &str, record: serde_json::Value) -> Result<ReplayReport, Refusal> {
        self.read_record(name, record)?.replay(catalog)
    }
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

/// The game of a registry a JSON record belongs to: the one whose record format it declares
/// (`/format`); failing that, the one its `/ruleset` names, which then says what is wrong with
/// the record. A refusal names the record and says which formats the registry reads.
pub fn of_record<'a>(games: &[&'a dyn Game], name: &str, record: &serde_json::Value) -> Result<&'a dyn Game, Refusal> {
    use crate::record::{format_of, ruleset_of};
    let formats = || {
        let known: Vec<&str> = games.iter().filter_map(|g| g.record_format()).collect();
        known.join(", ")
    };
    if !record.is_object() {
        return Err(Refusal::of(
            name,
            format!(
                "not a record: a record is a JSON object, found {} (records read: {})",
                crate::catalog::json_kind(record),
                formats()
            ),
        ));
    }
    if let Some(f) = format_of(record)
        && let Some(g) = games.iter().copied().find(|g| g.record_format() == Some(f))
    {
        return Ok(g);
    }
    if let Some(g) = ruleset_of(record).and_then(|r| find(games, r)) {
        return Ok(g);
    }
    let said = match (record.get("format"), record.get("ruleset")) {
        (None, None) => "it has neither a format nor a ruleset".to_string(),
        (Some(f), _) => format!("{} is not a record format", crate::catalog::printable(&f.to_string())),
        (None, Some(r)) => format!("no format, and {} is not a game", crate::catalog::printable(&r.to_string())),
    };
    let pointer =
        if record.get("format").is_some() || record.get("ruleset").is_none() { "/format" } else { "/ruleset" };
    Err(Refusal::at(name, pointer, format!("not a record of any game: {said} (records read: {})", formats())))
}
