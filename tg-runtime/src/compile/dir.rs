//! Where tg keeps its caches on disk, and whether that folder can be trusted.
//!
//! The folder holds SPIR-V and the pipeline-cache blob, code the driver loads. Like ssh with its
//! keys, tg refuses a folder another user owns or could write to: such a user could plant code
//! that runs with our rights. A refused or unmakeable folder turns the disk caches off (memory
//! caches only) and says so once on stderr.

use std::ffi::OsString;
use std::fs::Metadata;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Why a cache folder is not used.
#[derive(Debug, thiserror::Error)]
pub enum Reason {
    /// It is missing and could not be made (a read-only place, a file on the way, `/proc`).
    #[error("cannot be created ({0})")]
    CannotCreate(std::io::Error),
    /// Something other than a folder is there.
    #[error("is not a folder")]
    NotAFolder,
    /// Another user owns it, so that user could change what is in it.
    #[error("is owned by uid {owner}, not by this user (uid {euid})")]
    ForeignOwner {
        /// The folder's owner.
        owner: u32,
        /// This process's effective uid.
        euid: u32,
    },
    /// Group or others may write to it.
    #[error("is writable by group/others (mode {mode:04o})")]
    OpenToOthers {
        /// The folder's permission bits (`mode & 0o7777`).
        mode: u32,
    },
}

impl Reason {
    /// What the user can do about it.
    fn advice(&self) -> &'static str {
        match self {
            Reason::CannotCreate(_) | Reason::NotAFolder => {
                "set TG_CACHE_DIR to a folder of yours, or to off"
            }
            Reason::ForeignOwner { .. } => "chown it or set TG_CACHE_DIR",
            Reason::OpenToOthers { .. } => "chmod 700 it or set TG_CACHE_DIR",
        }
    }
}

/// A cache folder tg will not use, and why.
#[derive(Debug)]
pub struct Unusable {
    /// The folder.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: Reason,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (path, reason) = (self.path.display(), &self.reason);
        write!(f, "{path} {reason}; {}", reason.advice())
    }
}

impl std::error::Error for Unusable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.reason {
            Reason::CannotCreate(e) => Some(e),
            _ => None,
        }
    }
}

/// The disk cache folder, created if missing and checked (`prepare`): `TG_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/tg`, else `$HOME/.cache/tg`. `Ok(None)` when the disk caches are turned
/// off (`TG_CACHE_DIR=""` or `off`) or there is no home to put them in.
pub fn cache_dir() -> Result<Option<PathBuf>, Unusable> {
    resolve(
        crate::config::os_text(crate::config::Var::CacheDir),
        std::env::var_os("XDG_CACHE_HOME"),
        std::env::var_os("HOME"),
    )
    .map(prepare)
    .transpose()
}

/// [`cache_dir`]'s choice of folder, with the environment passed in so the rules can be tested.
fn resolve(tg: Option<OsString>, xdg: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    if let Some(dir) = tg {
        return (!dir.is_empty() && dir != "off").then(|| PathBuf::from(dir));
    }
    // The XDG spec says relative values are invalid and must be ignored.
    if let Some(xdg) = xdg.map(PathBuf::from).filter(|p| p.is_absolute()) {
        return Some(xdg.join("tg"));
    }
    home.filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("tg"))
}

/// Makes `dir` ready to hold cache files, or says why it cannot: folders tg creates are private
/// to this user (0700); an existing one keeps its mode but must be this user's and not writable
/// by anyone else. The one rule for every disk cache.
pub(crate) fn prepare(dir: PathBuf) -> Result<PathBuf, Unusable> {
    let check = || {
        let meta = match std::fs::metadata(&dir) {
            Ok(meta) => meta,
            Err(_) => create_private(&dir)
                .and_then(|()| std::fs::metadata(&dir))
                .map_err(Reason::CannotCreate)?,
        };
        if !meta.is_dir() {
            return Err(Reason::NotAFolder);
        }
        trusted_folder(&meta)
    };
    match check() {
        Ok(()) => Ok(dir),
        Err(reason) => Err(Unusable { path: dir, reason }),
    }
}

