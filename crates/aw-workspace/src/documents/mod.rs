//! The workspace's numbered documents on disk: what the board reads, numbering (scan, claim,
//! release), and `aw persist`'s reads and publish.

pub mod board;
pub mod numbering;
pub mod persist;
