//! An open folder: its entries are listed through the open handle, and the files in it are
//! opened by name relative to that handle (`openat`), so each open resolves one name rather
//! than the whole path from the filesystem's root again. Reading a board opens thousands of
//! files a few folders below a workspace that itself sits several folders deep; walking those
//! leading folders again for every file was a measurable part of the time `aw status` spends in
//! the kernel.
//!
//! Names are followed as an ordinary open follows them: a symbolic link in the folder leads
//! where it leads, as `std::fs::File::open(dir.join(name))` would.

use std::fs::File;

/// What a listing says an entry is, from the entry itself (no `stat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A symbolic link (to anything).
    Symlink,
    /// A folder.
    Dir,
    /// Anything else: a FIFO, a socket, a device.
    Special,
    /// The filesystem does not say: look before opening.
    Unknown,
}

impl EntryKind {
    /// Known to be a regular file (a link to one is not: it is looked at before being opened).
    pub fn is_regular(self) -> bool {
        self == EntryKind::File
    }

    /// May be a regular file: one, or a link (or an entry of unknown type) that may lead to one.
    pub fn may_be_regular(self) -> bool {
        matches!(
            self,
            EntryKind::File | EntryKind::Symlink | EntryKind::Unknown
        )
    }
}

#[cfg(unix)]
mod imp {
    use super::EntryKind;
    use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags};
    use std::fs::File;
    use std::path::Path;

    /// An open folder.
    #[derive(Debug)]
    pub struct Folder {
        dir: Dir,
        /// The entries were read once: a second listing starts over.
        listed: bool,
    }

    impl Folder {
        /// Opens the folder at `path` (a link to a folder is followed).
        pub fn open(path: &Path) -> std::io::Result<Folder> {
            let fd = rustix::fs::open(
                path,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            Ok(Folder {
                dir: Dir::new(fd)?,
                listed: false,
            })
        }

        /// Every entry with a UTF-8 name, in the order the folder gives them (`.` and `..` left
        /// out). Reading stops at the first error, as a listing that cannot go on has no more
        /// to give.
        pub fn entries(&mut self) -> Vec<(String, EntryKind)> {
            // A fresh folder is read from its start: rewinding it would cost a call for nothing.
            if self.listed {
                self.dir.rewind();
            }
            self.listed = true;
            let mut out = Vec::new();
            while let Some(Ok(entry)) = self.dir.read() {
                let name = entry.file_name().to_bytes();
                if name == b"." || name == b".." {
                    continue;
                }
                let Ok(name) = std::str::from_utf8(name) else {
                    continue;
                };
                out.push((name.to_owned(), kind(entry.file_type())));
            }
            out
        }

        /// Opens the file `name` in this folder for reading.
        pub fn open_file(&self, name: &str) -> std::io::Result<File> {
            // Non-blocking: should a FIFO take a listed file's place before it is opened, the
            // open returns rather than waiting for a writer (reads of a regular file are
            // unaffected). See `unless_leased` for the one case where waiting is right.
            let open = |flags: OFlags| {
                rustix::fs::openat(self.dir.fd()?, name, flags, Mode::empty())
                    .map_err(std::io::Error::from)
            };
            let flags = OFlags::RDONLY | OFlags::CLOEXEC;
            let fd = super::unless_leased(open(flags | OFlags::NONBLOCK), || open(flags))?;
            Ok(File::from(fd))
        }

        /// Whether `name` in this folder is, or leads to, a regular file.
        pub fn is_file(&self, name: &str) -> bool {
            self.dir
                .fd()
                .and_then(|fd| rustix::fs::statat(fd, name, AtFlags::empty()))
                .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::RegularFile)
        }
    }

    fn kind(t: FileType) -> EntryKind {
        match t {
            FileType::RegularFile => EntryKind::File,
            FileType::Symlink => EntryKind::Symlink,
            FileType::Directory => EntryKind::Dir,
            FileType::Unknown => EntryKind::Unknown,
            _ => EntryKind::Special,
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::EntryKind;
    use std::fs::File;
    use std::path::{Path, PathBuf};

    /// A folder, by path (no `openat` here: each file is opened by its whole path).
    #[derive(Debug)]
    pub struct Folder {
        path: PathBuf,
    }

    impl Folder {
        /// The folder at `path` (a link to a folder is followed).
        pub fn open(path: &Path) -> std::io::Result<Folder> {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(std::io::Error::from(std::io::ErrorKind::NotADirectory));
            }
            Ok(Folder {
                path: path.to_owned(),
            })
        }

        /// Every entry with a UTF-8 name.
        pub fn entries(&mut self) -> Vec<(String, EntryKind)> {
            let Ok(list) = std::fs::read_dir(&self.path) else {
                return Vec::new();
            };
            list.filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    let kind = match e.file_type() {
                        Ok(t) if t.is_file() => EntryKind::File,
                        Ok(t) if t.is_symlink() => EntryKind::Symlink,
                        Ok(t) if t.is_dir() => EntryKind::Dir,
                        Ok(_) => EntryKind::Special,
                        Err(_) => EntryKind::Unknown,
                    };
                    Some((name, kind))
                })
                .collect()
        }

        /// Opens the file `name` in this folder for reading.
        pub fn open_file(&self, name: &str) -> std::io::Result<File> {
            File::open(self.path.join(name))
        }

        /// Whether `name` in this folder is, or leads to, a regular file.
        pub fn is_file(&self, name: &str) -> bool {
            std::fs::metadata(self.path.join(name)).is_ok_and(|m| m.is_file())
        }
    }
}

