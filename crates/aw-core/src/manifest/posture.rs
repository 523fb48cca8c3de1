//! TODO

use super::Ctx;

pub(super) fn check(_cx: &mut Ctx) {}
