//! Parameter domains: which values each parameter may take, declared in content.
//!
//! The problem: a parameter that passes the schema (any number) can still crash or hang the
//! engine — a negative pitch, a billion halves, a free level of 10⁹. The decision: every
//! parameter declares `"domain": {"min", "max", "integer"}` in `params.json`; a bound is a number
//! or an expression over other parameters, evaluated with their values, so relations (min ≤ max,
//! inside the pitch, a clock that ends) are domains too. A value outside its domain is refused at
//! `params.json#/params/N/value` by every command that compiles the revision, `validate` and the
//! scenario-overlay checks included. Drafts, and revisions that declare any domain, must declare
//! one for every parameter.
//!
//! Revisions published before domains existed cannot change (their fingerprints are recorded).
//! They borrow: `validate` checks them, and every scenario overlay over them, against the domains
//! of the oldest published revision that declares domains (Microfut 0.5.5), parameter by id
//! ([`legacy_source`]). A borrowed bound naming a parameter the older revision lacks is skipped.
//! Commands that merely play a published revision do not need the borrowed domains: its values
//! were checked when it was validated and its fingerprint pins them.
//!
//! Limits: a domain is one closed interval (with an optional integer constraint); a rule such as
//! "0 or 1" is written as [0, 1] with `integer`.

use super::Param;
use super::doc::ParamsDoc;
use crate::catalog::{Diagnostic, Revision, RulesetEntry, Status, declared_schema};
use crate::expr::{self, Frame, Lookup, Scope, Slot};

use std::collections::BTreeMap;
use std::sync::Arc;

const SCHEMA: &str = "params.schema.json";

pub use super::doc::{Bound, Domain};

/// Domains a revision without its own borrows: those of a later published revision.
#[derive(Debug, Clone)]
pub struct LegacyDomains {
    /// `microfut 0.5.5`
    pub revision: String,
    /// Parameter id → (domain, `file#pointer` where it is declared).
    pub domains: BTreeMap<String, (Domain, String)>,
}

/// Where a revision's domains come from when it is compiled.
#[derive(Debug, Clone, Copy)]
pub enum Policy<'a> {
    /// Its own: required of drafts and of revisions that declare any; a published revision that
    /// declares none is not checked (its values were checked when it was validated).
    Own,
    /// A published revision that predates domains, checked against a later one's.
    Borrowed(&'a LegacyDomains),
}

/// Each `params.json` parameter's declared domain, by id, with its source.
fn declared(rev: &Revision) -> Vec<(String, Option<Domain>, String)> {
    let mut out = Vec::new();
    for (name, value) in &rev.documents {
        if declared_schema(value) != Some(SCHEMA) {
            continue;
        }
        let Some(params) = value.get("params").and_then(|p| p.as_array()) else { continue };
        for (i, p) in params.iter().enumerate() {
            let id = p.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
            let domain = p.get("domain").and_then(|d| serde_json::from_value::<Domain>(d.clone()).ok());
            out.push((id, domain, format!("{}#/params/{i}/domain", rev.file(name))));
        }
    }
    out
}

/// Whether any parameter of the revision declares a domain.
pub fn declares_domains(rev: &Revision) -> bool {
    declared(rev).iter().any(|(_, d, _)| d.is_some())
}

/// The domains a published revision that declares none is checked against: those of the oldest
/// published revision of its ruleset that declares domains, when that one is newer. `None` for
/// every other revision (drafts and revisions with domains use their own).
pub fn legacy_source(entry: &RulesetEntry, rev: &Revision) -> Option<LegacyDomains> {
    if rev.status() != Some(Status::Published) || declares_domains(rev) {
        return None;
    }
    let source = entry
        .revisions
        .values()
        .find(|r| r.status() == Some(Status::Published) && r.diagnostics.is_empty() && declares_domains(r))?;
    if source.version <= rev.version {
        return None;
    }
    let domains =
        declared(source).into_iter().filter_map(|(id, d, src)| d.map(|d| (id, (d, src)))).collect::<BTreeMap<_, _>>();
    Some(LegacyDomains { revision: source.label(), domains })
}

/// Published revisions that declare no domain although an older published revision does:
/// nothing may be published without them from then on.
pub fn missing_after_source(entry: &RulesetEntry, rev: &Revision) -> Vec<Diagnostic> {
    if rev.status() != Some(Status::Published) || declares_domains(rev) {
        return Vec::new();
    }
    let Some(source) = entry
        .revisions
        .values()
        .find(|r| r.status() == Some(Status::Published) && r.diagnostics.is_empty() && declares_domains(r))
    else {
        return Vec::new();
    };
    if source.version >= rev.version {
        return Vec::new();
    }
    declared(rev)
        .into_iter()
        .map(|(id, _, src)| {
            let (file, pointer) = super::doc::split_source(&src);
            let pointer = pointer.strip_suffix("/domain").unwrap_or(pointer);
            Diagnostic::new(
                file,
                pointer,
                undeclared_message(&id, &format!("{} is newer than {}", rev.label(), source.label())),
            )
        })
        .collect()
}

fn undeclared_message(id: &str, why: &str) -> String {
    format!(
        "parameter '{id}' declares no domain ({why}): give it \"domain\": {{\"min\": …, \"max\": …}} — numbers or expressions over other parameters — so validate can refuse values the engine cannot play"
    )
}

/// A parameter id, its domain's bounds as evaluated (`None`: a bound failed), whether integer.
type Evaluated = (String, Option<(f64, f64)>, bool);

/// Bound expressions see the parameters as constants and nothing else.
struct ParamScope<'a> {
    params: &'a [Param],
    index: &'a BTreeMap<String, usize>,
}

