//! Hand-written GLSL for the add and the sum, run through the same device layer, so tg's
//! generated kernels are compared with a baseline measured on this machine, not only with
//! figures from another one.

use tg::runtime::compile::compile_glsl;
use tg::runtime::device::{Binding, Device, Dispatch, KernelLayout};

const THREADS: u32 = 256;
/// vec4s each thread of the sum folds before the workgroup combines.
const SUM_PER_THREAD: u32 = 16;

fn add_source() -> String {
    format!(
        "#version 450
layout(local_size_x = {THREADS}) in;
layout(std430, set = 0, binding = 0) writeonly buffer O {{ vec4 o[]; }};
layout(std430, set = 0, binding = 1) readonly buffer A {{ vec4 a[]; }};
layout(std430, set = 0, binding = 2) readonly buffer B {{ vec4 b[]; }};
void main() {{ uint i = gl_GlobalInvocationID.x; o[i] = a[i] + b[i]; }}"
    )
}

/// One partial sum per workgroup; the second pass sums the partials the same way.
fn sum_source() -> String {
    format!(
        "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = {THREADS}) in;
layout(push_constant) uniform PC {{ uint n4; }} pc;
layout(std430, set = 0, binding = 0) writeonly buffer O {{ float o[]; }};
layout(std430, set = 0, binding = 1) readonly buffer A {{ vec4 a[]; }};
shared float part[{THREADS}];
void main() {{
  uint base = gl_WorkGroupID.x * {THREADS}u * {SUM_PER_THREAD}u + gl_LocalInvocationID.x;
  vec4 acc = vec4(0.0);
  for (uint k = 0u; k < {SUM_PER_THREAD}u; k++) {{
    uint i = base + k * {THREADS}u;
    if (i < pc.n4) acc += a[i];
  }}
  float s = subgroupAdd(acc.x + acc.y + acc.z + acc.w);
  if (subgroupElect()) part[gl_SubgroupID] = s;
  barrier();
  if (gl_LocalInvocationID.x == 0u) {{
    float t = 0.0;
    for (uint i = 0u; i < gl_NumSubgroups; i++) t += part[i];
    o[gl_WorkGroupID.x] = t;
  }}
}}"
    )
}

/// Hand-written dispatches, ready to run again and again.
pub struct Hand {
    dispatches: Vec<Dispatch>,
    timestamps: bool,
}

impl Hand {
    /// One execution: its wall time, and its kernels' timestamp intervals summed (NaN
    /// without timestamps), in seconds.
    pub fn run(&self) -> tg::Result<(f64, f64)> {
        let r = Device::get()?.execute(&self.dispatches, self.timestamps)?;
        let gpu = r
            .kernel_ns
            .map_or(f64::NAN, |k| k.iter().sum::<u64>() as f64 * 1e-9);
        Ok((r.wall_ns as f64 * 1e-9, gpu))
    }

    /// Dispatches of one execution.
    pub fn kernels(&self) -> usize {
        self.dispatches.len()
    }
}

fn bind(buf: &std::sync::Arc<tg::runtime::device::Buffer>, writes: bool) -> Binding {
    Binding {
        buffer: std::sync::Arc::clone(buf),
        writes,
        by_address: false,
    }
}

/// The hand-written vec4 add of two vectors of `n` f32 (a multiple of 1024), and the
/// two-pass subgroup sum of one (`None` on a device without subgroup arithmetic; `n` a
/// multiple of 64K whose partials are a multiple of 4), its total checked on the host.
pub fn add_and_sum(n: u32) -> tg::Result<(Hand, Option<Hand>)> {
    let dev = Device::get()?;
    let bytes = n as u64 * 4;
    let a = dev.alloc(bytes)?;
    // small integers: the partial sums are exact, so the total checks the shaders
    let data: Vec<u8> = (0..n)
        .flat_map(|i| ((i % 7) as f32).to_le_bytes())
        .collect();
    dev.write(&a, 0, &data)?;
    let b = dev.alloc(bytes)?;
    let o = dev.alloc(bytes)?;

    let spirv = compile_glsl(&add_source())?;
    let layout = KernelLayout {
        bindings: 3,
        push_constant_bytes: 0,
    };
    let add = dev.pipeline(0x7467_6265_6e63_6801, &spirv, layout)?;
    let add = Hand {
        dispatches: vec![Dispatch {
            pipeline: add,
            bindings: vec![bind(&o, true), bind(&a, false), bind(&b, false)],
            push_constants: Vec::new(),
            groups: [n / 4 / THREADS, 1, 1],
        }],
        timestamps: true,
    };

    if !dev.info().subgroup_arithmetic {
        return Ok((add, None));
    }
    let spirv = compile_glsl(&sum_source())?;
    let layout = KernelLayout {
        bindings: 2,
        push_constant_bytes: 4,
    };
    let sum = dev.pipeline(0x7467_6265_6e63_6802, &spirv, layout)?;
    let per_group = 4 * THREADS * SUM_PER_THREAD;
    let partials = n / per_group;
    let pass = |out: &std::sync::Arc<_>, inp: &std::sync::Arc<_>, floats: u32| Dispatch {
        pipeline: sum.clone(),
        bindings: vec![bind(out, true), bind(inp, false)],
        push_constants: (floats / 4).to_le_bytes().to_vec(),
        groups: [floats.div_ceil(per_group), 1, 1],
    };
    // 16M floats leave 1024 partials, a multiple of 4: one more pass finishes them
    let sum = Hand {
        dispatches: vec![pass(&b, &a, n), pass(&o, &b, partials)],
        timestamps: true,
    };
    sum.run()?;
    let mut total = [0u8; 4];
    dev.read(&o, 0, &mut total)?;
    let expected: u64 = (0..n as u64).map(|i| i % 7).sum();
    let got = f32::from_le_bytes(total) as f64;
    assert!(
        (got - expected as f64).abs() <= 1e-6 * expected as f64,
        "hand-written sum: {got} against {expected}"
    );
    Ok((add, Some(sum)))
}

