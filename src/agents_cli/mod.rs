//! Google's agents-cli formats: its `EvaluationDataset` (read and written) and its eval config.

pub mod config;
pub mod dataset;
pub mod write;
