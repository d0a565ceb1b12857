//! `microfut lab sensitivity`: how much each calibration figure moves per unit of each
//! parameter, so a designer finds the levers before editing anything.
//!
//! The problem: a calibration figure is a pooled estimate over lab runs (both orders of a
//! fixture, drawn pairs, leagues), not a sum of per-match observations, so the paired
//! per-simulation differences the lab's A/B mode uses are not at hand for it. The decision:
//! common random numbers and replicates. Replicate `r` has its own seed, derived from `--seed`;
//! within it the revision as it is, the revision at v − h and at v + h are calibrated on that
//! same seed (the same drawn clubs, the same dice), so their difference is the parameter's and
//! not the draw's. Each replicate gives one central difference; the slope is their mean and its
//! 95 % interval a Student t interval over the replicates. A parameter the fixtures never read
//! gives exactly zero in every replicate. Limits: the elasticity divides by the figure at v as
//! estimated (its interval is the slope's, scaled, the figure taken as known); a figure undefined
//! in a replicate (nothing to count) leaves that replicate out of its cell.

use super::lab_args::SensitivityArgs;
use super::{CliError, CliResult};
use crate::calibrate::{Check, Judging, Settings, Targets, calibrate, derive_seed};
use crate::catalog::{Catalog, Revision};
use crate::engine::Rules;
use serde_json::{Value, json};
use std::sync::Arc;

/// How a parameter is moved: the two values played and how they sit around its value.
#[derive(Debug, Clone)]
struct Step {
    id: String,
    value: f64,
    low: f64,
    high: f64,
    /// `central`, or `forward` / `backward` when the value sits at an edge of its domain.
    scheme: &'static str,
    domain: Option<(f64, f64)>,
}

/// One cell of the table: a metric's response to one parameter.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    slope: Option<f64>,
    slope_ci: Option<(f64, f64)>,
    /// Slope × v / metric(v) when both are non-zero; the slope otherwise (`elastic` false).
    shown: Option<f64>,
    shown_ci: Option<(f64, f64)>,
    elastic: bool,
    replicates: usize,
}

/// A calibration figure with a number, named by fixture, order and id.
fn metric_key(c: &Check) -> String {
    match &c.order {
        // A drawn fixture's order names its pair count and matches (", 8 drawn pairs × 6
        // matches"): the figure is the same one whatever the counts.
        Some(o) => {
            let o = o.split(',').next().unwrap_or(o);
            // So is a league fixture's count of leagues ("3 leagues of 20 clubs").
            let o = match o.split_once(' ') {
                Some((n, rest)) if n.parse::<u32>().is_ok() && rest.starts_with("leagues of ") => rest,
                _ => o,
            };
            format!("{} · {} · {}", c.group, o, c.id)
        }
        None => format!("{} · {}", c.group, c.id),
    }
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => T[df - 1],
        31..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// Mean and t interval of a sample (no interval for fewer than two).
fn t_interval(xs: &[f64]) -> (Option<f64>, Option<(f64, f64)>) {
    let n = xs.len();
    if n == 0 {
        return (None, None);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (Some(mean), None);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let h = t95(n - 1) * (var / n as f64).sqrt();
    (Some(mean), Some((mean - h, mean + h)))
}

/// The closest parameter id to a mistyped one, as a hint.
fn near(name: &str, known: &[&str]) -> String {
    let close: Vec<&str> = {
        let mut scored: Vec<(usize, &str)> = known
            .iter()
            .map(|k| (strsim::damerau_levenshtein(name, k), *k))
            .filter(|(d, k)| *d <= 2.max(k.len() / 4))
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, k)| k).collect()
    };
    let sub: Vec<&str> = known.iter().copied().filter(|k| name.len() >= 4 && k.contains(name)).take(3).collect();
    let mut all: Vec<&str> = close;
    for s in sub {
        if !all.contains(&s) {
            all.push(s);
        }
    }
    if all.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", all.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", "))
    }
}

