//! Our own expression tree, lowered from evalexpr's operator tree.
//!
//! evalexpr is used only as the parser: its evaluator boxes every value and looks variables up by
//! string, which is far too slow for the match loop. Lowering into this small tree lets the
//! compiler resolve names to slots once and fold constants.

use super::bounds::{self, MAX_DEPTH, MAX_TOKENS};
use evalexpr::{Node, Operator, Value};
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Ast {
    Num(f64),
    Bool(bool),
    Var(String),
    Neg(Box<Ast>),
    Not(Box<Ast>),
    Bin(BinOp, Box<Ast>, Box<Ast>),
    Call(String, Vec<Ast>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

/// Why a text could not become an expression.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParseError {
    #[error("cannot parse expression: {0}")]
    Syntax(String),
    #[error("expression is empty")]
    Empty,
    #[error("'{0}' is not allowed in content expressions (they are pure formulas)")]
    Unsupported(String),
    #[error(
        "expression has more than {MAX_TOKENS} tokens (names, numbers, operators, parentheses): split it into lets or a formula"
    )]
    TooLong,
    #[error(
        "expression is more than {MAX_DEPTH} levels deep (parentheses or calls nested that deep, or more than {MAX_DEPTH} operators in one chain such as a + b + c + …): split it into lets or a formula"
    )]
    TooDeep,
}

/// Parses a content expression. Its text is bounded first ([`bounds::measure`]): evalexpr's parser
/// and everything after it recurse once per level.
pub fn parse(text: &str) -> Result<Ast, ParseError> {
    bounds::measure(text).map_err(|e| match e {
        bounds::Exceeded::Tokens => ParseError::TooLong,
        bounds::Exceeded::Depth => ParseError::TooDeep,
    })?;
    let tree = evalexpr::build_operator_tree(text).map_err(|e| ParseError::Syntax(e.to_string()))?;
    lower(&tree, 0)
}

/// Lowers one node at `depth` levels below the top; the scan bounds the depth already, this
/// keeps the recursion bounded should evalexpr build a tree the scan did not foresee.
fn lower(node: &Node, depth: usize) -> Result<Ast, ParseError> {
    let kids = node.children();
    let level = || if depth >= MAX_DEPTH { Err(ParseError::TooDeep) } else { Ok(depth + 1) };
    let bin = |op: BinOp| -> Result<Ast, ParseError> {
        let d = level()?;
        match kids {
            [a, b] => Ok(Ast::Bin(op, Box::new(lower(a, d)?), Box::new(lower(b, d)?))),
            _ => Err(ParseError::Syntax(format!("operator {op:?} needs two operands"))),
        }
    };
    match node.operator() {
        Operator::RootNode => match kids {
            [] => Err(ParseError::Empty),
            [only] => lower(only, depth),
            _ => Err(ParseError::Syntax("several expressions where one was expected".into())),
        },
        Operator::Add => bin(BinOp::Add),
        Operator::Sub => bin(BinOp::Sub),
        Operator::Mul => bin(BinOp::Mul),
        Operator::Div => bin(BinOp::Div),
        Operator::Mod => bin(BinOp::Rem),
        Operator::Exp => bin(BinOp::Pow),
        Operator::Eq => bin(BinOp::Eq),
        Operator::Neq => bin(BinOp::Neq),
        Operator::Lt => bin(BinOp::Lt),
        Operator::Leq => bin(BinOp::Le),
        Operator::Gt => bin(BinOp::Gt),
        Operator::Geq => bin(BinOp::Ge),
        Operator::And => bin(BinOp::And),
        Operator::Or => bin(BinOp::Or),
        Operator::Neg => match kids {
            [a] => Ok(Ast::Neg(Box::new(lower(a, level()?)?))),
            _ => Err(ParseError::Syntax("negation needs one operand".into())),
        },
        Operator::Not => match kids {
            [a] => Ok(Ast::Not(Box::new(lower(a, level()?)?))),
            _ => Err(ParseError::Syntax("'!' needs one operand".into())),
        },
        Operator::Const { value } => match value {
            Value::Int(i) => Ok(Ast::Num(*i as f64)),
            Value::Float(f) => Ok(Ast::Num(*f)),
            Value::Boolean(b) => Ok(Ast::Bool(*b)),
            other => Err(ParseError::Unsupported(format!("constant {other}"))),
        },
        Operator::VariableIdentifierRead { identifier } => Ok(Ast::Var(identifier.clone())),
        Operator::FunctionIdentifier { identifier } => {
            let d = level()?;
            let args = match kids {
                [] => Vec::new(),
                [arg] => arguments(arg, d)?,
                _ => {
                    return Err(ParseError::Syntax(format!("malformed call of {identifier}")));
                }
            };
            Ok(Ast::Call(identifier.clone(), args))
        }
        Operator::Tuple => Err(ParseError::Unsupported("a tuple outside a function call".into())),
        Operator::Chain => Err(ParseError::Unsupported("';' chains".into())),
        Operator::VariableIdentifierWrite { .. }
        | Operator::Assign
        | Operator::AddAssign
        | Operator::SubAssign
        | Operator::MulAssign
        | Operator::DivAssign
        | Operator::ModAssign
        | Operator::ExpAssign
        | Operator::AndAssign
        | Operator::OrAssign => Err(ParseError::Unsupported("assignment".into())),
    }
}

