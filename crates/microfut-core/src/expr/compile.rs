//! Lowering of [`Ast`] into slot-indexed closures.
//!
//! Names are resolved once, here, into input slots, local slots or constants; the closures read
//! `f64`s from two slices and never allocate or look a string up. Leaves (constants and slot
//! reads) are fused into their parent operator so a formula like `0.45*dx + 0.55*res` costs a
//! handful of indirect calls, not one per node.

use super::ast::{Ast, BinOp};
use super::builtins::{self, Builtin};
use std::fmt;
use std::sync::Arc;

/// The values an expression reads: the ruleset-wide inputs and the pipeline's own locals.
#[derive(Clone, Copy)]
pub struct Frame<'a> {
    pub inputs: &'a [f64],
    pub locals: &'a [f64],
}

/// What a name means to the compiler.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Slot {
    Input(usize),
    Local(usize),
    Const(f64),
}

/// A function supplied by content: a range table or a curve (one argument), or a formula.
pub trait Lookup: Send + Sync {
    fn lookup(&self, x: f64) -> f64;
    /// How many arguments it takes; at most [`MAX_ARGS`].
    fn arity(&self) -> usize {
        1
    }
    /// Calls it with `arity()` arguments.
    fn call(&self, args: &[f64]) -> f64 {
        self.lookup(args[0])
    }
}

/// The most arguments a content function takes: calls keep them on the stack.
pub const MAX_ARGS: usize = 4;

/// Resolves names while compiling. Implemented by the ruleset compiler.
pub trait Scope {
    fn variable(&self, name: &str) -> Option<Slot>;
    fn function(&self, name: &str) -> Option<Arc<dyn Lookup>>;
    /// Names offered in "did you mean" hints.
    fn variable_names(&self) -> Vec<String>;
    fn function_names(&self) -> Vec<String>;
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompileError {
    #[error("unknown variable '{name}'{hint}")]
    UnknownVariable { name: String, hint: Hint },
    #[error("unknown function or table '{name}'{hint}")]
    UnknownFunction { name: String, hint: Hint },
    #[error("{name}() takes {expected} argument(s), got {got}")]
    Arity { name: String, expected: String, got: usize },
    #[error("{0}")]
    Type(String),
}

/// A "did you mean" suffix, empty when nothing is close.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Hint(pub Option<String>);

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(s) => write!(f, " (did you mean '{s}'?)"),
            None => Ok(()),
        }
    }
}

fn hint(name: &str, candidates: Vec<String>) -> Hint {
    let best = candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(name, &c), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 4))
        .min();
    Hint(best.map(|(_, c)| c))
}

pub type NumFn = Box<dyn Fn(&Frame) -> f64 + Send + Sync>;
pub type BoolFn = Box<dyn Fn(&Frame) -> bool + Send + Sync>;

/// A compiled numeric expression.
pub struct Compiled {
    f: NumFn,
    constant: Option<f64>,
}

impl Compiled {
    #[inline]
    pub fn eval(&self, frame: &Frame) -> f64 {
        (self.f)(frame)
    }
    /// The value when the expression reads no slot (folded at compile time).
    pub fn constant(&self) -> Option<f64> {
        self.constant
    }
}

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.constant {
            Some(c) => write!(f, "Compiled(const {c})"),
            None => f.write_str("Compiled(..)"),
        }
    }
}

/// Compiles a numeric expression. A boolean expression is refused: content stages produce numbers.
pub fn compile(ast: &Ast, scope: &dyn Scope) -> Result<Compiled, CompileError> {
    let node = num(ast, scope)?;
    let constant = match node {
        Num::Const(c) => Some(c),
        _ => None,
    };
    Ok(Compiled { f: node.boxed(), constant })
}

/// A compiled condition (`requires` clauses).
pub struct Condition {
    f: BoolFn,
}

impl Condition {
    #[inline]
    pub fn holds(&self, frame: &Frame) -> bool {
        (self.f)(frame)
    }
}

/// Compiles a condition.
pub fn compile_condition(ast: &Ast, scope: &dyn Scope) -> Result<Condition, CompileError> {
    Ok(Condition { f: boolean(ast, scope)?.boxed() })
}

