//! Bad input and faults everywhere (issues 17 and 49): content, inputs and their sizes, outputs,
//! publish under failures, edited records, World 1's numbers, and the input fuzzer.
//!
//! One test binary per area (CONTRIBUTING.md, "Tests"); each module is named for what it checks.

#[path = "../common/mod.rs"]
mod common;

mod content;
mod effects;
mod fuzz_inputs;
mod inputs;
mod io;
mod outputs;
mod publish;
mod records;
