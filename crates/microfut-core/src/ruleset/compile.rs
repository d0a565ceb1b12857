//! Compiling a Microfut revision: documents → a [`Ruleset`] of slot-indexed pipelines.
//!
//! This is also where content is checked for meaning. Every problem is collected with its file
//! and JSON pointer; nothing stops at the first.

use super::doc::*;
use super::domain::Policy;
use super::table::{Bin, Curve, Interval, RangeTable};
use super::{
    FormulaInfo, Lookups, Param, Pipeline, PipelineKind, Require, Ruleset, Stage, TableInfo, TableKind, Variable,
};
use crate::catalog::{Diagnostic, Revision};
use crate::dice::Odds;
use crate::expr::{self, Ast, CompileError, Lookup, Scope, Slot};
use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Locals a pipeline may hold (lets + base + modifiers + value); evaluation keeps them on the stack.
pub const MAX_LOCALS: usize = 24;

/// Reserved local names every pipeline gets.
const BASE: &str = "base";
const VALUE: &str = "value";
/// The value before a modifier, readable by modifiers (a block that absorbs part of what is left,
/// a final rounding). Only pipelines that read it hold it.
const RUNNING: &str = "running";

fn reads_running(doc: &StageDoc) -> bool {
    [&doc.expr, &doc.input]
        .into_iter()
        .flatten()
        .any(|t| expr::parse(t).is_ok_and(|a| a.variables().contains(&RUNNING)))
}

struct Located<T> {
    file: String,
    pointer: String,
    item: T,
}

/// Documents of one schema kind, deserialized, with their file names.
fn documents<T: DeserializeOwned>(rev: &Revision, schema: &str, out: &mut Vec<Diagnostic>) -> Vec<(String, T)> {
    let mut docs = Vec::new();
    for (name, value) in &rev.documents {
        if crate::catalog::declared_schema(value) == Some(schema) {
            let file = rev.file(name);
            match crate::catalog::from_value_located::<T>(value.clone(), schema) {
                Ok(d) => docs.push((file, d)),
                Err(e) => out.push(Diagnostic::new(file, e.pointer, format!("cannot read as {schema}: {}", e.message))),
            }
        }
    }
    docs
}

pub fn compile(rev: &Revision) -> Result<Ruleset, Vec<Diagnostic>> {
    compile_with(rev, Policy::Own)
}

/// [`compile`], with the parameter domains a published revision that predates them borrows
/// (`validate` passes them; see [`super::domain`]).
pub fn compile_with(rev: &Revision, domains: Policy) -> Result<Ruleset, Vec<Diagnostic>> {
    match compile_partial_with(rev, domains) {
        (Some(rs), out) if out.is_empty() => Ok(rs),
        (_, out) => Err(out),
    }
}

/// Compiles what compiles and reports the rest: the ruleset holds every pipeline, table and
/// formula that compiled (with its problems, the revision is refused all the same). A module
/// that checks documents of its own on top (the effect policies) reads names from it, so one
/// broken formula does not hide a wrong pipeline name elsewhere. `None` when the revision did
/// not even load (schema, manifest).
pub fn compile_partial(rev: &Revision) -> (Option<Ruleset>, Vec<Diagnostic>) {
    compile_partial_with(rev, Policy::Own)
}

