//! Rendering resolutions for people (aligned tables) and tools (JSON).

use crate::pipeline::{Explanation, Resolution, Roll};
use crate::ruleset::{Pipeline, Ruleset};
use serde_json::{Value, json};

/// A number as JSON: whole values print as integers (17, not 17.0).
pub fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 { json!(x as i64) } else { json!(x) }
}

pub fn signed(x: f64) -> String {
    let s = trim(x);
    if x > 0.0 { format!("+{s}") } else { s }
}

pub fn trim(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e15 {
        // Beyond what an i64 holds exactly (a cast would saturate: 9223372036854775807).
        format!("{x:e}")
    } else if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Lang {
    #[default]
    En,
    #[value(name = "pt-BR")]
    PtBr,
}

pub fn label(l: &crate::catalog::Labels, lang: Lang) -> &str {
    match lang {
        Lang::En => &l.en,
        Lang::PtBr => pt_words(&l.pt_br),
    }
}

/// Published revisions (frozen: their fingerprints are in every record) carry some pt-BR labels
/// that are the formulas' variable names (`BASE_passe`, `EXEC_GK`): shown in words instead. The
/// Microfut page has the same table (`PT_LABELS` in its app.js).
fn pt_words(raw: &str) -> &str {
    match raw {
        "BASE_arremesso" => "Base do arremesso",
        "BASE_atacante" => "Base do atacante",
        "BASE_bloqueio" => "Base do bloqueio",
        "BASE_cabeceio" => "Base do cabeceio",
        "BASE_cobranca" => "Base da cobrança",
        "BASE_controle" => "Base do domínio",
        "BASE_cruzamento" => "Base do cruzamento",
        "BASE_defensor" => "Base do defensor",
        "BASE_defesa" => "Base da defesa",
        "BASE_finalizacao" => "Base da finalização",
        "BASE_interceptacao" => "Base da interceptação",
        "BASE_passe" => "Base do passe",
        "BASE_pos" => "Base do posicionamento",
        "BASE_protecao" => "Base da proteção",
        "BASE_tiro_de_meta" => "Base do tiro de meta",
        "EXEC_GK" => "Execução do goleiro",
        "EXEC_cabeceio" => "Execução do cabeceio",
        "EXEC_desarme" => "Execução do desarme",
        "EXEC_drible" => "Execução do drible",
        "LEITURA_GK" => "Leitura do goleiro",
        "R_normal" => "Corrida normal",
        "R_sprint" => "Arrancada",
        "Stamina" => "Fôlego",
        "Stamina (STA)" => "Fôlego (STA)",
        "sprint" => "arrancada",
        "alpha" => "alfa",
        "alcance_base" => "Alcance base",
        "alcance_cruzamento" => "Alcance do cruzamento",
        "fator_RES" => "Fator de RES",
        "raio_interceptacao" => "Raio de interceptação",
        "redutor_atletico" => "Redutor atlético",
        "velocidade_base_bola" => "Velocidade base da bola",
        "velocidade_cruzamento" => "Velocidade do cruzamento",
        "Constante de calibração do teste de aerial_duel" => "Constante de calibração do teste de duelo aéreo",
        other => other,
    }
}

/// The explanation's own words (content supplies the labels of what it explains).
struct Words {
    derived: &'static str,
    given_derived: &'static str,
    requires: &'static str,
    yes: &'static str,
    impossible: &'static str,
    headers: [&'static str; 5],
    value: &'static str,
    difficulty: &'static str,
    chance_zero: &'static str,
    roll: &'static str,
    margin: &'static str,
    success: &'static str,
    failure: &'static str,
}

fn words(lang: Lang) -> &'static Words {
    const EN: Words = Words {
        derived: "derived inputs",
        given_derived: "derived inputs as given (not computed)",
        requires: "requires",
        yes: "yes",
        impossible: "NO — the action is not physically possible",
        headers: ["stage", "label", "amount", "running", "table input / source"],
        value: "value",
        difficulty: "difficulty",
        chance_zero: "not possible: chance 0",
        roll: "roll",
        margin: "margin",
        success: "success",
        failure: "failure",
    };
    const PT_BR: Words = Words {
        derived: "entradas derivadas",
        given_derived: "entradas derivadas informadas (não calculadas)",
        requires: "requer",
        yes: "sim",
        impossible: "NÃO — a ação não é fisicamente possível",
        headers: ["etapa", "rótulo", "parcela", "acumulado", "entrada da tabela / origem"],
        value: "valor",
        difficulty: "dificuldade",
        chance_zero: "impossível: chance 0",
        roll: "rolagem",
        margin: "margem",
        success: "sucesso",
        failure: "falha",
    };
    match lang {
        Lang::En => &EN,
        Lang::PtBr => &PT_BR,
    }
}

pub struct Shown<'a> {
    pub rs: &'a Ruleset,
    pub pipeline: &'a Pipeline,
    pub res: Resolution,
    pub explanation: Explanation,
    pub derived: Vec<(String, f64)>,
    /// Derived values the caller gave: used as given instead of computed.
    pub overridden: Vec<(String, f64)>,
    pub roll: Option<Roll>,
}

