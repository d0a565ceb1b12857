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

/// A one-argument function supplied by content (a range table or a curve).
pub trait Lookup: Send + Sync {
    fn lookup(&self, x: f64) -> f64;
}

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
    Arity {
        name: String,
        expected: String,
        got: usize,
    },
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
    Ok(Compiled {
        f: node.boxed(),
        constant,
    })
}

/// Compiles a condition (`requires` clauses).
pub fn compile_condition(
    ast: &Ast,
    scope: &dyn Scope,
) -> Result<Box<dyn Fn(&Frame) -> bool + Send + Sync>, CompileError> {
    Ok(boolean(ast, scope)?.boxed())
}

enum Num {
    Const(f64),
    In(usize),
    Loc(usize),
    F(NumFn),
}

impl Num {
    fn boxed(self) -> NumFn {
        match self {
            Num::Const(c) => Box::new(move |_| c),
            Num::In(i) => Box::new(move |f| f.inputs[i]),
            Num::Loc(i) => Box::new(move |f| f.locals[i]),
            Num::F(f) => f,
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
        Ast::Bool(_) => Err(CompileError::Type(
            "a boolean where a number was expected".into(),
        )),
        Ast::Var(name) => match scope.variable(name) {
            Some(Slot::Input(i)) => Ok(Num::In(i)),
            Some(Slot::Local(i)) => Ok(Num::Loc(i)),
            Some(Slot::Const(c)) => Ok(Num::Const(c)),
            None => Err(CompileError::UnknownVariable {
                name: name.clone(),
                hint: hint(name, scope.variable_names()),
            }),
        },
        Ast::Neg(a) => Ok(unary(num(a, scope)?, |x| -x)),
        Ast::Not(_) => Err(CompileError::Type(
            "'!' gives a boolean where a number was expected".into(),
        )),
        Ast::Bin(op, a, b) => {
            if op.is_comparison() || op.is_logical() {
                return Err(CompileError::Type(format!(
                    "'{op}' gives a boolean where a number was expected (use if(cond, a, b))"
                )));
            }
            let (a, b) = (num(a, scope)?, num(b, scope)?);
            Ok(match op {
                BinOp::Add => binary(a, b, |x, y| x + y),
                BinOp::Sub => binary(a, b, |x, y| x - y),
                BinOp::Mul => binary(a, b, |x, y| x * y),
                BinOp::Div => binary(a, b, |x, y| x / y),
                BinOp::Rem => binary(a, b, |x, y| x % y),
                BinOp::Pow => binary(a, b, libm::pow),
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
            return Err(CompileError::Arity {
                name: name.into(),
                expected,
                got: args.len(),
            });
        }
        return builtin(b, args, scope);
    }
    if let Some(table) = scope.function(name) {
        if args.len() != 1 {
            return Err(CompileError::Arity {
                name: name.into(),
                expected: "1".into(),
                got: args.len(),
            });
        }
        return Ok(match num(&args[0], scope)? {
            Num::Const(c) => Num::Const(table.lookup(c)),
            Num::In(i) => Num::F(Box::new(move |f| table.lookup(f.inputs[i]))),
            Num::Loc(i) => Num::F(Box::new(move |f| table.lookup(f.locals[i]))),
            Num::F(a) => Num::F(Box::new(move |f| table.lookup(a(f)))),
        });
    }
    let mut names = scope.function_names();
    names.extend(Builtin::ALL.iter().map(|b| b.name().to_string()));
    Err(CompileError::UnknownFunction {
        name: name.into(),
        hint: hint(name, names),
    })
}

fn builtin(b: Builtin, args: &[Ast], scope: &dyn Scope) -> Result<Num, CompileError> {
    match b {
        Builtin::Round => Ok(unary(num(&args[0], scope)?, builtins::round)),
        Builtin::Floor => Ok(unary(num(&args[0], scope)?, builtins::floor)),
        Builtin::Ceil => Ok(unary(num(&args[0], scope)?, builtins::ceil)),
        Builtin::Abs => Ok(unary(num(&args[0], scope)?, libm::fabs)),
        Builtin::Sqrt => Ok(unary(num(&args[0], scope)?, libm::sqrt)),
        Builtin::Atan2 => Ok(binary(
            num(&args[0], scope)?,
            num(&args[1], scope)?,
            builtins::atan2_deg,
        )),
        Builtin::Hypot => Ok(binary(
            num(&args[0], scope)?,
            num(&args[1], scope)?,
            libm::hypot,
        )),
        Builtin::Min | Builtin::Max => {
            let mut acc = num(&args[0], scope)?;
            for a in &args[1..] {
                let next = num(a, scope)?;
                acc = if b == Builtin::Min {
                    binary(acc, next, f64::min)
                } else {
                    binary(acc, next, f64::max)
                };
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
            let (a, b) = (
                boolean(&args[1], scope)?.boxed(),
                boolean(&args[2], scope)?.boxed(),
            );
            Ok(Bool::F(Box::new(move |f| if c(f) { a(f) } else { b(f) })))
        }
        _ => Err(CompileError::Type(
            "a number where a condition was expected (compare it, e.g. x > 0)".into(),
        )),
    }
}

fn unary<F>(a: Num, op: F) -> Num
where
    F: Fn(f64) -> f64 + Copy + Send + Sync + 'static,
{
    match a {
        Num::Const(c) => Num::Const(op(c)),
        Num::In(i) => Num::F(Box::new(move |f| op(f.inputs[i]))),
        Num::Loc(i) => Num::F(Box::new(move |f| op(f.locals[i]))),
        Num::F(a) => Num::F(Box::new(move |f| op(a(f)))),
    }
}

/// Fuses leaf operands into the operator's closure; folds constant pairs.
fn binary<F>(a: Num, b: Num, op: F) -> Num
where
    F: Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static,
{
    use Num::*;
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