pub use imp::Folder;

/// Opens `name` in `folder` when it is a regular file and reads it whole into `buf`
/// (replacing its contents); returns its modification time. `None` when it is not a regular
/// file or cannot be read.
///
/// `kind` is what the listing said: an entry not known to be a regular file is looked at before
/// it is opened, as opening a FIFO that carries a document's name would wait for a writer
/// forever. The open file's own `stat` gives the size and the time, so a file costs open, stat,
/// read and close, the calls a bare read needs.
pub fn read_regular_in(
    folder: &Folder,
    name: &str,
    kind: EntryKind,
    buf: &mut Vec<u8>,
) -> Option<Option<std::time::SystemTime>> {
    if !kind.may_be_regular() || (!kind.is_regular() && !folder.is_file(name)) {
        return None;
    }
    read_open(folder.open_file(name).ok()?, buf)
}

/// The result of a non-blocking open, or of `again` (a blocking one) when the file is under a
/// lease: another process (Samba, an NFS server) holds it and has been told to let go, and
/// `EWOULDBLOCK` asks the opener to wait, as a blocking open does. Anything else, FIFOs
/// included (their non-blocking open returns at once), stands.
pub(crate) fn unless_leased<T>(
    first: std::io::Result<T>,
    again: impl FnOnce() -> std::io::Result<T>,
) -> std::io::Result<T> {
    match first {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => again(),
        other => other,
    }
}

/// Opens the file at `path` for reading when it is, or leads to, a regular file. A folder is
/// `IsADirectory`, as reading one always was; anything else (a FIFO, a socket, a device) is
/// refused with `InvalidInput`, never waited on: a workspace file is never one. The one open for
/// the workspace files aw reads by path.
///
/// The open itself does not wait (`O_NONBLOCK`: a FIFO opens at once, a socket fails with
/// `ENXIO`) and the handle's own `stat` settles the type, so a read costs open, stat, read and
/// close: looking at the path first would add a call per file, a third more for `sessions`.
fn open_regular(path: &std::path::Path) -> std::io::Result<(File, u64)> {
    let not_regular =
        || std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
    #[cfg(unix)]
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        let open = |flags: i32| {
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(flags)
                .open(path)
        };
        match unless_leased(open(libc::O_NONBLOCK), || open(0)) {
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => return Err(not_regular()),
            other => other?,
        }
    };
    #[cfg(not(unix))]
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok((file, meta.len()))
    } else if meta.is_dir() {
        Err(std::io::Error::from(std::io::ErrorKind::IsADirectory))
    } else {
        Err(not_regular())
    }
}

/// The names of the entries of `dir` that are valid UTF-8, sorted (a listing's own order is the
/// filesystem's); none when it cannot be listed.
pub fn sorted_names(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// The bytes of the regular file at `path` (see [`open_regular`]), read through the handle's
/// announced size; a file over [`MAX_DOCUMENT_BYTES`] is refused unread.
pub fn read_regular_path(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let (file, size) = open_regular(path)?;
    // A file this big is no document aw reads whole; reserving its size would abort the process.
    if size > MAX_DOCUMENT_BYTES as u64 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "larger than {} MiB, more than any file aw reads whole",
                MAX_DOCUMENT_BYTES / (1024 * 1024)
            ),
        ));
    }
    let mut bytes = Vec::new();
    crate::sessions::artifacts::read_announced(file, size, &mut bytes)?;
    Ok(bytes)
}

/// The bytes of the regular file at `path` when it holds exactly `size` bytes (`None` when it
/// holds another number), opened as [`read_regular_path`] opens it and read no further than
/// `size`: comparing a file with known bytes costs no more than those bytes, however big the
/// file is.
pub fn read_regular_sized(path: &std::path::Path, size: u64) -> std::io::Result<Option<Vec<u8>>> {
    let (file, now) = open_regular(path)?;
    if now != size {
        return Ok(None);
    }
    let mut bytes = Vec::new();
    crate::sessions::artifacts::read_announced(file, size, &mut bytes)?;
    Ok((bytes.len() as u64 == size).then_some(bytes))
}

