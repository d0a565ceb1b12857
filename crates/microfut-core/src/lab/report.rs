//! Results of a lab command as tables for people, CSV for spreadsheets and JSON for tools.
//!
//! A report is computed from the identity and the exact accumulators only, so a merged sharded
//! run renders byte for byte like the single-machine run.

use super::accumulate::{Accumulator, Layout};
use super::identity::Identity;
use super::metric::{Format, Kind, Metric};
use super::stats::{self, Estimate, Moments};
use crate::catalog::Labels;
use serde_json::{Map, Value, json};

/// Human language of labels and table text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    PtBr,
}

pub(super) fn tr(l: &Labels, lang: Lang) -> &str {
    match lang {
        Lang::En => &l.en,
        Lang::PtBr => &l.pt_br,
    }
}

/// A table row: the index of its scenario and its cells.
pub(super) type TableRow = (usize, Vec<String>);

/// One value of one metric in one scenario.
#[derive(Debug, Clone)]
pub struct ValueEstimate {
    pub part: Option<usize>,
    /// The revision's estimate, then the `--against` revision's.
    pub arms: Vec<Estimate>,
    /// Revision minus against, paired by seed (A/B mode only).
    pub difference: Option<Estimate>,
}

#[derive(Debug, Clone)]
pub struct ScenarioResult {
    pub simulations: u64,
    /// Per metric (in declaration order), its values.
    pub metrics: Vec<Vec<ValueEstimate>>,
}

#[derive(Debug, Clone)]
pub struct Report {
    pub identity: Identity,
    pub results: Vec<ScenarioResult>,
}

impl Report {
    pub fn new(identity: Identity, accs: &[Accumulator]) -> Report {
        let arms = if identity.against.is_some() { 2 } else { 1 };
        let results = identity
            .scenarios
            .iter()
            .zip(accs)
            .map(|(s, acc)| {
                let layout = Layout::new(&s.metrics, arms);
                let mut unit = 0;
                let metrics = s
                    .metrics
                    .iter()
                    .map(|m| {
                        (0..m.values())
                            .map(|v| {
                                let mo = Moments::of(acc, &layout, unit, m.scale);
                                unit += 1;
                                estimates(m, &mo, arms, (!m.parts.is_empty()).then_some(v))
                            })
                            .collect()
                    })
                    .collect();
                ScenarioResult { simulations: acc.n, metrics }
            })
            .collect();
        Report { identity, results }
    }

    pub(super) fn ab(&self) -> bool {
        self.identity.against.is_some()
    }

    /// Columns of the wide table: every (metric, part) in first-seen order across scenarios.
    pub(super) fn columns(&self) -> Vec<(Metric, Option<usize>)> {
        let mut cols: Vec<(Metric, Option<usize>)> = Vec::new();
        for s in &self.identity.scenarios {
            for m in &s.metrics {
                let parts: Vec<Option<usize>> =
                    if m.parts.is_empty() { vec![None] } else { (0..m.parts.len()).map(Some).collect() };
                for p in parts {
                    if !cols.iter().any(|(c, cp)| same_column(c, *cp, m, p)) {
                        cols.push((m.clone(), p));
                    }
                }
            }
        }
        cols
    }

    pub(super) fn find(&self, scenario: usize, metric: &Metric, part: Option<usize>) -> Option<&ValueEstimate> {
        let s = &self.identity.scenarios[scenario];
        let mi = s.metrics.iter().position(|m| m.id == metric.id)?;
        let m = &s.metrics[mi];
        let vi = match part {
            None => (m.parts.is_empty()).then_some(0)?,
            Some(p) => m.parts.iter().position(|x| x.id == metric.parts[p].id)?,
        };
        self.results[scenario].metrics[mi].get(vi)
    }

    /// The first line: ruleset, revision(s), simulations, seed and setup.
    pub(super) fn headline(&self, lang: Lang) -> String {
        let id = &self.identity;
        let unit = tr(&id.unit.label, lang);
        let fp = short(&id.revision.fingerprint);
        let mut out = match (&id.against, lang) {
            (Some(b), Lang::En) => format!(
                "{} {} ({fp}) against {} ({}) · {} {unit} per scenario, same seeds for both · seed {}",
                id.ruleset,
                id.revision.version,
                b.version,
                short(&b.fingerprint),
                id.simulations,
                id.seed
            ),
            (Some(b), Lang::PtBr) => format!(
                "{} {} ({fp}) contra {} ({}) · {} {unit} por cenário, mesmas sementes para as duas · semente {}",
                id.ruleset,
                id.revision.version,
                b.version,
                short(&b.fingerprint),
                id.simulations,
                id.seed
            ),
            (None, Lang::En) => format!(
                "{} {} ({fp}) · {} {unit} per scenario · seed {}",
                id.ruleset, id.revision.version, id.simulations, id.seed
            ),
            (None, Lang::PtBr) => format!(
                "{} {} ({fp}) · {} {unit} por cenário · semente {}",
                id.ruleset, id.revision.version, id.simulations, id.seed
            ),
        };
        if let Some(s) = &id.setup {
            out.push_str(&format!(" · {s}"));
        }
        out
    }

