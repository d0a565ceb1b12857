//! Turning named values (from a command line, a test, a sheet) into checked [`Inputs`].

use super::{Inputs, Pipeline, Ruleset};
use crate::expr::Hint;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InputError {
    #[error("unknown variable '{name}'{hint}")]
    Unknown { name: String, hint: Hint },
    #[error("{name} = {value} is outside its scale {min}..{max}")]
    OutOfScale { name: String, value: f64, min: f64, max: f64 },
    #[error("{name} = {value} must be a whole number")]
    NotInteger { name: String, value: f64 },
    #[error("{name} is set twice")]
    Twice { name: String },
    #[error("pipeline '{pipeline}' is missing {}", .names.join(", "))]
    Missing { pipeline: String, names: Vec<String> },
    #[error(transparent)]
    NonFinite(#[from] super::NonFinite),
    #[error(
        "{name} is what pipeline '{pipeline}' computes, so it cannot be given; set what it is computed from ({from})"
    )]
    OwnOutput { name: String, pipeline: String, from: String },
    #[error("{name} = {value} would not be used: {why}")]
    Unused { name: String, value: f64, why: String },
}

/// Checked inputs for one pipeline, with the derived values that were filled in.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub inputs: Inputs,
    /// Slots computed from derived pipelines (e.g. `range` from `st` and `kicking`).
    pub derived: Vec<usize>,
}

impl Ruleset {
    /// The non-derived variables a variable ultimately comes from (itself when not derived).
    pub fn leaf_inputs(&self, slot: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![slot];
        let mut seen = vec![false; self.vars.len()];
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            match self.derived_order.iter().map(|&p| &self.pipelines[p]).find(|p| p.output == Some(v)) {
                Some(p) => stack.extend(p.inputs.iter().copied()),
                None => out.push(v),
            }
        }
        out.sort();
        out
    }

    /// Checks one named value against the vocabulary: known name, inside the scale, whole when
    /// the variable is.
    pub fn check_value(&self, name: &str, value: f64) -> Result<usize, InputError> {
        let slot = self.var(name).ok_or_else(|| InputError::Unknown {
            name: name.into(),
            hint: Hint(
                self.vars
                    .iter()
                    .map(|v| (strsim::damerau_levenshtein(name, &v.id), v.id.clone()))
                    .filter(|(d, _)| *d <= 2)
                    .min()
                    .map(|(_, n)| n),
            ),
        })?;
        let v = &self.vars[slot];
        if !value.is_finite() || value < v.min || value > v.max {
            return Err(InputError::OutOfScale { name: name.into(), value, min: v.min, max: v.max });
        }
        if v.integer && value.fract() != 0.0 {
            return Err(InputError::NotInteger { name: name.into(), value });
        }
        Ok(slot)
    }

    /// A given value the pipeline would not use: one it never reads (not even through a derived
    /// value), or one only a derived value reads when that derived value is given too. A value
    /// given for a derived input is used as given, instead of computing it.
    pub fn unused(&self, pipeline: &Pipeline, given: &[(String, f64)]) -> Option<InputError> {
        let slots: Vec<(usize, &str, f64)> =
            given.iter().filter_map(|(n, v)| self.var(n).map(|s| (s, n.as_str(), *v))).collect();
        let is_given = |v: usize| slots.iter().any(|(s, _, _)| *s == v);
        let derived_from =
            |v: usize| self.derived_order.iter().map(|&p| &self.pipelines[p]).find(|p| p.output == Some(v));
        // What the pipeline reads: everything, and what it reads given the values set.
        let walk = |stop_at_given: bool| {
            let mut seen = vec![false; self.vars.len()];
            let mut stack: Vec<usize> = pipeline.inputs.clone();
            while let Some(v) = stack.pop() {
                if std::mem::replace(&mut seen[v], true) || (stop_at_given && is_given(v)) {
                    continue;
                }
                if let Some(p) = derived_from(v) {
                    stack.extend(p.inputs.iter().copied());
                }
            }
            seen
        };
        let (reads, used) = (walk(false), walk(true));
        for &(slot, name, value) in &slots {
            if used[slot] {
                continue;
            }
            let why = if reads[slot] {
                let over: Vec<&str> = slots
                    .iter()
                    .filter(|(s, _, _)| {
                        *s != slot && derived_from(*s).is_some() && self.leaf_inputs(*s).contains(&slot)
                    })
                    .map(|(_, n, _)| *n)
                    .collect();
                format!(
                    "pipeline '{}' reads it only through {}, which is given",
                    pipeline.id,
                    if over.is_empty() { "a derived value".to_string() } else { over.join(", ") }
                )
            } else {
                format!("pipeline '{}' does not read {name}", pipeline.id)
            };
            return Some(InputError::Unused { name: name.into(), value, why });
        }
        None
    }

    /// Builds inputs for `pipeline` from named values: defaults first, then the given values,
    /// then derived values computed from them; refuses unknown names, values off their scale and
    /// missing inputs, naming each.
    pub fn prepare(&self, pipeline: &Pipeline, given: &[(String, f64)]) -> Result<Prepared, InputError> {
        let mut inputs = self.inputs();
        let mut known: Vec<bool> = self.vars.iter().map(|v| v.default.is_some()).collect();
        let mut seen = vec![false; self.vars.len()];
        for (name, value) in given {
            let slot = self.check_value(name, *value)?;
            if pipeline.output == Some(slot) {
                let from: Vec<&str> = pipeline.inputs.iter().map(|&i| self.vars[i].id.as_str()).collect();
                return Err(InputError::OwnOutput {
                    name: name.clone(),
                    pipeline: pipeline.id.clone(),
                    from: from.join(", "),
                });
            }
            if seen[slot] {
                return Err(InputError::Twice { name: name.clone() });
            }
            seen[slot] = true;
            inputs.set(slot, *value);
            known[slot] = true;
        }
        let derived = self.complete(&mut inputs, &mut known, &pipeline.inputs)?;
        let missing: Vec<String> = pipeline
            .inputs
            .iter()
            .filter(|&&i| !known[i])
            .map(|&i| {
                let leaves: Vec<&str> =
                    self.leaf_inputs(i).into_iter().filter(|&l| !known[l]).map(|l| self.vars[l].id.as_str()).collect();
                if leaves.is_empty() || leaves == [self.vars[i].id.as_str()] {
                    format!("--set {}=…", self.vars[i].id)
                } else {
                    format!("--set {}=… (or its inputs: {})", self.vars[i].id, leaves.join(", "))
                }
            })
            .collect();
        if !missing.is_empty() {
            return Err(InputError::Missing { pipeline: pipeline.id.clone(), names: missing });
        }
        Ok(Prepared { inputs, derived })
    }
}
