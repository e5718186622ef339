//! Renders a `Program` as one GLSL 4.50 compute shader.
//!
//! Binding 0 is the output, written `LANES` elements at a time as one vector (packed words for
//! narrow types); inputs follow, each as a scalar view, a vector view, a pair view, or some of
//! them, and after those the inputs a CPU kernel reads through a uniform texel buffer
//! (`Program::texels`, `texel.rs`). The element
//! count arrives as a push constant, so a kernel whose reads are all contiguous has no size in
//! its source and one pipeline serves every shape.

mod alu;
mod attention;
mod helpers;
mod merge;
mod scan;
mod sort;
mod texel;
mod types;

use std::fmt::Write;

use super::program::{BlockId, Ins, OutputAt, Program, Val, VarKind};
use super::symbolic::Cond;
use crate::dtype::{DType, Scalar};
use crate::kernel::{Strategy, subgroup_combines, tile_outputs};
use crate::ops::ReduceOp;
use crate::target::GlslFeatures;
use helpers::Helpers;
pub use types::literal;
use types::{needs_int64, reg, scalar_storage, vector_storage, wide_storage};

/// How a kernel reads one input buffer; each view is one binding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// Element by element (`buf[i]`).
    Scalar,
    /// Four elements at a time (`vbuf[i / 4]`), for contiguous reads.
    Vector,
    /// Eight elements at a time (`wbuf[i / 8]`), for a pair of vectors read as one load.
    Wide,
    /// Every read of the input, whatever its width, through one uniform texel buffer
    /// (`Program::texels`; bound after the storage buffers, see `KernelLayout`).
    Texel,
}

impl View {
    /// The name of input `input`'s array in this view.
    fn array(self, input: usize) -> String {
        match self {
            View::Scalar => format!("b{input}"),
            View::Vector => format!("v{input}"),
            View::Wide => format!("w{input}"),
            View::Texel => format!("tb{input}"),
        }
    }
}

/// Bytes apart at and past which side-by-side invocations' pair reads stay storage loads
/// (see the `Ins::VecLoad` arm of `Renderer::ins`): four pairs, two cache lines, between
/// what was measured (pairs 64 bytes apart, an add's: 1.3-1.4x faster as texels; 3 KB, the
/// rows of a decode product reading eight rows an invocation: 1.4x slower). The rule is
/// wider than what it was measured on: `tg-probe-loads`, one row of 3 KB an invocation and
/// nothing else to do, reads it faster as texel pairs than as storage pairs from memory
/// too, so the product's loss likely comes from its many rows at once, which this rule
/// does not count.
const FAR_LANES: i64 = 128;

/// A rendered kernel.
#[derive(Clone, Debug)]
pub struct Shader {
    /// GLSL 4.50 source.
    pub source: String,
    /// Descriptor bindings after the output: (input index, view), for inputs bound by
    /// descriptor (see [`Program::addressed`]).
    pub bindings: Vec<(usize, View)>,
    /// Buffers the kernel reaches by device address, in the order of their addresses in the
    /// push constants: 0 the output, `i + 1` input `i`.
    pub addresses: Vec<usize>,
    /// Invocations per workgroup.
    pub threads: u32,
    /// Loop back-edges (each iteration, and each loop's exit) that one invocation takes at
    /// most, over every loop of the source: reductions, the row loop, workgroup combines and
    /// the loops inside helper functions. A driver with a loop budget (llvmpipe ends an
    /// invocation's loops silently after 65,535 back-edges in total) runs the kernel
    /// correctly only if this fits; the scheduler splits work until it does.
    pub loops: u64,
}

struct Renderer<'a> {
    p: &'a Program,
    h: Helpers,
    views: Vec<(usize, View)>,
    int64: bool,
    /// A loop was marked `[[dont_unroll]]` (`GL_EXT_control_flow_attributes`).
    unroll_hints: bool,
    shared: String,
    target: GlslFeatures,
    /// Back-edges counted so far (see [`Shader::loops`]).
    loops: u64,
    /// How often the block being rendered runs per invocation.
    runs: u64,
}

