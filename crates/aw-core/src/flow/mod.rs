//! The flow engine: the deterministic direction engine behind `aw flow advance | submit |
//! recover`.
//!
//! A registry of decision rows composes five linear journeys. A sealed run state per session
//! records where a run stands. `advance` walks: it applies what the CLI may apply, skips what a
//! threshold or an exhausted attempt cap passes over, and stops at the first row that needs the
//! agent's judgment (semantic), a person's preference (human), an approval (authorization), a
//! real execution (execution), or cannot go on (blocked) — or at the end (final). `submit`
//! validates one answer against that boundary and applies exactly its transition. Everything
//! here is pure; the shell reads and writes `.flow-run.json` under the workspace lock.

pub mod answer;
pub mod attempts;
pub mod binding;
pub mod boundary;
pub mod checks;
pub mod choices;
pub mod counter;
pub mod directive;
pub mod docs_canon;
pub mod effects;
pub mod error;
pub mod facts;
pub mod gloss;
pub mod human;
pub mod internal;
pub mod journey;
pub mod next_action;
pub mod plan_evidence;
pub mod projection;
pub mod proof;
pub mod proposal;
pub mod recover;
pub mod registry;
pub mod rejections;
pub mod request;
pub mod run;
pub mod scope;
pub mod source_boundary;
pub mod state;
pub mod state_parse;
pub mod submit;
pub mod threshold;
pub mod verdict;

pub mod walk;

pub use crate::vocab::flow::{BoundaryKind, EffectClass, Flow, Outcome};
pub use directive::Directive;
pub use error::{FlowError, FlowResult};
pub use journey::Journey;
pub use registry::{Decision, Registry};
pub use state::RunState;
