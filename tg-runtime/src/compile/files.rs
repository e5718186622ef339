//! Reading and writing files of tg's cache folder safely: never through a symlink, never
//! another user's file, always whole (write to a temporary file, then rename).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::dir::trusted_file;

/// The bytes of `path` if it is a file tg may trust ([`trusted_file`]); a symlink is never
/// followed. The file opened is checked to be the one looked at, so swapping in a symlink
/// between the look and the open is caught too.
pub(crate) fn read_trusted(path: &Path) -> Option<Vec<u8>> {
    let looked = std::fs::symlink_metadata(path).ok()?;
    if !trusted_file(&looked) {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    if !same_file(&looked, &file.metadata().ok()?) {
        return None;
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Whether two metadata describe the same file (device and inode).
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

/// Without inode numbers, a file that is still a regular file is taken as the same one.
#[cfg(not(unix))]
fn same_file(_a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    b.is_file()
}

/// Writes `bytes` to a temporary file next to `path`, then renames it over `path`, so readers
/// (other threads, other processes) see the old file or the whole new one, never a part. The
/// file is private to this user (0600); the rename replaces a symlink at `path`, never writes
/// through it.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = PathBuf::from(tmp);
    let result = create_private(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Creates a new file, mode 0600 on Unix; fails if anything (a symlink included) is there.
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}