    /// The terminal table (markdown, aligned).
    pub fn markdown(&self, lang: Lang) -> String {
        let mut out = self.headline(lang);
        out.push_str("\n\n");
        let (header, rows) = self.table_rows(lang);
        let rows: Vec<Vec<String>> = rows.into_iter().map(|(_, r)| r).collect();
        out.push_str(&table(&header, &rows));
        out.push('\n');
        for note in self.notes(lang) {
            out.push_str(&note);
            out.push('\n');
        }
        out
    }

    /// What the table's numbers are, one sentence a line.
    pub(super) fn notes(&self, lang: Lang) -> Vec<String> {
        let id = &self.identity;
        let mut notes = vec![match lang {
            Lang::En => "± is the half-width of the 95 % confidence interval (normal approximation; ratios by the delta method); a share's interval (%) is Wilson's score interval, shown as [low, high].",
            Lang::PtBr => "± é a meia-largura do intervalo de confiança de 95 % (aproximação normal; razões pelo método delta); o intervalo de uma proporção (%) é o intervalo de score de Wilson, mostrado como [mínimo; máximo].",
        }
        .to_string()];
        if let Some(b) = &id.against {
            notes.push(match lang {
                Lang::En => format!(
                    "difference = {} − {}, simulation by simulation on the same dice; * marks an interval that leaves out zero.",
                    id.revision.version, b.version
                ),
                Lang::PtBr => format!(
                    "diferença = {} − {}, simulação a simulação com os mesmos dados; * marca um intervalo que exclui o zero.",
                    id.revision.version, b.version
                ),
            });
        }
        notes
    }

    pub(super) fn scenario_cell(&self, i: usize, lang: Lang) -> String {
        let s = &self.identity.scenarios[i];
        format!("{} · {}", s.id, tr(&s.label, lang))
    }

    /// The table: its header (with whether a column holds numbers) and its rows, each with the
    /// index of its scenario.
    pub(super) fn table_rows(&self, lang: Lang) -> (Vec<(String, bool)>, Vec<TableRow>) {
        if self.ab() { self.long_rows(lang) } else { self.wide_rows(lang) }
    }

    /// One row per scenario, one column per metric value.
    fn wide_rows(&self, lang: Lang) -> (Vec<(String, bool)>, Vec<TableRow>) {
        let cols = self.columns();
        let mut header = vec![(if lang == Lang::En { "scenario" } else { "cenário" }.to_string(), false)];
        header.extend(cols.iter().map(|(m, p)| (column_label(m, *p, lang), true)));
        let rows = (0..self.identity.scenarios.len())
            .map(|i| {
                let mut row = vec![self.scenario_cell(i, lang)];
                for (m, p) in &cols {
                    row.push(match self.find(i, m, *p) {
                        Some(v) => cell(&v.arms[0], m.format, lang, false),
                        None => String::new(),
                    });
                }
                (i, row)
            })
            .collect();
        (header, rows)
    }

    /// One row per scenario and metric value: both revisions and their difference.
    fn long_rows(&self, lang: Lang) -> (Vec<(String, bool)>, Vec<TableRow>) {
        let id = &self.identity;
        let b = id.against.as_ref().expect("A/B report");
        let (sc, me, di) = match lang {
            Lang::En => ("scenario", "metric", "difference"),
            Lang::PtBr => ("cenário", "métrica", "diferença"),
        };
        let header = vec![
            (sc.to_string(), false),
            (me.to_string(), false),
            (id.revision.version.clone(), true),
            (b.version.clone(), true),
            (di.to_string(), true),
        ];
        let mut rows = Vec::new();
        for (i, s) in id.scenarios.iter().enumerate() {
            for (mi, m) in s.metrics.iter().enumerate() {
                for v in &self.results[i].metrics[mi] {
                    let d = v.difference.expect("A/B value");
                    let mark = if d.excludes_zero() { " *" } else { "" };
                    rows.push((
                        i,
                        vec![
                            self.scenario_cell(i, lang),
                            column_label(m, v.part, lang),
                            cell(&v.arms[0], m.format, lang, false),
                            cell(&v.arms[1], m.format, lang, false),
                            format!("{}{mark}", cell(&d, m.format, lang, true)),
                        ],
                    ));
                }
            }
        }
        (header, rows)
    }