/// Each named parameter's step, or the option that is wrong and why.
fn steps(rules: &Rules, names: &[String], relative: f64) -> Result<Vec<Step>, CliError> {
    if names.is_empty() {
        return Err(CliError::input("--params: give at least one parameter (a,b,…)"));
    }
    if !(relative.is_finite() && relative > 0.0) {
        return Err(CliError::input(format!("--step {relative}: the relative step must be a number above 0")));
    }
    let rs = &rules.rs;
    let known: Vec<&str> = rs.params.iter().map(|p| p.id.as_str()).collect();
    let mut out: Vec<Step> = Vec::new();
    for name in names {
        if name.trim().is_empty() {
            return Err(CliError::input("--params: an empty name in the list (a,b,…)"));
        }
        if out.iter().any(|s| &s.id == name) {
            return Err(CliError::input(format!("--params {name}: named twice")));
        }
        let Some(p) = rs.params.iter().find(|p| &p.id == name) else {
            let what = if rs.var(name).is_some() {
                " is a variable, not a parameter with a number".to_string()
            } else if rs.table(name).is_some() || rs.formula(name).is_some() {
                " is a table or formula, not a parameter with a number".to_string()
            } else {
                format!(" is not a parameter of {}{}", rs.label(), near(name, &known))
            };
            return Err(CliError::input(format!("--params {name}: '{name}'{what}")));
        };
        let v = p.value;
        if !v.is_finite() {
            return Err(CliError::input(format!("--params {name}: its value is not a number")));
        }
        let width = p.domain.map(|(lo, hi)| hi - lo);
        let mut h = if v != 0.0 {
            relative * v.abs()
        } else {
            match width {
                Some(w) if w > 0.0 => relative * w,
                _ => {
                    return Err(CliError::input(format!(
                        "--params {name}: its value is 0 and it declares no domain to size a step from"
                    )));
                }
            }
        };
        if p.integer {
            h = h.round().max(1.0);
        }
        let (lo, hi) = p.domain.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        let (low, high, scheme) = match (v - h >= lo, v + h <= hi) {
            (true, true) => (v - h, v + h, "central"),
            (false, true) => (v, v + h, "forward"),
            (true, false) => (v - h, v, "backward"),
            (false, false) => {
                return Err(CliError::input(format!(
                    "--step {relative}: a step of {h} around {name} = {v} leaves its domain [{lo}, {hi}] on both sides; give a smaller --step"
                )));
            }
        };
        out.push(Step { id: name.clone(), value: v, low, high, scheme, domain: p.domain });
    }
    Ok(out)
}

/// The revision with one parameter set to `x`, compiled for the match engine.
fn variant(rules: &Rules, id: &str, x: f64) -> Result<Arc<Rules>, String> {
    let rs = &rules.rs;
    let p = rs.params.iter().find(|p| p.id == id).expect("checked");
    let (file, pointer) = p.source.split_once('#').expect("a parameter's source is file#pointer");
    let prefix = format!("{}/", rs.revision.dir);
    let name = file.strip_prefix(&prefix).unwrap_or(file);
    let mut rev: Revision = rs.revision.clone();
    let slot = rev
        .documents
        .get_mut(name)
        .and_then(|d| d.pointer_mut(&format!("{pointer}/value")))
        .ok_or_else(|| format!("{id}: cannot find its value at {}", p.source))?;
    *slot = json!(x);
    rev.diagnostics.clear();
    rev.fingerprint = crate::catalog::fingerprint(&rev.documents);
    let compiled = crate::ruleset::compile(&rev)
        .map_err(|d| format!("--params {id}: {id} = {x} makes {} invalid: {}", rs.label(), d[0]))?;
    let compiled = Arc::new(compiled);
    let r = Rules::new(compiled.clone())
        .map_err(|e| format!("--params {id}: {id} = {x}: {}", crate::engine::content::located(&compiled, e)[0]))?;
    Ok(Arc::new(r))
}