/// Renders `p` as a GLSL 4.50 compute shader for a device with `target`'s features.
pub fn render(p: &Program, target: GlslFeatures) -> Shader {
    match p.strategy {
        Strategy::Sort { words, run } => return sort::render(p, words, run),
        Strategy::Merge { words, per } => return merge::render(p, words, per),
        Strategy::Scan { op } => return scan::render(p, op, target),
        Strategy::Attention {
            pass,
            mask,
            d,
            dv,
            rows,
            dropout,
        } => return attention::render(p, pass, mask, dropout, d, dv, rows),
        _ => {}
    }
    let threads = p.threads();
    let mut r = Renderer {
        p,
        h: Helpers::default(),
        views: Vec::new(),
        int64: needs_int64(p.out_dtype) || p.inputs.iter().any(|&d| needs_int64(d)),
        unroll_hints: false,
        shared: String::new(),
        target,
        loops: 0,
        runs: 1,
    };
    let mut body = String::new();
    // several vectors an invocation: the push constants are read once, before the loop over
    // them, and everything else in it
    let (mut uniform, vectors) = (String::new(), p.vectors.max(1));
    if vectors > 1 {
        for &v in &p.blocks[Program::ROOT].ins {
            if matches!(p.ins[v], Ins::Param { .. }) {
                r.ins(v, &mut uniform, "  ", 1);
            }
        }
        r.runs = vectors as u64;
        r.loops += vectors as u64 + 1;
        r.block_where(Program::ROOT, &mut body, 2, |i| {
            !matches!(i, Ins::Param { .. })
        });
    } else {
        r.block(Program::ROOT, &mut body, 1);
    }

    // a wide store of 32-bit lanes writes them in pairs as 64-bit words
    let wide_out = p.out_vectors > 1;
    let int64 = r.int64
        || (wide_out && p.out_dtype.size() == 4)
        || p.ins.iter().any(|i| needs_int64(i.dtype()));
    let uses_f64 = p.ins.iter().any(|i| i.dtype() == DType::F64) || p.inputs.contains(&DType::F64);
    let mut src = preamble(int64, uses_f64, target);
    if r.unroll_hints {
        src.push_str("#extension GL_EXT_control_flow_attributes : require\n");
    }
    let coop = p.shares_groups();
    if coop && target.subgroup_arithmetic {
        src.push_str("#extension GL_KHR_shader_subgroup_arithmetic : require\n");
        src.push_str("#extension GL_KHR_shader_subgroup_vote : require\n");
    } else if matches!(p.strategy, Strategy::Cooperative { .. }) {
        // `gl_SubgroupSize` for the loops' blocks (basic subgroup operations are core in
        // Vulkan 1.1 compute shaders)
        src.push_str("#extension GL_KHR_shader_subgroup_basic : require\n");
    }
    let out_ty = if wide_out {
        wide_storage(p.out_dtype)
    } else {
        vector_storage(p.out_dtype)
    };
    let (described, addresses) = interface(p, &r.views, out_ty, &mut src);
    src.push_str(&r.shared);
    src.push_str(&r.h.render());
    src.push_str("void main() {\n");
    src.push_str(&main_prologue(p, target, vectors, &uniform));
    src.push_str(&body);
    if vectors > 1 {
        src.push_str("  }\n");
    }
    src.push_str("}\n");
    Shader {
        source: src,
        bindings: described,
        addresses,
        threads,
        loops: r.loops,
    }
}

/// The start of `main`: which group the invocation computes (its row, tile or vectors), the
/// bound past which it stops, and the invocation's arrays and clamped indices; `uniform` (what
/// several vectors an invocation read once) before their loop.
fn main_prologue(p: &Program, target: GlslFeatures, vectors: usize, uniform: &str) -> String {
    let mut src = String::new();
    if let Strategy::Row { threads, rows, .. } = p.strategy
        && threads > 1
        && rows > 1
    {
        // consecutive invocations share a row: a subgroup each (`Strategy::Row`)
        debug_assert!(target.subgroup_arithmetic && threads == target.subgroup_size);
        src.push_str("  uint wg = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;\n");
        writeln!(
            src,
            "  uint gid = wg * {rows}u + gl_LocalInvocationID.x / {threads}u;"
        )
        .ok();
        writeln!(src, "  int lid = int(gl_LocalInvocationID.x % {threads}u);").ok();
    } else if p.shares_groups() {
        src.push_str("  uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;\n");
        src.push_str("  int lid = int(gl_LocalInvocationID.x);\n");
    } else {
        src.push_str(&invocation(p.threads()));
    }
    match p.strategy {
        Strategy::Row { row, .. } => writeln!(src, "  if (gid >= pc.n / {row}u) return;").ok(),
        Strategy::Tile { rows, cols, .. } => writeln!(
            src,
            "  if (gid >= pc.n / {}u) return;",
            tile_outputs(rows, cols)
        )
        .ok(),
        _ => {
            // groups of `span` outputs: past the last one, an invocation stops
            let span = p.store_elements();
            let past = format!("(pc.n + {}u) / {span}u", span - 1);
            if vectors > 1 {
                src.push_str(uniform);
                // (names of their own: the body's are `x`, `r`, `t`, `c` and `s` numbered)
                writeln!(src, "  for (uint vk = 0u; vk < {vectors}u; vk++) {{").ok();
                writeln!(src, "    uint qv = gid * {vectors}u + vk;").ok();
                writeln!(src, "    if (qv >= {past}) return;").ok()
            } else {
                writeln!(src, "  if (gid >= {past}) return;").ok()
            }
        }
    };
    let pad = if vectors > 1 { "    " } else { "  " };
    if vectors > 1 {
        src.push_str("    int q = int(qv);\n");
    } else {
        src.push_str("  int q = int(gid);\n");
    }
    for (slot, &(d, len)) in p.stashes.iter().enumerate().filter(|(_, s)| s.1 > 0) {
        let width = p.store_elements();
        match stash_rows(len, width) {
            Some(rows) => writeln!(src, "  {} s{slot}[{rows}][{width}];", reg(d)).ok(),
            None => writeln!(src, "  {} s{slot}[{len}];", reg(d)).ok(),
        };
    }
    for (id, kind) in p.vars.iter().enumerate() {
        if let VarKind::ClampedLane(lane) = kind {
            writeln!(src, "{pad}int c{id} = min(4 * q + {lane}, int(pc.n) - 1);").ok();
        }
    }
    src
}

