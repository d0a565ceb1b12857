//! The compiled ruleset: a revision's vocabulary, parameters, tables and pipelines, with every
//! expression parsed once and every name bound to a slot.

mod compile;
pub mod doc;
pub mod domain;
mod finite;
mod inputs;
mod table;

pub use compile::{MAX_LOCALS, compile, compile_partial, compile_with};
pub use doc::split_source;
pub use doc::{Op, VarKind};
pub use finite::NonFinite;
pub use inputs::{InputError, Prepared};
pub use table::{Bin, Curve, Interval, RangeTable};

use crate::catalog::{Labels, Revision};
use crate::dice::{DiceSpec, Odds};
use crate::expr::{Compiled, Lookup};
use semver::Version;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) type Lookups = BTreeMap<String, Arc<dyn Lookup>>;

#[derive(Debug, Clone)]
pub struct Variable {
    pub id: String,
    pub kind: VarKind,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub default: Option<f64>,
    pub unit: Option<String>,
    pub values: BTreeMap<String, f64>,
    pub label: Labels,
    pub source: String,
}

#[derive(Debug, Clone)]
pub struct Param {
    pub id: String,
    pub value: f64,
    /// Its domain's bounds, evaluated with this revision's parameters (`None`: none declared,
    /// or a bound that failed).
    pub domain: Option<(f64, f64)>,
    /// Its domain admits whole numbers only.
    pub integer: bool,
    pub unit: Option<String>,
    pub label: Labels,
    pub source: String,
}

#[derive(Debug, Clone)]
pub enum TableKind {
    Range(Arc<RangeTable>),
    Curve(Arc<Curve>),
}

#[derive(Debug, Clone)]
pub struct TableInfo {
    pub id: String,
    pub label: Labels,
    pub input_label: Labels,
    pub unit: Option<String>,
    pub scale: [f64; 2],
    pub source: String,
    pub bin_labels: Vec<Option<Labels>>,
    pub kind: TableKind,
}

impl TableInfo {
    pub fn lookup(&self) -> Arc<dyn Lookup> {
        match &self.kind {
            TableKind::Range(t) => t.clone(),
            TableKind::Curve(c) => c.clone(),
        }
    }
    pub fn value(&self, x: f64) -> f64 {
        self.lookup().lookup(x)
    }
    pub fn range(&self) -> Option<&Arc<RangeTable>> {
        match &self.kind {
            TableKind::Range(t) => Some(t),
            TableKind::Curve(_) => None,
        }
    }
}

/// A formula of the revision: a named function of a few arguments with its own parameters,
/// callable from any expression like a table (`W1_ARMOR_REMAINING_AMOUNT(armor)`).
#[derive(Clone)]
pub struct FormulaInfo {
    pub id: String,
    pub label: Labels,
    pub arguments: Vec<String>,
    /// Its parameters by name, with their values.
    pub parameters: Vec<(String, f64)>,
    pub expr: String,
    /// The values it may give (declared in content); outside them it gives NaN.
    pub result: Option<(f64, f64)>,
    pub source: String,
    pub function: Arc<dyn Lookup>,
}

impl std::fmt::Debug for FormulaInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FormulaInfo").field("id", &self.id).field("parameters", &self.parameters).finish()
    }
}

impl FormulaInfo {
    /// Evaluates the formula; `args` has one value per argument.
    pub fn call(&self, args: &[f64]) -> f64 {
        self.function.call(args)
    }

