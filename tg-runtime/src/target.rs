//! Everything tg knows of a device that planning and codegen use, in one value read once from
//! its [`DeviceInfo`]: the kernel class and its rules (tile shapes, rows, merges), the loop
//! budget, what lowering may take (push-constant words, binding range, addresses, wide loads,
//! vectors an invocation) and what rendering may use (subgroup arithmetic, float controls).
//! The scheduler and lowering read a [`Target`], never a device: they run with no driver.

use crate::device::{DeviceInfo, KernelClass};
use crate::kernel::{LANES, Strategy, tile_axes, tile_outputs};
use crate::ops::{AttentionDropout, AttentionMask, AttentionPass};

/// What planning and codegen know of a device ([`Target::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The class kernels are planned for ([`DeviceInfo::kernel_class`]).
    pub class: KernelClass,
    /// How the class runs reductions: tile shapes, and how many invocations keep it busy.
    pub defaults: ClassDefaults,
    /// Loop back-edges one invocation may take before the driver ends its loops (llvmpipe:
    /// 65,535, counted over all loops of the invocation); `None` where there is no such limit.
    pub loop_budget: Option<u64>,
    /// What lowering may take from the device.
    pub lowering: Lowering,
    /// What rendering may use of the device.
    pub glsl: GlslFeatures,
    /// Storage buffers one kernel may bind ([`DeviceInfo::max_storage_buffers`]): a
    /// multi-output kernel's outputs and inputs together stay within it.
    pub bindings: u32,
}

impl Target {
    /// The target of the device `info` describes. CPU kernels (a CPU device, or
    /// `TG_DEVICE_CLASS=cpu`) load pairs of vectors as one where the device has 64-bit
    /// integers, and compute 4 output vectors an invocation of a kernel without loops.
    pub fn of(info: &DeviceInfo) -> Target {
        let class = info.kernel_class();
        let cpu = class == KernelClass::Cpu;
        let defaults = ClassDefaults::of(info);
        Target {
            class,
            defaults,
            loop_budget: info.loop_budget,
            lowering: Lowering {
                // 256 bytes at most: more gains little, and every dispatch pushes them all
                param_words: (info.max_push_constant_bytes.clamp(128, 256) / 4 - 1) as usize,
                generic_trips: true,
                bind_limit: info.max_storage_buffer_range,
                addresses: info.buffer_device_address,
                wide_loads: cpu && info.shader_int64,
                texel_bytes: if cpu && !info.storage_reads {
                    info.max_texel_buffer_elements * 16
                } else {
                    0
                },
                vectors: if cpu { 4 } else { 1 },
                cores: defaults.cores(),
            },
            glsl: GlslFeatures {
                subgroup_arithmetic: info.subgroup_arithmetic,
                subgroup_size: info.subgroup_size,
                preserve_inf_nan_f32: info.preserve_inf_nan_f32,
                preserve_inf_nan_f64: info.preserve_inf_nan_f64,
            },
            bindings: info.max_storage_buffers,
        }
    }
}

/// What lowering may take from the device.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lowering {
    /// Push-constant words available for scalars and trip counts.
    pub param_words: usize,
    /// Read reduction trip counts from push constants, with the loop variable's range set to
    /// the trip count's class, so reductions of other lengths share the shader. Off, trip
    /// counts are literals and ranges exact (the fallback when a class's range would push
    /// index arithmetic past 32 bits).
    pub generic_trips: bool,
    /// The largest buffer a descriptor may bind (`maxStorageBufferRange`); larger ones are
    /// reached by device address (two push-constant words each) where `addresses` is set.
    pub bind_limit: u64,
    /// The device has buffer device addresses.
    pub addresses: bool,
    /// Read two adjacent vectors as one wide load (8 elements; a `u64vec4` for 32-bit
    /// types), and unroll reductions by 8 so their steps read such pairs. For CPU drivers:
    /// lavapipe loads a varying address lane by lane, so the number of loads sets a
    /// kernel's time, not their width (a sum of 16M f32: 69 ms in vectors, 39 in pairs).
    pub wide_loads: bool,
    /// Inputs of at most this many bytes may be read through uniform texel buffers
    /// (`Program::texels`); 0: none. CPU drivers only: lavapipe loads a storage buffer at a
    /// varying address lane by lane, a branch a lane, but gathers a texel fetch (a Q8_0
    /// matrix-vector product of a decode step, all inputs as texels: 1.7-1.8x faster).
    pub texel_bytes: u64,
    /// Output vectors an invocation of a kernel without loops computes, one after another
    /// (`Program::vectors`): 4 on CPU drivers, where every invocation pays for its own
    /// setup (its index, its bound check, its push-constant reads) and a subgroup is a few
    /// SIMD lanes; 1 on GPUs, which want invocations.
    pub vectors: usize,
    /// Cores a CPU device runs workgroups on (1 for a GPU, whose workgroups are many): a
    /// serial kernel with fewer invocations than a workgroup for each runs in smaller
    /// workgroups ([`balanced_threads`]).
    pub cores: usize,
}

