//! `cargo run --release --bin tg-probe-loads`: what a kernel pays to read memory on the
//! selected device, by the path it reads through. Each invocation folds its own row of 768
//! words (3 KB, as a matrix-vector product reads its weights: side-by-side invocations read
//! 3 KB apart) read as a storage buffer's `uvec4`s, as its `u64vec4`s, and as a uniform
//! texel buffer's `R32G32B32A32_UINT` texels (one and two a step), over 4096 rows (12 MiB,
//! which a large cache holds) and 32768 (96 MiB, read from memory). It times the dispatches
//! on the device (timestamps; the submission's wall time where the queue has none) through
//! tg's device layer (`KernelLayout::texels` binds the texel buffer), the first one (which
//! compiles) apart: median and fastest of 21, three rounds in turn, and a checksum (reads
//! of the same width fold the same values).
//!
//! Why: lavapipe (Mesa 22.3) loads a storage buffer at a varying address lane by lane, a
//! loop with a bounds check and a branch per lane and component, where it fetches texels as
//! a gather. So tg's CPU kernels read their inputs through texel buffers
//! (`Program::texels`). Here texels win from cache and from memory alike; the one
//! exception tg makes, a product's rows read far apart, comes from a kernel reading eight
//! such rows at once (ARCHITECTURE, "Codegen"), which this probe does not.

use std::sync::Arc;

use tg::runtime::device::{Binding, Buffer, Device, Dispatch, KernelLayout};

/// Rows of the cached run (12 MiB) and of the run from memory (96 MiB: past a 32 MiB L3,
/// within lavapipe's 128 MiB storage binding).
const ROWS_CACHED: u32 = 4096;
const ROWS_STREAMED: u32 = 32768;
const WORDS: u32 = 768;
const RUNS: usize = 21;

/// How the probe reads the rows.
#[derive(Clone, Copy, PartialEq)]
enum Path {
    Vectors,
    Pairs,
    Texels,
    TexelPairs,
}

impl Path {
    fn name(self) -> &'static str {
        match self {
            Path::Vectors => "storage buffer, uvec4",
            Path::Pairs => "storage buffer, u64vec4",
            Path::Texels => "uniform texel buffer",
            Path::TexelPairs => "texel buffer, pairs",
        }
    }

    /// The kernel: `o[q]` is the sum over the row of each four words' xor (the pairs' fold
    /// takes eight words a step, so its sum differs).
    fn shader(self) -> String {
        let (decl, step) = match self {
            Path::Vectors => (
                "layout(std430, set = 0, binding = 1) restrict readonly buffer In { uvec4 v[]; };",
                "for (uint r = 0u; r < W / 4u; r++) { uvec4 w = v[q * (W / 4u) + r]; acc += w.x ^ w.y ^ w.z ^ w.w; }",
            ),
            Path::Pairs => (
                "#extension GL_ARB_gpu_shader_int64 : require\nlayout(std430, set = 0, binding = 1) restrict readonly buffer In { u64vec4 v[]; };",
                "for (uint r = 0u; r < W / 8u; r++) { u64vec4 w = v[q * (W / 8u) + r]; u64vec4 x = w ^ (w >> 32); acc += uint(x.x ^ x.y ^ x.z ^ x.w); }",
            ),
            Path::Texels => (
                "layout(set = 0, binding = 1) uniform usamplerBuffer t;",
                "for (uint r = 0u; r < W / 4u; r++) { uvec4 w = texelFetch(t, int(q * (W / 4u) + r)); acc += w.x ^ w.y ^ w.z ^ w.w; }",
            ),
            Path::TexelPairs => (
                "layout(set = 0, binding = 1) uniform usamplerBuffer t;",
                "for (uint r = 0u; r < W / 8u; r++) { uvec4 a = texelFetch(t, int(q * (W / 4u) + 2u * r)); uvec4 b = texelFetch(t, int(q * (W / 4u) + 2u * r + 1u)); uvec4 x = a ^ b.yxwz; acc += x.x ^ x.y ^ x.z ^ x.w; }",
            ),
        };
        format!(
            "#version 450\n{decl}\nlayout(local_size_x = 64) in;\n#define W {WORDS}u\nlayout(std430, set = 0, binding = 0) writeonly buffer Out {{ uint o[]; }};\nvoid main() {{\n  uint q = gl_GlobalInvocationID.x;\n  uint acc = 0u;\n  {step}\n  o[q] = acc;\n}}\n"
        )
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dev = Device::get()?;
    println!("device: {}", dev.info().name);
    for rows in [ROWS_CACHED, ROWS_STREAMED] {
        let bytes = u64::from(rows * WORDS * 4);
        let words: Vec<u8> = (0..rows * WORDS)
            .flat_map(|i| (i.wrapping_mul(2_654_435_761) >> 3).to_le_bytes())
            .collect();
        let input = dev.alloc(bytes)?;
        dev.write(&input, 0, &words)?;
        let output = dev.alloc(u64::from(rows * 4))?;
        println!(
            "{rows} rows of {WORDS} words ({} MiB), each invocation its own:",
            bytes >> 20
        );
        for round in 0..3 {
            for path in [Path::Vectors, Path::Pairs, Path::Texels, Path::TexelPairs] {
                let source = path.shader();
                let texel = matches!(path, Path::Texels | Path::TexelPairs);
                let spirv = tg::runtime::compile::compile_glsl(&source)?;
                let layout = KernelLayout {
                    bindings: if texel { 1 } else { 2 },
                    texels: u32::from(texel),
                    push_constant_bytes: 0,
                };
                let pipeline =
                    dev.pipeline(tg::runtime::compile::stable_hash(&source), &spirv, layout)?;
                let bind = |buffer: &Arc<Buffer>, writes| Binding {
                    buffer: Arc::clone(buffer),
                    writes,
                    by_address: false,
                };
                let dispatch = Dispatch {
                    pipeline,
                    bindings: vec![bind(&output, true), bind(&input, false)],
                    push_constants: Vec::new(),
                    groups: [rows / 64, 1, 1],
                };
                let first = dev.execute(std::slice::from_ref(&dispatch), false)?;
                let report = dev.execute(&vec![dispatch; RUNS], true)?;
                let mut us: Vec<f64> = match report.kernel_ns {
                    Some(ns) => ns.iter().map(|&t| t as f64 / 1e3).collect(),
                    // no timestamps: the submission's wall time, shared out
                    None => vec![report.wall_ns as f64 / 1e3 / RUNS as f64; RUNS],
                };
                us.sort_by(f64::total_cmp);
                let mut sums = vec![0u8; rows as usize * 4];
                dev.read(&output, 0, &mut sums)?;
                let check: u64 = sums
                    .chunks_exact(4)
                    .map(|w| u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
                    .sum();
                let median = us[us.len() / 2];
                println!(
                    "round {round}  {:<24} median {median:8.1} us  fastest {:8.1} us  {:6.2} GB/s  (first, compiling: {:.0} ms)  checksum {check}",
                    path.name(),
                    us[0],
                    bytes as f64 / (median * 1e3),
                    first.wall_ns as f64 / 1e6
                );
            }
        }
    }
    // under TG_VALIDATION=1, what the layer said
    for m in tg::runtime::device::take_validation_messages() {
        println!("validation: {m}");
    }
    Ok(())
}
