//! `aw persist`: adopting finished work from a conversation into `docs/research`, `docs/specs`
//! and `docs/plans`. aw owns the inventory, the duplicate check, the numbering and the plan; the
//! agent classifies and drafts. The handshake is the capability protocol's (a semantic request,
//! the agent's answer, a durable plan sealed with an approval digest, an apply), without a
//! capability request: the inventory's digest is what an answer quotes and what the plan seals.
//!
//! - [`inventory`]: the numbered documents of each folder, as the shell read them, and the
//!   digest that makes an answer drafted against another inventory stale.
//! - [`answer`]: the semantic request and contract, the answer skeleton, and the answer parser
//!   (envelope, items, their grammar and limits).
//! - [`plan`]: the duplicate rule, numbering, the durable plan, and the checks `apply` makes on a
//!   carried plan, first as text and then against the inventory read under the lock.
//! - [`result`]: what each stage prints (one shape for all three), its next action, and the
//!   stdin the later stages read.

pub mod answer;
pub mod inventory;
pub mod plan;
pub mod result;