/// A document bigger than this is not a spec, a plan or a session note: it is left out rather
/// than read into memory.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024 * 1024;

/// Reads an open file whole into `buf` when it is still a regular file of a document's size.
fn read_open(file: File, buf: &mut Vec<u8>) -> Option<Option<std::time::SystemTime>> {
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_DOCUMENT_BYTES as u64 {
        return None;
    }
    crate::sessions::artifacts::read_announced(file, meta.len(), buf).ok()?;
    Some(meta.modified().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_name_their_kind_and_files_open_by_name() {
        let t = tempfile::tempdir().expect("tempdir");
        std::fs::write(t.path().join("a.md"), "alpha").expect("write");
        std::fs::create_dir(t.path().join("sub")).expect("mkdir");
        let mut f = Folder::open(t.path()).expect("open");
        let mut entries = f.entries();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            entries,
            vec![
                ("a.md".to_owned(), EntryKind::File),
                ("sub".to_owned(), EntryKind::Dir)
            ]
        );
        // Listing again gives the same entries.
        assert_eq!(f.entries().len(), 2);
        let mut buf = b"old".to_vec();
        assert!(read_regular_in(&f, "a.md", EntryKind::File, &mut buf).is_some());
        assert_eq!(buf, b"alpha");
        assert!(read_regular_in(&f, "sub", EntryKind::Dir, &mut buf).is_none());
        assert!(read_regular_in(&f, "missing.md", EntryKind::Unknown, &mut buf).is_none());
        assert!(Folder::open(&t.path().join("a.md")).is_err());
    }

    #[test]
    fn a_leased_file_is_opened_again_waiting_and_nothing_else_is() {
        let would_block = || Err::<u8, _>(std::io::Error::from(std::io::ErrorKind::WouldBlock));
        assert_eq!(unless_leased(would_block(), || Ok(7)).expect("again"), 7);
        assert_eq!(unless_leased(Ok(1), || Ok(7)).expect("first"), 1);
        let missing = unless_leased(
            Err::<u8, _>(std::io::Error::from(std::io::ErrorKind::NotFound)),
            || Ok(7),
        );
        assert_eq!(
            missing.expect_err("stands").kind(),
            std::io::ErrorKind::NotFound
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_path_read_refuses_what_is_not_a_regular_file_without_waiting() {
        let t = tempfile::tempdir().expect("tempdir");
        let fifo = t.path().join("fifo.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let link = t.path().join("link.json");
        std::os::unix::fs::symlink(&fifo, &link).expect("symlink");
        let socket = t.path().join("socket.md");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
        let device = t.path().join("device.md");
        std::os::unix::fs::symlink("/dev/null", &device).expect("symlink");
        for p in [&fifo, &link, &socket, &device] {
            let e = read_regular_path(p).expect_err("refused");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{p:?}");
        }
        assert_eq!(
            read_regular_path(t.path()).expect_err("a folder").kind(),
            std::io::ErrorKind::IsADirectory
        );
        std::fs::write(t.path().join("a.json"), "{}").expect("write");
        assert_eq!(
            read_regular_path(&t.path().join("a.json")).expect("read"),
            b"{}"
        );
        assert_eq!(
            read_regular_path(&t.path().join("none"))
                .expect_err("missing")
                .kind(),
            std::io::ErrorKind::NotFound
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_fifos_never_opened() {
        let t = tempfile::tempdir().expect("tempdir");
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("real.md"), "through").expect("write");
        std::os::unix::fs::symlink(outside.path().join("real.md"), t.path().join("link.md"))
            .expect("symlink");
        std::os::unix::fs::symlink(outside.path(), t.path().join("dirlink")).expect("symlink");
        let made = std::process::Command::new("mkfifo")
            .arg(t.path().join("fifo.md"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let mut f = Folder::open(t.path()).expect("open");
        let kinds: std::collections::BTreeMap<String, EntryKind> =
            f.entries().into_iter().collect();
        assert_eq!(kinds["link.md"], EntryKind::Symlink);
        assert_eq!(kinds["fifo.md"], EntryKind::Special);
        let mut buf = Vec::new();
        assert!(read_regular_in(&f, "link.md", kinds["link.md"], &mut buf).is_some());
        assert_eq!(buf, b"through");
        // A link to a folder is no file; a FIFO listed as unknown is looked at, not opened.
        assert!(read_regular_in(&f, "dirlink", kinds["dirlink"], &mut buf).is_none());
        assert!(read_regular_in(&f, "fifo.md", EntryKind::Unknown, &mut buf).is_none());
        assert!(read_regular_in(&f, "fifo.md", EntryKind::Special, &mut buf).is_none());
        // A folder reached through a link opens and lists.
        let mut through = Folder::open(&t.path().join("dirlink")).expect("open");
        assert_eq!(through.entries().len(), 1);
    }
}