/// Every numbered figure of one calibration run, by key.
fn figures(
    catalog: &Catalog,
    rules: Arc<Rules>,
    t: &Targets,
    s: &Settings,
) -> Result<Vec<(String, Option<f64>)>, String> {
    Ok(calibrate(catalog, rules, t, s)?
        .iter()
        .filter(|c| c.range.is_some())
        .map(|c| (metric_key(c), c.value))
        .collect())
}

struct Result_ {
    steps: Vec<Step>,
    metrics: Vec<String>,
    /// Each metric's mean at v over the replicates.
    base: Vec<Option<f64>>,
    /// metrics × parameters.
    cells: Vec<Vec<Cell>>,
}

fn measure(
    catalog: &Catalog,
    rules: &Arc<Rules>,
    t: &Targets,
    steps: Vec<Step>,
    s: &Settings,
    replicates: u64,
    quiet: bool,
) -> Result<Result_, String> {
    let variants: Vec<(Arc<Rules>, Arc<Rules>)> = steps
        .iter()
        .map(|st| Ok((variant(rules, &st.id, st.low)?, variant(rules, &st.id, st.high)?)))
        .collect::<Result<_, String>>()?;
    let mut metrics: Vec<String> = Vec::new();
    let mut base_obs: Vec<Vec<f64>> = Vec::new();
    let mut slopes: Vec<Vec<Vec<f64>>> = Vec::new();
    for r in 0..replicates {
        let settings = Settings { seed: derive_seed(s.seed, &format!("sensitivity/{r}")), ..s.clone() };
        let base = figures(catalog, rules.clone(), t, &settings)?;
        if r == 0 {
            metrics = base.iter().map(|(k, _)| k.clone()).collect();
            base_obs = vec![Vec::new(); metrics.len()];
            slopes = vec![vec![Vec::new(); steps.len()]; metrics.len()];
        }
        for (i, (_, v)) in base.iter().enumerate() {
            if let Some(v) = v {
                base_obs[i].push(*v);
            }
        }
        for (j, (st, (lo_rules, hi_rules))) in steps.iter().zip(&variants).enumerate() {
            let lo = figures(catalog, lo_rules.clone(), t, &settings)?;
            let hi = figures(catalog, hi_rules.clone(), t, &settings)?;
            for (i, key) in metrics.iter().enumerate() {
                let at = |fs: &[(String, Option<f64>)]| fs.iter().find(|(k, _)| k == key).and_then(|(_, v)| *v);
                if let (Some(a), Some(b)) = (at(&lo), at(&hi)) {
                    slopes[i][j].push((b - a) / (st.high - st.low));
                }
            }
            if !quiet {
                eprintln!("replicate {}/{replicates}: {} done", r + 1, st.id);
            }
        }
    }
    let base: Vec<Option<f64>> = base_obs.iter().map(|xs| t_interval(xs).0).collect();
    let cells = slopes
        .iter()
        .zip(&base)
        .map(|(row, m0)| {
            row.iter()
                .zip(&steps)
                .map(|(xs, st)| {
                    let (slope, slope_ci) = t_interval(xs);
                    let factor = match *m0 {
                        Some(m) if m != 0.0 && st.value != 0.0 => Some(st.value / m),
                        _ => None,
                    };
                    let f = factor.unwrap_or(1.0);
                    let scale = |(a, b): (f64, f64)| {
                        let (x, y) = (a * f, b * f);
                        (x.min(y), x.max(y))
                    };
                    Cell {
                        slope,
                        slope_ci,
                        shown: slope.map(|x| x * f),
                        shown_ci: slope_ci.map(scale),
                        elastic: factor.is_some(),
                        replicates: xs.len(),
                    }
                })
                .collect()
        })
        .collect();
    Ok(Result_ { steps, metrics, base, cells })
}

fn method_text(replicates: u64, matches: u64) -> String {
    format!(
        "central differences (metric(v+h) - metric(v-h)) / 2h, one-sided at a domain edge; common random numbers: {replicates} replicates, each calibrating v-h, v and v+h on one seed derived from --seed ({matches} matches per fixture and order, rounded up to a multiple of a drawn fixture's pairs); slope interval: Student t over the replicates' differences (df = replicates - 1); elasticity = slope x v / metric(v) where both are non-zero, else the slope itself (see kind), its interval the slope's scaled alike"
    )
}

