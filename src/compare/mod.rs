//! Deciding with confidence: the statistics of run comparison (numpy-exact means, the paired
//! t-test with its interval, Holm's adjustment, McNemar's exact test; COMPARE.md) and of judge
//! calibration (agreement, Wilson's interval, Cohen's kappa) in `stats`, their special
//! functions in `special`; the bookkeeping over results the core has read (which cases and
//! metrics, each case's change, the verdict) in `runs`, a metric's course over runs in `trend`.

pub mod runs;
pub mod special;
pub mod stats;
pub mod trend;