    /// The formula as a message names it: `W1_ARMOR_REMAINING_AMOUNT(armor) = K / (…) with
    /// K = 100, result 0 to 1 (file#pointer)`.
    pub fn describe(&self) -> String {
        let params: Vec<String> = self.parameters.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        let with = if params.is_empty() { String::new() } else { format!(" with {}", params.join(", ")) };
        let result = match self.result {
            Some((lo, hi)) => format!(", result declared {lo} to {hi} (NaN outside)"),
            None => String::new(),
        };
        format!(
            "formula {}({}) = {}{with}{result} ({})",
            self.id,
            self.arguments.join(", "),
            crate::expr::excerpt(&self.expr),
            self.source
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PipelineKind {
    /// base → modifiers → clamp → difficulty, rolled against the dice.
    Action,
    /// A value computed from others (characteristics, POT, ranges, stamina costs).
    Derived,
}

/// One stage of a pipeline: a `let`, the base, or a modifier.
pub struct Stage {
    pub id: String,
    pub label: Labels,
    pub op: Op,
    pub expr: Compiled,
    /// For table stages: the table's input, evaluated only when explaining.
    pub probe: Option<Compiled>,
    pub table: Option<String>,
    pub local: usize,
    /// Vocabulary slots the stage's amount depends on, directly or through the named values it
    /// reads; sorted. Lets [`Pipeline::resolve_each`] evaluate the other stages once.
    pub depends_on: Vec<usize>,
    /// Vocabulary slots the stage reads itself or through the pipeline's `let`s — not through
    /// other stages' amounts or `running`; sorted. What a stage looks at, for checks of which
    /// stage may read what (an effect policy's buckets).
    pub reads: Vec<usize>,
    /// `file#pointer` of the stage in content.
    pub source: String,
}

pub struct Require {
    pub id: String,
    pub label: Labels,
    pub cond: crate::expr::Condition,
    pub source: String,
}

pub struct Pipeline {
    pub id: String,
    pub label: Labels,
    pub kind: PipelineKind,
    /// The vocabulary variable a derived pipeline computes.
    pub output: Option<usize>,
    pub lets: Vec<Stage>,
    pub requires: Vec<Require>,
    pub base: Stage,
    pub modifiers: Vec<Stage>,
    pub clamp: Option<(f64, f64)>,
    pub difficulty: Option<Compiled>,
    /// Whether the difficulty is played as it comes (fractional, 0.6) or rounded (0.5).
    pub fractional: bool,
    /// `file#pointer` of the difficulty expression (the resolution defaults').
    pub difficulty_source: String,
    pub value_local: usize,
    /// The local holding the value before each modifier, when a modifier reads `running`.
    pub running_local: Option<usize>,
    pub n_locals: usize,
    /// Vocabulary slots the pipeline reads, sorted.
    pub inputs: Vec<usize>,
    pub source: String,
    pub odds: Arc<Odds>,
}

/// A compiled revision.
pub struct Ruleset {
    pub id: String,
    pub version: Version,
    pub fingerprint: String,
    pub vars: Vec<Variable>,
    var_index: BTreeMap<String, usize>,
    pub params: Vec<Param>,
    param_index: BTreeMap<String, usize>,
    pub tables: Vec<TableInfo>,
    table_index: BTreeMap<String, usize>,
    pub formulas: Vec<FormulaInfo>,
    pub pipelines: Vec<Pipeline>,
    pipeline_index: BTreeMap<String, usize>,
    /// Derived pipelines with an output, dependencies first.
    pub derived_order: Vec<usize>,
    pub odds: Arc<Odds>,
    /// The documents, for the modules above that read their own (sheets, match engine).
    pub revision: Revision,
    /// Per variable: when every pipeline reads it only as the argument of range tables (which
    /// do not round it), the upper ends of those tables' bins, sorted — two values strictly
    /// between the same two ends give every pipeline the same results. `None` when anything
    /// reads the value itself. (Explanations show a table's input; they are not counted.)
    pub table_bounds: Vec<Option<Vec<f64>>>,
}

/// A name the Rust code needs from content, missing from this revision.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("revision {revision} has no {what} '{name}', which the {needed_by} needs")]
pub struct Missing {
    pub revision: String,
    pub what: &'static str,
    pub name: String,
    pub needed_by: &'static str,
}

impl Ruleset {
    pub fn label(&self) -> String {
        format!("{} {}", self.id, self.version)
    }

    pub fn dice(&self) -> DiceSpec {
        self.odds.spec()
    }

    pub fn var(&self, id: &str) -> Option<usize> {
        self.var_index.get(id).copied()
    }
    pub fn param(&self, id: &str) -> Option<f64> {
        self.param_index.get(id).map(|&i| self.params[i].value)
    }
    pub fn table(&self, id: &str) -> Option<&TableInfo> {
        self.table_index.get(id).map(|&i| &self.tables[i])
    }
    pub fn formula(&self, id: &str) -> Option<&FormulaInfo> {
        self.formulas.iter().find(|f| f.id == id)
    }
    pub fn pipeline(&self, id: &str) -> Option<&Pipeline> {
        self.pipeline_index.get(id).map(|&i| &self.pipelines[i])
    }
    pub fn pipeline_index(&self, id: &str) -> Option<usize> {
        self.pipeline_index.get(id).copied()
    }

    /// The formulas the expression at `source_at` (`file#pointer` of a stage or of its
    /// expression) calls: what a message about a value that stage gave names.
    pub fn formulas_at(&self, source_at: &str) -> Vec<&FormulaInfo> {
        let (file, pointer) = split_source(source_at);
        let name = file.strip_prefix(&format!("{}/", self.revision.dir)).unwrap_or(file);
        let node = self.revision.documents.get(name).and_then(|d| d.pointer(pointer));
        let text = node.and_then(|n| n.as_str().or_else(|| n.get("expr").and_then(|e| e.as_str())));
        let Some(ast) = text.and_then(|t| crate::expr::parse(t).ok()) else { return Vec::new() };
        ast.functions().into_iter().filter_map(|f| self.formula(f)).collect()
    }

    /// A name `needed_by` the code needs, absent from this revision.
    pub fn missing(&self, what: &'static str, name: &str, needed_by: &'static str) -> Missing {
        Missing { revision: self.label(), what, name: name.into(), needed_by }
    }

    /// Where a missing name belongs: the document that would declare it (the one named for its
    /// schema first — derived pipelines are pipelines too) and its list's pointer, so that
    /// `validate` names a file and a pointer for it like every other problem.
    pub fn locate(&self, m: &Missing) -> crate::catalog::Diagnostic {
        use crate::catalog::{Diagnostic, declared_schema};
        let (schema, pointer) = match m.what {
            "parameter" => ("params.schema.json", "/params"),
            "table" | "range table" => ("tables.schema.json", "/tables"),
            "curve" => ("tables.schema.json", "/curves"),
            "pipeline" => ("pipelines.schema.json", "/pipelines"),
            "variable" => ("vocabulary.schema.json", "/variables"),
            _ => ("manifest.schema.json", ""),
        };
        let docs = || self.revision.documents.iter().filter(|(_, d)| declared_schema(d) == Some(schema));
        let named = schema.replace(".schema", "");
        match docs().find(|(n, _)| **n == named).or_else(|| docs().next()) {
            Some((name, _)) => Diagnostic::new(self.revision.file(name), pointer, m.to_string()),
            None => Diagnostic::new(self.revision.file("manifest.json"), "/documents", m.to_string()),
        }
    }
    /// Lookups for names the code relies on, failing with a message naming what is missing.
    pub fn need_var(&self, id: &str, by: &'static str) -> Result<usize, Missing> {
        self.var(id).ok_or_else(|| self.missing("variable", id, by))
    }
    pub fn need_param(&self, id: &str, by: &'static str) -> Result<f64, Missing> {
        self.param(id).ok_or_else(|| self.missing("parameter", id, by))
    }
    /// A lookup the code reads as a curve of anchors (a range table serves too): when missing,
    /// it is reported where curves are declared.
    pub fn need_curve(&self, id: &str, by: &'static str) -> Result<&TableInfo, Missing> {
        self.table(id).ok_or_else(|| self.missing("curve", id, by))
    }
    pub fn need_range_table(&self, id: &str, by: &'static str) -> Result<Arc<RangeTable>, Missing> {
        self.table(id).and_then(|t| t.range().cloned()).ok_or_else(|| self.missing("range table", id, by))
    }
    pub fn need_pipeline(&self, id: &str, by: &'static str) -> Result<usize, Missing> {
        self.pipeline_index(id).ok_or_else(|| self.missing("pipeline", id, by))
    }

    /// Inputs with every defaulted variable at its default and the rest at 0.
    pub fn inputs(&self) -> Inputs {
        Inputs { values: self.vars.iter().map(|v| v.default.unwrap_or(0.0)).collect() }
    }

    /// Fills the derived variables `needed` (and what they depend on) that were not provided,
    /// from the derived pipelines whose own inputs are known, in dependency order. `known[i]`
    /// says whether slot i is known; it is updated. Returns the slots computed; refused when a
    /// derived pipeline meets a non-finite value.
    pub fn complete(&self, inputs: &mut Inputs, known: &mut [bool], needed: &[usize]) -> Result<Vec<usize>, NonFinite> {
        // Walk dependencies backwards from what is needed, stopping at what is already known.
        let mut wanted = vec![false; self.vars.len()];
        let mut stack: Vec<usize> = needed.iter().copied().filter(|&i| !known[i]).collect();
        while let Some(v) = stack.pop() {
            if wanted[v] || known[v] {
                continue;
            }
            wanted[v] = true;
            if let Some(p) = self.derived_order.iter().map(|&p| &self.pipelines[p]).find(|p| p.output == Some(v)) {
                stack.extend(p.inputs.iter().copied());
            }
        }
        let mut computed = Vec::new();
        for &p in &self.derived_order {
            let pl = &self.pipelines[p];
            let out = pl.output.expect("ordered pipelines have outputs");
            if !wanted[out] || known[out] || !pl.inputs.iter().all(|&i| known[i]) {
                continue;
            }
            let r = pl.resolve(inputs);
            if let Some(fault) = pl.fault(&r) {
                return Err(fault);
            }
            inputs.values[out] = r.value;
            known[out] = true;
            computed.push(out);
        }
        Ok(computed)
    }
}

/// One value per vocabulary variable, indexed by slot. Built once and reused: resolving reads it
/// and never allocates.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    pub values: Vec<f64>,
}

impl Inputs {
    #[inline]
    pub fn set(&mut self, slot: usize, v: f64) {
        self.values[slot] = v;
    }
    #[inline]
    pub fn get(&self, slot: usize) -> f64 {
        self.values[slot]
    }
}