/// The version line and the extensions a kernel's dtypes need: 64-bit integers, and IEEE
/// zeros, infinities and NaN where the device lets a shader ask for them.
fn preamble(int64: bool, uses_f64: bool, target: GlslFeatures) -> String {
    let mut src = String::from("#version 450\n");
    if int64 {
        src.push_str("#extension GL_ARB_gpu_shader_int64 : require\n");
    }
    // IEEE zeros, infinities and NaN, where the device lets a shader ask for them
    let modes: Vec<u32> = [
        (target.preserve_inf_nan_f32, 32),
        (target.preserve_inf_nan_f64 && uses_f64, 64),
    ]
    .into_iter()
    .filter_map(|(on, bits)| on.then_some(bits))
    .collect();
    if !modes.is_empty() {
        src.push_str("#extension GL_EXT_spirv_intrinsics : require\n");
        for bits in modes {
            // execution mode SignedZeroInfNanPreserve (4461), capability 4466
            writeln!(
                src,
                "spirv_execution_mode(extensions = [\"SPV_KHR_float_controls\"], capabilities = [4466], 4461, {bits});"
            )
            .ok();
        }
    }
    src
}

/// The first line of `main` of a kernel whose invocations each take their own work: `gid`,
/// the invocation's index over a dispatch of `threads`-wide workgroups laid out in x and y.
fn invocation(threads: u32) -> String {
    format!(
        "  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * {threads}u;\n"
    )
}

/// What every kernel declares after its extensions: the buffer-reference extensions where a
/// buffer is reached by device address, the workgroup size, the push constants (the element
/// count, the addresses, then [`Program::params`]), the output (binding 0, of GLSL type
/// `out_ty`) and the inputs' `views`. Gives the inputs bound by descriptor and the buffers
/// reached by address.
fn interface(
    p: &Program,
    views: &[(usize, View)],
    out_ty: &str,
    src: &mut String,
) -> (Vec<(usize, View)>, Vec<usize>) {
    let threads = p.threads();
    // buffers past one binding's range are reached by device address (0: the output)
    let addresses: Vec<usize> = (0..=p.inputs.len())
        .filter(|&b| p.addressed.get(b).copied().unwrap_or(false))
        .collect();
    if !addresses.is_empty() {
        src.push_str("#extension GL_EXT_buffer_reference : require\n");
        src.push_str("#extension GL_EXT_buffer_reference_uvec2 : require\n");
    }
    writeln!(src, "layout(local_size_x = {threads}) in;").ok();
    // the element count, the buffer addresses, then the scalars and trip counts
    // (`Program::params`): values are data, so only their number is in the source
    let mut pc = String::from("uint n;");
    if !addresses.is_empty() {
        write!(pc, " uint a[{}];", 2 * addresses.len()).ok();
    }
    if !p.params.is_empty() {
        write!(pc, " uint p[{}];", p.params.len()).ok();
    }
    writeln!(src, "layout(push_constant) uniform PC {{ {pc} }} pc;").ok();
    let slot = |buffer: usize| addresses.iter().position(|&b| b == buffer);
    // an in-place write reads and writes one buffer through two bindings
    let restrict = if p.in_place { "" } else { "restrict " };
    // an addressed buffer's array is a macro over its reference, so access sites read alike
    let by_address = |src: &mut String,
                      block: &str,
                      access: &str,
                      ty: &str,
                      name: &str,
                      at: usize| {
        writeln!(
            src,
            "layout(buffer_reference, std430, buffer_reference_align = 16) {restrict}{access} buffer {block} {{ {ty} {name}[]; }};\n#define {name} ({block}(uvec2(pc.a[{}], pc.a[{}])).{name})",
            2 * at,
            2 * at + 1
        )
        .ok();
    };
    let mut binding = 0;
    match slot(0) {
        Some(at) => by_address(src, "Out", "writeonly", out_ty, "o", at),
        None => {
            writeln!(
                src,
                "layout(std430, set = 0, binding = 0) {restrict}writeonly buffer Out {{ {out_ty} o[]; }};"
            )
            .ok();
            binding += 1;
        }
    }
    // a multi-output kernel's further outputs, bound by descriptor after the first (the
    // scheduler packs only kernels whose buffers all fit one binding); one value a row is
    // stored alone
    for (j, more) in p.more_outputs.iter().enumerate() {
        let ty = match more.at {
            OutputAt::Lanes => out_ty,
            OutputAt::Row => scalar_storage(p.out_dtype),
        };
        writeln!(
            src,
            "layout(std430, set = 0, binding = {binding}) writeonly buffer Out{} {{ {ty} o{}[]; }};",
            j + 1,
            j + 1
        )
        .ok();
        binding += 1;
    }
    let mut described = Vec::new();
    // storage views, then texel buffers: the layout's bindings in that order
    let (texels, storage): (Vec<_>, Vec<_>) = views.iter().partition(|v| v.1 == View::Texel);
    for (k, &(input, view)) in storage.into_iter().enumerate() {
        let d = p.inputs[input];
        let ty = match view {
            View::Scalar => scalar_storage(d),
            View::Vector => vector_storage(d),
            View::Wide => wide_storage(d),
            View::Texel => unreachable!("partitioned out"),
        };
        let name = view.array(input);
        match slot(input + 1) {
            Some(at) => by_address(src, &format!("In{k}"), "readonly", ty, &name, at),
            None => {
                writeln!(
                    src,
                    "layout(std430, set = 0, binding = {binding}) {restrict}readonly buffer In{k} {{ {ty} {name}[]; }};"
                )
                .ok();
                binding += 1;
                described.push((input, view));
            }
        }
    }
    for &(input, view) in texels {
        writeln!(
            src,
            "layout(set = 0, binding = {binding}) uniform usamplerBuffer {};",
            view.array(input)
        )
        .ok();
        binding += 1;
        described.push((input, view));
    }
    (described, addresses)
}