fn compile_partial_with(rev: &Revision, domains: Policy) -> (Option<Ruleset>, Vec<Diagnostic>) {
    let mut out: Vec<Diagnostic> = Vec::new();
    if !rev.diagnostics.is_empty() {
        return (None, rev.diagnostics.clone());
    }

    // Vocabulary.
    let mut vars: Vec<Variable> = Vec::new();
    let mut var_index: BTreeMap<String, usize> = BTreeMap::new();
    for (file, doc) in documents::<VocabularyDoc>(rev, "vocabulary.schema.json", &mut out) {
        for (i, v) in doc.variables.into_iter().enumerate() {
            let pointer = format!("/variables/{i}");
            if var_index.contains_key(&v.id) {
                out.push(Diagnostic::new(&file, &pointer, format!("variable '{}' declared twice", v.id)));
                continue;
            }
            let min = v.scale[0].unwrap_or(f64::NEG_INFINITY);
            let max = v.scale[1].unwrap_or(f64::INFINITY);
            if min > max {
                out.push(Diagnostic::new(&file, format!("{pointer}/scale"), "scale minimum above maximum"));
            }
            if let Some(d) = v.default
                && (d < min || d > max)
            {
                out.push(Diagnostic::new(
                    &file,
                    format!("{pointer}/default"),
                    format!("default {d} is outside the scale"),
                ));
            }
            var_index.insert(v.id.clone(), vars.len());
            vars.push(Variable {
                id: v.id,
                kind: v.kind,
                min,
                max,
                integer: v.integer,
                default: v.default,
                unit: v.unit,
                values: v.values,
                label: v.label,
                source: format!("{file}#{pointer}"),
            });
        }
    }

    // Params.
    let mut params: Vec<Param> = Vec::new();
    let mut param_index: BTreeMap<String, usize> = BTreeMap::new();
    let param_docs = documents::<ParamsDoc>(rev, "params.schema.json", &mut out);
    for (file, doc) in param_docs.iter().cloned() {
        for (i, p) in doc.params.into_iter().enumerate() {
            let pointer = format!("/params/{i}");
            if param_index.contains_key(&p.id) || var_index.contains_key(&p.id) {
                out.push(Diagnostic::new(&file, &pointer, format!("'{}' is already a variable or parameter", p.id)));
                continue;
            }
            param_index.insert(p.id.clone(), params.len());
            params.push(Param {
                id: p.id,
                value: p.value,
                domain: None,
                integer: false,
                unit: p.unit,
                label: p.label,
                source: format!("{file}#{pointer}"),
            });
        }
    }

    super::domain::check(rev, &param_docs, &mut params, &param_index, domains, &mut out);

    // Tables and curves.
    let mut tables: Vec<TableInfo> = Vec::new();
    let mut table_index: BTreeMap<String, usize> = BTreeMap::new();
    for (file, doc) in documents::<TablesDoc>(rev, "tables.schema.json", &mut out) {
        for (i, t) in doc.tables.into_iter().enumerate() {
            let pointer = format!("/tables/{i}");
            if let Some(info) = range_table(&file, &pointer, t, &mut out) {
                add_table(info, &mut tables, &mut table_index, &var_index, &param_index, &file, &pointer, &mut out);
            }
        }
        for (i, c) in doc.curves.into_iter().enumerate() {
            let pointer = format!("/curves/{i}");
            if let Some(info) = curve(&file, &pointer, c, &mut out) {
                add_table(info, &mut tables, &mut table_index, &var_index, &param_index, &file, &pointer, &mut out);
            }
        }
    }

    // Modifier library.
    let mut library: BTreeMap<String, Located<StageDoc>> = BTreeMap::new();
    for (file, doc) in documents::<ModifiersDoc>(rev, "modifiers.schema.json", &mut out) {
        for (i, m) in doc.modifiers.into_iter().enumerate() {
            let pointer = format!("/modifiers/{i}");
            let Some(id) = m.id.clone() else {
                out.push(Diagnostic::new(&file, &pointer, "a library modifier needs an id"));
                continue;
            };
            if library.contains_key(&id) {
                out.push(Diagnostic::new(&file, &pointer, format!("modifier '{id}' declared twice")));
                continue;
            }
            library.insert(id, Located { file: file.clone(), pointer, item: m });
        }
    }

    // Resolution defaults and pipeline documents.
    let mut resolution: Option<(String, ResolutionDoc)> = None;
    let mut pipeline_docs: Vec<(PipelineKind, Located<PipelineDoc>)> = Vec::new();
    for (file, doc) in documents::<PipelinesDoc>(rev, "pipelines.schema.json", &mut out) {
        if let Some(r) = doc.resolution {
            if resolution.is_some() {
                out.push(Diagnostic::new(&file, "/resolution", "resolution defaults declared in two documents"));
            } else {
                resolution = Some((file.clone(), r));
            }
        }
        for (i, p) in doc.pipelines.into_iter().enumerate() {
            pipeline_docs.push((
                PipelineKind::Action,
                Located { file: file.clone(), pointer: format!("/pipelines/{i}"), item: p },
            ));
        }
        for (i, p) in doc.derived.into_iter().enumerate() {
            pipeline_docs.push((
                PipelineKind::Derived,
                Located { file: file.clone(), pointer: format!("/derived/{i}"), item: p },
            ));
        }
    }
    let has_actions = pipeline_docs.iter().any(|(k, _)| *k == PipelineKind::Action);
    let (res_file, res) = match resolution {
        Some(r) => r,
        None => {
            if has_actions {
                out.push(Diagnostic::new(
                    rev.file("pipelines.json"),
                    "/resolution",
                    "action pipelines need \"resolution\" defaults (dice, clamp, difficulty)",
                ));
            }
            (
                String::new(),
                ResolutionDoc {
                    dice: crate::dice::DiceSpec::D3D6,
                    clamp: [3.0, 17.0],
                    difficulty: "0".into(),
                    fractional: false,
                },
            )
        }
    };
    // The schema bounds count and sides; their product must also leave the outcomes countable.
    let dice_ok = Odds::supports(res.dice);
    if !dice_ok {
        out.push(Diagnostic::new(
            &res_file,
            "/resolution/dice",
            format!(
                "{}d{} cannot be counted exactly: at least one die of at least 2 sides, and at most 2^64 outcomes (sides^count)",
                res.dice.count, res.dice.sides
            ),
        ));
    }
    let odds = Arc::new(Odds::new(if dice_ok { res.dice } else { crate::dice::DiceSpec::D3D6 }));
    if res.clamp[0] > res.clamp[1] {
        out.push(Diagnostic::new(&res_file, "/resolution/clamp", "clamp minimum above maximum"));
    }
    let difficulty_ast = match expr::parse(&res.difficulty) {
        Ok(a) => Some(a),
        Err(e) => {
            out.push(Diagnostic::new(&res_file, "/resolution/difficulty", e.to_string()));
            None
        }
    };

    let mut lookups: Lookups = tables.iter().map(|t| (t.id.clone(), t.lookup())).collect();
    let formulas = compile_formulas(rev, &var_index, &params, &param_index, &mut lookups, &mut out);
    let env = Env {
        vars: &vars,
        var_index: &var_index,
        params: &params,
        param_index: &param_index,
        lookups: &lookups,
        table_reads: RefCell::new(TableReads::default()),
    };

    let mut pipelines: Vec<Pipeline> = Vec::new();
    let mut pipeline_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut outputs: BTreeMap<usize, usize> = BTreeMap::new();
    // What each pipeline reads and computes, also for those that failed to compile, so a cycle
    // between derived values is reported together with the other errors of the same edit.
    let mut nodes: Vec<DepNode> = Vec::new();
    for (kind, loc) in &pipeline_docs {
        let p = &loc.item;
        if pipeline_index.contains_key(&p.id) {
            out.push(Diagnostic::new(&loc.file, &loc.pointer, format!("pipeline '{}' declared twice", p.id)));
            continue;
        }
        let ctx = PipelineCtx {
            env: &env,
            library: &library,
            kind: *kind,
            res: &res,
            difficulty: difficulty_ast.as_ref(),
            res_file: &res_file,
            odds: &odds,
        };
        if let Some(compiled) = compile_pipeline(&ctx, loc, &mut nodes, &mut out) {
            if let Some(o) = compiled.output {
                if let Some(&other) = outputs.get(&o) {
                    out.push(Diagnostic::new(
                        &loc.file,
                        format!("{}/output", loc.pointer),
                        format!("'{}' is already computed by pipeline '{}'", vars[o].id, pipelines[other].id),
                    ));
                } else {
                    outputs.insert(o, pipelines.len());
                }
            }
            pipeline_index.insert(p.id.clone(), pipelines.len());
            pipelines.push(compiled);
        }
    }

    // A derived value no derived pipeline computes would be read at its default (or 0) in play,
    // outside the scale the finite check sweeps it over: refused where it is declared.
    for (i, v) in vars.iter().enumerate() {
        if v.kind == VarKind::Derived && v.default.is_none() && !nodes.iter().any(|n| n.output == Some(i)) {
            let (file, pointer) = split_source(&v.source);
            out.push(Diagnostic::new(
                file,
                pointer,
                format!("derived value '{}' is computed by no derived pipeline (none names it as its output)", v.id),
            ));
        }
    }
    let derived_order = order_derived(&nodes, &vars, &mut out);

    if !out.is_empty() {
        // A broken library modifier fails in every pipeline using it: report it once.
        let mut seen = BTreeSet::new();
        out.retain(|d| {
            let core = d
                .message
                .split_once("') ")
                .filter(|_| d.message.starts_with("(in pipeline '"))
                .map_or(d.message.as_str(), |(_, m)| m);
            seen.insert((d.file.clone(), d.pointer.clone(), core.to_string()))
        });
        out.sort();
    }
    let table_bounds = env.table_reads.take().bounds(vars.len(), &tables, &table_index);
    let rs = Ruleset {
        table_bounds,
        id: rev.ruleset.clone(),
        version: rev.version.clone(),
        fingerprint: rev.fingerprint.clone(),
        vars,
        var_index,
        params,
        param_index,
        tables,
        table_index,
        formulas,
        pipelines,
        pipeline_index,
        derived_order,
        odds,
        revision: rev.clone(),
    };
    if out.is_empty() {
        // Non-finite values are only meaningful over a ruleset that compiled whole.
        out = super::finite::check(&rs);
        out.sort();
    }
    (Some(rs), out)
}

