//! How reductions map onto a device: the device class's defaults, and the shape of
//! register-blocked tiles (rows per invocation, invocations per workgroup) searched per device.
//!
//! By default the device class decides ([`ClassDefaults`](crate::target::ClassDefaults)); ordinary runs and tests use that.
//! When asked (`TG_TUNE`, or the `tg-tune` command), a bounded search times every candidate
//! shape of a tiled kernel on the device and keeps the fastest, in memory and in
//! [`cache::FILE`] of tg's cache folder, per device and kernel class (tinygrad's BEAM idea,
//! at most [`BUDGET`] per class). Every candidate computes each output with the same loop in
//! the same order (a tile changes which invocation computes an output, not how), so a choice
//! changes speed, never values.

pub mod cache;
mod search;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

use crate::compile::{Hash128, ShaderCache};
use crate::config::{self, Var};
use crate::device::Device;
use crate::error::Result;
use crate::kernel::{Kernel, Strategy, tile_axes};
use crate::prepare;
use crate::target::Target;
pub use search::{BUDGET, Search, Trial, candidates};

/// When tiles are searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The device class's defaults (`TG_TUNE` unset or off).
    Defaults,
    /// Choices a search made before (in this process or in the cache file), else the
    /// defaults; nothing is searched (`TG_TUNE=cached`).
    Cached,
    /// Choices made before; a kernel class without one is searched first (`TG_TUNE=1`).
    Search,
}

impl Mode {
    /// The mode `TG_TUNE` asks for: `cached`, a switch's on-words for [`Mode::Search`], else
    /// [`Mode::Defaults`].
    pub fn from_env() -> Mode {
        match config::text(Var::Tune) {
            Some(v) if v.eq_ignore_ascii_case("cached") => Mode::Cached,
            Some(v) if config::is_on(&v) => Mode::Search,
            _ => Mode::Defaults,
        }
    }
}

/// What this process knows: the mode, the choices, the searches it ran.
struct State {
    /// `None` until read from `TG_TUNE` or set.
    mode: Option<Mode>,
    /// Whether the cache file has been read into `choices`.
    loaded: bool,
    choices: HashMap<u128, cache::Entry>,
    searches: Vec<Search>,
}

static STATE: LazyLock<Mutex<State>> = LazyLock::new(|| {
    Mutex::new(State {
        mode: None,
        loaded: false,
        choices: HashMap::new(),
        searches: Vec::new(),
    })
});

fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The mode of this process: what [`set_mode`] set, else `TG_TUNE`'s.
pub fn mode() -> Mode {
    *state().mode.get_or_insert_with(Mode::from_env)
}

/// Sets the mode for the rest of the process, whatever `TG_TUNE` says (the `tg-tune`
/// command searches this way).
pub fn set_mode(mode: Mode) {
    state().mode = Some(mode);
}

/// The searches this process ran, in order.
pub fn searches() -> Vec<Search> {
    state().searches.clone()
}

/// `k` as it runs on `dev`: itself, or with the tile a search chose for its class (searching
/// first in [`Mode::Search`] when none was chosen yet). Only tiled kernels are searched.
pub(crate) fn choose<'k>(dev: &Device, k: &'k Kernel) -> Result<Cow<'k, Kernel>> {
    if !matches!(k.strategy, Strategy::Tile { .. }) {
        return Ok(Cow::Borrowed(k));
    }
    let mut st = state();
    let mode = *st.mode.get_or_insert_with(Mode::from_env);
    if mode == Mode::Defaults {
        return Ok(Cow::Borrowed(k));
    }
    let dir = ShaderCache::global().dir().map(|d| d.to_path_buf());
    if !st.loaded {
        st.loaded = true;
        if let Some(dir) = &dir {
            let on_disk = cache::load(dir);
            st.choices.extend(on_disk);
        }
    }
    let key = key(dev, k)?;
    let known = st.choices.get(&key).map(|e| e.strategy);
    let chosen = match known {
        Some(s) => s,
        None if mode == Mode::Search => {
            // the lock is held: a concurrent realize waits rather than search the same class
            let found = search::search(dev, k)?;
            let chosen = found.chosen;
            let ns = found
                .trials
                .iter()
                .find(|t| t.strategy == chosen)
                .and_then(|t| t.ns)
                .unwrap_or(0);
            let entry = cache::Entry {
                strategy: chosen,
                ns,
                name: found.kernel.clone(),
            };
            if let Some(dir) = &dir
                && let Err(e) = cache::store(dir, key, entry.clone())
            {
                eprintln!("tg: the tile search's choice was not saved: {e}");
            }
            if crate::config::debug_level() >= 1 {
                eprintln!("{}", describe(&found));
            }
            st.choices.insert(key, entry);
            st.searches.push(found);
            chosen
        }
        None => return Ok(Cow::Borrowed(k)),
    };
    Ok(if chosen != k.strategy && fits(dev, k, chosen)? {
        Cow::Owned(Kernel {
            strategy: chosen,
            ..k.clone()
        })
    } else {
        Cow::Borrowed(k)
    })
}

/// Whether `k` may take tile `s` on `dev`: an output axis takes its rows, the device its
/// workgroup, and it loops no more than the default (a cache entry is checked again: the
/// file is data another process wrote).
fn fits(dev: &Device, k: &Kernel, s: Strategy) -> Result<bool> {
    let Strategy::Tile {
        rows,
        cols,
        threads,
    } = s
    else {
        return Ok(false);
    };
    if tile_axes(k.body.shape(), rows, cols).is_empty()
        || threads > dev.info().max_workgroup_invocations
    {
        return Ok(false);
    }
    let target = &Target::of(dev.info());
    let candidate = Kernel {
        strategy: s,
        ..k.clone()
    };
    Ok(prepare::lowered(&candidate, target)?.shader.loops
        <= prepare::lowered(k, target)?.shader.loops)
}

/// The class a choice is kept for: the device's identity and the kernel's default shader
/// (its ops, shapes and dtypes; kernels that differ only in scalars or in a reduction's
/// length within its class share a shader, and so a choice).
fn key(dev: &Device, k: &Kernel) -> Result<u128> {
    let info = dev.info();
    let lowered = prepare::lowered(k, &Target::of(info))?;
    let (major, minor, patch) = info.api_version;
    let ids = [info.vendor_id, info.device_id, major, minor, patch];
    let ids: Vec<u8> = ids.iter().flat_map(|v| v.to_le_bytes()).collect();
    Ok(Hash128::new()
        .field(b"tg-tune v2")
        .field(info.name.as_bytes())
        .field(info.driver.as_bytes())
        .field(&ids)
        .field(lowered.shader.source.as_bytes())
        .finish())
}

/// A search as lines for people: each candidate's time, and the choice.
pub fn describe(s: &Search) -> String {
    let mut out = format!(
        "tg: tile search for {} ({:.1} s)",
        s.kernel,
        s.elapsed.as_secs_f64()
    );
    for t in &s.trials {
        let Strategy::Tile {
            rows,
            cols,
            threads,
        } = t.strategy
        else {
            continue;
        };
        let time = t.ns.map_or("not timed".to_string(), |ns| {
            format!("{:.3} ms", ns as f64 / 1e6)
        });
        let mark = if t.strategy == s.chosen {
            "  <- chosen"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n  {rows:>2} rows x {cols} vectors x {threads:>3} invocations: {time:>12}{mark}"
        ));
    }
    out
}
