//! Unsigned numbers written in decimal straight into a string: the board writes several per
//! document (percentages, phase counts, ages), and `to_string` or `format!` cost a fresh string
//! and the formatting machinery each time.

/// Appends `n` in decimal, without padding.
pub fn push_decimal(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_like_to_string() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX] {
            let mut s = String::from("x");
            push_decimal(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
    }
}