impl Default for Lowering {
    /// Vulkan's guaranteed 128 bytes of push constants: the element count and 31 words.
    fn default() -> Self {
        Lowering {
            param_words: 31,
            generic_trips: true,
            bind_limit: 1 << 27,
            addresses: false,
            wide_loads: false,
            texel_bytes: 0,
            vectors: 1,
            cores: 1,
        }
    }
}

/// What the device offers that rendering can use.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GlslFeatures {
    /// The compute stage has subgroup arithmetic (`subgroupAdd` ...).
    pub subgroup_arithmetic: bool,
    /// Invocations per subgroup (0: unknown). Shaders target SPIR-V 1.5 and pipelines do not
    /// allow the size to vary, so a workgroup of at most this many invocations is one
    /// subgroup: it combines with subgroup operations alone.
    pub subgroup_size: u32,
    /// Declare SignedZeroInfNanPreserve for 32- and 64-bit floats.
    pub preserve_inf_nan_f32: bool,
    /// Declare SignedZeroInfNanPreserve for 64-bit floats.
    pub preserve_inf_nan_f64: bool,
}

// A register-blocked tile's shape when nothing was searched: one rule per device class.
//
// On lavapipe every load from an address that varies across invocations is a loop over the
// SIMD lanes (a bounds check and an insert per lane and component), so a kernel's time is
// about its loads: a tile of `rows` rows of `cols` vectors loads `rows + 4 * cols` values for
// `4 * rows * cols` multiply-adds a step. A 1024^3 matmul on 2 cores (LLVM 15): 110-125 ms
// with 32 rows of one vector (128 accumulators, 32 + 4 loads), 127-155 ms with 16 rows,
// 217-250 with 4, on one machine; 1.27 s with 32 x 1, 0.72 s with 32 x 2 and 0.50 s with
// 32 x 4 (512 accumulators, 32 + 16 loads) on one whose inserts cost more, where a direct
// convolution (8,64,56,56) x 64 3x3 went from 2.9 to 4.4 GFLOPS with 4 vectors instead of 2.
// A CPU has registers and stack to spare, and every load saved is a lane loop saved. Bigger
// tiles mean fewer invocations, and lavapipe runs a workgroup on one core, so a small matmul
// (an MLP's 64 x 128 output) left on one workgroup keeps the other cores idle: big tiles are
// taken only where every core still gets a workgroup. GPUs keep 4 rows of a vector until one
// is measured; the search (`TG_TUNE`, `tg-tune`) finds better shapes per device.

/// The most iterations of a loop whose counter indexes an invocation's private array that Mesa
/// unrolls, putting the array in registers (a row kernel's kept share of its row:
/// `glsl::stash_rows`).
pub const UNROLLED_ROUNDS: usize = 32;

/// Rows every tile may take: the scheduler decides whether a kernel is tiled at all with it.
pub const BASE_ROWS: usize = 4;

