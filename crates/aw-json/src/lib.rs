//! JSON the way the reference CLI (a JavaScript program) reads and writes it.
//!
//! Two small jobs shared by the manifest validator and the workflow core: parsing untrusted JSON
//! text with a bounded nesting depth ([`bounded`]), and the JavaScript coercions of JSON values
//! that the reference's results depend on ([`js`]).

#![forbid(unsafe_code)]

pub mod bounded;
pub mod doc;
pub mod js;

pub use bounded::{MAX_DEPTH, nesting_depth, parse_bounded};
