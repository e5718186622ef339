//! Hand-written GLSL (an add, a sum, a fused softmax, a matmul, a dispatch chain), run through
//! the same device layer, so tg's generated kernels are compared with a baseline measured on
//! this machine, not only with figures from another one.

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
        texels: 0,
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
        texels: 0,
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
        texels: 0,
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
        texels: 0,
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

/// A fused softmax over rows of `len` f32, written as a careful person writes it for this
/// kind of device, to show where tg's own fused kernel stands: one subgroup a row, each lane
/// keeping its share of the row in registers between the three passes (read once, written
/// once), the device's `exp` and a plain `max` (no NaN rules, tg's exp is accurate to 2 ulp),
/// wide loads and stores (`u64vec4`, 8 f32) where the device has 64-bit integers, else vec4s.
/// `len` a multiple of 8 times the subgroup size.
fn softmax_source(len: u32, subgroup: u32, wide: bool) -> String {
    let (step, vt, ext) = if wide {
        (
            8,
            "u64vec4",
            "#extension GL_ARB_gpu_shader_int64 : require\n",
        )
    } else {
        (4, "vec4", "")
    };
    let steps = len / step / subgroup;
    let (unpack, pack) = if wide {
        (
            "for (int c = 0; c < 4; c++) { vec2 p = uintBitsToFloat(unpackUint2x32(v[c])); s[t][2 * c] = p.x; s[t][2 * c + 1] = p.y; }",
            "for (int c = 0; c < 4; c++) v[c] = packUint2x32(floatBitsToUint(vec2(s[t][2 * c], s[t][2 * c + 1]) * r));",
        )
    } else {
        (
            "for (int c = 0; c < 4; c++) s[t][c] = v[c];",
            "for (int c = 0; c < 4; c++) v[c] = s[t][c] * r;",
        )
    };
    format!(
        "#version 450
{ext}#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(push_constant) uniform PC {{ uint rows; }} pc;
layout(std430, set = 0, binding = 0) writeonly buffer O {{ {vt} o[]; }};
layout(std430, set = 0, binding = 1) readonly buffer A {{ {vt} a[]; }};
void main() {{
  uint row = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID;
  if (row >= pc.rows) return;
  uint base = row * {row_vectors}u + gl_SubgroupInvocationID;
  float s[{steps}][{step}];
  float m = uintBitsToFloat(0xff800000u);
  for (uint t = 0u; t < {steps}u; t++) {{
    {vt} v = a[base + t * {subgroup}u];
    {unpack}
    for (int k = 0; k < {step}; k++) m = max(m, s[t][k]);
  }}
  m = subgroupMax(m);
  float sum = 0.0;
  for (uint t = 0u; t < {steps}u; t++) {{
    for (int k = 0; k < {step}; k++) {{ float e = exp(s[t][k] - m); s[t][k] = e; sum += e; }}
  }}
  float r = 1.0 / subgroupAdd(sum);
  for (uint t = 0u; t < {steps}u; t++) {{
    {vt} v;
    {pack}
    o[base + t * {subgroup}u] = v;
  }}
}}",
        row_vectors = len / step,
    )
}

/// The hand-written fused softmax of `rows` rows of `len` f32 (`softmax_source`), checked
/// on the host against one row (`None` where the device has no subgroup arithmetic or a
/// subgroup does not divide the workgroup and the row).
pub fn softmax(rows: u32, len: u32) -> tg::Result<Option<Hand>> {
    let dev = Device::get()?;
    let info = dev.info();
    let sg = info.subgroup_size;
    let wide = info.shader_int64;
    let step = if wide { 8 } else { 4 };
    if !info.subgroup_arithmetic
        || sg == 0
        || !64u32.is_multiple_of(sg)
        || !len.is_multiple_of(step * sg)
    {
        return Ok(None);
    }
    let n = rows as u64 * len as u64;
    let host: Vec<f32> = (0..n)
        .map(|i| ((i * 2654435761) % 1013) as f32 / 128.0 - 4.0)
        .collect();
    let a = dev.alloc(n * 4)?;
    let raw: Vec<u8> = host.iter().flat_map(|x| x.to_le_bytes()).collect();
    dev.write(&a, 0, &raw)?;
    let o = dev.alloc(n * 4)?;
    let spirv = compile_glsl(&softmax_source(len, sg, wide))?;
    let layout = KernelLayout {
        bindings: 2,
        texels: 0,
        push_constant_bytes: 4,
    };
    let key = 0x7467_6265_6e64_0000 + ((len as u64) << 8) + ((sg as u64) << 1) + wide as u64;
    let pipeline = dev.pipeline(key, &spirv, layout)?;
    let rows_per_group = 64 / sg;
    let hand = Hand {
        dispatches: vec![Dispatch {
            pipeline,
            bindings: vec![bind(&o, true), bind(&a, false)],
            push_constants: rows.to_le_bytes().to_vec(),
            groups: [rows.div_ceil(rows_per_group), 1, 1],
        }],
        timestamps: true,
    };
    hand.run()?;
    // the last row, on the host
    let last = (rows as usize - 1) * len as usize;
    let mut got = vec![0u8; len as usize * 4];
    dev.read(&o, last as u64 * 4, &mut got)?;
    let row = &host[last..last + len as usize];
    let m = row.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x));
    let total: f64 = row.iter().map(|&x| ((x - m) as f64).exp()).sum();
    for (k, word) in got.chunks_exact(4).enumerate() {
        let got = f32::from_le_bytes(word.try_into().expect("4 bytes")) as f64;
        let want = ((row[k] - m) as f64).exp() / total;
        assert!(
            (got - want).abs() <= 1e-5 * want + 1e-9,
            "hand-written softmax, element {k}: {got} against {want}"
        );
    }
    Ok(Some(hand))
}
