//! Deciding with confidence: the statistics of run comparison (numpy-exact means, the paired
//! t-test with its interval, Holm's adjustment, McNemar's exact test; COMPARE.md) and of judge
//! calibration (agreement, Wilson's interval, Cohen's kappa) in `stats`, their special
//! functions in `special`. Pure functions over numbers: which cases and metrics they run over
//! is pkg/lib/compare.js's bookkeeping, on results the core has read.

pub mod special;
pub mod stats;
