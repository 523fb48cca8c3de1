//! Which of aw's own backups of a settings file go: aw copies a settings file to
//! `<file>.bak.<epoch>` before it changes it (`<file>.bak.<epoch>.<n>` when two runs share a
//! second), names each in the host's record ([`super::record`]), and keeps only the newest
//! [`KEEP`] of those. A name is aw's only when the record names it: a file of the same shape
//! that it does not name (the person's own `settings.json.bak.1`, an older aw's backup) is never
//! chosen, and neither is anything else beside the file (the `.aw-backup-<epoch>` folders that
//! hold what install moved aside).

/// How many of aw's backups of one file are kept.
pub const KEEP: usize = 5;

/// `(epoch, n)` when `name` is one of aw's backups of the file named `file`: `<file>.bak.<epoch>`
/// (`n` = 0) or `<file>.bak.<epoch>.<n>` with `n` ≥ 1, each a plain run of ASCII digits.
pub fn backup_stamp(file: &str, name: &str) -> Option<(u64, u64)> {
    let rest = name.strip_prefix(file)?.strip_prefix(".bak.")?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u64>().ok())
            .flatten()
    };
    match rest.split_once('.') {
        None => Some((number(rest)?, 0)),
        Some((epoch, n)) => {
            let n = number(n).filter(|n| *n >= 1)?;
            Some((number(epoch)?, n))
        }
    }
}

/// Of `names` (the backups of the file `file` that the record names and that are still there
/// as regular files; `file` and the names alike relative to one same folder), aw's backups of it
/// beyond the newest [`KEEP`]: the ones to delete, newest first. `written` is the backup this run just wrote: it
/// is the newest whatever its name says (its epoch's plain name may have been free again once
/// an earlier run deleted it, so a suffix does not always order a second's backups) and is
/// never chosen. The others are ordered by epoch, then suffix (a later run in the same second).
pub fn backups_to_remove(file: &str, names: &[String], written: &str) -> Vec<String> {
    let mut ours: Vec<((u64, u64), &String)> = names
        .iter()
        .filter(|n| n.as_str() != written)
        .filter_map(|n| backup_stamp(file, n).map(|s| (s, n)))
        .collect();
    ours.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(a.1)));
    let room = if backup_stamp(file, written).is_some() {
        KEEP - 1
    } else {
        KEEP
    };
    ours.into_iter()
        .skip(room)
        .map(|(_, n)| n.clone())
        .collect()
}

/// The backups a record names once `written` (this run's, if any) is added and `removed` (the
/// ones deleted) and `gone` (no longer there as regular files) are taken out; sorted, each once.
pub fn recorded_after(
    recorded: &[String],
    written: &[String],
    removed: &[String],
    gone: &[String],
) -> Vec<String> {
    let mut out: Vec<String> = recorded
        .iter()
        .chain(written)
        .filter(|b| !removed.contains(b) && !gone.contains(b))
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_of_aws_backup_shape_count() {
        let f = "settings.json";
        assert_eq!(
            backup_stamp(f, "settings.json.bak.1700000000"),
            Some((1_700_000_000, 0))
        );
        assert_eq!(
            backup_stamp(f, "settings.json.bak.1700000000.2"),
            Some((1_700_000_000, 2))
        );
        for not_ours in [
            "settings.json",
            "settings.json.bak",
            "settings.json.bak.",
            "settings.json.bak.mine",
            "settings.json.bak.17x",
            "settings.json.bak.1700000000.0",
            "settings.json.bak.1700000000.",
            "settings.json.bak.1700000000.1.1",
            "settings.json.bak.+17",
            "settings.json.bak.99999999999999999999999",
            "other.json.bak.1700000000",
            "settings.json.aw-backup-1700000000",
            ".aw-backup-1700000000",
        ] {
            assert_eq!(backup_stamp(f, not_ours), None, "{not_ours}");
        }
    }

    #[test]
    fn the_newest_five_stay_and_nothing_else_is_chosen() {
        let names: Vec<String> = [
            "settings.json.bak.100",
            "settings.json.bak.300",
            "settings.json.bak.300.1",
            "settings.json.bak.300.2",
            "settings.json.bak.200",
            "settings.json.bak.90",
            "settings.json.bak.400",
            "settings.json.bak.notes",
            ".aw-backup-1",
            "settings.json",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(
            backups_to_remove("settings.json", &names, "settings.json.bak.400"),
            ["settings.json.bak.100", "settings.json.bak.90"]
        );
        assert!(
            backups_to_remove("settings.json", &names[..5], "settings.json.bak.300.2").is_empty()
        );
        // The one just written is the newest even when its name sorts first in its second (the
        // plain name was free again): it stays, and the oldest of the rest goes.
        let second: Vec<String> = [
            "x.bak.7",
            "x.bak.7.1",
            "x.bak.7.2",
            "x.bak.7.3",
            "x.bak.7.4",
            "x.bak.7.5",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(backups_to_remove("x", &second, "x.bak.7"), ["x.bak.7.1"]);
    }

    #[test]
    fn the_record_forgets_what_was_deleted_or_is_gone_and_learns_what_was_written() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<String>>();
        assert_eq!(
            recorded_after(
                &s(&["a.bak.1", "a.bak.2", "a.bak.3"]),
                &s(&["a.bak.9"]),
                &s(&["a.bak.1"]),
                &s(&["a.bak.2"])
            ),
            ["a.bak.3", "a.bak.9"]
        );
    }
}
