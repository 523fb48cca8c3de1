//! `aw self install | uninstall | detect-hosts | doctor`: the rules. The host table
//! ([`host`]), the ownership marker ([`marker`]), the format writers ([`render`]), aw's hooks and
//! their entry-by-entry merge ([`hooks`]), the plan of one host with what happens to each
//! file given what is on disk ([`plan`]), the reference's own install recognised
//! ([`reference`]), the record of the folders an install created ([`record`]), and which of
//! aw's settings backups go ([`backups`]). No I/O:
//! aw-workspace reads and writes.

pub mod backups;
pub mod hooks;
pub mod host;
pub mod marker;
pub mod plan;
pub mod record;
pub mod reference;
pub mod render;