/// How a device class runs reductions by default: the shape of register-blocked tiles, and
/// how many invocations keep it busy (which also decides when a reduction needs a
/// cooperative workgroup; `schedule::strategy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassDefaults {
    /// The most rows a tile takes (a power of two, at least [`BASE_ROWS`]).
    pub rows: usize,
    /// The most vectors of columns a tile's row takes (a power of two).
    pub cols: usize,
    /// Invocations per workgroup.
    pub threads: u32,
    /// Invocations that keep every core busy, where the class knows (a CPU: a workgroup per
    /// core); `usize::MAX` where it does not (a GPU, whose rules of thumb apply). Tiles of
    /// more than [`BASE_ROWS`] rows only where at least this many remain.
    pub busy: usize,
    /// Invocations sharing a row where a CPU takes a subgroup a row
    /// ([`ClassDefaults::subgroup_rows`]): a CPU's subgroup, which reduces with subgroup
    /// operations alone and whose lanes read consecutive vectors of the row, each keeping
    /// its share of the row in registers (lavapipe, softmax (16384, 1024), the same shaders
    /// run in turn, fastest and median: 33 and 59 ms with 8 lanes a row, 45 and 72 with an
    /// invocation a row), or 1 without subgroup arithmetic.
    pub row_threads: u32,
}

