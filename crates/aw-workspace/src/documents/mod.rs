//! The workspace's numbered documents on disk: what the board reads, numbering (scan, claim,
//! release), `aw persist`'s reads and publish, and the board's retirements.

pub mod board;
pub mod numbering;
pub mod persist;
pub mod retirements;