enum Num {
    Const(f64),
    In(usize),
    Loc(usize),
    /// An affine form: most of the rules document's formulas are one, or one under a rounding.
    Lin(Lin),
    F(NumFn),
}

impl Num {
    fn boxed(self) -> NumFn {
        match self {
            Num::Const(c) => Box::new(move |_| c),
            Num::In(i) => Box::new(move |f| f.inputs[i]),
            Num::Loc(i) => Box::new(move |f| f.locals[i]),
            Num::Lin(l) => l.boxed_with(|x| x),
            Num::F(f) => f,
        }
    }

    fn into_lin(self) -> Lin {
        let one = |t| Lin { c: 0.0, terms: vec![(1.0, t)], div: 1.0 };
        match self {
            Num::Const(c) => Lin { c, terms: Vec::new(), div: 1.0 },
            Num::In(i) => one(Term::In(i)),
            Num::Loc(i) => one(Term::Loc(i)),
            Num::Lin(l) => l,
            Num::F(f) => one(Term::F(f)),
        }
    }
}

enum Term {
    In(usize),
    Loc(usize),
    F(NumFn),
}

impl Term {
    #[inline(always)]
    fn eval(&self, f: &Frame) -> f64 {
        match self {
            Term::In(i) => f.inputs[*i],
            Term::Loc(i) => f.locals[*i],
            Term::F(g) => g(f),
        }
    }
}

/// `(c + Σ kᵢ·tᵢ) / div`, summed in source order.
struct Lin {
    c: f64,
    terms: Vec<(f64, Term)>,
    div: f64,
}

impl Lin {
    fn simplify(self) -> Num {
        if self.terms.is_empty() {
            return Num::Const(self.c / self.div);
        }
        if self.c == 0.0 && self.div == 1.0 && self.terms.len() == 1 && self.terms[0].0 == 1.0 {
            return match self.terms.into_iter().next().expect("one term").1 {
                Term::In(i) => Num::In(i),
                Term::Loc(i) => Num::Loc(i),
                Term::F(f) => Num::F(f),
            };
        }
        Num::Lin(self)
    }

    /// A form with a divisor is wrapped whole before being added to, so divisors never mix.
    fn addend(self) -> Lin {
        if self.div == 1.0 { self } else { Num::F(self.boxed_with(|x| x)).into_lin() }
    }

    fn add(self, other: Lin, sign: f64) -> Num {
        let (mut a, b) = (self.addend(), other.addend());
        a.c += sign * b.c;
        a.terms.extend(b.terms.into_iter().map(|(k, t)| (sign * k, t)));
        a.simplify()
    }

    fn scale(mut self, k: f64) -> Num {
        self.c *= k;
        for (coef, _) in &mut self.terms {
            *coef *= k;
        }
        self.simplify()
    }

    /// One closure computing `op(form)`, unrolled for the usual sizes: no loop, no recursion.
    fn boxed_with<F>(self, op: F) -> NumFn
    where
        F: Fn(f64) -> f64 + Send + Sync + 'static,
    {
        let (c, div) = (self.c, self.div);
        let post = move |s: f64| op(if div == 1.0 { s } else { s / div });
        let mut terms = self.terms;
        let inputs: Option<Vec<(f64, usize)>> =
            terms.iter().map(|(k, t)| if let Term::In(i) = t { Some((*k, *i)) } else { None }).collect();
        match (inputs.as_deref(), terms.len()) {
            (Some(&[(k0, i0)]), _) => Box::new(move |f| post(c + k0 * f.inputs[i0])),
            (Some(&[(k0, i0), (k1, i1)]), _) => Box::new(move |f| post(c + k0 * f.inputs[i0] + k1 * f.inputs[i1])),
            (Some(&[(k0, i0), (k1, i1), (k2, i2)]), _) => {
                Box::new(move |f| post(c + k0 * f.inputs[i0] + k1 * f.inputs[i1] + k2 * f.inputs[i2]))
            }
            (_, 1) => {
                let (k0, t0) = terms.pop().expect("one term");
                Box::new(move |f| post(c + k0 * t0.eval(f)))
            }
            (_, 2) => {
                let (k1, t1) = terms.pop().expect("two terms");
                let (k0, t0) = terms.pop().expect("two terms");
                Box::new(move |f| post(c + k0 * t0.eval(f) + k1 * t1.eval(f)))
            }
            (_, 3) => {
                let (k2, t2) = terms.pop().expect("three terms");
                let (k1, t1) = terms.pop().expect("three terms");
                let (k0, t0) = terms.pop().expect("three terms");
                Box::new(move |f| post(c + k0 * t0.eval(f) + k1 * t1.eval(f) + k2 * t2.eval(f)))
            }
            _ => Box::new(move |f| {
                let mut s = c;
                for (k, t) in &terms {
                    s += k * t.eval(f);
                }
                post(s)
            }),
        }
    }
}