/// A call's single child is either one expression or a tuple of them, possibly wrapped in a
/// parenthesis root node.
fn arguments(node: &Node, depth: usize) -> Result<Vec<Ast>, ParseError> {
    match node.operator() {
        Operator::RootNode if node.children().len() == 1 => arguments(&node.children()[0], depth),
        Operator::RootNode if node.children().is_empty() => Ok(Vec::new()),
        Operator::Tuple => node.children().iter().map(|n| lower(n, depth)).collect(),
        _ => Ok(vec![lower(node, depth)?]),
    }
}

impl Ast {
    /// Every variable name read by the expression, in order of first appearance.
    pub fn variables(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |a| {
            if let Ast::Var(name) = a
                && !out.contains(&name.as_str())
            {
                out.push(name.as_str());
            }
        });
        out
    }

    /// Every function (builtin or table) called by the expression.
    pub fn functions(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |a| {
            if let Ast::Call(name, _) = a
                && !out.contains(&name.as_str())
            {
                out.push(name.as_str());
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Ast)) {
        f(self);
        match self {
            Ast::Num(_) | Ast::Bool(_) | Ast::Var(_) => {}
            Ast::Neg(a) | Ast::Not(a) => a.walk(f),
            Ast::Bin(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Ast::Call(_, args) => args.iter().for_each(|a| a.walk(f)),
        }
    }
}

impl fmt::Display for BinOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "^",
            BinOp::Eq => "==",
            BinOp::Neq => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        };
        f.write_str(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowers_calls_with_several_arguments() {
        let ast = parse("clamp(3, 17, base + mod_x)").unwrap();
        match ast {
            Ast::Call(name, args) => {
                assert_eq!(name, "clamp");
                assert_eq!(args.len(), 3);
                assert_eq!(args[0], Ast::Num(3.0));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn lowers_single_argument_calls_and_parentheses() {
        let ast = parse("round((dx + passing) / 2)").unwrap();
        assert_eq!(ast.variables(), vec!["dx", "passing"]);
        assert_eq!(ast.functions(), vec!["round"]);
    }

    #[test]
    fn refuses_assignment_and_chains() {
        assert!(matches!(parse("a = 3"), Err(ParseError::Unsupported(_))));
        assert!(matches!(parse("a; b"), Err(ParseError::Unsupported(_))));
        assert!(matches!(parse(""), Err(ParseError::Empty)));
        assert!(matches!(parse("(1 +"), Err(ParseError::Syntax(_))));
    }

    /// Each shape that overflowed the stack (issue 49) is an error, on a thread with a small
    /// stack; so is anything just past the limits, and just inside them parses.
    #[test]
    fn bounds_expressions_before_anything_recurses() {
        let small = std::thread::Builder::new().stack_size(256 * 1024);
        small
            .spawn(|| {
                let sum = |n: usize| (0..n).map(|i| format!("x{i}")).collect::<Vec<_>>().join(" + ");
                let nested = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
                assert_eq!(parse(&format!("{}1", "-".repeat(20_000))), Err(ParseError::TooDeep));
                assert_eq!(parse(&nested(100_000)), Err(ParseError::TooDeep));
                assert_eq!(parse(&sum(200_000)), Err(ParseError::TooDeep));
                let many = (0..1100).map(|i| format!("(x{i})")).collect::<Vec<_>>().join(", ");
                assert_eq!(parse(&format!("max({many})")), Err(ParseError::TooLong));
                assert_eq!(parse(&format!("{}1", "-".repeat(65))), Err(ParseError::TooDeep));
                assert_eq!(parse(&sum(66)), Err(ParseError::TooDeep));
                assert_eq!(parse(&"round ".repeat(70)), Err(ParseError::TooDeep));
                assert!(parse(&format!("{}1", "-".repeat(64))).is_ok());
                assert!(parse(&nested(64)).is_ok());
                assert_eq!(parse(&sum(65)).unwrap().variables().len(), 65);
                // Wide and shallow, up to the token limit.
                let wide = (0..1000).map(|i| format!("x{i}")).collect::<Vec<_>>().join(", ");
                assert!(parse(&format!("max({wide})")).is_ok());
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