fn num(x: Option<f64>) -> Value {
    x.filter(|v| v.is_finite()).map_or(Value::Null, |v| json!(v))
}

fn pair(x: Option<(f64, f64)>) -> Value {
    x.filter(|(a, b)| a.is_finite() && b.is_finite()).map_or(Value::Null, |(a, b)| json!([a, b]))
}

fn to_json(r: &Result_, rules: &Rules, a: &SensitivityArgs, s: &Settings) -> Value {
    let rows = |f: &dyn Fn(&Cell) -> Value| -> Value {
        Value::Array(r.cells.iter().map(|row| Value::Array(row.iter().map(f).collect())).collect())
    };
    json!({
        "parameters": r.steps.iter().map(|s| s.id.clone()).collect::<Vec<_>>(),
        "metrics": r.metrics,
        "elasticity": rows(&|c| num(c.shown)),
        "ci95": rows(&|c| pair(c.shown_ci)),
        "method": {
            "description": method_text(a.replicates, s.matches),
            "revision": rules.rs.version.to_string(),
            "fingerprint": rules.rs.fingerprint,
            "seed": s.seed,
            "matches": s.matches,
            "replicates": a.replicates,
            "fixtures": s.fixtures,
            "relative_step": a.step,
            "steps": r.steps.iter().map(|st| json!({
                "parameter": st.id, "value": st.value, "low": st.low, "high": st.high,
                "scheme": st.scheme, "domain": st.domain.map(|(a, b)| json!([a, b])),
            })).collect::<Vec<_>>(),
            "metric_at_value": r.base.iter().map(|x| num(*x)).collect::<Vec<_>>(),
            "kind": rows(&|c| json!(if c.elastic { "elasticity" } else { "slope" })),
            "slope": rows(&|c| num(c.slope)),
            "slope_ci95": rows(&|c| pair(c.slope_ci)),
            "replicates_used": rows(&|c| json!(c.replicates)),
        },
    })
}

