//! Running a slice of a lab command on one machine, and merging the slices.
//!
//! A shard runs simulations `[N·i/n, N·(i+1)/n)` of every scenario; each simulation has its own
//! dice derived from (seed, scenario, index), so the union of the slices is exactly the
//! single-machine run, and because sums are exact integers the merged table is byte for byte the
//! table one machine would print. The shard file carries the full identity of the command and
//! the raw accumulator state (integers as decimal strings: JSON numbers lose `i128`).

use super::LabError;
use super::accumulate::{Accumulator, Layout};
use super::identity::Identity;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Marks shard files and their format version.
pub const FORMAT: &str = "microfut-lab-shard/1";

/// The shard count `--shard env` reads first: Kubernetes does not tell a pod how many
/// completions its Indexed Job has, and a Slurm task re-run alone (`sbatch --array=3`) is told a
/// count of 1, so the job script or manifest states it.
pub const SHARD_COUNT_VAR: &str = "MICROFUT_SHARD_COUNT";
/// The slice index of a Slurm job array task.
pub const SLURM_INDEX_VAR: &str = "SLURM_ARRAY_TASK_ID";
/// The slice index of a Kubernetes Indexed Job's pod.
pub const KUBERNETES_INDEX_VAR: &str = "JOB_COMPLETION_INDEX";

