//! Where tg keeps its caches on disk.

use std::ffi::OsString;
use std::path::PathBuf;

/// The cache folder: `TG_CACHE_DIR`, else `$XDG_CACHE_HOME/tg`, else `$HOME/.cache/tg`.
/// `TG_CACHE_DIR=""` or `TG_CACHE_DIR=off` disables the disk caches. The folder may not exist yet.
pub fn cache_dir() -> Option<PathBuf> {
    resolve(
        std::env::var_os("TG_CACHE_DIR"),
        std::env::var_os("XDG_CACHE_HOME"),
        std::env::var_os("HOME"),
    )
}

/// [`cache_dir`] with the environment passed in, so the rules can be tested.
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
}