/// A compiled formula body: its arguments are its input slots, in order.
struct Formula {
    body: expr::Compiled,
    arity: usize,
    /// The declared result range (−∞, ∞ when none).
    result: (f64, f64),
}

impl Formula {
    /// A value outside the declared result is no value of this formula: NaN, so the stage that
    /// called it is refused (at run time, and by the finite check when the revision loads).
    #[inline]
    fn bounded(&self, v: f64) -> f64 {
        if v >= self.result.0 && v <= self.result.1 { v } else { f64::NAN }
    }
}

impl Lookup for Formula {
    fn lookup(&self, x: f64) -> f64 {
        self.bounded(self.body.eval(&expr::Frame { inputs: &[x], locals: &[] }))
    }
    fn arity(&self) -> usize {
        self.arity
    }
    fn call(&self, args: &[f64]) -> f64 {
        self.bounded(self.body.eval(&expr::Frame { inputs: args, locals: &[] }))
    }
}

/// Stands in for a formula whose body does not compile, so its callers are not also reported.
struct Broken(usize);

impl Lookup for Broken {
    fn lookup(&self, _: f64) -> f64 {
        f64::NAN
    }
    fn arity(&self) -> usize {
        self.0
    }
}

/// What a formula body sees: its arguments, its own parameters, the revision's params, and the
/// tables, curves and formulas declared before it. Never a vocabulary variable: a formula is a
/// function of its arguments, so every caller (a pipeline, a projection) gets the same number.
struct FormulaScope<'a> {
    arguments: &'a [String],
    own: &'a BTreeMap<String, FormulaParamDoc>,
    params: &'a [Param],
    param_index: &'a BTreeMap<String, usize>,
    lookups: &'a Lookups,
}

impl Scope for FormulaScope<'_> {
    fn variable(&self, name: &str) -> Option<Slot> {
        if let Some(i) = self.arguments.iter().position(|a| a == name) {
            return Some(Slot::Input(i));
        }
        if let Some(p) = self.own.get(name) {
            return Some(Slot::Const(p.value));
        }
        self.param_index.get(name).map(|&i| Slot::Const(self.params[i].value))
    }
    fn function(&self, name: &str) -> Option<Arc<dyn Lookup>> {
        self.lookups.get(name).cloned()
    }
    fn variable_names(&self) -> Vec<String> {
        self.arguments
            .iter()
            .cloned()
            .chain(self.own.keys().cloned())
            .chain(self.params.iter().map(|p| p.id.clone()))
            .collect()
    }
    fn function_names(&self) -> Vec<String> {
        self.lookups.keys().cloned().collect()
    }
}

