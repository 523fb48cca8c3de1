//! Randomness from the operating system: the one place aw draws it (the core takes random bytes
//! as an argument and never draws them itself).

use aw_core::capability::request::invocation_id_from_random;

/// A fresh capability `invocation_id` (a lowercase version-4 UUID) from the kernel's random
/// bytes. Should the kernel refuse (it does not on any supported system), the bytes fall back to
/// the clock and the process id, which still never repeat within one machine's lifetime.
pub fn invocation_id() -> String {
    let mut bytes = [0u8; 16];
    let filled = rustix::rand::getrandom(&mut bytes, rustix::rand::GetRandomFlags::empty());
    if !matches!(filled, Ok(n) if n == bytes.len()) {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes[..12].copy_from_slice(&nanos.to_le_bytes()[..12]);
        bytes[12..].copy_from_slice(&std::process::id().to_le_bytes());
    }
    invocation_id_from_random(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aw_core::capability::request::is_invocation_id;

    #[test]
    fn ids_are_uuids_and_differ() {
        let a = invocation_id();
        let b = invocation_id();
        assert!(is_invocation_id(&a), "{a}");
        assert_ne!(a, b);
    }
}
