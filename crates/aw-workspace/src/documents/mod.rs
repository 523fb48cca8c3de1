//! The workspace's numbered documents on disk: what the board reads, numbering (scan, claim,
//! release), `aw persist`'s reads and publish, the board's decision indexes and retirements.

pub mod board;
pub mod decision_indexes;
pub mod numbering;
pub mod persist;
pub mod retirements;