fn compile_formulas(
    rev: &Revision,
    vars: &BTreeMap<String, usize>,
    params: &[Param],
    param_index: &BTreeMap<String, usize>,
    lookups: &mut Lookups,
    out: &mut Vec<Diagnostic>,
) -> Vec<FormulaInfo> {
    let mut formulas: Vec<FormulaInfo> = Vec::new();
    for (file, doc) in documents::<FormulasDoc>(rev, "formulas.schema.json", out) {
        for (i, f) in doc.formulas.into_iter().enumerate() {
            let pointer = format!("/formulas/{i}");
            let clash = if formulas.iter().any(|g| g.id == f.id) {
                Some(format!("formula '{}' declared twice", f.id))
            } else if lookups.contains_key(&f.id) {
                Some(format!("'{}' is already a table or curve", f.id))
            } else if expr::Builtin::by_name(&f.id).is_some() {
                Some(format!("'{}' is a builtin function name", f.id))
            } else if vars.contains_key(&f.id) || param_index.contains_key(&f.id) {
                Some(format!("'{}' is already a variable or parameter", f.id))
            } else {
                None
            };
            if let Some(msg) = clash {
                out.push(Diagnostic::new(&file, format!("{pointer}/id"), msg));
                continue;
            }
            for (k, a) in f.arguments.iter().enumerate() {
                if f.parameters.contains_key(a) || param_index.contains_key(a) {
                    out.push(Diagnostic::new(
                        &file,
                        format!("{pointer}/arguments/{k}"),
                        format!("argument '{a}' would hide the parameter of that name"),
                    ));
                }
            }
            for (name, p) in &f.parameters {
                let at = format!("{pointer}/parameters/{}/value", crate::catalog::escape_token(name));
                let v = p.value;
                let broken = [
                    (p.minimum.filter(|&m| v < m), "minimum", "at least"),
                    (p.maximum.filter(|&m| v > m), "maximum", "at most"),
                    (p.minimum_exclusive.filter(|&m| v <= m), "minimumExclusive", "greater than"),
                    (p.maximum_exclusive.filter(|&m| v >= m), "maximumExclusive", "less than"),
                ];
                for (bound, key, words) in broken {
                    if let Some(b) = bound {
                        out.push(Diagnostic::new(
                            &file,
                            &at,
                            format!("{} of formula {} is {v}, but must be {words} {b} ({key}: {b})", name, f.id),
                        ));
                    }
                }
            }
            let scope =
                FormulaScope { arguments: &f.arguments, own: &f.parameters, params, param_index, lookups: &*lookups };
            let body = expr::parse(&f.expr).map_err(|e| e.to_string()).and_then(|ast| {
                if let Some(v) = ast.variables().into_iter().find(|v| vars.contains_key(*v) && scope.variable(v).is_none())
                {
                    return Err(format!(
                        "'{v}' is a vocabulary variable: a formula reads only its arguments and parameters (add it to \"arguments\")"
                    ));
                }
                expr::compile(&ast, &scope).map_err(|e| describe(&e))
            });
            let arity = f.arguments.len();
            let result = f.result.map(|r| (r.minimum.unwrap_or(f64::NEG_INFINITY), r.maximum.unwrap_or(f64::INFINITY)));
            // JSON numbers are never NaN, so the bounds are ordered.
            if let Some((lo, hi)) = result
                && lo > hi
            {
                out.push(Diagnostic::new(&file, format!("{pointer}/result"), "result minimum above maximum"));
            }
            let function: Arc<dyn Lookup> = match body {
                Ok(body) => {
                    Arc::new(Formula { body, arity, result: result.unwrap_or((f64::NEG_INFINITY, f64::INFINITY)) })
                }
                Err(msg) => {
                    out.push(Diagnostic::new(&file, format!("{pointer}/expr"), msg));
                    Arc::new(Broken(arity))
                }
            };
            lookups.insert(f.id.clone(), function.clone());
            formulas.push(FormulaInfo {
                id: f.id,
                label: f.label,
                arguments: f.arguments,
                parameters: f.parameters.iter().map(|(k, p)| (k.clone(), p.value)).collect(),
                expr: f.expr,
                result,
                source: format!("{file}#{pointer}"),
                function,
            });
        }
    }
    formulas
}

#[allow(clippy::too_many_arguments)]
fn add_table(
    info: TableInfo,
    tables: &mut Vec<TableInfo>,
    index: &mut BTreeMap<String, usize>,
    vars: &BTreeMap<String, usize>,
    params: &BTreeMap<String, usize>,
    file: &str,
    pointer: &str,
    out: &mut Vec<Diagnostic>,
) {
    if index.contains_key(&info.id) {
        out.push(Diagnostic::new(file, pointer, format!("table '{}' declared twice", info.id)));
    } else if expr::Builtin::by_name(&info.id).is_some() {
        out.push(Diagnostic::new(file, format!("{pointer}/id"), format!("'{}' is a builtin function name", info.id)));
    } else if vars.contains_key(&info.id) || params.contains_key(&info.id) {
        out.push(Diagnostic::new(
            file,
            format!("{pointer}/id"),
            format!("'{}' is already a variable or parameter", info.id),
        ));
    } else {
        index.insert(info.id.clone(), tables.len());
        tables.push(info);
    }
}

fn range_table(file: &str, pointer: &str, t: TableDoc, out: &mut Vec<Diagnostic>) -> Option<TableInfo> {
    let before = out.len();
    let mut bins = Vec::new();
    let mut bin_labels = Vec::new();
    if t.scale[0] > t.scale[1] {
        out.push(Diagnostic::new(file, format!("{pointer}/scale"), "scale minimum above maximum"));
    }
    for (i, b) in t.bins.iter().enumerate() {
        let bp = format!("{pointer}/bins/{i}");
        let interval = match (&b.range, b.at) {
            (Some(r), None) => match Interval::parse(r) {
                Ok(iv) => iv,
                Err(e) => {
                    out.push(Diagnostic::new(file, format!("{bp}/range"), e));
                    continue;
                }
            },
            (None, Some(x)) => Interval::point(x),
            _ => {
                out.push(Diagnostic::new(file, &bp, "a bin has exactly one of \"range\" or \"at\""));
                continue;
            }
        };
        if b.value < t.scale[0] || b.value > t.scale[1] {
            out.push(Diagnostic::new(
                file,
                format!("{bp}/value"),
                format!("value {} is outside the table's declared scale [{}, {}]", b.value, t.scale[0], t.scale[1]),
            ));
        }
        bins.push(Bin { interval, value: b.value, tag: b.tag.clone() });
        bin_labels.push(b.label.clone());
    }
    if bins.is_empty() {
        if out.len() == before {
            out.push(Diagnostic::new(file, format!("{pointer}/bins"), "a table needs at least one bin"));
        }
        return None;
    }
    // Bins are written in order; tiling is checked in that order so messages point at the bin.
    let table = RangeTable::new(t.id.clone(), t.input.round, bins);
    for (i, msg) in table.check_tiling() {
        out.push(Diagnostic::new(file, format!("{pointer}/bins/{i}"), msg));
    }
    // A flawed table is still registered (the revision is rejected anyway) so that expressions
    // calling it do not report a second, misleading "missing table".
    Some(TableInfo {
        id: t.id,
        label: t.label,
        input_label: t.input.label,
        unit: t.input.unit,
        scale: t.scale,
        source: format!("{file}#{pointer}"),
        bin_labels,
        kind: TableKind::Range(Arc::new(table)),
    })
}