enum Bool {
    Const(bool),
    F(BoolFn),
}

impl Bool {
    fn boxed(self) -> BoolFn {
        match self {
            Bool::Const(c) => Box::new(move |_| c),
            Bool::F(f) => f,
        }
    }
}

fn is_bool(ast: &Ast) -> bool {
    match ast {
        Ast::Bool(_) | Ast::Not(_) => true,
        Ast::Bin(op, _, _) => op.is_comparison() || op.is_logical(),
        Ast::Call(name, args) => name == "if" && args.len() == 3 && is_bool(&args[1]),
        _ => false,
    }
}

fn num(ast: &Ast, scope: &dyn Scope) -> Result<Num, CompileError> {
    match ast {
        Ast::Num(v) => Ok(Num::Const(*v)),
        Ast::Bool(_) => Err(CompileError::Type("a boolean where a number was expected".into())),
        Ast::Var(name) => match scope.variable(name) {
            Some(Slot::Input(i)) => Ok(Num::In(i)),
            Some(Slot::Local(i)) => Ok(Num::Loc(i)),
            Some(Slot::Const(c)) => Ok(Num::Const(c)),
            None => Err(CompileError::UnknownVariable { name: name.clone(), hint: hint(name, scope.variable_names()) }),
        },
        Ast::Neg(a) => Ok(num(a, scope)?.into_lin().scale(-1.0)),
        Ast::Not(_) => Err(CompileError::Type("'!' gives a boolean where a number was expected".into())),
        Ast::Bin(op, a, b) => {
            if op.is_comparison() || op.is_logical() {
                return Err(CompileError::Type(format!(
                    "'{op}' gives a boolean where a number was expected (use if(cond, a, b))"
                )));
            }
            let (a, b) = (num(a, scope)?, num(b, scope)?);
            Ok(match (op, a, b) {
                (BinOp::Add, a, b) => a.into_lin().add(b.into_lin(), 1.0),
                (BinOp::Sub, a, b) => a.into_lin().add(b.into_lin(), -1.0),
                (BinOp::Mul, Num::Const(k), x) | (BinOp::Mul, x, Num::Const(k)) => x.into_lin().scale(k),
                (BinOp::Div, x, Num::Const(k)) if !matches!(x, Num::Const(_)) => {
                    let mut l = x.into_lin();
                    l.div *= k;
                    l.simplify()
                }
                (BinOp::Mul, a, b) => binary(a, b, |x, y| x * y),
                (BinOp::Div, a, b) => binary(a, b, |x, y| x / y),
                (BinOp::Rem, a, b) => binary(a, b, |x, y| x % y),
                (BinOp::Pow, a, b) => binary(a, b, libm::pow),
                _ => unreachable!("comparisons handled above"),
            })
        }
        Ast::Call(name, args) => call(name, args, scope),
    }
}

fn call(name: &str, args: &[Ast], scope: &dyn Scope) -> Result<Num, CompileError> {
    if let Some(b) = Builtin::by_name(name) {
        let (lo, hi) = b.arity();
        if args.len() < lo || hi.is_some_and(|h| args.len() > h) {
            let expected = match hi {
                Some(h) if h == lo => lo.to_string(),
                Some(h) => format!("{lo} to {h}"),
                None => format!("at least {lo}"),
            };
            return Err(CompileError::Arity { name: name.into(), expected, got: args.len() });
        }
        return builtin(b, args, scope);
    }
    if let Some(table) = scope.function(name) {
        let n = table.arity();
        if args.len() != n {
            return Err(CompileError::Arity { name: name.into(), expected: n.to_string(), got: args.len() });
        }
        if n == 1 {
            return Ok(unary(num(&args[0], scope)?, move |x| table.lookup(x)));
        }
        let fs = args.iter().map(|a| num(a, scope).map(Num::boxed)).collect::<Result<Vec<NumFn>, _>>()?;
        return Ok(Num::F(Box::new(move |f| {
            let mut values = [0.0; MAX_ARGS];
            for (v, g) in values.iter_mut().zip(&fs) {
                *v = g(f);
            }
            table.call(&values[..fs.len()])
        })));
    }
    let mut names = scope.function_names();
    names.extend(Builtin::ALL.iter().map(|b| b.name().to_string()));
    Err(CompileError::UnknownFunction { name: name.into(), hint: hint(name, names) })
}