    /// Long CSV: one line per scenario and metric value, plain numbers (fractions, not percent).
    pub fn csv(&self, lang: Lang) -> String {
        let mut out = String::new();
        let ab = self.ab();
        out.push_str("scenario,metric,part,simulations,");
        if ab {
            out.push_str(
                "revision_mean,revision_ci95_low,revision_ci95_high,against_mean,against_ci95_low,against_ci95_high,difference,difference_ci95_low,difference_ci95_high,difference_std_error,label\n",
            );
        } else {
            out.push_str("mean,ci95_low,ci95_high,std_error,label\n");
        }
        for (i, s) in self.identity.scenarios.iter().enumerate() {
            for (mi, m) in s.metrics.iter().enumerate() {
                for v in &self.results[i].metrics[mi] {
                    let part = v.part.map(|p| m.parts[p].id.clone()).unwrap_or_default();
                    let mut fields = vec![
                        csv_field(&s.id),
                        csv_field(&m.id),
                        csv_field(&part),
                        self.results[i].simulations.to_string(),
                    ];
                    let mean_ci = |e: &Estimate, share: bool| {
                        let (lo, hi) = e.ci95_as(share).map_or((None, None), |(l, h)| (Some(l), Some(h)));
                        vec![opt(e.value), opt(lo), opt(hi)]
                    };
                    fields.extend(mean_ci(&v.arms[0], m.is_share()));
                    if ab {
                        fields.extend(mean_ci(&v.arms[1], m.is_share()));
                        let d = v.difference.expect("A/B value");
                        fields.extend(mean_ci(&d, false));
                        fields.push(opt(d.std_error));
                    } else {
                        fields.push(opt(v.arms[0].std_error));
                    }
                    fields.push(csv_field(&column_label(m, v.part, lang)));
                    out.push_str(&fields.join(","));
                    out.push('\n');
                }
            }
        }
        out
    }

    /// JSON for tools: per scenario, each metric under its id (an array when it has parts), its
    /// 95 % interval under `<id>_ci95`; in A/B mode an object with both revisions and the difference.
    pub fn json(&self) -> Value {
        let id = &self.identity;
        let mut metrics: Vec<&Metric> = Vec::new();
        for s in &id.scenarios {
            for m in &s.metrics {
                if !metrics.iter().any(|x| x.id == m.id) {
                    metrics.push(m);
                }
            }
        }
        let scenarios: Vec<Value> = id
            .scenarios
            .iter()
            .zip(&self.results)
            .map(|(s, r)| {
                let mut o = Map::new();
                o.insert("id".into(), json!(s.id));
                o.insert("label".into(), json!(s.label));
                o.insert("description".into(), json!(s.description));
                o.insert("fingerprint".into(), json!(s.fingerprint));
                if let Some(f) = &s.against_fingerprint {
                    o.insert("against_fingerprint".into(), json!(f));
                }
                o.insert("simulations".into(), json!(r.simulations));
                // Also every metric as {"mean", "ci95"} under "metrics" (with the other revision
                // and the difference in A/B mode), the shape tools prefer.
                let mut by_metric = Map::new();
                for (m, values) in s.metrics.iter().zip(&r.metrics) {
                    let many = !m.parts.is_empty();
                    let pick = |f: &dyn Fn(&ValueEstimate) -> Value| -> Value {
                        if many { Value::Array(values.iter().map(f).collect()) } else { f(&values[0]) }
                    };
                    if self.ab() {
                        let mut ab = Map::new();
                        ab.insert("revision".into(), pick(&|v| num(v.arms[0].value)));
                        ab.insert("revision_ci95".into(), pick(&|v| ci(&v.arms[0], m.is_share())));
                        ab.insert("against".into(), pick(&|v| num(v.arms[1].value)));
                        ab.insert("against_ci95".into(), pick(&|v| ci(&v.arms[1], m.is_share())));
                        ab.insert("difference".into(), pick(&|v| num(v.difference.and_then(|d| d.value))));
                        ab.insert(
                            "difference_ci95".into(),
                            pick(&|v| v.difference.as_ref().map_or(Value::Null, |d| ci(d, false))),
                        );
                        let mut entry = Map::new();
                        entry.insert("mean".into(), ab["revision"].clone());
                        entry.insert("ci95".into(), ab["revision_ci95"].clone());
                        entry.insert("against".into(), ab["against"].clone());
                        entry.insert("against_ci95".into(), ab["against_ci95"].clone());
                        entry.insert("difference".into(), ab["difference"].clone());
                        entry.insert("difference_ci95".into(), ab["difference_ci95"].clone());
                        by_metric.insert(m.id.clone(), Value::Object(entry));
                        o.insert(m.id.clone(), Value::Object(ab));
                    } else {
                        let (mean, interval) =
                            (pick(&|v| num(v.arms[0].value)), pick(&|v| ci(&v.arms[0], m.is_share())));
                        by_metric.insert(m.id.clone(), json!({"mean": mean, "ci95": interval}));
                        o.insert(m.id.clone(), mean);
                        o.insert(format!("{}_ci95", m.id), interval);
                    }
                }
                o.insert("metrics".into(), Value::Object(by_metric));
                Value::Object(o)
            })
            .collect();
        let mut top = Map::new();
        top.insert("ruleset".into(), json!(id.ruleset));
        top.insert("engine".into(), json!(id.engine));
        top.insert("revision".into(), json!(id.revision));
        if let Some(b) = &id.against {
            top.insert("against".into(), json!(b));
        }
        top.insert("unit".into(), json!(id.unit.id));
        top.insert("simulations".into(), json!(id.simulations));
        top.insert("seed".into(), json!(id.seed));
        if let Some(s) = &id.setup {
            top.insert("setup".into(), json!(s));
        }
        top.insert("confidence".into(), json!(0.95));
        top.insert("scenarios".into(), Value::Array(scenarios));
        top.insert("metrics".into(), json!(metrics));
        Value::Object(top)
    }
}