/// A number in four decimals at most, without trailing zeros (40, not 40.0000).
fn g(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() >= 1e5 || x.abs() < 1e-3 {
        format!("{x:.3e}")
    } else {
        format!("{x:.4}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The parameters of one metric row, strongest first (by the size of what is shown).
fn ranked(row: &[Cell]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..row.len()).collect();
    order.sort_by(|&a, &b| {
        let m = |c: &Cell| c.shown.map_or(-1.0, f64::abs);
        m(&row[b]).total_cmp(&m(&row[a])).then(a.cmp(&b))
    });
    order
}

fn table(r: &Result_, rules: &Rules, a: &SensitivityArgs, s: &Settings) -> String {
    let mut out = format!(
        "Sensitivity of the calibration of {} ({}) · {} matches per fixture and order · {} replicates from seed {}\n",
        rules.rs.label(),
        super::render::short(&rules.rs.fingerprint),
        s.matches,
        a.replicates,
        s.seed
    );
    for st in &r.steps {
        out.push_str(&format!(
            "  {} = {}: played at {} and {} ({}{})\n",
            st.id,
            g(st.value),
            g(st.low),
            g(st.high),
            st.scheme,
            if st.scheme == "central" { "" } else { ": the value is at an edge of its domain" }
        ));
    }
    out.push('\n');
    let w = r.steps.iter().map(|s| s.id.len()).max().unwrap_or(0);
    for (i, m) in r.metrics.iter().enumerate() {
        let at = r.base[i].map_or("undefined".into(), g);
        out.push_str(&format!("{m} (at v: {at})\n"));
        for j in ranked(&r.cells[i]) {
            let c = &r.cells[i][j];
            let id = &r.steps[j].id;
            let Some(shown) = c.shown else {
                out.push_str(&format!("    {id:<w$}  undefined\n"));
                continue;
            };
            let ci = c.shown_ci.map_or("no interval".into(), |(x, y)| format!("[{}, {}]", g(x), g(y)));
            let mark = c.shown_ci.is_some_and(|(x, y)| x > 0.0 || y < 0.0);
            out.push_str(&format!(
                "    {id:<w$}  {} {:>10} {ci:<26} slope {}{}\n",
                if c.elastic { "elasticity" } else { "slope     " },
                g(shown),
                c.slope.map_or("-".into(), g),
                if mark { "  *" } else { "" }
            ));
        }
    }
    out.push_str(&format!("\n* the 95 % interval excludes 0. Method: {}.\n", method_text(a.replicates, s.matches)));
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A heat map: metrics × parameters, each cell coloured by its elasticity (blue down, red up,
/// faded when the interval holds 0), the figures in a tooltip and in the cell.
fn html(r: &Result_, rules: &Rules, a: &SensitivityArgs, s: &Settings, command: &str) -> String {
    let max = r.cells.iter().flatten().filter_map(|c| c.shown).map(f64::abs).fold(0.0f64, f64::max).max(1e-12);
    let mut body = String::new();
    body.push_str("<table class=\"heat\"><thead><tr><th>metric (value at v)</th>");
    for st in &r.steps {
        body.push_str(&format!(
            "<th title=\"{} = {}, played at {} and {} ({})\">{}</th>",
            escape(&st.id),
            g(st.value),
            g(st.low),
            g(st.high),
            st.scheme,
            escape(&st.id)
        ));
    }
    body.push_str("</tr></thead><tbody>\n");
    for (i, m) in r.metrics.iter().enumerate() {
        body.push_str(&format!(
            "<tr><th>{} <small>({})</small></th>",
            escape(m),
            r.base[i].map_or("undefined".into(), g)
        ));
        for c in &r.cells[i] {
            let Some(x) = c.shown else {
                body.push_str("<td class=\"none\">–</td>");
                continue;
            };
            let sure = c.shown_ci.is_some_and(|(p, q)| p > 0.0 || q < 0.0);
            let t = (x.abs() / max).sqrt();
            let alpha = if sure { 0.15 + 0.85 * t } else { 0.08 * (1.0 + t) };
            let rgb = if x >= 0.0 { "200,40,40" } else { "40,80,200" };
            let ci = c.shown_ci.map_or("no interval".into(), |(p, q)| format!("[{}, {}]", g(p), g(q)));
            body.push_str(&format!(
                "<td style=\"background: rgba({rgb},{alpha:.3})\" title=\"{}: {} 95 % {}; slope {}\">{}{}</td>",
                if c.elastic { "elasticity" } else { "slope" },
                g(x),
                ci,
                c.slope.map_or("-".into(), g),
                g(x),
                if c.elastic { "" } else { " <small>(slope)</small>" }
            ));
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody></table>\n");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sensitivity · {label}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:2em}}table.heat{{border-collapse:collapse;font-size:13px}}.heat th,.heat td{{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}}.heat tbody th{{text-align:left;font-weight:normal}}.heat td.none{{color:#999}}code{{font-size:12px}}</style></head><body>\n<h1>Sensitivity of the calibration of {label}</h1>\n<p>Each cell: the elasticity of the metric to the parameter (the slope where the metric or the value is 0); red raises the metric, blue lowers it; strong colour where the 95 % interval excludes 0, faded where it holds it. Hover a cell for its interval and slope.</p>\n{body}<p>Method: {method}.</p>\n<p>Command: <code>{cmd}</code></p>\n<p>Revision {label} ({fp}) · {m} matches per fixture and order · {r} replicates · seed {seed}</p>\n</body></html>\n",
        label = escape(&rules.rs.label()),
        method = escape(&method_text(a.replicates, s.matches)),
        cmd = escape(command),
        fp = escape(&rules.rs.fingerprint),
        m = s.matches,
        r = a.replicates,
        seed = s.seed,
    )
}

/// The one-machine command that gives these numbers.
fn command(a: &SensitivityArgs, content: Option<&std::path::Path>, version: &str, s: &Settings) -> String {
    let mut w = vec![
        format!("microfut lab sensitivity --revision {version} --params {}", a.params.join(",")),
        format!("--matches {} --replicates {} --seed {} --step {}", s.matches, a.replicates, s.seed, a.step),
    ];
    if !s.fixtures.is_empty() {
        w.push(format!("--fixture {}", s.fixtures.join(",")));
    }
    if let Some(l) = s.leagues {
        w.push(format!("--leagues {l}"));
    }
    if let Some(c) = content {
        w.push(format!("--content {}", c.display()));
    }
    w.join(" ")
}

pub fn run(content: Option<&std::path::Path>, a: SensitivityArgs) -> CliResult {
    let plan = a
        .html
        .as_deref()
        .map(|p| crate::files::Plan::new(&[("--html", p)], &[]))
        .transpose()
        .map_err(CliError::input)?;
    let catalog = super::content::load_catalog_for(content, "microfut", a.revision.as_deref())?;
    let rules = crate::run::rules_for(&catalog, a.revision.as_deref()).map_err(CliError::input)?;
    let targets = Targets::of(&rules).map_err(CliError::input)?;
    super::lab::known_fixtures(&rules, &targets, &a.fixtures)?;
    let steps = steps(&rules, &a.params, a.step)?;
    let settings = Settings {
        matches: a.matches,
        leagues: a.leagues.map(usize::from),
        judging: Judging::Point,
        seed: a.seed,
        fixtures: a.fixtures.clone(),
        facts: false,
        reference: None,
    };
    let work = || measure(&catalog, &rules, &targets, steps, &settings, a.replicates, a.quiet || a.json);
    let result = match a.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(t))
            .build()
            .map_err(|e| CliError::input(format!("cannot start {t} threads: {e}")))?
            .install(work),
        None => work(),
    }
    .map_err(CliError::input)?;
    if let Some(plan) = &plan {
        let cmd = command(&a, content, &rules.rs.version.to_string(), &settings);
        plan.write(&[html(&result, &rules, &a, &settings, &cmd).as_bytes()]).map_err(CliError::input)?;
    }
    if a.json {
        super::lab::print_out(
            &(serde_json::to_string_pretty(&to_json(&result, &rules, &a, &settings)).expect("serializes") + "\n"),
        )
    } else {
        super::lab::print_out(&table(&result, &rules, &a, &settings))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_t_interval_widens_with_few_replicates() {
        let (m, ci) = t_interval(&[1.0, 2.0, 3.0]);
        assert_eq!(m, Some(2.0));
        let (a, b) = ci.expect("three values");
        assert!((b - 2.0 - 4.303 * (1.0f64 / 3.0).sqrt()).abs() < 1e-9 && (a + b - 4.0).abs() < 1e-9);
        assert_eq!(t_interval(&[0.0, 0.0, 0.0]).1, Some((0.0, 0.0)), "no spread: the interval is the point");
        assert_eq!(t_interval(&[5.0]).1, None);
    }

    #[test]
    fn a_figure_is_named_without_the_counts_its_run_played() {
        let check = |order: &str| Check {
            group: "league".into(),
            order: Some(order.into()),
            id: "goals_per_match".into(),
            fact: String::new(),
            figure: String::new(),
            value: None,
            ci95: None,
            range: None,
            target: String::new(),
            pass: true,
            orders: Vec::new(),
        };
        let key = metric_key(&check("3 leagues of 20 clubs, 380 matches each"));
        assert_eq!(key, "league · leagues of 20 clubs · goals_per_match");
        let key = metric_key(&check("modest a v modest b, 8 drawn pairs × 6 matches"));
        assert_eq!(key, "league · modest a v modest b · goals_per_match");
    }

    #[test]
    fn levers_are_ranked_by_size_whatever_their_sign() {
        let c = |x: f64| Cell { shown: Some(x), ..Default::default() };
        assert_eq!(ranked(&[c(0.1), c(-2.0), Cell::default(), c(0.5)]), vec![1, 3, 0, 2]);
    }
}