/// The rows of `width` elements (a row loop's step: [`Program::store_elements`])
/// a kept array of `len` elements is declared as, where `len` is a whole number of them.
/// Row loops keep a step's elements at `width * step + u`, so the row is the loop's counter
/// and the column a constant: Mesa unrolls a loop whose
/// counter indexes a private array of as many entries as the loop has iterations (up to
/// `target::UNROLLED_ROUNDS`), and the array then lives in registers. Indexed flat,
/// it stays in memory, every access a lane loop on lavapipe (softmax (16384, 1024) with 8
/// invocations a row, the shaders run in turn, fastest and median: 51 and 85 ms flat, 35 and
/// 61 as rows).
fn stash_rows(len: usize, width: usize) -> Option<usize> {
    len.is_multiple_of(width).then_some(len / width)
}

fn var_name(p: &Program, id: u32) -> String {
    match p.vars[id as usize] {
        VarKind::Group => "q".into(),
        VarKind::ClampedLane(_) => format!("c{id}"),
        VarKind::Loop => format!("r{id}"),
        VarKind::Round { var } => format!("t{var}"),
        VarKind::Lid => "lid".into(),
        VarKind::Unrolled { var, by, step } => format!("(r{var} * {by} + {step})"),
        VarKind::Value(v) => format!("x{v}"),
    }
}

/// A push-constant scalar as a `d` register value (see `lower::param_words`).
fn param(word: usize, d: DType) -> String {
    let w = |k: usize| format!("pc.p[{}]", word + k);
    match d {
        DType::Bool => format!("({} != 0u)", w(0)),
        DType::I8 | DType::I16 | DType::I32 => format!("int({})", w(0)),
        DType::U8 | DType::U16 | DType::U32 => w(0),
        DType::I64 => format!("int64_t(packUint2x32(uvec2({}, {})))", w(0), w(1)),
        DType::U64 => format!("packUint2x32(uvec2({}, {}))", w(0), w(1)),
        DType::F16 | DType::F32 => format!("uintBitsToFloat({})", w(0)),
        DType::F64 => format!("packDouble2x32(uvec2({}, {}))", w(0), w(1)),
    }
}

fn zero(d: DType) -> String {
    literal(Scalar::Int(0), d)
}

