//! The lab's report as one HTML page a designer can open, keep and send.
//!
//! Problem: a table of intervals is hard to compare across eight scenarios and sixteen metrics,
//! and a study is only worth what can be traced back to the command, revisions and seed that
//! made it. Decision: one self-contained file — styles, the few lines of script (hovering a
//! scenario highlights it everywhere) and the data inline, nothing fetched — with the run's
//! identity (command, seed, revisions, engine, every scenario's fingerprint), every metric
//! plotted by scenario with its 95 % interval (`plot`), in A/B runs a forest plot of the paired
//! differences, and the table exactly as the terminal prints it. The page is computed from the
//! report alone, like the table, so a merged sharded run gives the same bytes as one machine.
//! The JSON output is embedded (`#lab-data`), so the page carries its own numbers. Limits:
//! static (no zoom or filter); the labels are the revision's, in the language asked for.

use super::metric::Metric;
use super::plot::{self, Axis, PALETTE, Row};
use super::report::{Lang, Report, cell, column_label, tr};
use super::stats::Estimate;
use crate::markup::escape;
use std::fmt::Write;

const STYLE: &str = r#"
:root{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;background:#f5f6f8;color:#1d2329;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Liberation Sans",sans-serif}
main{max-width:1040px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:23px;margin:0 0 4px}
h2{font-size:18px;margin:0 0 12px}
.lede{color:#4a5560;margin:0 0 8px}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:16px 20px;margin:16px 0}
figure{margin:0 0 22px}
figcaption{font-weight:600;margin:0 0 2px}
figcaption small{font-weight:400;color:#5b6670;margin-left:8px}
.legend{font-size:12.5px;color:#38424c;margin:2px 0 4px}
.legend span{display:inline-flex;align-items:center;margin-right:16px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:50%;border:2px solid;margin-right:6px}
svg.plot{display:block;width:100%;height:auto}
svg text{font-family:inherit;font-size:12px}
svg .label{fill:#1d2329}
svg .sublabel{font-size:11.5px}
svg .tick{fill:#6b7480;font-size:11px}
svg .value{font-variant-numeric:tabular-nums}
svg .grid{stroke:#eceef2}
svg .sep{stroke:#f1f2f4}
svg .axis{stroke:#9aa3ad}
svg .zero{stroke:#333;stroke-dasharray:4 3}
svg .ci{stroke-width:2}
svg .cap{stroke-width:1.5}
svg g.est.hl .label{font-weight:700}
svg g.est.hl .dot{stroke-width:3}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 18px;margin:0}
dt{color:#5b6670}
dd{margin:0;overflow-wrap:anywhere}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;background:#f1f3f5;border-radius:4px;padding:1px 5px;word-break:break-all}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e6e8eb;vertical-align:top}
th{background:#f7f8fa;font-weight:600}
.num{text-align:right;white-space:nowrap}
tr.hl td{background:#fff6d5}
.note{color:#4a5560;font-size:12.5px;margin:8px 0 0}
h2+.note{margin:0 0 12px}
.scroll{overflow-x:auto}
@media print{body{background:#fff}section{border:0;padding:0}}
"#;

const SCRIPT: &str = r#"
(function(){
  var all=document.querySelectorAll('[data-scenario]');
  function mark(id){all.forEach(function(e){e.classList.toggle('hl',id!==null&&e.getAttribute('data-scenario')===id);});}
  all.forEach(function(e){
    e.addEventListener('mouseenter',function(){mark(e.getAttribute('data-scenario'));});
    e.addEventListener('mouseleave',function(){mark(null);});
  });
})();
"#;

struct Words {
    title: &'static str,
    versus: &'static str,
    run: &'static str,
    command: &'static str,
    no_command: &'static str,
    command_note: &'static str,
    revision: &'static str,
    against: &'static str,
    engine: &'static str,
    seed: &'static str,
    simulations: &'static str,
    setup: &'static str,
    scenarios: &'static str,
    scenario: &'static str,
    description: &'static str,
    fingerprint: &'static str,
    by_scenario: &'static str,
    plots_note: &'static str,
    differences: &'static str,
    forest_note: &'static str,
    table: &'static str,
    mean: &'static str,
    ratio: &'static str,
    share: &'static str,
    interval: &'static str,
    undefined: &'static str,
}

const EN: Words = Words {
    title: "Lab report",
    versus: "against",
    run: "How it was run",
    command: "Command",
    no_command: "(not recorded)",
    command_note: "The same numbers come from this command on one machine, or from its shards (--shard i/n) merged with microfut lab merge.",
    revision: "Revision",
    against: "Against",
    engine: "Engine",
    seed: "Seed",
    simulations: "Simulations per scenario",
    setup: "Setup",
    scenarios: "Scenarios",
    scenario: "scenario",
    description: "description",
    fingerprint: "fingerprint",
    by_scenario: "Metrics by scenario",
    plots_note: "Dots are estimates, whiskers their 95 % confidence intervals: means by the normal approximation, ratios of sums by the delta method, shares (%) by Wilson's score interval on the effective number of trials.",
    differences: "Differences",
    forest_note: "Each row is one scenario's difference, simulation by simulation on the same dice, with its 95 % interval; a filled dot marks an interval that leaves out zero (the dashed line).",
    table: "Table",
    mean: "mean per simulation",
    ratio: "ratio of sums",
    share: "share",
    interval: "95 % interval",
    undefined: "undefined",
};

const PT_BR: Words = Words {
    title: "Relatório do laboratório",
    versus: "contra",
    run: "Como foi rodado",
    command: "Comando",
    no_command: "(não registrado)",
    command_note: "Os mesmos números saem deste comando numa máquina só, ou das suas fatias (--shard i/n) juntadas com microfut lab merge.",
    revision: "Revisão",
    against: "Contra",
    engine: "Motor",
    seed: "Semente",
    simulations: "Simulações por cenário",
    setup: "Configuração",
    scenarios: "Cenários",
    scenario: "cenário",
    description: "descrição",
    fingerprint: "impressão digital",
    by_scenario: "Métricas por cenário",
    plots_note: "Pontos são estimativas, barras os seus intervalos de confiança de 95 %: médias pela aproximação normal, razões de somas pelo método delta, proporções (%) pelo intervalo de Wilson sobre o número efetivo de tentativas.",
    differences: "Diferenças",
    forest_note: "Cada linha é a diferença de um cenário, simulação a simulação com os mesmos dados, com o seu intervalo de 95 %; um ponto cheio marca um intervalo que exclui o zero (a linha tracejada).",
    table: "Tabela",
    mean: "média por simulação",
    ratio: "razão de somas",
    share: "proporção",
    interval: "intervalo de 95 %",
    undefined: "indefinido",
};

/// A number as the JSON output writes it, so a reader compares them exactly.
fn json_number(x: f64) -> String {
    serde_json::Value::from(x).to_string()
}

fn interval_text(e: &Estimate, share: bool, factor: f64, unit: &str, lang: Lang) -> String {
    match e.ci95_as(share) {
        Some((lo, hi)) => {
            let t = format!("{:.4} – {:.4}{unit}", lo * factor, hi * factor);
            if lang == Lang::PtBr { t.replace('.', ",") } else { t }
        }
        None => String::new(),
    }
}

fn data(e: &Estimate, share: bool) -> Vec<(&'static str, String)> {
    let mut d = Vec::new();
    if let Some(v) = e.value {
        d.push(("mean", json_number(v)));
    }
    if let Some((lo, hi)) = e.ci95_as(share) {
        d.push(("lo", json_number(lo)));
        d.push(("hi", json_number(hi)));
    }
    d
}

fn axis(m: &Metric, difference: bool, lang: Lang) -> Axis {
    let (factor, unit) = match (m.format.is_share(), difference) {
        (true, false) => (100.0, " %"),
        (true, true) => (100.0, if lang == Lang::En { " pp" } else { " p.p." }),
        (false, _) => (1.0, ""),
    };
    Axis { factor, unit, decimal_comma: lang == Lang::PtBr, zero: difference }
}

impl Report {
    /// The report as one self-contained HTML page; `command` is the one-machine command that
    /// gives these numbers, when known.
    pub fn html(&self, lang: Lang, command: Option<&str>) -> String {
        let w = if lang == Lang::En { &EN } else { &PT_BR };
        let id = &self.identity;
        let mut h = String::new();
        let title = match &id.against {
            Some(b) => format!("{} {} {} {}", id.ruleset, id.revision.version, w.versus, b.version),
            None => format!("{} {}", id.ruleset, id.revision.version),
        };
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} · {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
            if lang == Lang::En { "en" } else { "pt-BR" },
            escape(w.title),
            escape(&title)
        );
        let _ = writeln!(
            h,
            "<header><h1>{} · {}</h1><p class=\"lede\" id=\"headline\">{}</p></header>",
            escape(w.title),
            escape(&title),
            escape(&self.headline(lang))
        );
        self.run_section(&mut h, w, lang, command);
        self.metrics_section(&mut h, w, lang);
        if self.ab() {
            self.differences_section(&mut h, w, lang);
        }
        self.table_section(&mut h, w, lang);
        let data = serde_json::to_string(&self.json()).expect("serializes").replace("</", "<\\/");
        let _ = write!(
            h,
            "</main>\n<script type=\"application/json\" id=\"lab-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
        );
        h
    }

    fn run_section(&self, h: &mut String, w: &Words, lang: Lang, command: Option<&str>) {
        let id = &self.identity;
        let _ = write!(h, "<section id=\"run\"><h2>{}</h2><dl>", escape(w.run));
        let mut item = |k: &str, v: String| {
            let _ = write!(h, "<dt>{}</dt><dd>{v}</dd>", escape(k));
        };
        item(
            w.command,
            match command {
                Some(c) => format!("<code id=\"command\">{}</code>", escape(c)),
                None => escape(w.no_command),
            },
        );
        item(w.seed, format!("<span id=\"seed\">{}</span>", id.seed));
        item(w.simulations, format!("{} {}", id.simulations, escape(tr(&id.unit.label, lang))));
        item(
            w.revision,
            format!(
                "{} {} <code class=\"fingerprint\">{}</code>",
                escape(&id.ruleset),
                escape(&id.revision.version),
                escape(&id.revision.fingerprint)
            ),
        );
        if let Some(b) = &id.against {
            item(
                w.against,
                format!(
                    "{} {} <code class=\"fingerprint\">{}</code>",
                    escape(&id.ruleset),
                    escape(&b.version),
                    escape(&b.fingerprint)
                ),
            );
        }
        item(w.engine, escape(&id.engine));
        if let Some(s) = &id.setup {
            item(w.setup, escape(s));
        }
        let _ = write!(h, "</dl><p class=\"note\">{}</p>", escape(w.command_note));
        let _ = write!(
            h,
            "<h2 style=\"margin-top:16px\">{}</h2><div class=\"scroll\"><table id=\"scenarios\"><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            escape(w.scenarios),
            escape(w.scenario),
            escape(w.description),
            escape(w.fingerprint)
        );
        for (i, s) in id.scenarios.iter().enumerate() {
            let mut fp = format!("<code class=\"fingerprint\">{}</code>", escape(&s.fingerprint));
            if let Some(f) = &s.against_fingerprint {
                let _ = write!(fp, "<br><code class=\"fingerprint\">{}</code>", escape(f));
            }
            let _ = write!(
                h,
                "<tr data-scenario=\"{}\"><td>{}</td><td>{}</td><td>{fp}</td></tr>",
                escape(&s.id),
                escape(&self.scenario_cell(i, lang)),
                escape(tr(&s.description, lang))
            );
        }
        h.push_str("</tbody></table></div></section>\n");
    }

    /// Metrics in first-seen order across scenarios, each with the parts (columns) it has.
    fn metric_columns(&self) -> Vec<(Metric, Vec<Option<usize>>)> {
        let mut out: Vec<(Metric, Vec<Option<usize>>)> = Vec::new();
        for (m, p) in self.columns() {
            match out.iter_mut().find(|(x, _)| x.id == m.id) {
                Some((_, parts)) => parts.push(p),
                None => out.push((m, vec![p])),
            }
        }
        out
    }

    fn metrics_section(&self, h: &mut String, w: &Words, lang: Lang) {
        let id = &self.identity;
        let _ = write!(
            h,
            "<section id=\"metrics\"><h2>{}</h2><p class=\"note\">{}</p>",
            escape(w.by_scenario),
            escape(w.plots_note)
        );
        let versions: Vec<&str> = std::iter::once(id.revision.version.as_str())
            .chain(id.against.iter().map(|b| b.version.as_str()))
            .collect();
        for (m, parts) in self.metric_columns() {
            let share = m.format.is_share();
            let ax = axis(&m, false, lang);
            // Colours tell parts apart; with one part, the arms of an A/B run.
            let colour = |part: usize, arm: usize| if parts.len() > 1 { PALETTE[part % 8] } else { PALETTE[arm % 8] };
            let mut rows = Vec::new();
            for (i, s) in id.scenarios.iter().enumerate() {
                let mut first = true;
                for (pi, p) in parts.iter().enumerate() {
                    let Some(v) = self.find(i, &m, *p) else { continue };
                    for (arm, e) in v.arms.iter().enumerate() {
                        let column = column_label(&m, *p, lang);
                        let text = cell(e, m.format, lang, false);
                        let mut sub = p.map(|p| tr(&m.parts[p].label, lang).to_string()).unwrap_or_default();
                        if versions.len() > 1 {
                            sub = if sub.is_empty() {
                                versions[arm].to_string()
                            } else {
                                format!("{sub} · {}", versions[arm])
                            };
                        }
                        let mut d = vec![
                            ("metric", m.id.clone()),
                            ("part", p.map(|p| m.parts[p].id.clone()).unwrap_or_default()),
                            ("arm", if arm == 0 { "revision" } else { "against" }.to_string()),
                        ];
                        d.extend(data(e, share));
                        rows.push(Row {
                            label: if first { self.scenario_cell(i, lang) } else { String::new() },
                            sublabel: sub,
                            title: format!(
                                "{} — {column} ({}): {}{}",
                                self.scenario_cell(i, lang),
                                versions[arm],
                                if e.value.is_some() { text.clone() } else { w.undefined.to_string() },
                                match interval_text(e, share, ax.factor, ax.unit, lang) {
                                    t if t.is_empty() => String::new(),
                                    t => format!("; {}: {t}", w.interval),
                                }
                            ),
                            value: e.value,
                            interval: e.ci95_as(share),
                            text,
                            colour: colour(pi, arm),
                            hollow: arm == 1,
                            data: d,
                            group_start: first,
                            scenario: s.id.clone(),
                        });
                        first = false;
                    }
                }
            }
            let kind = match m.kind {
                super::Kind::Mean => w.mean,
                super::Kind::Ratio => w.ratio,
            };
            let _ = write!(
                h,
                "<figure class=\"metric\" data-metric=\"{}\"><figcaption>{}<small>{}{}</small></figcaption>",
                escape(&m.id),
                escape(tr(&m.label, lang)),
                escape(kind),
                if share { format!(" · {}", escape(w.share)) } else { String::new() }
            );
            let mut legend: Vec<(String, &str, bool)> = Vec::new();
            if parts.len() > 1 {
                for (pi, p) in parts.iter().enumerate() {
                    if let Some(p) = p {
                        legend.push((tr(&m.parts[*p].label, lang).to_string(), colour(pi, 0), false));
                    }
                }
            }
            if versions.len() > 1 {
                for (arm, v) in versions.iter().enumerate() {
                    legend.push((v.to_string(), if parts.len() > 1 { "#555" } else { colour(0, arm) }, arm == 1));
                }
            }
            if !legend.is_empty() {
                h.push_str("<div class=\"legend\">");
                for (text, c, hollow) in legend {
                    let fill = if hollow { "#fff" } else { c };
                    let _ =
                        write!(h, "<span><i style=\"border-color:{c};background:{fill}\"></i>{}</span>", escape(&text));
                }
                h.push_str("</div>");
            }
            h.push_str(&plot::svg(&rows, &ax, tr(&m.label, lang)));
            h.push_str("</figure>\n");
        }
        h.push_str("</section>\n");
    }

    fn differences_section(&self, h: &mut String, w: &Words, lang: Lang) {
        let id = &self.identity;
        let b = id.against.as_ref().expect("A/B report");
        let _ = write!(
            h,
            "<section id=\"differences\"><h2>{}: {} − {}</h2><p class=\"note\">{}</p>",
            escape(w.differences),
            escape(&id.revision.version),
            escape(&b.version),
            escape(w.forest_note)
        );
        for (m, p) in self.columns() {
            let ax = axis(&m, true, lang);
            let column = column_label(&m, p, lang);
            let mut rows = Vec::new();
            for (i, s) in id.scenarios.iter().enumerate() {
                let Some(d) = self.find(i, &m, p).and_then(|v| v.difference) else { continue };
                let significant = d.excludes_zero();
                let text = format!("{}{}", cell(&d, m.format, lang, true), if significant { " *" } else { "" });
                let mut attrs = vec![
                    ("metric", m.id.clone()),
                    ("part", p.map(|p| m.parts[p].id.clone()).unwrap_or_default()),
                    ("arm", "difference".to_string()),
                ];
                attrs.extend(data(&d, false));
                rows.push(Row {
                    label: self.scenario_cell(i, lang),
                    sublabel: String::new(),
                    title: format!(
                        "{} — {column}: {text}{}",
                        self.scenario_cell(i, lang),
                        match interval_text(&d, false, ax.factor, ax.unit, lang) {
                            t if t.is_empty() => String::new(),
                            t => format!("; {}: {t}", w.interval),
                        }
                    ),
                    value: d.value,
                    interval: d.ci95(),
                    text,
                    colour: if significant { PALETTE[0] } else { "#7a838c" },
                    hollow: !significant,
                    data: attrs,
                    group_start: true,
                    scenario: s.id.clone(),
                });
            }
            let _ = write!(
                h,
                "<figure class=\"difference\" data-metric=\"{}\" data-part=\"{}\"><figcaption>{}</figcaption>",
                escape(&m.id),
                escape(&p.map(|p| m.parts[p].id.clone()).unwrap_or_default()),
                escape(&column)
            );
            h.push_str(&plot::svg(&rows, &ax, &column));
            h.push_str("</figure>\n");
        }
        h.push_str("</section>\n");
    }

    fn table_section(&self, h: &mut String, w: &Words, lang: Lang) {
        let (header, rows) = self.table_rows(lang);
        let _ = write!(
            h,
            "<section id=\"table\"><h2>{}</h2><div class=\"scroll\"><table id=\"results\"><thead><tr>",
            escape(w.table)
        );
        for (text, num) in &header {
            let _ = write!(h, "<th{}>{}</th>", if *num { " class=\"num\"" } else { "" }, escape(text));
        }
        h.push_str("</tr></thead><tbody>");
        for (i, row) in rows {
            let _ = write!(h, "<tr data-scenario=\"{}\">", escape(&self.identity.scenarios[i].id));
            for (c, (_, num)) in row.iter().zip(&header) {
                let _ = write!(h, "<td{}>{}</td>", if *num { " class=\"num\"" } else { "" }, escape(c));
            }
            h.push_str("</tr>");
        }
        h.push_str("</tbody></table></div>");
        for note in self.notes(lang) {
            let _ = write!(h, "<p class=\"note\">{}</p>", escape(&note));
        }
        h.push_str("</section>\n");
    }
}