/// `checked`'s folder; when it is unusable, says so on stderr (once per process, however many
/// caches ask) and gives `None`, so the caller runs on its memory cache alone.
pub(crate) fn or_warn(checked: Result<Option<PathBuf>, Unusable>) -> Option<PathBuf> {
    static WARNED: Once = Once::new();
    checked
        .inspect_err(|unusable| warn(&WARNED, unusable, &mut std::io::stderr()))
        .ok()
        .flatten()
}

/// Writes the one-line warning for `unusable` to `out`, unless `once` has already run.
fn warn(once: &Once, unusable: &Unusable, out: &mut dyn Write) {
    once.call_once(|| {
        // Nothing sensible to do when stderr itself fails.
        let _ = writeln!(out, "tg: disk cache off: {unusable}");
    });
}

/// Creates `dir` and missing parents with mode 0700 (before the umask); existing folders are
/// left as they are.
fn create_private(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Whether a cache folder may be trusted: owned by this user, and nobody else may write to it.
#[cfg(unix)]
fn trusted_folder(meta: &Metadata) -> Result<(), Reason> {
    use std::os::unix::fs::MetadataExt;
    if let Some(euid) = euid().filter(|&euid| euid != meta.uid()) {
        return Err(Reason::ForeignOwner {
            owner: meta.uid(),
            euid,
        });
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(Reason::OpenToOthers { mode });
    }
    Ok(())
}

/// Without Unix owners and modes there is nothing to check.
#[cfg(not(unix))]
fn trusted_folder(_meta: &Metadata) -> Result<(), Reason> {
    Ok(())
}

/// Whether a file found in the cache folder may be read: a regular file (not a symlink, which
/// could point anywhere) owned by this user. `meta` must come from `symlink_metadata`.
pub(crate) fn trusted_file(meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if euid().is_some_and(|euid| euid != meta.uid()) {
            return false;
        }
    }
    meta.file_type().is_file()
}

/// This process's effective uid, from `/proc/self/status` (the second field of `Uid:`), so tg
/// needs no libc binding. `None` where there is no `/proc` (macOS, BSDs): there the owner
/// checks are skipped and only the mode is checked.
#[cfg(unix)]
fn euid() -> Option<u32> {
    static EUID: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *EUID.get_or_init(|| {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let uids = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
        uids.split_whitespace().nth(1)?.parse().ok()
    })
}

/// A fresh path under the system temp folder (not created), removed when dropped.
#[cfg(test)]
pub(super) struct Scratch(pub(super) PathBuf);

#[cfg(test)]
impl Scratch {
    pub(super) fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicU64, Ordering};
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let name = format!("tg-unit-{tag}-{}-{n}", std::process::id());
        let path = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&path);
        Scratch(path)
    }
}

