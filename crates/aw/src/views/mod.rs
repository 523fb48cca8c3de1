//! Output projections more than one command shows: JSON models with the reference's keys and
//! human renderings. A view takes values and returns a `serde_json::Value` or text; it reads
//! nothing and decides no rule.

pub mod hooks;
pub mod multiroot;
pub mod narrative;
pub mod project_block;
pub mod status;
