//! ADK's data: content, invocations, eval sets, configs, legacy migration, loading.

pub mod accept;
pub mod agent_data;
pub mod app_details;
pub mod arg_policies;
pub mod budget;
pub mod bytes;
pub mod config;
pub mod content;
pub mod criteria;
pub mod de;
pub mod eval_result;
pub mod eval_set;
pub mod eval_set_result;
pub mod invocation;
pub mod iqai;
pub mod json_path;
pub mod legacy;
pub mod load;
pub mod parse;
pub mod personas;
pub mod result;
pub mod rubric;
pub mod run_summary;
pub mod trajectory_fields;
pub mod value;

pub use config::{Criterion, EvalConfig};
pub use content::{Content, FunctionCall, FunctionResponse, Part};
pub use eval_set::{EvalCase, EvalSet, Rubric, SessionInput};
pub use invocation::{IntermediateData, Invocation, InvocationEvent};
