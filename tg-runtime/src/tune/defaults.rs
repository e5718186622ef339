//! A register-blocked tile's shape when nothing was searched: one rule per device class.
//!
//! On lavapipe (2 cores, LLVM 15) a 1024^3 matmul takes 110-125 ms with tiles of 32 rows
//! (128 accumulators per invocation, 32 + 4 loads for 128 multiply-adds), 127-155 ms with 16,
//! 148-177 with 8 and 217-250 with 4 (the search's figures, `tg-tune matmul 1024`); 512^3
//! takes 14.6-16.2 ms with 32 or 16 rows against 23-24 with 4: a CPU has registers to spare
//! and every load saved is a gather saved. Bigger tiles mean fewer invocations, and lavapipe
//! runs a workgroup on one core, so a small matmul (an MLP's 64 x 128 output) left on one
//! workgroup keeps the other cores idle: big tiles are taken only where every core still gets
//! a workgroup. GPUs keep 4 rows until one is measured; the search (`TG_TUNE`, `tg-tune`)
//! finds better shapes per device.

use crate::codegen::program::{LANES, Strategy, tile_axes};
use crate::device::{DeviceInfo, DeviceType};

/// Rows every tile may take: the scheduler decides whether a kernel is tiled at all with it.
pub const BASE_ROWS: usize = 4;

/// How a device class runs reductions by default: the shape of register-blocked tiles, and
/// how many invocations keep it busy (which also decides when a reduction needs a
/// cooperative workgroup; `schedule::strategy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassDefaults {
    /// The most rows a tile takes (a power of two, at least [`BASE_ROWS`]).
    pub rows: usize,
    /// Invocations per workgroup.
    pub threads: u32,
    /// Invocations that keep every core busy, where the class knows (a CPU: a workgroup per
    /// core); `usize::MAX` where it does not (a GPU, whose rules of thumb apply). Tiles of
    /// more than [`BASE_ROWS`] rows only where at least this many remain.
    pub busy: usize,
    /// Invocations sharing a row of light work (`schedule::rows::LIGHT_OPS`) where the rows
    /// alone keep the device busy (at least [`ClassDefaults::busy`] of them): a CPU's
    /// subgroup, which reduces with subgroup operations alone and whose lanes read
    /// consecutive vectors of the row (layernorm (4096, 1024) on lavapipe: 3.7-4.4 ms with 8
    /// lanes a row, 5.1-5.7 with an invocation a row), or 1 without subgroup arithmetic.
    pub row_threads: u32,
}

impl Default for ClassDefaults {
    /// A GPU's: 4 rows, 256 invocations per workgroup.
    fn default() -> Self {
        ClassDefaults {
            rows: BASE_ROWS,
            threads: 256,
            busy: usize::MAX,
            row_threads: 1,
        }
    }
}

/// This machine's cores, read once: `available_parallelism` reads the cgroup's quota files,
/// and every realize plans with the class defaults.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl ClassDefaults {
    /// The defaults of the device `info` describes; a CPU device runs on this machine's
    /// cores.
    pub fn of(info: &DeviceInfo) -> Self {
        match info.device_type {
            DeviceType::Cpu => {
                let subgroup = info.subgroup_arithmetic.then_some(info.subgroup_size);
                ClassDefaults::cpu(cores(), subgroup)
            }
            DeviceType::Discrete
            | DeviceType::Integrated
            | DeviceType::Virtual
            | DeviceType::Other => ClassDefaults::default(),
        }
    }

    /// A CPU device's defaults on `cores` cores, with subgroups of `subgroup` invocations
    /// where it has subgroup arithmetic: tiles of up to 32 rows while every core gets a
    /// workgroup of 256 invocations, and a row kernel's row shared by a subgroup.
    pub fn cpu(cores: usize, subgroup: Option<u32>) -> Self {
        ClassDefaults {
            rows: 32,
            threads: 256,
            busy: 256 * cores.max(1),
            row_threads: subgroup.unwrap_or(1).max(1),
        }
    }

    /// The strategy of a merge of sorted runs of records of shape `shape` (`[.., n, words]`):
    /// 256 records per invocation, halving to 8 while the invocations would not keep the
    /// device busy. A sort of 2^20 f32 on lavapipe: 168-180 ms with 256, 200-245 with 16 to
    /// 64, 250-300 with 8 (the search's cache misses); a GPU wants invocations more (8, not
    /// measured).
    pub fn merge(&self, shape: &[usize]) -> Strategy {
        let words = *shape.last().expect("records of words");
        let records = shape.iter().product::<usize>() / words.max(1);
        let mut per = 256;
        while per > 8 && records / per < self.busy {
            per /= 2;
        }
        Strategy::Merge { words, per }
    }

    /// The tile for an output of `shape` that the scheduler decided to tile: the most rows,
    /// halving from [`ClassDefaults::rows`], that an output axis takes and that leave at least
    /// [`ClassDefaults::busy`] invocations, else [`BASE_ROWS`].
    pub fn tile(&self, shape: &[usize]) -> Strategy {
        let numel: usize = shape.iter().product();
        let mut rows = self.rows;
        while rows > BASE_ROWS
            && (tile_axes(shape, rows).is_empty() || numel / (rows * LANES) < self.busy)
        {
            rows /= 2;
        }
        Strategy::Tile {
            rows: rows.max(BASE_ROWS),
            threads: self.threads,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_takes_big_tiles_where_enough_invocations_remain() {
        let cpu = ClassDefaults::cpu(8, None);
        let tile = |rows| Strategy::Tile { rows, threads: 256 };
        assert_eq!(cpu.tile(&[1024, 1024]), tile(32));
        // 512 x 512 / 128 = 2048 invocations of 32 rows: a workgroup for each of 8 cores
        assert_eq!(cpu.tile(&[512, 512]), tile(32));
        assert_eq!(ClassDefaults::cpu(16, None).tile(&[512, 512]), tile(16));
        // 256 x 256: 1024 invocations of 16 rows, 2048 of 8
        assert_eq!(cpu.tile(&[256, 256]), tile(8));
        // on 2 cores 32 rows leave enough
        assert_eq!(ClassDefaults::cpu(2, None).tile(&[256, 256]), tile(32));
        // an MLP layer's (64, 128, 1) output: 512 tiles of 4 rows at most
        assert_eq!(cpu.tile(&[64, 128, 1]), tile(4));
        assert_eq!(ClassDefaults::cpu(2, None).tile(&[64, 128, 1]), tile(4));
        // no axis of 32, 16 or 8: 4 rows
        assert_eq!(cpu.tile(&[4, 4, 4, 4096]), tile(4));
        // a GPU keeps 4 rows
        assert_eq!(ClassDefaults::default().tile(&[1024, 1024]), tile(4));
    }
}