/// `count` dependent hand-written dispatches over 1024 f32 in one submit, timed by the wall
/// clock (no timestamps): the device's own cost of a small kernel, which bounds tg's from
/// below.
pub fn chain(count: usize) -> tg::Result<Hand> {
    let dev = Device::get()?;
    let src = format!(
        "#version 450
layout(local_size_x = {THREADS}) in;
layout(std430, set = 0, binding = 0) buffer O {{ vec4 o[]; }};
layout(std430, set = 0, binding = 1) readonly buffer A {{ vec4 a[]; }};
void main() {{ uint i = gl_GlobalInvocationID.x; o[i] = a[i] * 1.0001 + 0.5; }}"
    );
    let spirv = compile_glsl(&src)?;
    let layout = KernelLayout {
        bindings: 2,
        push_constant_bytes: 0,
    };
    let pipeline = dev.pipeline(0x7467_6265_6e63_6803, &spirv, layout)?;
    let bufs = [dev.alloc(4096)?, dev.alloc(4096)?];
    let dispatches: Vec<Dispatch> = (0..count)
        .map(|k| Dispatch {
            pipeline: pipeline.clone(),
            bindings: vec![bind(&bufs[(k + 1) % 2], true), bind(&bufs[k % 2], false)],
            push_constants: Vec::new(),
            groups: [1, 1, 1],
        })
        .collect();
    Ok(Hand {
        dispatches,
        timestamps: false,
    })
}

/// The register-blocked matmul the performance issue measures tg against: a 16x16 workgroup,
/// each invocation keeping a 4x4 block of C in registers, no shared memory. Row-major A
/// (n, n) and B (n, n); n a multiple of 64.
fn matmul_source(n: u32) -> String {
    format!(
        "#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) writeonly buffer C {{ vec4 c[]; }};
layout(std430, set = 0, binding = 1) readonly buffer A {{ float a[]; }};
layout(std430, set = 0, binding = 2) readonly buffer B {{ vec4 b[]; }};
void main() {{
  uint col4 = gl_GlobalInvocationID.x;
  uint row = gl_GlobalInvocationID.y * 4u;
  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);
  for (uint k = 0u; k < {n}u; k++) {{
    vec4 bk = b[k * {n4}u + col4];
    acc0 += a[(row + 0u) * {n}u + k] * bk;
    acc1 += a[(row + 1u) * {n}u + k] * bk;
    acc2 += a[(row + 2u) * {n}u + k] * bk;
    acc3 += a[(row + 3u) * {n}u + k] * bk;
  }}
  c[(row + 0u) * {n4}u + col4] = acc0;
  c[(row + 1u) * {n4}u + col4] = acc1;
  c[(row + 2u) * {n4}u + col4] = acc2;
  c[(row + 3u) * {n4}u + col4] = acc3;
}}",
        n4 = n / 4
    )
}

/// The hand-written register-blocked matmul of two n x n f32 matrices, checked against the
/// host on one row.
pub fn matmul(n: u32) -> tg::Result<Hand> {
    let dev = Device::get()?;
    let bytes = n as u64 * n as u64 * 4;
    let value = |i: u64| ((i * 2654435761 % 1009) as f32 - 504.0) / 1024.0;
    let host_a: Vec<f32> = (0..n as u64 * n as u64).map(value).collect();
    let host_b: Vec<f32> = (0..n as u64 * n as u64).map(|i| value(i + 7)).collect();
    let upload = |v: &[f32]| -> tg::Result<_> {
        let buf = dev.alloc(bytes)?;
        let raw: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        dev.write(&buf, 0, &raw)?;
        Ok(buf)
    };
    let (a, b, c) = (upload(&host_a)?, upload(&host_b)?, dev.alloc(bytes)?);
    let spirv = compile_glsl(&matmul_source(n))?;
    let layout = KernelLayout {
        bindings: 3,
        push_constant_bytes: 0,
    };
    let pipeline = dev.pipeline(0x7467_6265_6e63_6900 + n as u64, &spirv, layout)?;
    let hand = Hand {
        dispatches: vec![Dispatch {
            pipeline,
            bindings: vec![bind(&c, true), bind(&a, false), bind(&b, false)],
            push_constants: Vec::new(),
            groups: [n / 4 / 16, n / 4 / 16, 1],
        }],
        timestamps: true,
    };
    hand.run()?;
    // row 1 of the product, on the host
    let mut got = vec![0u8; n as usize * 4];
    dev.read(&c, bytes / n as u64, &mut got)?;
    let n = n as usize;
    for (j, word) in got.chunks_exact(4).enumerate() {
        let want: f64 = (0..n)
            .map(|k| host_a[n + k] as f64 * host_b[k * n + j] as f64)
            .sum();
        let have = f32::from_le_bytes(word.try_into().unwrap()) as f64;
        assert!(
            (have - want).abs() <= 1e-3 * (1.0 + want.abs()),
            "hand-written matmul C[1][{j}]: {have} against {want}"
        );
    }
    Ok(hand)
}
