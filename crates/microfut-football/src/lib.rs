//! Microfut's football: the match engine (`engine`), player sheets (`sheet`), clubs (`club`),
//! seasons (`season`), run records (`run`) and the calibration fixtures and simulator the lab
//! plays (`calibrate`). It builds on `microfut-core` and knows no server and no command line.

pub mod calibrate;
pub mod club;
pub mod engine;
mod entry;
pub mod run;
pub mod season;
pub mod sheet;

pub use entry::Football;