impl Renderer<'_> {
    fn view(&mut self, input: usize, view: View) {
        if !self.views.contains(&(input, view)) {
            self.views.push((input, view));
        }
    }

    fn idx(&self, e: &super::symbolic::Expr) -> String {
        e.render(&|id| var_name(self.p, id))
    }

    /// The subscripts of element `index` of kept array `slot`: `[index / w][index % w]`
    /// where the array is rows of `w` (see [`stash_rows`]).
    fn stash_at(&self, slot: usize, index: &super::symbolic::Expr) -> String {
        let width = self.p.store_elements();
        match stash_rows(self.p.stashes[slot].1, width) {
            Some(_) => format!(
                "[{}][{}]",
                self.idx(&index.div(width as i64)),
                self.idx(&index.modulo(width as i64))
            ),
            None => format!("[{}]", self.idx(index)),
        }
    }

    /// Element `i` (an int expression) of input `input`'s `view`, of the view's storage
    /// type: through the input's texel buffer where `texel` allows and the input may be
    /// read so ([`Program::texels`]), else from the view's own binding.
    fn read(&mut self, input: usize, view: View, i: &str, texel: bool) -> String {
        if texel && self.p.reads_texels(input) {
            self.view(input, View::Texel);
            let t = View::Texel.array(input);
            return texel::read(self.p.inputs[input], view, &t, i, &mut self.h);
        }
        self.view(input, view);
        format!("{}[{i}]", view.array(input))
    }

    /// How far apart, in units of `index`, the reads at `index` of two invocations that run
    /// side by side (in one SIMD vector) are: the output group's coefficient, times the
    /// groups one invocation takes, where invocations take their own groups; 0 where they
    /// share a group (they then read its loop's iterations side by side).
    fn lane_stride(&self, index: &super::symbolic::Expr) -> i64 {
        if self.p.shares_groups() {
            return 0;
        }
        let group = index
            .terms()
            .iter()
            .filter(|(a, _)| {
                matches!(a, super::symbolic::Atom::Var(v)
                    if self.p.vars[v.id as usize] == VarKind::Group)
            })
            .map(|(_, c)| c.abs())
            .sum::<i64>();
        group * self.p.vectors.max(1) as i64
    }

    /// An element load from the scalar view of input `buf` at int expression `i`.
    fn load(&mut self, buf: usize, i: &str, d: DType) -> String {
        let word = |r: &mut Self, at: String| r.read(buf, View::Scalar, &at, true);
        match d.size() {
            1 => {
                let w = word(self, format!("({i}) >> 2"));
                let byte = format!("(({w} >> ((({i}) & 3) << 3)) & 0xffu)");
                match d {
                    DType::I8 => format!("(int({byte} << 24) >> 24)"),
                    DType::Bool => format!("({byte} != 0u)"),
                    _ => byte,
                }
            }
            2 => {
                let w = word(self, format!("({i}) >> 1"));
                let half = format!("(({w} >> ((({i}) & 1) << 4)) & 0xffffu)");
                match d {
                    DType::I16 => format!("(int({half} << 16) >> 16)"),
                    DType::F16 => format!("{}({half})", self.h.use_fn("tg_h2f")),
                    _ => half,
                }
            }
            _ => word(self, i.to_string()),
        }
    }

    /// Lane `lane` of a vector load held in `v` (`wide`: of a wide load's 8 lanes).
    fn extract(&mut self, v: &str, lane: usize, d: DType, wide: bool) -> String {
        match d.size() {
            1 => {
                let word = if wide {
                    format!("{v}[{}]", lane / 4)
                } else {
                    v.to_string()
                };
                let byte = format!("(({word} >> {}u) & 0xffu)", (lane % 4) * 8);
                match d {
                    DType::I8 => format!("(int({byte} << 24) >> 24)"),
                    DType::Bool => format!("({byte} != 0u)"),
                    _ => byte,
                }
            }
            2 => {
                let half = format!("(({v}[{}] >> {}u) & 0xffffu)", lane / 2, (lane % 2) * 16);
                match d {
                    DType::I16 => format!("(int({half} << 16) >> 16)"),
                    DType::F16 => format!("{}({half})", self.h.use_fn("tg_h2f")),
                    _ => half,
                }
            }
            4 if wide => {
                let bits = format!("unpackUint2x32({v}[{}])[{}]", lane / 2, lane % 2);
                match d {
                    DType::F32 => format!("uintBitsToFloat({bits})"),
                    DType::I32 => format!("int({bits})"),
                    _ => bits,
                }
            }
            _ => format!("{v}[{lane}]"),
        }
    }

    fn block(&mut self, b: BlockId, out: &mut String, depth: usize) {
        self.block_where(b, out, depth, |_| true);
    }

    /// [`Renderer::block`] with the block's instructions that `keep` takes.
    fn block_where(
        &mut self,
        b: BlockId,
        out: &mut String,
        depth: usize,
        keep: impl Fn(&Ins) -> bool,
    ) {
        let pad = "  ".repeat(depth);
        for &v in &self.p.blocks[b].ins {
            if keep(&self.p.ins[v]) {
                self.ins(v, out, &pad, depth);
            }
        }
        if b == self.p.out_block {
            for store in self.store() {
                writeln!(out, "{pad}{store}").ok();
            }
        }
        if b == Program::ROOT {
            for store in self.row_stores() {
                writeln!(out, "{pad}{store}").ok();
            }
        }
    }

    /// A load's guard: writes load `v`'s condition and an index that is `index` where it
    /// holds and 0 elsewhere (memory outside the valid region is never addressed); returns
    /// their names.
    fn guard(
        &self,
        out: &mut String,
        pad: &str,
        v: Val,
        valid: &Cond,
        index: &str,
    ) -> (String, String) {
        let c = valid.render(&|id| var_name(self.p, id));
        writeln!(out, "{pad}bool k{v} = {c};").ok();
        writeln!(out, "{pad}int i{v} = k{v} ? {index} : 0;").ok();
        (format!("k{v}"), format!("i{v}"))
    }

    fn ins(&mut self, v: Val, out: &mut String, pad: &str, depth: usize) {
        let n = |x: Val| format!("x{x}");
        let ins = &self.p.ins[v];
        let d = ins.dtype();
        let ty = reg(d);
        let expr = match ins {
            Ins::Const(c, d) => literal(c.0, *d),
            Ins::Param { word, dtype } => param(*word, *dtype),
            Ins::Load {
                buf,
                index,
                valid,
                dtype,
            } => {
                let i = self.idx(index);
                if valid.is_always() {
                    self.load(*buf, &i, *dtype)
                } else {
                    let (k, i) = self.guard(out, pad, v, valid, &i);
                    let l = self.load(*buf, &i, *dtype);
                    format!("{k} ? {l} : {}", zero(*dtype))
                }
            }
            Ins::VecLoad {
                buf,
                vindex,
                valid,
                dtype,
                vectors,
            } => {
                let (view, vt) = match vectors {
                    1 => (View::Vector, vector_storage(*dtype)),
                    _ => {
                        // 32-bit lanes travel in pairs as 64-bit words
                        self.int64 |= dtype.size() == 4;
                        (View::Wide, wide_storage(*dtype))
                    }
                };
                let i = self.idx(vindex);
                // a pair whose invocations read far apart (a matrix-vector product's rows)
                // stays one storage load, as measured on the decode step's Q8_0 gate and
                // up product (eight rows an invocation), from memory: 0.68 ms with storage
                // loads, 0.96 with texels, 0.64 with only its rows' pairs as storage loads
                // (`FAR_LANES`)
                let texel = view != View::Wide
                    || self.lane_stride(vindex) * (8 * dtype.size() as i64) < FAR_LANES;
                if valid.is_always() {
                    let value = self.read(*buf, view, &i, texel);
                    writeln!(out, "{pad}{vt} x{v} = {value};").ok();
                } else {
                    let (k, i) = self.guard(out, pad, v, valid, &i);
                    let value = self.read(*buf, view, &i, texel);
                    writeln!(out, "{pad}{vt} x{v} = {k} ? {value} : {vt}(0);").ok();
                }
                return;
            }
            Ins::Extract { vec, lane, dtype } => {
                let wide = matches!(self.p.ins[*vec], Ins::VecLoad { vectors: 2, .. });
                self.extract(&n(*vec), *lane, *dtype, wide)
            }
            Ins::Cond(c) => c.render(&|id| var_name(self.p, id)),
            Ins::Unary(op, a, d) => alu::unary(*op, &n(*a), *d, &mut self.h),
            Ins::Binary(op, a, b, d) => alu::binary(*op, &n(*a), &n(*b), *d, &mut self.h),
            Ins::Ternary(op, a, b, c, d) => {
                alu::ternary(*op, &n(*a), &n(*b), &n(*c), *d, &mut self.h)
            }
            Ins::Cast { src, from, to } => alu::cast(&n(*src), *from, *to, &mut self.h),
            Ins::Bitcast { src, from, to } => alu::bitcast(&n(*src), *from, *to, &mut self.h),
            Ins::AccResult { block, acc, .. } => format!("acc{block}_{acc}"),
            Ins::Loop(b) => {
                self.lp(*b, out, pad, depth);
                return;
            }
            Ins::Stash { slot, index, value } => {
                let at = self.stash_at(*slot, index);
                writeln!(out, "{pad}s{slot}{at} = x{value};").ok();
                return;
            }
            Ins::Unstash { slot, index, .. } => format!("s{slot}{}", self.stash_at(*slot, index)),
        };
        self.loops += self.h.take_loops() * self.runs;
        writeln!(out, "{pad}{ty} x{v} = {expr};").ok();
    }

    /// `acc op value`, with the accumulator's dtype semantics.
    fn combine(&mut self, op: ReduceOp, acc: &str, value: &str, d: DType) -> String {
        alu::binary(op.combine(d), acc, value, d, &mut self.h)
    }

    fn lp(&mut self, b: BlockId, out: &mut String, pad: &str, depth: usize) {
        let block = &self.p.blocks[b];
        let (var, trip) = block.loop_var.expect("loop block");
        let accs = block.accs.clone();
        let r = var_name(self.p, var);
        // loops at the top of a workgroup kernel split their iterations among the threads;
        // reduction loops then combine their accumulators across the workgroup
        let threads = match self.p.strategy {
            Strategy::Cooperative { threads } | Strategy::Row { threads, .. }
                if block.parent == Some(Program::ROOT) && self.p.shares_groups() =>
            {
                Some(threads)
            }
            _ => None,
        };
        let coop = threads.filter(|_| !block.parallel);
        for (k, a) in accs.iter().enumerate() {
            let init = literal(a.op.identity(a.dtype), a.dtype);
            writeln!(out, "{pad}{} acc{b}_{k} = {init};", reg(a.dtype)).ok();
        }
        let end = match block.trip_word {
            Some(w) => format!("int(pc.p[{w}])"),
            None => trip.to_string(),
        };
        // a loop of literal trips (a row kernel's loops over its row) is one Mesa unrolls,
        // which a kernel needs only where it keeps a row in an array the loop's counter
        // indexes (`stash_rows`). Elsewhere unrolling buys no measured time and costs
        // compiling it: lavapipe compiled an RMSNorm row kernel of 768 (two loops of 12
        // rounds) in 222 ms unrolled, 77 ms not, and ran both in 120-150 us.
        let hint = if block.trip_word.is_none() && !self.p.keeps_rows() {
            self.unroll_hints = true;
            "[[dont_unroll]] "
        } else {
            ""
        };
        match threads {
            // counted in rounds (`VarKind::Round`): the compiler sees how often each
            // invocation runs the loop, and a row's kept values are indexed by the round
            Some(t) => {
                let k = format!("t{var}");
                let whole = block.trip_word.is_none() && trip % i64::from(t) == 0;
                let rounds = match block.trip_word {
                    Some(_) => format!("({end} + {}) / {t}", t - 1),
                    None => (trip.max(0) as u64).div_ceil(u64::from(t)).to_string(),
                };
                if matches!(self.p.strategy, Strategy::Cooperative { .. }) {
                    // each subgroup walks a block of `rounds * s` consecutive iterations, its
                    // lanes side by side: a CPU driver runs a workgroup's subgroups one after
                    // another, and a subgroup striding over the whole loop reads a few bytes
                    // of every page (lavapipe, sum of 16M f32: 95 ms round-robin, 65 in
                    // blocks); a GPU's subgroup still reads consecutive elements each step.
                    // The size is read at run time, so the source (and a bundle's key) does
                    // not depend on it; a subgroup as large as the workgroup makes the
                    // blocks round-robin.
                    // (names of their own: `b`, `s` and `v` prefix buffers and kept arrays)
                    let (n, s, base) = (
                        format!("rounds{var}"),
                        format!("sg{var}"),
                        format!("first{var}"),
                    );
                    writeln!(out, "{pad}int {n} = {rounds};").ok();
                    writeln!(out, "{pad}int {s} = min(int(gl_SubgroupSize), {t});").ok();
                    writeln!(
                        out,
                        "{pad}int {base} = (lid / {s}) * {n} * {s} + lid % {s};"
                    )
                    .ok();
                    writeln!(out, "{pad}{hint}for (int {k} = 0; {k} < {n}; {k}++) {{").ok();
                    writeln!(out, "{pad}  int {r} = {base} + {k} * {s};").ok();
                } else {
                    writeln!(
                        out,
                        "{pad}{hint}for (int {k} = 0; {k} < {rounds}; {k}++) {{"
                    )
                    .ok();
                    writeln!(out, "{pad}  int {r} = lid + {k} * {t};").ok();
                }
                if !whole {
                    writeln!(out, "{pad}  if ({r} >= {end}) break;").ok();
                }
            }
            None => {
                writeln!(out, "{pad}{hint}for (int {r} = 0; {r} < {end}; {r}++) {{").ok();
            }
        };
        // the thread with the most iterations: lid 0 takes ceil(trip / threads)
        let iterations = (trip.max(0) as u64).div_ceil(threads.map_or(1, u64::from));
        let outer = self.runs;
        self.loops += outer * (iterations + 1);
        self.runs = outer * iterations;
        self.block(b, out, depth + 1);
        for (k, a) in accs.iter().enumerate() {
            let c = self.combine(
                a.op,
                &format!("acc{b}_{k}"),
                &format!("x{}", a.value),
                a.dtype,
            );
            writeln!(out, "{pad}  acc{b}_{k} = {c};").ok();
        }
        self.loops += self.h.take_loops() * self.runs;
        self.runs = outer;
        writeln!(out, "{pad}}}").ok();
        if let Some(t) = coop {
            for (k, a) in accs.iter().enumerate() {
                self.workgroup_reduce(&format!("acc{b}_{k}"), a.op, a.dtype, t, out, pad);
            }
        }
    }

    /// Combines one accumulator across the workgroup; every thread ends with the total.
    fn workgroup_reduce(
        &mut self,
        acc: &str,
        op: ReduceOp,
        d: DType,
        threads: u32,
        out: &mut String,
        pad: &str,
    ) {
        let ty = reg(d);
        let s = format!("s_{acc}");
        let subgroup = self.target.subgroup_arithmetic && subgroup_combines(d);
        let one_subgroup = subgroup && threads <= self.target.subgroup_size;
        if !one_subgroup {
            writeln!(self.shared, "shared {ty} {s}[{threads}];").ok();
        }
        if subgroup {
            let f = match op {
                ReduceOp::Add => "subgroupAdd",
                ReduceOp::Mul => "subgroupMul",
                ReduceOp::Max => "subgroupMax",
            };
            let mut total = format!("{f}({acc})");
            if d == DType::F16 && op != ReduceOp::Max {
                total = alu::wrap(total, d, &mut self.h);
            }
            if d.is_float() && op == ReduceOp::Max {
                // subgroupMax may drop NaN; keep numpy's propagation
                writeln!(out, "{pad}bool nan_{acc} = subgroupAny(isnan({acc}));").ok();
                writeln!(
                    out,
                    "{pad}{acc} = nan_{acc} ? {acc} + uintBitsToFloat(0x7fc00000u) : {total};"
                )
                .ok();
            } else {
                writeln!(out, "{pad}{acc} = {total};").ok();
            }
            if one_subgroup {
                // every invocation has the total; no barrier (on a CPU, a workgroup with
                // one runs its invocations as coroutines)
                return;
            }
            writeln!(out, "{pad}if (subgroupElect()) {s}[gl_SubgroupID] = {acc};").ok();
            writeln!(out, "{pad}barrier();").ok();
            let c = self.combine(op, acc, &format!("{s}[i]"), d);
            // at most one subgroup per thread, and the exit
            let combines = u64::from(threads);
            self.loops += self.runs * (combines + 1) * (1 + self.h.take_loops());
            writeln!(
                out,
                "{pad}if (lid == 0) {{ {acc} = {s}[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) {acc} = {c}; {s}[0] = {acc}; }}"
            )
            .ok();
        } else {
            writeln!(out, "{pad}{s}[lid] = {acc};").ok();
            writeln!(out, "{pad}barrier();").ok();
            let c = self.combine(op, &format!("{s}[lid]"), &format!("{s}[lid + w]"), d);
            let halvings = u64::from(threads.max(1).ilog2());
            self.loops += self.runs * (halvings + 1) * (1 + self.h.take_loops());
            writeln!(out, "{pad}for (int w = {}; w > 0; w >>= 1) {{ if (lid < w) {s}[lid] = {c}; barrier(); }}", threads / 2)
                .ok();
        }
        writeln!(out, "{pad}barrier();").ok();
        writeln!(out, "{pad}{acc} = {s}[0];").ok();
    }

    /// Stores each vector of lanes (or packed words) at its index, for every output (a
    /// multi-output kernel's further ones into `o1`, `o2`, ...).
    fn store(&mut self) -> Vec<String> {
        let p = self.p;
        let mut stores = Vec::new();
        let kept = |j: usize| p.kept_where.get(j).map(Vec::as_slice).unwrap_or_default();
        for k in 0..p.out_index.len() {
            stores.push(self.store_vector(k, &p.outputs, kept(0), "o"));
            for (j, more) in p.more_outputs.iter().enumerate() {
                if more.at == OutputAt::Lanes {
                    let array = format!("o{}", j + 1);
                    stores.push(self.store_vector(k, &more.values, kept(j + 1), &array));
                }
            }
        }
        stores
    }

    /// Stores the values of one a row ([`OutputAt::Row`]) at the row's index, by its first
    /// invocation (every invocation sharing the row has the row's reductions combined).
    fn row_stores(&self) -> Vec<String> {
        let guard = if self.p.shares_groups() {
            "if (lid == 0) "
        } else {
            ""
        };
        self.p
            .more_outputs
            .iter()
            .enumerate()
            .filter(|(_, more)| more.at == OutputAt::Row)
            .map(|(j, more)| format!("{guard}o{}[q] = x{};", j + 1, more.values[0]))
            .collect()
    }

    /// Stores vector `k` of `outputs` (a pair of vectors, where stores are wide) into the
    /// output array `array`; where every lane keeps the target's value under one condition
    /// (`kept`, [`Program::kept_where`]), only where it holds.
    fn store_vector(
        &mut self,
        k: usize,
        outputs: &[Val],
        kept: &[Option<(Val, Val)>],
        array: &str,
    ) -> String {
        let d = self.p.out_dtype;
        let span = self.p.store_elements();
        let range = k * span..(k + 1) * span;
        // the condition every lane of the store shares, if any
        let only_if = kept.get(range.clone()).and_then(|w| {
            let c = w.first()?.as_ref()?.0;
            w.iter()
                .all(|l| matches!(l, Some((d, _)) if *d == c))
                .then_some(c)
        });
        let lanes: Vec<Val> = match only_if {
            Some(_) => kept[range].iter().flatten().map(|&(_, x)| x).collect(),
            None => outputs[range].to_vec(),
        };
        let lanes: Vec<String> = lanes.iter().map(|v| format!("x{v}")).collect();
        let bits = |x: &str, h: &mut Helpers| -> String {
            match d {
                DType::Bool => format!("({x} ? 1u : 0u)"),
                DType::F16 => format!("{}({x})", h.use_fn("tg_f2h")),
                DType::I8 => format!("(uint({x}) & 0xffu)"),
                DType::I16 => format!("(uint({x}) & 0xffffu)"),
                _ => format!("uint({x})"),
            }
        };
        // the 32-bit words of the store: four bytes or two halves a word
        let words = |per: usize, h: &mut Helpers| -> Vec<String> {
            lanes
                .chunks(per)
                .map(|word| {
                    let parts: Vec<String> = word
                        .iter()
                        .enumerate()
                        .map(|(l, x)| match l {
                            0 => bits(x, h),
                            _ => format!("({} << {}u)", bits(x, h), l * 32 / per),
                        })
                        .collect();
                    parts.join(" | ")
                })
                .collect()
        };
        let value = match d.size() {
            1 | 2 => {
                let w = words(4 / d.size(), &mut self.h);
                match w.len() {
                    1 => w[0].clone(),
                    n => format!("uvec{n}({})", w.join(", ")),
                }
            }
            4 if self.p.out_vectors > 1 => {
                let pairs: Vec<String> = lanes
                    .chunks(2)
                    .map(|p| {
                        let word = |x: &String| match d {
                            DType::F32 => format!("floatBitsToUint({x})"),
                            _ => format!("uint({x})"),
                        };
                        format!("packUint2x32(uvec2({}, {}))", word(&p[0]), word(&p[1]))
                    })
                    .collect();
                format!("u64vec4({})", pairs.join(", "))
            }
            _ => format!("{}({})", vector_storage(d), lanes.join(", ")),
        };
        let mut guard = if matches!(self.p.strategy, Strategy::Cooperative { .. }) {
            "if (lid == 0) ".to_string()
        } else {
            String::new()
        };
        if let Some(c) = only_if {
            guard.push_str(&format!("if (x{c}) "));
        }
        let index = self.idx(&self.p.out_index[k]);
        format!("{guard}{array}[{index}] = {value};")
    }
}