/// Slice `index` of `count` (0-based, as Kubernetes' `JOB_COMPLETION_INDEX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `i/n` with `0 ≤ i < n`.
    pub fn parse(text: &str) -> Result<Shard, LabError> {
        let bad = |why: &str| LabError::BadShard { text: text.into(), why: why.into() };
        let (i, n) = text.split_once('/').ok_or_else(|| bad("expected i/n, e.g. 0/4"))?;
        let index: u64 = i.trim().parse().map_err(|_| bad("i is not a whole number"))?;
        let count: u64 = n.trim().parse().map_err(|_| bad("n is not a whole number"))?;
        if count == 0 {
            return Err(bad("n must be at least 1"));
        }
        if index >= count {
            return Err(bad("shards are numbered from 0 to n-1"));
        }
        Ok(Shard { index, count })
    }

    /// `i/n`, or `env`: the slice the cluster gives this task (see [`Shard::from_env`]).
    pub fn from_spec(text: &str, var: impl Fn(&str) -> Option<String>) -> Result<Shard, LabError> {
        if text.trim() == "env" { Shard::from_env(var) } else { Shard::parse(text) }
    }

    /// The slice of a cluster task, from its environment (`var` reads a variable): the index
    /// from `SLURM_ARRAY_TASK_ID` (a Slurm job array task) or `JOB_COMPLETION_INDEX` (a pod of a
    /// Kubernetes Indexed Job); the count from `MICROFUT_SHARD_COUNT`, or else, under Slurm,
    /// from `SLURM_ARRAY_TASK_COUNT` when the array runs 0 to n−1 (a task of an array numbered
    /// otherwise, or re-run alone, would compute the wrong slice, so that is refused).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Shard, LabError> {
        let bad = |why: String| LabError::BadShard { text: "env".into(), why };
        let number = |name: &str| -> Result<Option<u64>, LabError> {
            match var(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| bad(format!("{name} is '{v}', not a whole number"))),
            }
        };
        let (slurm, kubernetes) = (number(SLURM_INDEX_VAR)?, number(KUBERNETES_INDEX_VAR)?);
        let (index, from) = match (slurm, kubernetes) {
            (Some(i), None) => (i, SLURM_INDEX_VAR),
            (None, Some(i)) => (i, KUBERNETES_INDEX_VAR),
            (Some(_), Some(_)) => {
                return Err(bad(format!(
                    "both {SLURM_INDEX_VAR} and {KUBERNETES_INDEX_VAR} are set, so the shard index is ambiguous"
                )));
            }
            (None, None) => {
                return Err(bad(format!(
                    "neither {SLURM_INDEX_VAR} (a Slurm job array task) nor {KUBERNETES_INDEX_VAR} (a Kubernetes Indexed Job) is set; outside a cluster give --shard i/n"
                )));
            }
        };
        let (count, count_from) = match number(SHARD_COUNT_VAR)? {
            Some(n) => (n, SHARD_COUNT_VAR),
            None if from == SLURM_INDEX_VAR => {
                let Some(n) = number("SLURM_ARRAY_TASK_COUNT")? else {
                    return Err(bad(format!(
                        "{SLURM_INDEX_VAR} is set but neither {SHARD_COUNT_VAR} nor SLURM_ARRAY_TASK_COUNT"
                    )));
                };
                let (min, max) = (number("SLURM_ARRAY_TASK_MIN")?, number("SLURM_ARRAY_TASK_MAX")?);
                if min.is_some_and(|m| m != 0) || max.is_some_and(|m| m.checked_add(1) != Some(n)) {
                    return Err(bad(format!(
                        "the job array runs tasks {}-{} but SLURM_ARRAY_TASK_COUNT is {n}: number the array 0 to n-1, or set {SHARD_COUNT_VAR} to n (as when re-running some tasks alone)",
                        min.map_or("?".into(), |m| m.to_string()),
                        max.map_or("?".into(), |m| m.to_string()),
                    )));
                }
                (n, "SLURM_ARRAY_TASK_COUNT")
            }
            None => {
                return Err(bad(format!(
                    "{KUBERNETES_INDEX_VAR} is set but {SHARD_COUNT_VAR} is not: set it to the Job's completions (Kubernetes does not tell a pod how many there are)"
                )));
            }
        };
        if count == 0 {
            return Err(bad(format!("{count_from} is 0; the shard count must be at least 1")));
        }
        if index >= count {
            return Err(bad(format!(
                "{from} is {index} but {count_from} is {count}: shards are numbered from 0 to n-1"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The simulation indices of this slice out of `n`.
    pub fn range(&self, n: u64) -> Range<u64> {
        let at = |i: u64| (u128::from(n) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index)..at(self.index + 1)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct AccumulatorFile {
    scenario: String,
    n: u64,
    values: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ShardFile {
    format: String,
    identity: Identity,
    shard: Shard,
    /// The one-machine command these shards add up to, for reports (not part of the identity:
    /// a path in it may differ between machines).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    accumulators: Vec<AccumulatorFile>,
}

/// The shard file's JSON text; `command` is the one-machine command it is a slice of.
pub fn to_json(identity: &Identity, shard: Shard, accs: &[Accumulator], command: Option<&str>) -> String {
    let file = ShardFile {
        format: FORMAT.into(),
        identity: identity.clone(),
        shard,
        command: command.map(str::to_string),
        accumulators: identity
            .scenarios
            .iter()
            .zip(accs)
            .map(|(s, a)| AccumulatorFile {
                scenario: s.id.clone(),
                n: a.n,
                values: a.values.iter().map(i128::to_string).collect(),
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("shard serializes");
    text.push('\n');
    text
}

struct Loaded {
    path: PathBuf,
    value: Value,
    file: ShardFile,
    accs: Vec<Accumulator>,
}

fn load(path: &Path) -> Result<Loaded, LabError> {
    // Values echoed from the file are escaped: one problem, one line.
    let line = |m: String| crate::catalog::printable(&m).into_owned();
    let bad = |message: String| LabError::ShardFile { path: path.to_path_buf(), message: line(message) };
    let at = |pointer: String, message: String| LabError::ShardField {
        path: path.to_path_buf(),
        pointer: line(pointer),
        message: line(message),
    };
    let bytes = crate::files::read_input("a lab shard", path, crate::files::FILE_LIMIT).map_err(|e| match e {
        crate::files::ReadError::Cannot { reason, .. } => bad(format!("cannot read it: {reason}")),
        too_large => LabError::TooLarge(too_large),
    })?;
    let value: Value = crate::catalog::from_json(&bytes).map_err(|e| bad(crate::catalog::describe_json_error(&e)))?;
    if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(bad(format!("not a lab shard file (expected \"format\": \"{FORMAT}\")")));
    }
    let file: ShardFile =
        crate::catalog::from_value_located(value.clone(), "a lab shard").map_err(|e| at(e.pointer, e.message))?;
    if file.shard.count == 0 || file.shard.index >= file.shard.count {
        return Err(at("/shard".into(), format!("{}/{} is not a slice", file.shard.index, file.shard.count)));
    }
    if file.accumulators.len() != file.identity.scenarios.len() {
        return Err(at(
            "/accumulators".into(),
            format!(
                "{} accumulator(s) for {} scenario(s) in /identity/scenarios",
                file.accumulators.len(),
                file.identity.scenarios.len()
            ),
        ));
    }
    // A shard's count is fixed by N, i and n: its slice of every scenario.
    let expected = file.shard.range(file.identity.simulations);
    let expected_n = expected.end - expected.start;
    let arms = if file.identity.against.is_some() { 2 } else { 1 };
    let mut accs = Vec::new();
    for (k, (a, s)) in file.accumulators.iter().zip(&file.identity.scenarios).enumerate() {
        if a.scenario != s.id {
            return Err(at(
                format!("/accumulators/{k}/scenario"),
                format!(
                    "'{}' where '{}' (the scenario it follows in /identity/scenarios) was expected",
                    a.scenario, s.id
                ),
            ));
        }
        if let Some((j, m)) = s.metrics.iter().enumerate().find(|(_, m)| m.scale == 0) {
            return Err(at(
                format!("/identity/scenarios/{k}/metrics/{j}/scale"),
                format!("metric {}: a scale is at least 1", m.id),
            ));
        }
        if a.n != expected_n {
            return Err(at(
                format!("/accumulators/{k}/n"),
                format!(
                    "{} simulations, but shard {}/{} of {} simulations per scenario runs {expected_n} (indices {} to {}): the file was edited or is damaged",
                    a.n,
                    file.shard.index,
                    file.shard.count,
                    file.identity.simulations,
                    expected.start,
                    expected.end.saturating_sub(1)
                ),
            ));
        }
        let mut values = Vec::with_capacity(a.values.len());
        for (j, v) in a.values.iter().enumerate() {
            values.push(
                v.parse::<i128>()
                    .map_err(|_| at(format!("/accumulators/{k}/values/{j}"), format!("'{v}' is not an integer")))?,
            );
        }
        if values.len() != Layout::new(&s.metrics, arms).len() {
            return Err(at(
                format!("/accumulators/{k}/values"),
                format!("scenario {}: accumulator size does not match its metrics", s.id),
            ));
        }
        let acc = Accumulator { n: a.n, values };
        if let Err((j, why)) = acc.check(&s.metrics, arms) {
            return Err(at(
                format!("/accumulators/{k}/values/{j}"),
                format!(
                    "scenario {}: {why}: no {} simulations can sum to it; the file was edited or is damaged",
                    s.id, a.n
                ),
            ));
        }
        accs.push(acc);
    }
    Ok(Loaded { path: path.to_path_buf(), value, file, accs })
}

/// The first place two JSON values differ: (pointer, left, right).
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = format!("{at}/{k}");
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, &p) {
                            return Some(d);
                        }
                    }
                    None => return Some((p, short(va), "(absent)".into())),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| (format!("{at}/{k}"), "(absent)".into(), short(&y[k])))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (va, vb))| first_difference(va, vb, &format!("{at}/{i}")))
        }
        _ if a == b => None,
        _ => Some((at.to_string(), short(a), short(b))),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 { s.chars().take(77).collect::<String>() + "…" } else { s }
}

/// What merged shards add up to.
#[derive(Debug, Clone)]
pub struct Merged {
    pub identity: Identity,
    pub accumulators: Vec<Accumulator>,
    /// The one-machine command, as the first shard recorded it.
    pub command: Option<String>,
}

/// Reads shard files of one command and adds them up: the identity and the accumulators one
/// machine would have produced. Refuses files of different commands (naming the first field that
/// differs), a shard given twice and a missing shard.
pub fn merge(paths: &[PathBuf]) -> Result<(Identity, Vec<Accumulator>), LabError> {
    merge_files(paths).map(|m| (m.identity, m.accumulators))
}

/// [`merge`], with the command the shards recorded.
pub fn merge_files(paths: &[PathBuf]) -> Result<Merged, LabError> {
    let Some(first_path) = paths.first() else {
        return Err(LabError::NoShards);
    };
    let first = load(first_path)?;
    let count = first.file.shard.count;
    let mut seen: Vec<Option<PathBuf>> = vec![None; usize::try_from(count).unwrap_or(usize::MAX).min(1 << 20)];
    if seen.len() as u64 != count {
        return Err(LabError::ShardFile {
            path: first.path,
            message: format!("{count} shards is more than merge supports"),
        });
    }
    let mut total = first.accs.clone();
    seen[first.file.shard.index as usize] = Some(first.path.clone());
    for path in &paths[1..] {
        let other = load(path)?;
        let same_command = other.file.identity == first.file.identity && other.file.shard.count == count;
        if !same_command {
            let (a, b) = (strip_shard(&first.value), strip_shard(&other.value));
            let (pointer, left, right) =
                first_difference(&a, &b, "").unwrap_or_else(|| ("".into(), "?".into(), "?".into()));
            let pointer = crate::catalog::printable(&pointer).into_owned();
            return Err(LabError::ShardsDiffer { first: first.path, other: other.path, pointer, left, right });
        }
        let slot = &mut seen[other.file.shard.index as usize];
        if let Some(earlier) = slot {
            return Err(LabError::ShardTwice {
                index: other.file.shard.index,
                count,
                first: earlier.clone(),
                second: other.path,
            });
        }
        *slot = Some(other.path.clone());
        for (t, a) in total.iter_mut().zip(&other.accs) {
            if t.values.len() != a.values.len() {
                return Err(LabError::ShardFile { path: other.path, message: "accumulator sizes do not match".into() });
            }
            t.merge(a);
        }
    }
    let missing: Vec<String> =
        seen.iter().enumerate().filter(|(_, p)| p.is_none()).map(|(i, _)| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        return Err(LabError::ShardsMissing { missing: missing.join(", "), count });
    }
    Ok(Merged { identity: first.file.identity, accumulators: total, command: first.file.command })
}

/// The command part of a shard file (identity and shard count), for comparing two files.
fn strip_shard(v: &Value) -> Value {
    serde_json::json!({ "identity": v["identity"], "shards": v["shard"]["count"] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_run_exactly_once() {
        for n in [0u64, 1, 7, 100, 100_001] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.range(n);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, n);
            }
        }
    }

    #[test]
    fn parse_refuses_what_is_not_a_slice() {
        assert_eq!(Shard::parse("2/4").unwrap(), Shard { index: 2, count: 4 });
        for bad in ["4/4", "1/0", "x/2", "3", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    fn env(vars: &[(&str, &str)]) -> Result<Shard, String> {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Shard::from_spec("env", |k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn env_reads_a_slurm_array_task() {
        let task = |id: &str| {
            env(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_MAX", "3"),
            ])
        };
        assert_eq!(task("2"), Ok(Shard { index: 2, count: 4 }));
        // Re-run alone (`sbatch --array=2`): Slurm says a count of 1, the script says 4.
        let rerun = [("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_COUNT", "1"), ("SLURM_ARRAY_TASK_MIN", "2")];
        assert!(env(&rerun).unwrap_err().contains("MICROFUT_SHARD_COUNT"), "{:?}", env(&rerun));
        let mut told = rerun.to_vec();
        told.push(("MICROFUT_SHARD_COUNT", "4"));
        assert_eq!(env(&told), Ok(Shard { index: 2, count: 4 }));
        // An array numbered 1-4 would never run slice 0.
        let from_one = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ];
        assert!(env(&from_one).unwrap_err().contains("0 to n-1"));
    }

    #[test]
    fn env_reads_a_kubernetes_indexed_job_pod() {
        let pod = [("JOB_COMPLETION_INDEX", "7"), ("MICROFUT_SHARD_COUNT", "8")];
        assert_eq!(env(&pod), Ok(Shard { index: 7, count: 8 }));
        assert!(env(&pod[..1]).unwrap_err().contains("set it to the Job's completions"));
        let past = [("JOB_COMPLETION_INDEX", "8"), ("MICROFUT_SHARD_COUNT", "8")];
        assert!(env(&past).unwrap_err().contains("JOB_COMPLETION_INDEX is 8 but MICROFUT_SHARD_COUNT is 8"));
    }

    #[test]
    fn env_refuses_what_does_not_say_one_slice() {
        assert!(env(&[]).unwrap_err().contains("outside a cluster give --shard i/n"));
        let both = [("SLURM_ARRAY_TASK_ID", "0"), ("JOB_COMPLETION_INDEX", "0"), ("MICROFUT_SHARD_COUNT", "2")];
        assert!(env(&both).unwrap_err().contains("ambiguous"));
        let text = [("JOB_COMPLETION_INDEX", "x"), ("MICROFUT_SHARD_COUNT", "2")];
        assert!(env(&text).unwrap_err().contains("JOB_COMPLETION_INDEX is 'x', not a whole number"));
        let zero = [("JOB_COMPLETION_INDEX", "0"), ("MICROFUT_SHARD_COUNT", "0")];
        assert!(env(&zero).unwrap_err().contains("at least 1"));
    }
}