impl Default for ClassDefaults {
    /// A GPU's: 4 rows, 256 invocations per workgroup.
    fn default() -> Self {
        ClassDefaults {
            rows: BASE_ROWS,
            cols: 1,
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
        match info.kernel_class() {
            KernelClass::Cpu => {
                let subgroup = info.subgroup_arithmetic.then_some(info.subgroup_size);
                ClassDefaults::cpu(cores(), subgroup)
            }
            KernelClass::Gpu => ClassDefaults::default(),
        }
    }

    /// A CPU device's defaults on `cores` cores, with subgroups of `subgroup` invocations
    /// where it has subgroup arithmetic: tiles of up to 32 rows of 4 vectors while every core
    /// gets a workgroup of 256 invocations, and a row kernel's row shared by a subgroup.
    pub fn cpu(cores: usize, subgroup: Option<u32>) -> Self {
        ClassDefaults {
            rows: 32,
            cols: 4,
            threads: 256,
            busy: 256 * cores.max(1),
            row_threads: subgroup.unwrap_or(1).max(1),
        }
    }

    /// Whether the class knows how many invocations keep it busy: a CPU's, whose cores it
    /// counts ([`ClassDefaults::busy`]).
    pub fn is_cpu(&self) -> bool {
        self.busy != usize::MAX
    }

    /// Invocations that fill every core's SIMD lanes (a CPU's cores times
    /// [`MIN_CPU_THREADS`]), `usize::MAX` for a GPU's class, which does not know. Fewer
    /// serial invocations leave lanes idle, which only a cooperative reduction fills.
    pub fn lanes(&self) -> usize {
        if self.is_cpu() {
            self.cores() * MIN_CPU_THREADS as usize
        } else {
            usize::MAX
        }
    }

    /// Cores the class's [`ClassDefaults::busy`] counts a workgroup for (1 for a GPU's
    /// class, which does not know).
    pub fn cores(&self) -> usize {
        if self.is_cpu() {
            (self.busy / self.threads.max(1) as usize).max(1)
        } else {
            1
        }
    }

    /// Whether `count` rows of `row` elements run a subgroup a row ([`row_threads`]
    /// invocations): where the rows keep the device busy, or, fewer, where each invocation's
    /// share of a row is at most `UNROLLED_ROUNDS` (32) vectors, which it keeps in registers; a
    /// workgroup a row then only adds barriers, which a CPU runs as coroutine switches
    /// (lavapipe, (64, 1024), run in turn, medians: softmax 761-801 us a workgroup a row,
    /// 496-549 a subgroup a row; layernorm 565-587 and 364-370).
    ///
    /// [`row_threads`]: ClassDefaults::row_threads
    pub fn subgroup_rows(&self, row: usize, count: usize) -> bool {
        let t = self.row_threads as usize;
        t > 1 && (count >= self.busy || row <= LANES * t * UNROLLED_ROUNDS)
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

    /// The strategy of a fused attention's pass over queries (and keys) `d` wide and values
    /// `dv` wide, writing `count` rows: on a CPU 8 rows an invocation (sharing each key's or
    /// query's loads, which lavapipe makes lane by lane), halving while the invocations
    /// would not fill every core's SIMD lanes ([`ClassDefaults::lanes`]) or the rows would
    /// hold more than 256 floats; on a GPU, whose registers hold fewer, 2 (not measured).
    /// Causal B 16, H 4, T 512, D 16 on lavapipe, forward and forward with the gradients: 95
    /// and 384 ms with a row an invocation, 34 and 126 with 4, 23 and 95-123 with 8, 37 and
    /// 87 with 16. Halving stopped at a workgroup of 256 a core before: a language model's
    /// prefill step of 32 rows (384 query rows of 64 over the cache) took a row an
    /// invocation; with 2 (the most rows of 128 floats), a 512-token prompt's attention in
    /// such steps took 0.56-0.80 s instead of 0.97-1.38 (2 cores, the kernels' times in
    /// replays, several runs each).
    pub fn attention(
        &self,
        pass: AttentionPass,
        mask: AttentionMask,
        dropout: Option<AttentionDropout>,
        d: usize,
        dv: usize,
        count: usize,
    ) -> Strategy {
        let cpu = self.is_cpu();
        let mut rows = if cpu { 8 } else { 2 };
        while rows > 1 && (rows * (d + dv) > 256 || (cpu && count / rows < self.lanes())) {
            rows /= 2;
        }
        Strategy::Attention {
            pass,
            mask,
            d,
            dv,
            rows,
            dropout,
        }
    }

    /// The tile for an output of `shape` that the scheduler decided to tile: the biggest,
    /// halving from [`ClassDefaults::rows`] rows of [`ClassDefaults::cols`] vectors, that an
    /// output axis takes and that leaves at least half of [`ClassDefaults::busy`]
    /// invocations (in smaller workgroups, `tile_threads`), else [`BASE_ROWS`] rows of one
    /// vector. Half: a core takes 128 big tiles faster than 256 tiles half their size (on
    /// lavapipe, 2 cores, the sums of the kernels' medians, run in turn: light ResNet-50 604
    /// ms with 256 tiles a core in workgroups of 256, 440 ms with at least 128 in workgroups
    /// that split evenly; the MobileNetV2-style stack 7.4 and 6.7 ms). Each halving takes the rows where no axis takes
    /// them, the columns where no such axis spans a whole number of their runs, else the
    /// longer side (in elements), so a tile stays as square as it can: `rows * cols * LANES`
    /// accumulators cost `rows + cols * LANES` loads a step.
    pub fn tile(&self, shape: &[usize]) -> Strategy {
        let numel: usize = shape.iter().product();
        let (mut rows, mut cols) = (self.rows.max(BASE_ROWS), self.cols.max(1));
        while rows > BASE_ROWS || cols > 1 {
            let ragged = tile_axes(shape, rows, cols).is_empty();
            if !ragged && numel / tile_outputs(rows, cols) >= self.busy / 2 {
                break;
            }
            if rows > BASE_ROWS && tile_axes(shape, rows, 1).is_empty() {
                rows /= 2;
            } else if cols > 1 && (ragged || cols * LANES >= rows || rows <= BASE_ROWS) {
                cols /= 2;
            } else {
                rows /= 2;
            }
        }
        Strategy::Tile {
            rows,
            cols,
            threads: self.tile_threads(numel / tile_outputs(rows, cols)),
        }
    }

    /// Invocations per workgroup for `count` tiles: [`ClassDefaults::threads`], or on a CPU
    /// with fewer tiles than that many per core, [`balanced_threads`] (a GPU's class counts
    /// one core, which takes them all).
    fn tile_threads(&self, count: usize) -> u32 {
        balanced_threads(count, self.cores(), self.threads)
    }
}

/// Invocations per workgroup for `count` invocations on a CPU of `cores` cores: `most`, or
/// with fewer than `most` for each core, the most (a power of two, at least
/// [`MIN_CPU_THREADS`]) whose workgroups, taken by whichever core is free, keep the busiest
/// core within an eighth of an even share. A CPU runs a workgroup on one core, its
/// invocations a SIMD vector at a time: 144 invocations in one workgroup of 256 leave the
/// other cores idle, and 3 workgroups of 128 on 2 cores take as long as 4.
pub fn balanced_threads(count: usize, cores: usize, most: u32) -> u32 {
    if cores <= 1 || count >= most as usize * cores {
        return most;
    }
    let least = MIN_CPU_THREADS.min(most);
    let even = count.div_ceil(cores);
    let mut threads = (1u32 << even.max(1).ilog2().min(31)).clamp(least, most);
    while threads > least && 8 * busiest(count, threads as usize, cores) > 9 * even {
        threads /= 2;
    }
    threads
}

/// The invocations the busiest of `cores` runs when `count` are dispatched in workgroups of
/// `threads`, each workgroup going to the core with the least so far.
fn busiest(count: usize, threads: usize, cores: usize) -> usize {
    let mut load = vec![0usize; cores];
    let mut left = count;
    while left > 0 {
        let size = left.min(threads);
        if let Some(least) = load.iter_mut().min() {
            *least += size;
        }
        left -= size;
    }
    load.into_iter().max().unwrap_or(0)
}

/// The fewest invocations a CPU's workgroup of tiles takes: a SIMD vector of 8 (lavapipe on
/// 256-bit registers) would run part empty with fewer.
pub const MIN_CPU_THREADS: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_takes_big_tiles_where_enough_invocations_remain() {
        let cpu = ClassDefaults::cpu(8, None);
        let tile = |rows, cols| Strategy::Tile {
            rows,
            cols,
            threads: 256,
        };
        // 1024 x 1024 / 512 = 2048 invocations of 32 rows of 16 columns: a workgroup for each
        // of 8 cores
        assert_eq!(cpu.tile(&[1024, 1024]), tile(32, 4));
        // fewer: tiles as long as half as many remain, in smaller workgroups that split
        // evenly over the cores. 512 x 512: the longer side halves first, to 16 x 16 (1024
        // invocations, 128 a workgroup); on 16 cores 16 x 8
        let small = |rows, cols, threads| Strategy::Tile {
            rows,
            cols,
            threads,
        };
        assert_eq!(cpu.tile(&[512, 512]), small(16, 4, 128));
        assert_eq!(
            ClassDefaults::cpu(16, None).tile(&[512, 512]),
            small(16, 2, 128)
        );
        // 256 x 256: 1024 invocations of 8 x 8
        assert_eq!(cpu.tile(&[256, 256]), small(8, 2, 128));
        // on 2 cores 256 invocations are enough
        assert_eq!(
            ClassDefaults::cpu(2, None).tile(&[256, 256]),
            small(16, 4, 128)
        );
        // an MLP layer's (64, 128, 1) output: 512 tiles of 4 x 4 at most, in workgroups of 64
        // on 8 cores; on 2, 256 of 8 x 4
        assert_eq!(cpu.tile(&[64, 128, 1]), small(4, 1, 64));
        assert_eq!(
            ClassDefaults::cpu(2, None).tile(&[64, 128, 1]),
            small(8, 1, 128)
        );
        // a pointwise convolution's (1, 64, 36) output on 2 cores: 144 tiles in workgroups of
        // 64 (80 and 64 a core); 384 tiles in 6 of 64, not 3 of 128; never fewer than a SIMD
        // vector's 8
        assert_eq!(
            ClassDefaults::cpu(2, None).tile(&[1, 64, 36]),
            small(4, 1, 64)
        );
        assert_eq!(ClassDefaults::cpu(2, None).tile_threads(384), 64);
        assert_eq!(
            ClassDefaults::cpu(16, None).tile(&[1, 16, 16]),
            small(4, 1, 8)
        );
        // no axis of 32, 16 or 8: 4 rows, still of 4 vectors
        assert_eq!(cpu.tile(&[4, 4, 4, 4096]), tile(4, 4));
        // a convolution's output: the runs of 4 vectors cross rows of 56 columns
        assert_eq!(cpu.tile(&[8, 64, 56, 56]), tile(32, 4));
        // 12 columns a row under the rows' axis: runs of 1 vector, or 2 in pairs of rows
        let any = ClassDefaults { busy: 1, ..cpu };
        assert_eq!(any.tile(&[1024, 12]), tile(32, 1));
        assert_eq!(any.tile(&[1024, 2, 12]), tile(32, 2));
        // a GPU keeps 4 rows of a vector
        assert_eq!(ClassDefaults::default().tile(&[1024, 1024]), tile(4, 1));
    }
}