fn same_column(a: &Metric, ap: Option<usize>, b: &Metric, bp: Option<usize>) -> bool {
    a.id == b.id
        && match (ap, bp) {
            (None, None) => true,
            (Some(x), Some(y)) => a.parts[x].id == b.parts[y].id,
            _ => false,
        }
}

fn estimates(m: &Metric, mo: &Moments, arms: usize, part: Option<usize>) -> ValueEstimate {
    match (m.kind, arms) {
        (Kind::Mean, 1) => ValueEstimate { part, arms: vec![stats::mean(mo, 0)], difference: None },
        (Kind::Ratio, 1) => ValueEstimate { part, arms: vec![stats::ratio(mo, 0)], difference: None },
        (Kind::Mean, _) => ValueEstimate {
            part,
            arms: vec![stats::mean(mo, 0), stats::mean(mo, 1)],
            difference: Some(stats::mean_difference(mo)),
        },
        (Kind::Ratio, _) => ValueEstimate {
            part,
            arms: vec![stats::ratio(mo, 0), stats::ratio(mo, 2)],
            difference: Some(stats::ratio_difference(mo)),
        },
    }
}

pub(super) fn column_label(m: &Metric, part: Option<usize>, lang: Lang) -> String {
    match part {
        Some(p) => format!("{} · {}", tr(&m.label, lang), tr(&m.parts[p].label, lang)),
        None => tr(&m.label, lang).to_string(),
    }
}

fn num(v: Option<f64>) -> Value {
    v.map_or(Value::Null, |x| json!(x))
}

fn ci(e: &Estimate, share: bool) -> Value {
    e.ci95_as(share).map_or(Value::Null, |(lo, hi)| json!([lo, hi]))
}

