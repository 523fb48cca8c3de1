//! The primitives every other part of the shell builds on: atomic writes and folder operations,
//! keeping paths inside the workspace, reading through an open folder, the workspace lock, stdin
//! with a bounded wait, the clock, the kernel's random bytes, and the crash-test stall points.

pub mod atomic;
pub mod clock;
pub mod containment;
pub mod folder;
pub mod lock;
pub mod random;
pub mod stdin;
pub mod test_hook;