fn curve(file: &str, pointer: &str, c: CurveDoc, out: &mut Vec<Diagnostic>) -> Option<TableInfo> {
    let before = out.len();
    if c.points.len() < 2 {
        out.push(Diagnostic::new(file, format!("{pointer}/points"), "a curve needs at least two points"));
    }
    for (i, w) in c.points.windows(2).enumerate() {
        if w[1][0] <= w[0][0] {
            out.push(Diagnostic::new(
                file,
                format!("{pointer}/points/{}", i + 1),
                "curve points must have increasing x",
            ));
        }
    }
    for (i, p) in c.points.iter().enumerate() {
        if p[1] < c.scale[0] || p[1] > c.scale[1] {
            out.push(Diagnostic::new(
                file,
                format!("{pointer}/points/{i}"),
                format!("value {} is outside the curve's declared scale [{}, {}]", p[1], c.scale[0], c.scale[1]),
            ));
        }
    }
    if out.len() > before {
        return None;
    }
    Some(TableInfo {
        id: c.id.clone(),
        label: c.label,
        input_label: c.input.label,
        unit: c.input.unit,
        scale: c.scale,
        source: format!("{file}#{pointer}"),
        bin_labels: Vec::new(),
        kind: TableKind::Curve(Arc::new(Curve { id: c.id, points: c.points.iter().map(|p| (p[0], p[1])).collect() })),
    })
}

struct Env<'a> {
    vars: &'a [Variable],
    var_index: &'a BTreeMap<String, usize>,
    params: &'a [Param],
    param_index: &'a BTreeMap<String, usize>,
    lookups: &'a Lookups,
    /// How every pipeline expression compiled so far reads each variable.
    table_reads: RefCell<TableReads>,
}

/// Per variable: the tables it is read through as their whole argument (`table(x)`), and
/// whether any expression reads it otherwise. Explanation probes do not count: they are only
/// evaluated to show a table's input.
#[derive(Default)]
struct TableReads {
    through: BTreeMap<usize, BTreeSet<String>>,
    raw: BTreeSet<usize>,
}

impl TableReads {
    fn record(&mut self, ast: &Ast, env: &Env, locals: &[String]) {
        let slot = |name: &str| if locals.iter().any(|l| l == name) { None } else { env.var_index.get(name).copied() };
        match ast {
            Ast::Call(name, args) if args.len() == 1 && env.lookups.contains_key(name) => {
                if let Ast::Var(v) = &args[0]
                    && let Some(i) = slot(v)
                {
                    self.through.entry(i).or_default().insert(name.clone());
                } else {
                    self.record(&args[0], env, locals);
                }
            }
            Ast::Var(v) => {
                if let Some(i) = slot(v) {
                    self.raw.insert(i);
                }
            }
            Ast::Num(_) | Ast::Bool(_) => {}
            Ast::Neg(a) | Ast::Not(a) => self.record(a, env, locals),
            Ast::Bin(_, a, b) => {
                self.record(a, env, locals);
                self.record(b, env, locals);
            }
            Ast::Call(_, args) => args.iter().for_each(|a| self.record(a, env, locals)),
        }
    }

    /// [`Ruleset::table_bounds`]: for each variable, the upper ends of the bins of every range
    /// table it is read through, when those tables (not rounding their input) are its only
    /// readers; `None` otherwise.
    fn bounds(self, n: usize, tables: &[TableInfo], index: &BTreeMap<String, usize>) -> Vec<Option<Vec<f64>>> {
        (0..n)
            .map(|i| {
                if self.raw.contains(&i) {
                    return None;
                }
                let mut ends = Vec::new();
                for name in self.through.get(&i).into_iter().flatten() {
                    let t = tables[*index.get(name)?].range()?;
                    if t.round_input {
                        return None;
                    }
                    ends.extend(t.ends()?);
                }
                ends.sort_by(f64::total_cmp);
                ends.dedup();
                Some(ends)
            })
            .collect()
    }
}

/// The names visible to one expression: the pipeline's locals so far, then variables, then params.
struct PipelineScope<'a> {
    env: &'a Env<'a>,
    locals: &'a [String],
}

impl Scope for PipelineScope<'_> {
    fn variable(&self, name: &str) -> Option<Slot> {
        if let Some(i) = self.locals.iter().position(|l| l == name) {
            return Some(Slot::Local(i));
        }
        if let Some(&i) = self.env.var_index.get(name) {
            return Some(Slot::Input(i));
        }
        self.env.param_index.get(name).map(|&i| Slot::Const(self.env.params[i].value))
    }
    fn function(&self, name: &str) -> Option<Arc<dyn Lookup>> {
        self.env.lookups.get(name).cloned()
    }
    fn variable_names(&self) -> Vec<String> {
        self.locals
            .iter()
            .cloned()
            .chain(self.env.vars.iter().map(|v| v.id.clone()))
            .chain(self.env.params.iter().map(|p| p.id.clone()))
            .collect()
    }
    fn function_names(&self) -> Vec<String> {
        self.env.lookups.keys().cloned().collect()
    }
}

