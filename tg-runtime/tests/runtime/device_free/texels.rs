//! Which reads a CPU kernel makes through uniform texel buffers (`Program::texels`,
//! `target::Lowering::texel_bytes`), and how its GLSL declares and binds them: lavapipe loads
//! a storage buffer lane by lane but gathers a texel fetch.

use tg_runtime::ash::vk;
use tg_runtime::device::{DeviceInfo, KernelLayout};
use tg_runtime::kernel::Strategy;
use tg_runtime::realize::plan;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp};

use super::{data, gpu, lavapipe};

/// The GLSL of the last kernel a realize of `y` runs on `info`.
fn source(y: &Lazy, info: &DeviceInfo) -> String {
    plan(&[y], info)
        .unwrap()
        .last()
        .expect("a kernel")
        .source
        .clone()
}

fn add(a: &Lazy, b: &Lazy) -> Lazy {
    a.binary(BinaryOp::Add, b).unwrap()
}

/// A CPU's elementwise kernel reads both inputs through texel buffers bound after its
/// output; a GPU's, a CPU's with `TG_STORAGE_READS`, and one on a device that cannot read
/// the texel format read storage buffers.
#[test]
fn a_cpu_kernel_reads_its_inputs_through_texel_buffers() {
    let sum = add(&data(&[4096]), &data(&[4096]));
    let s = source(&sum, &lavapipe());
    assert!(
        s.contains("layout(set = 0, binding = 1) uniform usamplerBuffer tb1;")
            && s.contains("layout(set = 0, binding = 2) uniform usamplerBuffer tb0;"),
        "{s}"
    );
    assert!(!s.contains("readonly buffer"), "{s}");
    let storage = DeviceInfo {
        storage_reads: true,
        ..lavapipe()
    };
    let no_format = DeviceInfo {
        max_texel_buffer_elements: 0,
        ..lavapipe()
    };
    for info in [gpu(), storage, no_format] {
        let s = source(&sum, &info);
        assert!(!s.contains("usamplerBuffer"), "{}: {s}", info.name);
        assert!(s.contains("readonly buffer In0"), "{s}");
    }
}

/// Only an input that fits one texel view is read through one: on a device of 256 texels
/// (4 KiB), 1024 f32 do and 1028 do not. Nor are 64-bit elements (a texel holds two, which
/// no read takes apart), nor anything an in-place write reads (it may write what it reads,
/// which a texel view's reads need not see).
#[test]
fn only_what_fits_a_texel_view_is_read_through_one() {
    let small = DeviceInfo {
        max_texel_buffer_elements: 256,
        ..lavapipe()
    };
    let at = data(&[1024]);
    let s = source(&add(&at, &data(&[1024])), &small);
    assert_eq!(s.matches("uniform usamplerBuffer").count(), 2, "{s}");
    let past = data(&[1028]).shrink(&[(0, 1024)]).unwrap();
    let s = source(&add(&at, &past), &small);
    assert_eq!(s.matches("uniform usamplerBuffer").count(), 1, "{s}");
    assert_eq!(
        s.matches("readonly buffer In0 { u64vec4 ").count(),
        1,
        "{s}"
    );

    let wide = Lazy::empty_buffer(DType::I64, &[64]).unwrap();
    let s = source(&add(&wide, &wide), &lavapipe());
    assert!(!s.contains("usamplerBuffer"), "{s}");

    let target = data(&[64]);
    let assigned = target.assign(&add(&target, &data(&[64]))).unwrap();
    let s = source(&assigned, &lavapipe());
    assert!(!s.contains("usamplerBuffer"), "{s}");
}

/// A matrix-vector product's invocations each read their own rows, 3 KB apart: those pairs
/// stay storage loads (streamed from memory, lavapipe's per-lane 32-byte loads beat the
/// gathers of two texels), while the vector every invocation reads, and the scales of a
/// row, come through texel buffers.
#[test]
fn a_products_rows_far_apart_stay_storage_loads() {
    let (k, n) = (768, 2048);
    let x = data(&[1, 1, k]).expand(&[1, n, k]).unwrap();
    let w = data(&[n, k]).reshape(&[1, n, k]).unwrap();
    let y = x
        .binary(BinaryOp::Mul, &w)
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap();
    let s = source(&y, &lavapipe());
    assert_eq!(s.matches("uniform usamplerBuffer").count(), 1, "{s}");
    let rows = s
        .split_once("readonly buffer In0 { u64vec4 ")
        .and_then(|(_, rest)| rest.split_once("[]"))
        .unwrap_or_else(|| panic!("no storage pairs: {s}"))
        .0;
    // an invocation's 4 rows are `k / 8` = 96 pairs apart, its neighbour's 384; the
    // vector's index has no `q`
    assert!(s.contains(&format!("= {rows}[(q * 384 + r1 + 96)]")), "{s}");
    assert!(s.contains("tg_tx8(tb"), "{s}");
    // a GPU reads the rows as vectors, one an invocation's lane: nothing through texels
    assert!(!source(&y, &gpu()).contains("usamplerBuffer"));
}

/// A CPU's fused attention reads every input through texel buffers in all three passes:
/// rows as texels (a vector each, never pairs), the additive mask, the dropout's kept bits,
/// the forward's output and `delta` element by element; a GPU's reads storage buffers.
#[test]
fn a_cpu_attention_reads_its_inputs_through_texel_buffers() {
    let [q, k, v] = [0, 1, 2].map(|_| Lazy::parameter(&data(&[2, 37, 16])).unwrap());
    let mask = data(&[1, 37, 37]);
    let keep = Lazy::empty_buffer(DType::U32, &[2, 37, 2]).unwrap();
    let out = q
        .attention_dropout(&k, &v, false, Some(&mask), &keep, 0.25)
        .unwrap();
    let seed = data(&[2, 37, 17]);
    let grads = out.gradient(&[&q, &k, &v], Some(&seed)).unwrap();
    let sources = |info: &DeviceInfo| -> Vec<String> {
        plan(&grads.iter().collect::<Vec<_>>(), info)
            .unwrap()
            .into_iter()
            .filter(|k| matches!(k.kernel.strategy, Strategy::Attention { .. }))
            .map(|k| k.source)
            .collect()
    };
    let cpu = sources(&lavapipe());
    assert_eq!(cpu.len(), 3);
    for s in &cpu {
        assert!(!s.contains("readonly buffer"), "{s}");
        assert!(!s.contains("u64vec4"), "{s}");
        assert!(s.contains("uintBitsToFloat(texelFetch(tb0, "), "{s}");
        assert!(s.contains("tg_tx1(tb"), "{s}");
    }
    for s in sources(&gpu()) {
        assert!(!s.contains("usamplerBuffer"), "{s}");
    }
}

/// A layout's texel buffers follow its storage buffers, one descriptor each.
#[test]
fn texel_buffers_bind_after_the_storage_buffers() {
    let layout = KernelLayout {
        bindings: 2,
        texels: 3,
        push_constant_bytes: 4,
    };
    let kinds: Vec<(u32, vk::DescriptorType)> = layout
        .descriptor_bindings()
        .iter()
        .map(|b| (b.binding, b.descriptor_type))
        .collect();
    let (storage, texel) = (
        vk::DescriptorType::STORAGE_BUFFER,
        vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
    );
    assert_eq!(
        kinds,
        [
            (0, storage),
            (1, storage),
            (2, texel),
            (3, texel),
            (4, texel)
        ]
    );
    assert_eq!(layout.descriptors(), 5);
}