fn builtin(b: Builtin, args: &[Ast], scope: &dyn Scope) -> Result<Num, CompileError> {
    match b {
        Builtin::Round => Ok(unary(num(&args[0], scope)?, builtins::round)),
        Builtin::Floor => Ok(unary(num(&args[0], scope)?, builtins::floor)),
        Builtin::Ceil => Ok(unary(num(&args[0], scope)?, builtins::ceil)),
        Builtin::Abs => Ok(unary(num(&args[0], scope)?, libm::fabs)),
        Builtin::Sqrt => Ok(unary(num(&args[0], scope)?, libm::sqrt)),
        Builtin::Atan2 => Ok(binary(num(&args[0], scope)?, num(&args[1], scope)?, builtins::atan2_deg)),
        Builtin::Hypot => Ok(binary(num(&args[0], scope)?, num(&args[1], scope)?, libm::hypot)),
        Builtin::Min | Builtin::Max => {
            let mut acc = num(&args[0], scope)?;
            for a in &args[1..] {
                let next = num(a, scope)?;
                acc = if b == Builtin::Min { binary(acc, next, f64::min) } else { binary(acc, next, f64::max) };
            }
            Ok(acc)
        }
        Builtin::Clamp => {
            let lo = num(&args[0], scope)?;
            let hi = num(&args[1], scope)?;
            let x = num(&args[2], scope)?;
            Ok(match (lo, hi) {
                (Num::Const(lo), Num::Const(hi)) => unary(x, move |v| builtins::clamp(lo, hi, v)),
                (lo, hi) => {
                    let (lo, hi, x) = (lo.boxed(), hi.boxed(), x.boxed());
                    Num::F(Box::new(move |f| builtins::clamp(lo(f), hi(f), x(f))))
                }
            })
        }
        Builtin::If => {
            if is_bool(&args[1]) || is_bool(&args[2]) {
                return Err(CompileError::Type("if() branches must be numbers".into()));
            }
            let cond = boolean(&args[0], scope)?;
            let (a, b) = (num(&args[1], scope)?, num(&args[2], scope)?);
            Ok(match cond {
                Bool::Const(true) => a,
                Bool::Const(false) => b,
                Bool::F(c) => {
                    let (a, b) = (a.boxed(), b.boxed());
                    Num::F(Box::new(move |f| if c(f) { a(f) } else { b(f) }))
                }
            })
        }
    }
}

fn boolean(ast: &Ast, scope: &dyn Scope) -> Result<Bool, CompileError> {
    match ast {
        Ast::Bool(b) => Ok(Bool::Const(*b)),
        Ast::Not(a) => Ok(match boolean(a, scope)? {
            Bool::Const(b) => Bool::Const(!b),
            Bool::F(f) => Bool::F(Box::new(move |fr| !f(fr))),
        }),
        Ast::Bin(op, a, b) if op.is_logical() => {
            let (a, b) = (boolean(a, scope)?, boolean(b, scope)?);
            let (a, b) = (a.boxed(), b.boxed());
            Ok(if *op == BinOp::And {
                Bool::F(Box::new(move |f| a(f) && b(f)))
            } else {
                Bool::F(Box::new(move |f| a(f) || b(f)))
            })
        }
        Ast::Bin(op, a, b) if op.is_comparison() => {
            let (a, b) = (num(a, scope)?, num(b, scope)?);
            Ok(match op {
                BinOp::Eq => compare(a, b, |x, y| x == y),
                BinOp::Neq => compare(a, b, |x, y| x != y),
                BinOp::Lt => compare(a, b, |x, y| x < y),
                BinOp::Le => compare(a, b, |x, y| x <= y),
                BinOp::Gt => compare(a, b, |x, y| x > y),
                BinOp::Ge => compare(a, b, |x, y| x >= y),
                _ => unreachable!(),
            })
        }
        Ast::Call(name, args) if name == "if" && args.len() == 3 => {
            let c = boolean(&args[0], scope)?.boxed();
            let (a, b) = (boolean(&args[1], scope)?.boxed(), boolean(&args[2], scope)?.boxed());
            Ok(Bool::F(Box::new(move |f| if c(f) { a(f) } else { b(f) })))
        }
        _ => Err(CompileError::Type("a number where a condition was expected (compare it, e.g. x > 0)".into())),
    }
}