impl Scope for ParamScope<'_> {
    fn variable(&self, name: &str) -> Option<Slot> {
        self.index.get(name).map(|&i| Slot::Const(self.params[i].value))
    }
    fn function(&self, _: &str) -> Option<Arc<dyn Lookup>> {
        None
    }
    fn variable_names(&self) -> Vec<String> {
        self.params.iter().map(|p| p.id.clone()).collect()
    }
    fn function_names(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A bound's value; `Ok(None)` when a borrowed bound names a parameter this revision lacks.
fn evaluate(bound: &Bound, scope: &ParamScope, borrowed: bool) -> Result<Option<f64>, String> {
    let text = match bound {
        Bound::Number(n) => return Ok(Some(*n)),
        Bound::Expr(e) => e,
    };
    let ast = expr::parse(text).map_err(|e| e.to_string())?;
    if borrowed && ast.variables().iter().any(|v| !scope.index.contains_key(*v)) {
        return Ok(None);
    }
    let compiled = expr::compile(&ast, scope).map_err(|e| e.to_string())?;
    let v = compiled.eval(&Frame { inputs: &[], locals: &[] });
    if v.is_finite() {
        Ok(Some(v))
    } else {
        Err(format!("'{}' is {v} with this revision's parameters", expr::excerpt(text)))
    }
}

/// Checks every parameter's value against its domain. `docs` are the revision's params
/// documents (file, document) in the order their parameters were registered in `params`.
pub(super) fn check(
    rev: &Revision,
    docs: &[(String, ParamsDoc)],
    params: &mut [Param],
    index: &BTreeMap<String, usize>,
    policy: Policy,
    out: &mut Vec<Diagnostic>,
) {
    let own = declares_domains(rev) || rev.status() != Some(Status::Published);
    let legacy = match policy {
        Policy::Own if !own => return,
        Policy::Own => None,
        Policy::Borrowed(l) if !own => Some(l),
        Policy::Borrowed(_) => None,
    };
    let mut evaluated: Vec<Evaluated> = Vec::new();
    let scope = ParamScope { params, index };
    for (file, doc) in docs {
        for (i, p) in doc.params.iter().enumerate() {
            let at = format!("/params/{i}");
            let (domain, whose, domain_file, domain_pointer) = match (&p.domain, legacy) {
                (Some(d), None) => (d.clone(), String::new(), file.clone(), format!("{at}/domain")),
                (None, None) => {
                    let why = if rev.status() == Some(Status::Published) {
                        "other parameters of this revision declare theirs"
                    } else {
                        "every parameter of a draft needs one"
                    };
                    out.push(Diagnostic::new(file, &at, undeclared_message(&p.id, why)));
                    continue;
                }
                (_, Some(l)) => match l.domains.get(&p.id) {
                    Some((d, src)) => {
                        let (f, ptr) = super::doc::split_source(src);
                        (
                            d.clone(),
                            format!(" (the domain {} declares; {} predates domains)", l.revision, rev.label()),
                            f.to_string(),
                            ptr.to_string(),
                        )
                    }
                    None => continue,
                },
            };
            let borrowed = legacy.is_some();
            let mut bound = |b: &Bound, key: &str| match evaluate(b, &scope, borrowed) {
                Ok(v) => v,
                Err(e) => {
                    out.push(Diagnostic::new(
                        &domain_file,
                        format!("{domain_pointer}/{key}"),
                        format!("domain {key} of '{}': {e}", p.id),
                    ));
                    None
                }
            };
            let (lo, hi) = (bound(&domain.min, "min"), bound(&domain.max, "max"));
            evaluated.push((p.id.clone(), lo.zip(hi), domain.integer));
            let v = p.value;
            let show = |b: &Bound, x: f64| match b {
                Bound::Number(_) => format!("{x}"),
                Bound::Expr(e) => format!("{e} = {x}"),
            };
            if let Some(lo) = lo
                && v < lo
            {
                out.push(Diagnostic::new(
                    file,
                    format!("{at}/value"),
                    format!("'{}' is {v}, below its minimum {}{whose}", p.id, show(&domain.min, lo)),
                ));
            }
            if let Some(hi) = hi
                && v > hi
            {
                out.push(Diagnostic::new(
                    file,
                    format!("{at}/value"),
                    format!("'{}' is {v}, above its maximum {}{whose}", p.id, show(&domain.max, hi)),
                ));
            }
            if domain.integer && v.fract() != 0.0 {
                out.push(Diagnostic::new(
                    file,
                    format!("{at}/value"),
                    format!("'{}' is {v}; its domain holds whole numbers only{whose}", p.id),
                ));
            }
        }
    }
    for (id, range, integer) in evaluated {
        if let Some(&i) = index.get(&id) {
            params[i].domain = range;
            params[i].integer = integer;
        }
    }
}

/// A scenario changes values, not domains: what the engine can play is the revision's to say.
/// Problems are located in the patched document (the scenario check moves them to the overlay).
pub fn changed_by(original: &Revision, patched: &Revision) -> Vec<Diagnostic> {
    let before: BTreeMap<String, Option<Domain>> = declared(original).into_iter().map(|(id, d, _)| (id, d)).collect();
    declared(patched)
        .into_iter()
        .filter(|(id, d, _)| match before.get(id) {
            Some(old) => old != d,
            // A parameter the overlay adds declares its own domain (checked with the others).
            None => false,
        })
        .map(|(id, _, src)| {
            let (file, pointer) = super::doc::split_source(&src);
            Diagnostic::new(
                file,
                pointer,
                format!("a scenario changes parameter values, not their domains ('{id}'); widen the domain in the revision itself"),
            )
        })
        .collect()
}
