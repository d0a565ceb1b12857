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
    NonFinite(#[from] crate::pipeline::NonFinite),
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

    /// Builds inputs for `pipeline` from named values: defaults first, then the given values,
    /// then derived values computed from them; refuses unknown names, values off their scale and
    /// missing inputs, naming each.
    pub fn prepare(&self, pipeline: &Pipeline, given: &[(String, f64)]) -> Result<Prepared, InputError> {
        let mut inputs = self.inputs();
        let mut known: Vec<bool> = self.vars.iter().map(|v| v.default.is_some()).collect();
        let mut seen = vec![false; self.vars.len()];
        for (name, value) in given {
            let slot = self.check_value(name, *value)?;
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