/// Applies a one-argument operation, fused into the closure of an affine argument.
fn unary<F>(a: Num, op: F) -> Num
where
    F: Fn(f64) -> f64 + Send + Sync + 'static,
{
    match a {
        Num::Const(c) => Num::Const(op(c)),
        Num::In(i) => Num::F(Box::new(move |f| op(f.inputs[i]))),
        Num::Loc(i) => Num::F(Box::new(move |f| op(f.locals[i]))),
        Num::Lin(l) => Num::F(l.boxed_with(op)),
        Num::F(a) => Num::F(Box::new(move |f| op(a(f)))),
    }
}

/// Fuses leaf operands into the operator's closure; folds constant pairs.
fn binary<F>(a: Num, b: Num, op: F) -> Num
where
    F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static,
{
    use Num::*;
    let close = |n: Num| if let Lin(l) = n { F(l.boxed_with(|x| x)) } else { n };
    let (a, b) = match (a, b) {
        // An affine operand against a constant fuses into one closure: max(-5, table(x) - n).
        (Lin(l), Const(c)) => return F(l.boxed_with(move |x| op(x, c))),
        (Const(c), Lin(l)) => return F(l.boxed_with(move |x| op(c, x))),
        (a, b) => (close(a), close(b)),
    };
    match (a, b) {
        (Const(x), Const(y)) => Const(op(x, y)),
        (In(i), Const(c)) => F(Box::new(move |f| op(f.inputs[i], c))),
        (Const(c), In(i)) => F(Box::new(move |f| op(c, f.inputs[i]))),
        (Loc(i), Const(c)) => F(Box::new(move |f| op(f.locals[i], c))),
        (Const(c), Loc(i)) => F(Box::new(move |f| op(c, f.locals[i]))),
        (In(i), In(j)) => F(Box::new(move |f| op(f.inputs[i], f.inputs[j]))),
        (In(i), Loc(j)) => F(Box::new(move |f| op(f.inputs[i], f.locals[j]))),
        (Loc(i), In(j)) => F(Box::new(move |f| op(f.locals[i], f.inputs[j]))),
        (Loc(i), Loc(j)) => F(Box::new(move |f| op(f.locals[i], f.locals[j]))),
        (F(a), Const(c)) => F(Box::new(move |f| op(a(f), c))),
        (Const(c), F(b)) => F(Box::new(move |f| op(c, b(f)))),
        (F(a), In(i)) => F(Box::new(move |f| op(a(f), f.inputs[i]))),
        (In(i), F(b)) => F(Box::new(move |f| op(f.inputs[i], b(f)))),
        (F(a), Loc(i)) => F(Box::new(move |f| op(a(f), f.locals[i]))),
        (Loc(i), F(b)) => F(Box::new(move |f| op(f.locals[i], b(f)))),
        (F(a), F(b)) => F(Box::new(move |f| op(a(f), b(f)))),
        (Lin(_), _) | (_, Lin(_)) => unreachable!("affine operands were closed above"),
    }
}

fn compare<F>(a: Num, b: Num, op: F) -> Bool
where
    F: Fn(f64, f64) -> bool + Copy + Send + Sync + 'static,
{
    match (a, b) {
        (Num::Const(x), Num::Const(y)) => Bool::Const(op(x, y)),
        (a, Num::Const(c)) => {
            let a = a.boxed();
            Bool::F(Box::new(move |f| op(a(f), c)))
        }
        (a, b) => {
            let (a, b) = (a.boxed(), b.boxed());
            Bool::F(Box::new(move |f| op(a(f), b(f))))
        }
    }
}