struct PipelineCtx<'a> {
    env: &'a Env<'a>,
    library: &'a BTreeMap<String, Located<StageDoc>>,
    kind: PipelineKind,
    res: &'a ResolutionDoc,
    difficulty: Option<&'a Ast>,
    res_file: &'a str,
    odds: &'a Arc<Odds>,
}

/// What one stage reads: vocabulary slots, and named values of its pipeline (by local index).
#[derive(Default)]
struct Reads {
    inputs: BTreeSet<usize>,
    locals: BTreeSet<usize>,
}

impl Reads {
    /// The slots the stage depends on, directly or through the named values it reads.
    /// The slots read directly or through the given named values (the pipeline's `let`s).
    fn direct(&self, local_deps: &[Vec<usize>], lets: &[usize]) -> Vec<usize> {
        let mut all = self.inputs.clone();
        for l in self.locals.iter().filter(|l| lets.contains(l)) {
            all.extend(local_deps.get(*l).into_iter().flatten());
        }
        all.into_iter().collect()
    }

    fn depends_on(&self, local_deps: &[Vec<usize>]) -> Vec<usize> {
        let mut all = self.inputs.clone();
        for &l in &self.locals {
            all.extend(local_deps.get(l).into_iter().flatten());
        }
        all.into_iter().collect()
    }
}