fn opt(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

pub(super) fn short(fp: &str) -> String {
    fp.chars().take(15).collect::<String>() + "…"
}

/// A value with its 95 % interval, to as many decimals as the interval makes meaningful (two
/// significant digits of its half-width): `v ± h`, or for a share (Wilson's interval, not
/// symmetric) `v % [low, high]`.
pub(super) fn cell(e: &Estimate, format: Format, lang: Lang, signed: bool) -> String {
    let Some(v) = e.value else {
        return "n/a".into();
    };
    // A difference between two shares is not a share.
    let share = format.is_share() && !signed;
    let (k, unit) = match (format, signed) {
        (Format::Percent, false) => (100.0, " %"),
        (Format::Percent, true) => (100.0, if lang == Lang::En { " pp" } else { " p.p." }),
        (Format::Number, _) => (1.0, ""),
    };
    let ci = e.ci95_as(share);
    let hw = if share { ci.map(|(lo, hi)| (hi - lo) / 2.0 * k) } else { e.half_width().map(|h| h * k) };
    let decimals = match hw {
        Some(h) if h > 0.0 && h.is_finite() => (1 - h.log10().floor() as i32).clamp(0, 6) as usize,
        _ => 2,
    };
    let sign = if signed && v * k >= 0.0 { "+" } else { "" };
    let fixed = |x: f64| format!("{x:.decimals$}");
    let text = match (ci, hw) {
        // A share's interval is not symmetric around it: both ends, always, so a column reads alike.
        // Portuguese writes decimals with a comma, so its interval ends are parted by a semicolon.
        (Some((lo, hi)), Some(_)) if share => {
            let sep = if lang == Lang::PtBr { ";" } else { "," };
            format!("{}{unit} [{}{sep} {}]", fixed(v * k), fixed(lo * k), fixed(hi * k))
        }
        (Some(_), Some(h)) => format!("{sign}{} ± {}{unit}", fixed(v * k), fixed(h)),
        _ => format!("{sign}{}{unit}", fixed(v * k)),
    };
    if lang == Lang::PtBr { text.replace('.', ",") } else { text }
}

/// An aligned markdown table; `true` columns are right-aligned (numbers).
fn table(header: &[(String, bool)], rows: &[Vec<String>]) -> String {
    let width = |s: &str| s.chars().count();
    let mut widths: Vec<usize> = header.iter().map(|(h, _)| width(h).max(3)).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(width(c));
        }
    }
    let pad = |s: &str, w: usize, right: bool| {
        let fill = " ".repeat(w - width(s));
        if right { format!("{fill}{s}") } else { format!("{s}{fill}") }
    };
    let mut out = String::new();
    let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    out.push_str(&line(header.iter().zip(&widths).map(|((h, r), w)| pad(h, *w, *r)).collect()));
    out.push_str(&line(
        header
            .iter()
            .zip(&widths)
            .map(|((_, r), w)| if *r { format!("{}:", "-".repeat(w - 1)) } else { format!(":{}", "-".repeat(w - 1)) })
            .collect(),
    ));
    for r in rows {
        out.push_str(&line(r.iter().zip(&widths).zip(header).map(|((c, w), (_, right))| pad(c, *w, *right)).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_show_meaningful_decimals() {
        let e = Estimate { value: Some(0.334_12), std_error: Some(0.0015), n: 100_000 };
        assert_eq!(cell(&e, Format::Percent, Lang::En, false), "33.41 % [33.12, 33.71]");
        assert_eq!(cell(&e, Format::Percent, Lang::PtBr, false), "33,41 % [33,12; 33,71]");
        assert_eq!(cell(&e, Format::Number, Lang::En, false), "0.3341 ± 0.0029");
        let r = Estimate { value: Some(10.5234), std_error: Some(0.0107), n: 1000 };
        assert_eq!(cell(&r, Format::Number, Lang::En, false), "10.523 ± 0.021");
        let d = Estimate { value: Some(0.0128), std_error: Some(0.001), n: 1000 };
        assert_eq!(cell(&d, Format::Percent, Lang::En, true), "+1.28 ± 0.20 pp");
        let z = Estimate { value: Some(0.0), std_error: Some(0.0), n: 3 };
        assert_eq!(cell(&z, Format::Number, Lang::En, false), "0.00 ± 0.00");
        assert_eq!(cell(&Estimate { value: None, std_error: None, n: 0 }, Format::Number, Lang::En, false), "n/a");
    }

    #[test]
    fn a_share_shows_the_ends_of_its_wilson_interval() {
        // 1 of 12: the normal interval would be 8 ± 16 %, reaching below 0 %.
        let p = 1.0 / 12.0;
        let small = Estimate { value: Some(p), std_error: Some((p * (1.0 - p) / 11.0).sqrt()), n: 12 };
        assert_eq!(cell(&small, Format::Percent, Lang::En, false), "8 % [1, 35]");
        assert_eq!(cell(&small, Format::Number, Lang::En, false), "0.08 ± 0.16");
        // Nothing happened in 3,000 simulations: not "0.00 ± 0.00 %", but up to 0.13 %.
        let none = Estimate { value: Some(0.0), std_error: Some(0.0), n: 3000 };
        assert_eq!(cell(&none, Format::Percent, Lang::En, false), "0.000 % [0.000, 0.128]");
        assert_eq!(cell(&none, Format::Percent, Lang::PtBr, false), "0,000 % [0,000; 0,128]");
        // A difference of shares is not a share: normal and signed.
        assert_eq!(cell(&none, Format::Percent, Lang::En, true), "+0.00 ± 0.00 pp");
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
