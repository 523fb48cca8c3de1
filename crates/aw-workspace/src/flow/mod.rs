//! The flow engine's disk: a session's run state and the transaction around a flow verb, and
//! what is at the plan paths a flow answer names.

pub mod internal;
pub mod observe;
pub mod plan_evidence;
pub mod store;