/// Collects the variable slots and named values read by an expression.
fn record_inputs(ast: &Ast, env: &Env, locals: &[String], reads: &mut Reads) {
    for name in ast.variables() {
        if let Some(l) = locals.iter().position(|l| l == name) {
            reads.locals.insert(l);
        } else if let Some(&i) = env.var_index.get(name) {
            reads.inputs.insert(i);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn compile_expr(
    text: &str,
    file: &str,
    pointer: &str,
    scope: &PipelineScope,
    reads: &mut Reads,
    out: &mut Vec<Diagnostic>,
    context: &str,
    probe: bool,
) -> Option<expr::Compiled> {
    let ast = match expr::parse(text) {
        Ok(a) => a,
        Err(e) => {
            out.push(Diagnostic::new(file, pointer, format!("{context}{e}")));
            return None;
        }
    };
    record_inputs(&ast, scope.env, scope.locals, reads);
    if !probe {
        scope.env.table_reads.borrow_mut().record(&ast, scope.env, scope.locals);
    }
    match expr::compile(&ast, scope) {
        Ok(c) => Some(c),
        Err(e) => {
            out.push(Diagnostic::new(file, pointer, format!("{context}{}", describe(&e))));
            None
        }
    }
}

fn describe(e: &CompileError) -> String {
    e.to_string()
}

fn compile_pipeline(
    ctx: &PipelineCtx,
    loc: &Located<PipelineDoc>,
    nodes: &mut Vec<DepNode>,
    out: &mut Vec<Diagnostic>,
) -> Option<Pipeline> {
    let p = &loc.item;
    let (file, ptr) = (loc.file.as_str(), loc.pointer.as_str());
    let before = out.len();
    let env = ctx.env;
    let mut locals: Vec<String> = Vec::new();
    let mut reads = BTreeSet::new();
    // Per named value (local index): the slots it depends on, for `Stage::depends_on`.
    let mut local_deps: Vec<Vec<usize>> = Vec::new();

    let output = match (&p.output, ctx.kind) {
        (Some(o), PipelineKind::Derived) => match env.var_index.get(o) {
            Some(&i) => Some(i),
            None => {
                out.push(Diagnostic::new(file, format!("{ptr}/output"), format!("'{o}' is not a vocabulary variable")));
                None
            }
        },
        (Some(_), PipelineKind::Action) => {
            out.push(Diagnostic::new(
                file,
                format!("{ptr}/output"),
                "action pipelines have no output variable; move it to \"derived\"",
            ));
            None
        }
        (None, _) => None,
    };

    let claim_local = |id: &str, pointer: &str, locals: &mut Vec<String>, out: &mut Vec<Diagnostic>| -> usize {
        if locals.iter().any(|l| l == id) {
            out.push(Diagnostic::new(file, pointer, format!("'{id}' is defined twice in pipeline '{}'", p.id)));
        } else if env.var_index.contains_key(id) || env.param_index.contains_key(id) {
            out.push(Diagnostic::new(
                file,
                pointer,
                format!("'{id}' would hide the variable or parameter of that name"),
            ));
        }
        locals.push(id.to_string());
        locals.len() - 1
    };

    let modifier_docs = p.modifiers.iter().filter_map(|m| match m {
        ModifierRef::Named(name) => ctx.library.get(name).map(|l| &l.item),
        ModifierRef::Inline(doc) => Some(doc),
    });
    let running_local = if modifier_docs.into_iter().any(reads_running) {
        let slot = claim_local(RUNNING, ptr, &mut locals, out);
        local_deps.resize(slot + 1, Vec::new());
        Some(slot)
    } else {
        None
    };
    for (i, l) in p.lets.iter().enumerate() {
        if running_local.is_some() && expr::parse(&l.expr).is_ok_and(|a| a.variables().contains(&RUNNING)) {
            out.push(Diagnostic::new(
                file,
                format!("{ptr}/let/{i}/expr"),
                "'running' (the value before a modifier) is only defined in modifiers",
            ));
        }
    }
    if running_local.is_some() && reads_running(&p.base) {
        out.push(Diagnostic::new(
            file,
            format!("{ptr}/base"),
            "'running' (the value before a modifier) is only defined in modifiers",
        ));
    }

    let mut lets = Vec::new();
    let mut let_slots: Vec<usize> = Vec::new();
    for (i, l) in p.lets.iter().enumerate() {
        let lp = format!("{ptr}/let/{i}");
        let scope = PipelineScope { env, locals: &locals };
        let mut r = Reads::default();
        let compiled = compile_expr(&l.expr, file, &format!("{lp}/expr"), &scope, &mut r, out, "", false);
        let slot = claim_local(&l.id, &format!("{lp}/id"), &mut locals, out);
        let depends_on = r.depends_on(&local_deps);
        let_slots.push(slot);
        reads.extend(r.inputs);
        local_deps.resize(slot + 1, Vec::new());
        local_deps[slot] = depends_on.clone();
        if let Some(expr) = compiled {
            lets.push(Stage {
                id: l.id.clone(),
                label: l.label.clone(),
                op: Op::Add,
                expr,
                probe: None,
                table: None,
                local: slot,
                reads: depends_on.clone(),
                depends_on,
                source: format!("{file}#{lp}"),
            });
        }
    }

    let mut requires = Vec::new();
    for (i, r) in p.requires.iter().enumerate() {
        let rp = format!("{ptr}/requires/{i}/expr");
        let scope = PipelineScope { env, locals: &locals };
        match expr::parse(&r.expr) {
            Ok(ast) => {
                let mut rr = Reads::default();
                record_inputs(&ast, env, &locals, &mut rr);
                env.table_reads.borrow_mut().record(&ast, env, &locals);
                reads.extend(rr.inputs);
                match expr::compile_condition(&ast, &scope) {
                    Ok(cond) => requires.push(Require {
                        id: r.id.clone(),
                        label: r.label.clone(),
                        cond,
                        source: format!("{file}#{ptr}/requires/{i}"),
                    }),
                    Err(e) => out.push(Diagnostic::new(file, &rp, describe(&e))),
                }
            }
            Err(e) => out.push(Diagnostic::new(file, &rp, e.to_string())),
        }
    }

    let mut claim_stage =
        |mut s: Stage, r: Reads, pointer: &str, locals: &mut Vec<String>, out: &mut Vec<Diagnostic>| {
            s.local = claim_local(&s.id.clone(), pointer, locals, out);
            s.depends_on = r.depends_on(&local_deps);
            s.reads = r.direct(&local_deps, &let_slots);
            reads.extend(r.inputs);
            local_deps.resize(s.local + 1, Vec::new());
            local_deps[s.local] = s.depends_on.clone();
            // The value before the next stage depends on everything up to this one.
            if let Some(rl) = running_local {
                let mut all: BTreeSet<usize> = local_deps[rl].iter().copied().collect();
                all.extend(s.depends_on.iter().copied());
                local_deps[rl] = all.into_iter().collect();
            }
            s
        };

    // What stages that failed to compile read: still edges of the derived-value graph.
    let mut failed_reads: BTreeSet<usize> = BTreeSet::new();
    let mut r = Reads::default();
    let base = match stage(ctx, &p.base, file, &format!("{ptr}/base"), BASE, &locals, &mut r, out, "") {
        Some(s) => Some(claim_stage(s, r, &format!("{ptr}/base"), &mut locals, out)),
        None => {
            failed_reads.extend(r.inputs);
            None
        }
    };

    let mut modifiers = Vec::new();
    for (i, m) in p.modifiers.iter().enumerate() {
        let mp = format!("{ptr}/modifiers/{i}");
        let (doc, sfile, spointer, context) = match m {
            ModifierRef::Named(name) => match ctx.library.get(name) {
                Some(l) => (&l.item, l.file.as_str(), l.pointer.clone(), format!("(in pipeline '{}') ", p.id)),
                None => {
                    let hint = crate::expr::Hint(
                        ctx.library
                            .keys()
                            .map(|k| (strsim::damerau_levenshtein(name, k), k))
                            .filter(|(d, _)| *d <= 2)
                            .min()
                            .map(|(_, k)| k.clone()),
                    );
                    out.push(Diagnostic::new(file, &mp, format!("unknown modifier '{name}'{hint}")));
                    continue;
                }
            },
            ModifierRef::Inline(doc) => (doc, file, mp.clone(), String::new()),
        };
        let Some(id) = doc.id.clone() else {
            out.push(Diagnostic::new(sfile, &spointer, "a modifier needs an id"));
            continue;
        };
        let mut r = Reads::default();
        match stage(ctx, doc, sfile, &spointer, &id, &locals, &mut r, out, &context) {
            Some(s) => modifiers.push(claim_stage(s, r, &mp, &mut locals, out)),
            None => failed_reads.extend(r.inputs),
        }
    }

    let value_local = claim_local(VALUE, ptr, &mut locals, out);

    let clamp = match (p.clamp, ctx.kind) {
        (Some(c), _) => Some((c[0], c[1])),
        (None, PipelineKind::Action) => Some((ctx.res.clamp[0], ctx.res.clamp[1])),
        (None, PipelineKind::Derived) => None,
    };
    // An inherited resolution clamp is checked once, at /resolution/clamp.
    if let Some([lo, hi]) = p.clamp
        && lo > hi
    {
        out.push(Diagnostic::new(file, format!("{ptr}/clamp"), "clamp minimum above maximum"));
    }
    if let (Some(o), Some((lo, hi))) = (output, clamp) {
        let v = &env.vars[o];
        if lo < v.min || hi > v.max {
            out.push(Diagnostic::new(
                file,
                format!("{ptr}/clamp"),
                format!("clamp [{lo}, {hi}] exceeds the scale of '{}' [{}, {}]", v.id, v.min, v.max),
            ));
        }
    }

    let difficulty = match (ctx.kind, ctx.difficulty) {
        (PipelineKind::Action, Some(ast)) => {
            let scope = PipelineScope { env, locals: &locals };
            env.table_reads.borrow_mut().record(ast, env, &locals);
            match expr::compile(ast, &scope) {
                Ok(c) => Some(c),
                Err(e) => {
                    out.push(Diagnostic::new(ctx.res_file, "/resolution/difficulty", describe(&e)));
                    None
                }
            }
        }
        _ => None,
    };

    if locals.len() > MAX_LOCALS {
        out.push(Diagnostic::new(
            file,
            ptr,
            format!("pipeline '{}' uses {} named values; at most {MAX_LOCALS}", p.id, locals.len()),
        ));
    }
    nodes.push(DepNode {
        id: p.id.clone(),
        output,
        inputs: reads.union(&failed_reads).copied().collect(),
        source: format!("{file}#{ptr}"),
    });
    if out.len() > before {
        return None;
    }
    Some(Pipeline {
        id: p.id.clone(),
        label: p.label.clone(),
        kind: ctx.kind,
        output,
        lets,
        requires,
        base: base?,
        modifiers,
        clamp,
        difficulty,
        fractional: ctx.res.fractional,
        difficulty_source: format!("{}#/resolution/difficulty", ctx.res_file),
        value_local,
        running_local,
        n_locals: locals.len(),
        inputs: reads.into_iter().collect(),
        source: format!("{file}#{ptr}"),
        odds: ctx.odds.clone(),
    })
}

#[allow(clippy::too_many_arguments)]
fn stage(
    ctx: &PipelineCtx,
    doc: &StageDoc,
    file: &str,
    pointer: &str,
    id: &str,
    locals: &[String],
    reads: &mut Reads,
    out: &mut Vec<Diagnostic>,
    context: &str,
) -> Option<Stage> {
    let scope = PipelineScope { env: ctx.env, locals };
    match (&doc.expr, &doc.table, &doc.input) {
        (Some(e), None, None) => {
            let expr = compile_expr(e, file, &format!("{pointer}/expr"), &scope, reads, out, context, false)?;
            Some(Stage {
                id: id.into(),
                label: doc.label.clone(),
                op: doc.op,
                expr,
                probe: None,
                table: None,
                local: 0,
                depends_on: Vec::new(),
                reads: Vec::new(),
                source: format!("{file}#{pointer}"),
            })
        }
        (None, Some(t), Some(input)) => {
            if !ctx.env.lookups.contains_key(t) {
                let hint = crate::expr::Hint(
                    ctx.env
                        .lookups
                        .keys()
                        .map(|k| (strsim::damerau_levenshtein(t, k), k))
                        .filter(|(d, _)| *d <= 2)
                        .min()
                        .map(|(_, k)| k.clone()),
                );
                out.push(Diagnostic::new(
                    file,
                    format!("{pointer}/table"),
                    format!("{context}stage names missing table '{t}'{hint}"),
                ));
                return None;
            }
            let probe = compile_expr(input, file, &format!("{pointer}/input"), &scope, reads, out, context, true)?;
            let text = format!("{t}({input})");
            let expr = compile_expr(&text, file, &format!("{pointer}/input"), &scope, reads, out, context, false)?;
            Some(Stage {
                id: id.into(),
                label: doc.label.clone(),
                op: doc.op,
                expr,
                probe: Some(probe),
                table: Some(t.clone()),
                local: 0,
                depends_on: Vec::new(),
                reads: Vec::new(),
                source: format!("{file}#{pointer}"),
            })
        }
        _ => {
            out.push(Diagnostic::new(file, pointer, "a stage has either \"expr\", or \"table\" with \"input\""));
            None
        }
    }
}

/// A pipeline as the derived-value graph sees it: what it computes and what it reads.
struct DepNode {
    id: String,
    output: Option<usize>,
    inputs: Vec<usize>,
    source: String,
}

/// Topological order of derived pipelines with outputs; reports cycles. Nodes are the
/// pipelines in declaration order; when no pipeline failed they are indexed as the compiled ones.
fn order_derived(nodes: &[DepNode], vars: &[Variable], out: &mut Vec<Diagnostic>) -> Vec<usize> {
    let mut outputs: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, n) in nodes.iter().enumerate() {
        if let Some(o) = n.output {
            outputs.entry(o).or_insert(i);
        }
    }
    let outputs = &outputs;
    let mut t = Topo {
        pipelines: nodes,
        outputs,
        vars,
        marks: vec![Mark::New; nodes.len()],
        stack: Vec::new(),
        order: Vec::new(),
        out,
    };
    for &p in outputs.values() {
        t.visit(p);
    }
    t.order
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    New,
    Active,
    Done,
}

struct Topo<'a> {
    pipelines: &'a [DepNode],
    outputs: &'a BTreeMap<usize, usize>,
    vars: &'a [Variable],
    marks: Vec<Mark>,
    stack: Vec<usize>,
    order: Vec<usize>,
    out: &'a mut Vec<Diagnostic>,
}

impl Topo<'_> {
    fn name(&self, p: usize) -> String {
        let pl = &self.pipelines[p];
        pl.output.map(|o| self.vars[o].id.clone()).unwrap_or_else(|| pl.id.clone())
    }

    fn visit(&mut self, p: usize) {
        match self.marks[p] {
            Mark::Done => return,
            Mark::Active => {
                let start = self.stack.iter().position(|&s| s == p).unwrap_or(0);
                let mut names: Vec<String> = self.stack[start..].iter().map(|&s| self.name(s)).collect();
                names.push(names[0].clone());
                let (file, pointer) = split_source(&self.pipelines[p].source);
                self.out.push(Diagnostic::new(
                    file,
                    pointer,
                    format!("cycle between derived values: {}", names.join(" → ")),
                ));
                return;
            }
            Mark::New => {}
        }
        self.marks[p] = Mark::Active;
        self.stack.push(p);
        for &input in &self.pipelines[p].inputs {
            if let Some(&q) = self.outputs.get(&input) {
                self.visit(q);
            }
        }
        self.stack.pop();
        self.marks[p] = Mark::Done;
        self.order.push(p);
    }
}