#[cfg(test)]
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Option<OsString> {
        Some(v.into())
    }

    #[test]
    fn precedence() {
        assert_eq!(resolve(s("/t"), s("/x"), s("/h")), Some("/t".into()));
        assert_eq!(resolve(None, s("/x"), s("/h")), Some("/x/tg".into()));
        assert_eq!(
            resolve(None, s("rel"), s("/h")),
            Some("/h/.cache/tg".into())
        );
        assert_eq!(resolve(None, None, s("/h")), Some("/h/.cache/tg".into()));
        assert_eq!(resolve(None, None, None), None);
    }

    #[test]
    fn disabled() {
        assert_eq!(resolve(s(""), s("/x"), s("/h")), None);
        assert_eq!(resolve(s("off"), s("/x"), s("/h")), None);
    }

    #[test]
    fn a_file_in_the_way_is_not_a_folder() {
        let root = Scratch::new("file");
        std::fs::create_dir(&root.0).unwrap();
        let file = root.0.join("file");
        std::fs::write(&file, b"x").unwrap();
        let err = prepare(file.clone()).unwrap_err();
        assert!(matches!(err.reason, Reason::NotAFolder), "{err}");
        assert_eq!(err.path, file);
        let below = prepare(file.join("sub")).unwrap_err();
        assert!(matches!(below.reason, Reason::CannotCreate(_)), "{below}");
    }

    #[test]
    fn one_warning_per_once() {
        let once = Once::new();
        let unusable = Unusable {
            path: "/x".into(),
            reason: Reason::OpenToOthers { mode: 0o775 },
        };
        let mut out = Vec::new();
        warn(&once, &unusable, &mut out);
        warn(&once, &unusable, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "tg: disk cache off: /x is writable by group/others (mode 0775); chmod 700 it \
             or set TG_CACHE_DIR\n"
        );
    }

    #[cfg(unix)]
    mod unix {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};

        use super::*;

        fn mode(path: &Path) -> u32 {
            std::fs::metadata(path).unwrap().mode() & 0o7777
        }

        fn chmod(path: &Path, mode: u32) {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        }

        #[test]
        fn euid_is_the_owner_of_new_files() {
            let root = Scratch::new("euid");
            std::fs::create_dir(&root.0).unwrap();
            let owner = std::fs::metadata(&root.0).unwrap().uid();
            assert_eq!(euid(), Some(owner));
        }

        #[test]
        fn created_folders_are_private() {
            let root = Scratch::new("create");
            let dir = root.0.join("a").join("tg");
            assert_eq!(prepare(dir.clone()).unwrap(), dir);
            assert_eq!(mode(&dir), 0o700);
            assert_eq!(mode(&root.0), 0o700, "missing parents too");
        }

        #[test]
        fn an_existing_folder_keeps_its_mode() {
            let root = Scratch::new("keep");
            std::fs::create_dir(&root.0).unwrap();
            chmod(&root.0, 0o750);
            assert_eq!(prepare(root.0.clone()).unwrap(), root.0);
            assert_eq!(mode(&root.0), 0o750);
        }

        #[test]
        fn a_folder_others_can_write_is_refused() {
            let root = Scratch::new("open");
            std::fs::create_dir(&root.0).unwrap();
            for bits in [0o777, 0o770, 0o702, 0o1777] {
                chmod(&root.0, bits);
                let err = prepare(root.0.clone()).unwrap_err();
                assert!(
                    matches!(err.reason, Reason::OpenToOthers { mode } if mode == bits),
                    "{bits:o}: {err}"
                );
                assert_eq!(err.path, root.0);
            }
        }

        #[test]
        fn a_folder_of_another_user_is_refused() {
            if euid() != Some(0) {
                eprintln!("skipped: only root can give a folder to another user");
                return;
            }
            let root = Scratch::new("foreign");
            std::fs::create_dir(&root.0).unwrap();
            std::os::unix::fs::chown(&root.0, Some(1), None).unwrap();
            let err = prepare(root.0.clone()).unwrap_err();
            assert!(
                matches!(err.reason, Reason::ForeignOwner { owner: 1, euid: 0 }),
                "{err}"
            );
        }

        #[test]
        fn foreign_and_linked_files_are_not_trusted() {
            let root = Scratch::new("files");
            std::fs::create_dir(&root.0).unwrap();
            let file = root.0.join("f");
            std::fs::write(&file, b"x").unwrap();
            let meta = |p: &Path| std::fs::symlink_metadata(p).unwrap();
            assert!(trusted_file(&meta(&file)));
            let link = root.0.join("l");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert!(!trusted_file(&meta(&link)), "a symlink");
            assert!(!trusted_file(&meta(&root.0)), "a folder");
            if euid() == Some(0) {
                std::os::unix::fs::chown(&file, Some(1), None).unwrap();
                assert!(!trusted_file(&meta(&file)), "another user's file");
            }
        }

        #[cfg(target_os = "linux")]
        #[test]
        fn proc_is_unusable() {
            let err = prepare("/proc/x".into()).unwrap_err();
            assert!(matches!(err.reason, Reason::CannotCreate(_)), "{err}");
            assert!(err.to_string().starts_with("/proc/x cannot be created ("));
        }
    }
}
