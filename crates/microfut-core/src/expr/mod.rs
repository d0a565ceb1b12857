//! Expressions: evalexpr syntax in content, parsed once, compiled to slot closures.
//!
//! Semantics (documented in ARCHITECTURE.md): every value is an `f64`; comparisons and `&&`, `||`,
//! `!` give conditions usable in `if(cond, a, b)` and `requires`; angles are in degrees.

mod ast;
mod bounds;
mod builtins;
mod compile;

pub use ast::{Ast, BinOp, ParseError, parse};
pub use bounds::{Exceeded, MAX_DEPTH, MAX_TOKENS, Size, excerpt, measure};
pub use builtins::{Builtin, DECIMAL_TOLERANCE, atan2_deg, ceil, clamp, floor, round};
pub use compile::{
    CompileError, Compiled, Condition, Frame, Hint, Lookup, MAX_ARGS, Scope, Slot, compile, compile_condition,
};
