//! Turning recorded entries into rows a person (or a tool) can read: label, amount, the table
//! input that chose it, and where in content the stage lives.

use super::{Entry, Part, Resolution};
use crate::catalog::Labels;
use crate::ruleset::{Op, Pipeline};
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputView {
    pub table: String,
    pub value: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContributionView {
    pub stage: String,
    pub kind: &'static str,
    pub label: Labels,
    pub op: &'static str,
    pub amount: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<InputView>,
    /// Running value after this stage.
    pub running: f64,
    pub source: String,
}

/// Everything needed to show where a number came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    pub pipeline: String,
    pub label: Labels,
    /// Intermediate named values (`let`s): not contributions, but they explain them.
    pub working: Vec<ContributionView>,
    /// Requirements and whether each held.
    pub requires: Vec<ContributionView>,
    /// Base, each modifier, and the clamp when it bites.
    pub contributions: Vec<ContributionView>,
}

impl Pipeline {
    pub fn explain(&self, trace: &[Entry], _res: &Resolution) -> Explanation {
        let mut working = Vec::new();
        let mut requires = Vec::new();
        let mut contributions = Vec::new();
        for e in trace {
            match e.part {
                Part::Let(i) => {
                    let s = &self.lets[i as usize];
                    working.push(view(&s.id, "let", &s.label, "set", e, None, &s.source));
                }
                Part::Require(i) => {
                    let r = &self.requires[i as usize];
                    requires.push(view(&r.id, "requires", &r.label, "check", e, None, &r.source));
                }
                Part::Base => {
                    let s = &self.base;
                    contributions.push(view("base", "base", &s.label, "add", e, s.table.as_deref(), &s.source));
                }
                Part::Modifier(i) => {
                    let s = &self.modifiers[i as usize];
                    let op = match s.op {
                        Op::Add => "add",
                        Op::Mul => "mul",
                        Op::Set => "set",
                    };
                    contributions.push(view(&s.id, "modifier", &s.label, op, e, s.table.as_deref(), &s.source));
                }
                // Traces hold the value's parts only.
                Part::Difficulty => {}
                Part::Clamp => {
                    let (lo, hi) = self.clamp.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
                    let label = Labels { pt_br: format!("limite {lo}–{hi}"), en: format!("clamp {lo}–{hi}") };
                    contributions.push(view(
                        "clamp",
                        "clamp",
                        &label,
                        "add",
                        e,
                        None,
                        &format!("{}/clamp", self.source),
                    ));
                }
            }
        }
        Explanation { pipeline: self.id.clone(), label: self.label.clone(), working, requires, contributions }
    }
}

fn view(
    id: &str,
    kind: &'static str,
    label: &Labels,
    op: &'static str,
    e: &Entry,
    table: Option<&str>,
    source: &str,
) -> ContributionView {
    ContributionView {
        stage: id.to_string(),
        kind,
        label: label.clone(),
        op,
        amount: e.amount,
        input: match (table, e.input) {
            (Some(t), Some(v)) => Some(InputView { table: t.to_string(), value: v }),
            _ => None,
        },
        running: e.after,
        source: source.to_string(),
    }
}
