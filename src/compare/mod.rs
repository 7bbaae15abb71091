//! Deciding with confidence: runs compared with paired statistics (`runs`) and LLM judges
//! calibrated against people's labels (`labels`, `calibrate`), over the result model; pure
//! functions, their numerics in `special` and `stats`.

pub mod calibrate;
pub mod labels;
pub mod runs;
pub mod special;
pub mod stats;

pub use calibrate::{calibrate, Calibration};
pub use runs::{compare_runs, Comparison};
