//! The search's choices on disk: `tune-v2.txt` in tg's cache folder (the one that holds
//! compiled SPIR-V), one line per device and kernel class:
//!
//! ```text
//! <key, 32 hex digits> tile <rows> <threads> <median ns> <kernel name>
//! ```
//!
//! The key hashes the device's identity and the kernel's default shader source, so a new
//! driver or a codegen change misses instead of applying a stale choice. A line that does not
//! parse is skipped: a damaged cache costs a search, never a failure. The file is rewritten
//! whole (temporary file, rename), so concurrent processes lose at most each other's newest
//! lines.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::kernel::Strategy;

/// The file's name in the cache folder; the version changes when the format or the meaning
/// of a key does.
pub const FILE: &str = "tune-v2.txt";

/// One remembered choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The strategy the search chose.
    pub strategy: Strategy,
    /// Its median time, nanoseconds.
    pub ns: u64,
    /// The kernel's name, for people reading the file.
    pub name: String,
}

/// The cache file in `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Parses the file's text; lines that do not parse are skipped.
pub fn parse(text: &str) -> HashMap<u128, Entry> {
    text.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<(u128, Entry)> {
    let mut f = line.split_whitespace();
    let key = u128::from_str_radix(f.next()?, 16).ok()?;
    let strategy = match f.next()? {
        "tile" => Strategy::Tile {
            rows: f
                .next()?
                .parse()
                .ok()
                .filter(|r: &usize| r.is_power_of_two())?,
            cols: f
                .next()?
                .parse()
                .ok()
                .filter(|c: &usize| c.is_power_of_two())?,
            threads: f
                .next()?
                .parse()
                .ok()
                .filter(|t: &u32| t.is_power_of_two())?,
        },
        _ => return None,
    };
    let ns = f.next()?.parse().ok()?;
    let name = f.next().unwrap_or("").to_string();
    Some((key, Entry { strategy, ns, name }))
}

/// The file's text for `entries`, in key order (so equal caches are equal files).
pub fn format(entries: &HashMap<u128, Entry>) -> String {
    let mut keys: Vec<&u128> = entries.keys().collect();
    keys.sort();
    let mut out = String::new();
    for key in keys {
        let e = &entries[key];
        if let Strategy::Tile {
            rows,
            cols,
            threads,
        } = e.strategy
        {
            out.push_str(&format!(
                "{key:032x} tile {rows} {cols} {threads} {} {}\n",
                e.ns, e.name
            ));
        }
    }
    out
}

/// The entries of the file in `dir`, if it exists and tg may trust it.
pub fn load(dir: &Path) -> HashMap<u128, Entry> {
    crate::compile::read_trusted(&path(dir))
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|text| parse(&text))
        .unwrap_or_default()
}

/// Adds `entry` to the file in `dir`, keeping what another process wrote meanwhile.
pub fn store(dir: &Path, key: u128, entry: Entry) -> std::io::Result<()> {
    let mut entries = load(dir);
    entries.insert(key, entry);
    crate::compile::write_atomic(&path(dir), format(&entries).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_bad_lines_are_skipped() {
        let mut entries = HashMap::new();
        let entry = |rows, threads, ns| Entry {
            strategy: Strategy::Tile {
                rows,
                cols: 2,
                threads,
            },
            ns,
            name: "Rt_1024x1024_f32".into(),
        };
        entries.insert(7u128 << 100, entry(16, 256, 120_000_000));
        entries.insert(3, entry(8, 64, 5_000));
        let text = format(&entries);
        assert_eq!(parse(&text), entries);
        let damaged = format!(
            "{text}garbage\n{:032x} tile 3 1 256 10 x\n{:032x} row 4 1 256 10 x\n{:032x} tile 4 1\n{:032x} tile 4 256 10 x\n",
            1, 2, 4, 5
        );
        assert_eq!(parse(&damaged), entries);
    }

    #[test]
    fn store_keeps_other_entries() {
        let dir = std::env::temp_dir().join(format!("tg-tune-cache-{}", std::process::id()));
        let dir = crate::compile::prepare(dir).unwrap();
        let entry = |rows| Entry {
            strategy: Strategy::Tile {
                rows,
                cols: 1,
                threads: 128,
            },
            ns: 42,
            name: "k".into(),
        };
        store(&dir, 1, entry(4)).unwrap();
        store(&dir, 2, entry(8)).unwrap();
        store(&dir, 1, entry(16)).unwrap();
        let loaded = load(&dir);
        assert_eq!(loaded.len(), 2);
        assert_eq!(loaded[&1], entry(16));
        assert_eq!(loaded[&2], entry(8));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
