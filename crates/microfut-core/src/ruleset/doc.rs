//! The content documents of a Microfut revision, as written by designers.
//! Their JSON Schemas live in `schemas/`; these types read what the schemas admit.

use crate::catalog::Labels;
use crate::dice::DiceSpec;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Deserialize)]
pub struct VocabularyDoc {
    pub variables: Vec<VariableDoc>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VarKind {
    Attribute,
    Characteristic,
    Skill,
    Training,
    Identity,
    Derived,
    Context,
}

#[derive(Debug, Clone, Deserialize)]
pub struct VariableDoc {
    pub id: String,
    pub kind: VarKind,
    /// [min, max]; null means unbounded on that side.
    pub scale: [Option<f64>; 2],
    #[serde(default)]
    pub integer: bool,
    pub default: Option<f64>,
    pub unit: Option<String>,
    /// Named values of an enumerated input (`pace`: reposition 0, run 1, sprint 2).
    #[serde(default)]
    pub values: BTreeMap<String, f64>,
    pub label: Labels,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ParamsDoc {
    pub params: Vec<ParamDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ParamDoc {
    pub id: String,
    pub value: f64,
    /// The values it may take (required from Microfut 0.5.5 on; see `ruleset::domain`).
    pub domain: Option<Domain>,
    pub unit: Option<String>,
    pub label: Labels,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TablesDoc {
    #[serde(default)]
    pub tables: Vec<TableDoc>,
    #[serde(default)]
    pub curves: Vec<CurveDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TableInputDoc {
    pub label: Labels,
    pub unit: Option<String>,
    #[serde(default)]
    pub round: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct TableDoc {
    pub id: String,
    pub label: Labels,
    pub input: TableInputDoc,
    /// Declared output scale [min, max]: every bin value must lie inside.
    pub scale: [f64; 2],
    pub bins: Vec<BinDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BinDoc {
    pub range: Option<String>,
    pub at: Option<f64>,
    pub value: f64,
    pub tag: Option<String>,
    pub label: Option<Labels>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CurveDoc {
    pub id: String,
    pub label: Labels,
    pub input: TableInputDoc,
    pub scale: [f64; 2],
    pub points: Vec<[f64; 2]>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ModifiersDoc {
    pub modifiers: Vec<StageDoc>,
}

/// A stage: an expression, or a table applied to an input expression.
#[derive(Debug, Clone, Deserialize)]
pub struct StageDoc {
    pub id: Option<String>,
    pub label: Labels,
    pub expr: Option<String>,
    pub table: Option<String>,
    pub input: Option<String>,
    #[serde(default)]
    pub op: Op,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    #[default]
    Add,
    Mul,
    /// The stage's amount becomes the running value (a final rounding, a cap, a floor).
    Set,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ModifierRef {
    Named(String),
    Inline(StageDoc),
}

#[derive(Debug, Clone, Deserialize)]
pub struct LetDoc {
    pub id: String,
    pub label: Labels,
    pub expr: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RequireDoc {
    pub id: String,
    pub label: Labels,
    pub expr: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ResolutionDoc {
    pub dice: DiceSpec,
    pub clamp: [f64; 2],
    pub difficulty: String,
    /// 0.6: values and difficulties are not rounded; a difficulty between two whole numbers is
    /// rolled against each in proportion (`dice::Difficulty`).
    #[serde(default)]
    pub fractional: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PipelinesDoc {
    pub resolution: Option<ResolutionDoc>,
    #[serde(default)]
    pub pipelines: Vec<PipelineDoc>,
    #[serde(default)]
    pub derived: Vec<PipelineDoc>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PipelineDoc {
    pub id: String,
    pub label: Labels,
    /// For derived values: the vocabulary variable this pipeline computes.
    pub output: Option<String>,
    #[serde(default, rename = "let")]
    pub lets: Vec<LetDoc>,
    #[serde(default)]
    pub requires: Vec<RequireDoc>,
    pub base: StageDoc,
    #[serde(default)]
    pub modifiers: Vec<ModifierRef>,
    pub clamp: Option<[f64; 2]>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct FormulasDoc {
    pub formulas: Vec<FormulaDoc>,
}

/// A named function of a few arguments with its own constrained parameters.
#[derive(Debug, Clone, Deserialize)]
pub struct FormulaDoc {
    pub id: String,
    pub label: Labels,
    pub arguments: Vec<String>,
    /// By name.
    #[serde(default)]
    pub parameters: BTreeMap<String, FormulaParamDoc>,
    pub expr: String,
    /// The values it may give; outside them it gives NaN (refused wherever it is evaluated).
    pub result: Option<FormulaResultDoc>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct FormulaResultDoc {
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormulaParamDoc {
    pub value: f64,
    pub label: Labels,
    pub unit: Option<String>,
    pub minimum: Option<f64>,
    pub maximum: Option<f64>,
    pub minimum_exclusive: Option<f64>,
    pub maximum_exclusive: Option<f64>,
}

/// One end of a domain: a number, or an expression over other parameters.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Bound {
    Number(f64),
    Expr(String),
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Number(n) => write!(f, "{n}"),
            Bound::Expr(e) => f.write_str(e),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Domain {
    pub min: Bound,
    pub max: Bound,
    #[serde(default)]
    pub integer: bool,
}

/// `file#pointer` → (file, pointer).
pub fn split_source(source: &str) -> (&str, &str) {
    source.split_once('#').unwrap_or((source, ""))
}
