//! Sessions: names, numbering, folder identity, the resolver's rules, the conversation registry,
//! `SESSION.md` (and its narrative block) and `HISTORY.md`.

pub mod bindings;
pub mod document;
pub mod folder;
pub mod history;
pub mod migrate;
pub mod names;
pub mod narrative;
pub mod reservation;
pub mod resolve;