pub fn human(s: &Shown, lang: Lang) -> String {
    let mut out = String::new();
    let wd = words(lang);
    let p = s.pipeline;
    out.push_str(&format!("{} — {}   ({}, {})\n", p.id, label(&p.label, lang), s.rs.label(), short(&s.rs.fingerprint)));
    if !s.derived.is_empty() {
        let d: Vec<String> = s.derived.iter().map(|(n, v)| format!("{n} {}", trim(*v))).collect();
        out.push_str(&format!("  {}: {}\n", wd.derived, d.join(", ")));
    }
    if !s.overridden.is_empty() {
        let d: Vec<String> = s.overridden.iter().map(|(n, v)| format!("{n} {}", trim(*v))).collect();
        out.push_str(&format!("  {}: {}\n", wd.given_derived, d.join(", ")));
    }
    for w in &s.explanation.working {
        out.push_str(&format!("  {} = {}  ({})\n", w.stage, trim(w.amount), label(&w.label, lang)));
    }
    for r in &s.explanation.requires {
        let held = r.amount != 0.0;
        out.push_str(&format!(
            "  {} {}: {}\n",
            wd.requires,
            label(&r.label, lang),
            if held { wd.yes } else { wd.impossible }
        ));
    }
    let rows: Vec<[String; 5]> = s
        .explanation
        .contributions
        .iter()
        .map(|c| {
            let amount = match c.op {
                "mul" => format!("×{}", trim(c.amount)),
                "set" => format!("={}", trim(c.amount)),
                _ if c.kind == "base" => trim(c.amount),
                _ => signed(c.amount),
            };
            let input = c.input.as_ref().map(|i| format!("{} ← {}", i.table, trim(i.value))).unwrap_or_default();
            [
                c.stage.clone(),
                label(&c.label, lang).to_string(),
                amount,
                trim(c.running),
                format!("{}  {}", input, c.source).trim().to_string(),
            ]
        })
        .collect();
    let headers = wd.headers;
    let mut widths = headers.map(|h| h.chars().count());
    for r in &rows {
        for (i, cell) in r.iter().enumerate().take(4) {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        format!(
            "  {:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {}\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3]
        )
    };
    out.push_str(&line(headers));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    let r = &s.res;
    match (r.difficulty, r.probability, r.probability_above) {
        (Some(d), Some(pr), Some(above)) if r.fraction > 0.0 => {
            // A fractional difficulty: rolled against each whole neighbour in proportion.
            let dice = s.rs.dice();
            let f = r.fraction;
            out.push_str(&format!(
                "  {} {}  {} {}  P({}d{} ≥ {}) = {:.2} × {} + {:.2} × {} = {:.2}%{}\n",
                wd.value,
                trim(r.value),
                wd.difficulty,
                trim(d as f64 + f),
                dice.count,
                dice.sides,
                trim(d as f64 + f),
                1.0 - f,
                pr,
                f,
                above,
                r.chance() * 100.0,
                if r.possible { String::new() } else { format!("  ({})", wd.chance_zero) }
            ));
        }
        (Some(d), Some(pr), _) => {
            let dice = s.rs.dice();
            out.push_str(&format!(
                "  {} {}  {} {}  P({}d{} ≥ {}) = {} = {:.2}%{}\n",
                wd.value,
                trim(r.value),
                wd.difficulty,
                d,
                dice.count,
                dice.sides,
                d,
                pr,
                pr.as_f64() * 100.0,
                if r.possible { String::new() } else { format!("  ({})", wd.chance_zero) }
            ));
        }
        _ => out.push_str(&format!("  {} {}\n", wd.value, trim(r.value))),
    }
    if let Some(roll) = s.roll {
        out.push_str(&format!(
            "  {} {} → {} {} ({})\n",
            wd.roll,
            roll.total,
            wd.margin,
            signed(roll.margin as f64),
            if roll.success { wd.success } else { wd.failure }
        ));
    }
    out
}

pub fn json(s: &Shown) -> Value {
    let r = &s.res;
    let mut v = json!({
        "pipeline": s.pipeline.id,
        "ruleset": s.rs.id,
        "revision": s.rs.version.to_string(),
        "fingerprint": s.rs.fingerprint,
        "value": num(r.value),
        "raw": num(r.raw),
        "possible": r.possible,
        "contributions": s.explanation.contributions,
        "working": s.explanation.working,
        "requires": s.explanation.requires,
        "derived_inputs": s.derived.iter().map(|(n, v)| (n.clone(), num(*v))).collect::<serde_json::Map<_, _>>(),
    });
    if !s.overridden.is_empty() {
        v["given_derived_inputs"] =
            s.overridden.iter().map(|(n, v)| (n.clone(), num(*v))).collect::<serde_json::Map<_, _>>().into();
    }
    if let (Some(d), Some(p), true) = (r.difficulty, r.probability, r.fraction > 0.0) {
        v["difficulty"] = json!(d as f64 + r.fraction);
        v["difficulties"] = json!([d, d + 1]);
        v["fraction"] = json!(r.fraction);
        v["probability"] = json!(r.chance());
        v["probability_exact"] = json!(if r.possible {
            format!("{:.6} × {p} + {:.6} × {}", 1.0 - r.fraction, r.fraction, r.probability_above.unwrap_or(p))
        } else {
            format!("0/{}", p.outcomes)
        });
    } else if let (Some(d), Some(p)) = (r.difficulty, r.probability) {
        v["difficulty"] = json!(d);
        v["probability"] = json!(if r.possible { p.as_f64() } else { 0.0 });
        v["probability_exact"] = json!(if r.possible { p.to_string() } else { format!("0/{}", p.outcomes) });
    }
    if let Some(roll) = s.roll {
        v["roll"] = json!(roll.total);
        v["margin"] = json!(roll.margin);
        v["success"] = json!(roll.success);
    }
    v
}

pub fn short(fp: &str) -> String {
    fp.chars().take(19).collect::<String>() + "…"
}
