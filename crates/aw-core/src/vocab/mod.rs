//! The words several parts of the core share, kept below all of them so that none has to reach
//! up into another for them: the flow engine's closed vocabularies (also a capability's effect
//! classes and outcomes), the `NNN` correlatives of numbered names, and the folded comparison
//! of headings.

pub mod collate;
pub mod correlative;
pub mod flow;
pub mod titles;
