//! Turns a scheduled kernel into a dispatch: lower and render (cached), compile (cached),
//! pipeline. The realize below runs what this prepares, and so does the tile search, which
//! times candidate kernels on the device.

mod signature;
mod slow_start;

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, LazyLock, Mutex};

use crate::codegen::glsl::{self, Shader, View};
use crate::codegen::lower::{lower, param_words};
use crate::codegen::program::Program;
use crate::compile;
use crate::device::{Binding, Buffer, Device, Dispatch, KernelLayout, Pipeline};
use crate::dtype::Scalar;
use crate::error::{Error, Result};
use crate::graph::node::{pin_copied, pinned_sources};
use crate::kernel::{Kernel, Strategy};
use crate::target::Target;

/// A kernel lowered and rendered, not yet compiled.
pub struct Lowered {
    /// Short name in tinygrad's style (`E_4_3`, `R_16`).
    pub name: String,
    /// The rendered shader.
    pub shader: Shader,
    /// The lowered program.
    pub program: Program,
}

/// A kernel ready to record.
pub struct Prepared {
    /// Short name in tinygrad's style.
    pub name: String,
    /// The rendered shader.
    pub shader: Shader,
    /// The compiled pipeline.
    pub pipeline: Arc<Pipeline>,
    /// The lowered program.
    pub program: Program,
}

/// Short name in tinygrad's style: `E` elementwise, `R` with a reduction, then the output shape.
pub fn kernel_name(k: &Kernel, p: &Program) -> String {
    let kind = if p.blocks.len() > 1 { "R" } else { "E" };
    let coop = match p.strategy {
        Strategy::Serial => "",
        Strategy::Tile { .. } => "t",
        Strategy::Cooperative { .. } => "c",
        Strategy::Row { .. } => "r",
        Strategy::Sort { .. } => "n",
        Strategy::Merge { .. } => "m",
        Strategy::Scan { .. } => "s",
        Strategy::Attention { .. } => "a",
    };
    let shape: Vec<String> = k.root.shape().iter().map(|d| d.to_string()).collect();
    // a multi-output kernel says how many outputs it writes
    let outputs = match k.also.len() {
        0 => String::new(),
        n => format!("x{}", n + 1),
    };
    format!(
        "{kind}{coop}{outputs}_{}_{}",
        shape.join("x"),
        k.root.dtype()
    )
}

/// A map from kernel signatures, shared by all threads.
type BySignature<T> = Mutex<HashMap<Signature, Arc<T>>>;

/// A kernel's structural signature (`signature.rs`).
type Signature = (u64, u64);

/// Entries a signature cache keeps before it starts afresh. Signatures are exact (they hold
/// the graph's constants), so a training loop whose learning rate changes every step makes
/// new ones; what is costly (shaderc, pipelines) is cached by shader source elsewhere.
const MAX_ENTRIES: usize = 4096;

/// Kernels lowered and rendered, by structural signature and target: the scheduler asks each
/// planned kernel's loop count, and preparing it later reuses the work.
static LOWERED: LazyLock<Mutex<HashMap<LoweredKey, Arc<Lowered>>>> =
    LazyLock::new(Default::default);
/// A kernel's structural signature and the target it is lowered for.
type LoweredKey = (Signature, Target);
/// Prepared kernels of one device by structural signature ([`Device::local`]), so a graph
/// shaped like an earlier one skips lowering, rendering and shader hashing.
type PreparedKernels = BySignature<Prepared>;

fn cached<K: Eq + Hash, T>(
    map: &Mutex<HashMap<K, Arc<T>>>,
    key: K,
    make: impl FnOnce() -> Result<T>,
) -> Result<(Arc<T>, bool)> {
    if let Some(v) = map.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok((v.clone(), false));
    }
    let v = Arc::new(make()?);
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= MAX_ENTRIES {
        map.clear();
    }
    map.insert(key, v.clone());
    Ok((v, true))
}

/// `k` lowered and rendered for `target` (cached by signature).
pub fn lowered(k: &Kernel, target: &Target) -> Result<Arc<Lowered>> {
    lowered_as(k, signature::signature(k), target)
}

/// [`lowered`] for a kernel whose signature the caller has computed already.
fn lowered_as(k: &Kernel, sig: Signature, target: &Target) -> Result<Arc<Lowered>> {
    let (l, _) = cached(&LOWERED, (sig, *target), || {
        let fits = |p: &Program| p.index_magnitude() <= i128::from(i32::MAX);
        let mut options = target.lowering;
        let mut program = lower(k, options);
        if !fits(&program) {
            // a trip count's class took index arithmetic past 32 bits: exact ranges instead
            options.generic_trips = false;
            program = lower(k, options);
        }
        if !fits(&program) {
            return Err(Error::internal(
                "codegen",
                format!(
                    "kernel {:?} computes index values up to {}, past 32 bits",
                    k.root,
                    program.index_magnitude()
                ),
            ));
        }
        let shader = glsl::render(&program, target.glsl);
        Ok(Lowered {
            name: kernel_name(k, &program),
            shader,
            program,
        })
    })?;
    Ok(l)
}

/// The prepared form of `k`, from the cache when a kernel of the same structure ran before,
/// and whether shaderc had to compile it.
pub fn prepare(dev: &Device, k: &Kernel) -> Result<(Arc<Prepared>, bool)> {
    check_dtypes(dev, k)?;
    prepare_as(dev, k, signature::signature(k))
}

/// [`prepare`] for a kernel whose signature the caller has computed already.
fn prepare_as(dev: &Device, k: &Kernel, sig: Signature) -> Result<(Arc<Prepared>, bool)> {
    let mut compiled = false;
    let prepared = dev.local::<PreparedKernels>(0);
    let (p, _) = cached(&prepared, sig, || {
        let (p, c) = prepare_uncached(dev, k, sig)?;
        compiled = c;
        Ok(p)
    })?;
    Ok((p, compiled))
}

/// The prepared forms of `ks`, as [`prepare`] gives each, handed to `ready` in kernel order
/// as soon as each (and every one before it) is; those not prepared before are built on up to
/// [`std::thread::available_parallelism`] threads at once. `waiting` runs whenever the next
/// one is still being built: a realize submits what it has so far, so a driver that
/// compiles a pipeline at its first dispatch (lavapipe's LLVM, on its queue's thread)
/// starts on the first kernels while the host prepares the rest.
///
/// Preparing a new kernel is shaderc compiling its GLSL and the driver compiling the SPIR-V:
/// tens of milliseconds each, hundreds of kernels on a model's first run, and every step of
/// it is independent of the other kernels (shaderc's compilers are per thread, pipelines
/// are built outside the device's lock), so a first run spends its time in proportion to
/// the kernels over the cores rather than the kernels. A realize whose kernels were all
/// prepared before looks each up and starts no thread. Every kernel's dtypes are checked
/// before any is handed on, and the first error in kernel order is returned (`ready`'s
/// included), whichever thread met it; the threads then take no more kernels.
pub fn prepare_each(
    dev: &Device,
    ks: &[&Kernel],
    mut ready: impl FnMut(usize, Arc<Prepared>, bool) -> Result<()>,
    mut waiting: impl FnMut() -> Result<()>,
) -> Result<()> {
    for k in ks {
        check_dtypes(dev, k)?;
    }
    let sigs: Vec<Signature> = ks.iter().map(|k| signature::signature(k)).collect();
    let known: Vec<Option<Arc<Prepared>>> = {
        let prepared = dev.local::<PreparedKernels>(0);
        let map = prepared.lock().unwrap_or_else(|e| e.into_inner());
        sigs.iter().map(|s| map.get(s).cloned()).collect()
    };
    let missing: Vec<usize> = (0..ks.len()).filter(|&i| known[i].is_none()).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(missing.len());
    // every kernel to `ready` in order, `build(i)` giving each one not prepared before
    let hand_on = |build: &mut dyn FnMut(usize) -> Result<(Arc<Prepared>, bool)>| {
        for (i, known) in known.into_iter().enumerate() {
            let (p, compiled) = match known {
                Some(p) => (p, false),
                None => build(i)?,
            };
            ready(i, p, compiled)?;
        }
        Ok(())
    };
    if threads <= 1 {
        return hand_on(&mut |i| prepare_as(dev, ks[i], sigs[i]));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, results) = std::sync::mpsc::channel::<(usize, Result<(Arc<Prepared>, bool)>)>();
    // the graph as the realize's thread pinned it: another thread's realize may compute a
    // node of these kernels meanwhile and drop its sources
    let pins = pinned_sources();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let send = send.clone();
            let (next, missing, sigs, pins) = (&next, &missing, &sigs, pins.clone());
            scope.spawn(move || {
                let _pinned = pin_copied(pins);
                loop {
                    let j = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&i) = missing.get(j) else { break };
                    if send.send((i, prepare_as(dev, ks[i], sigs[i]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut built: HashMap<usize, Result<(Arc<Prepared>, bool)>> = HashMap::new();
        let outcome = hand_on(&mut |i| {
            while let Ok((j, r)) = results.try_recv() {
                built.insert(j, r);
            }
            if !built.contains_key(&i) {
                waiting()?;
            }
            while !built.contains_key(&i) {
                let (j, r) = results
                    .recv()
                    .map_err(|_| Error::internal("prepare_each", "a preparing thread stopped"))?;
                built.insert(j, r);
            }
            built.remove(&i).expect("just found")
        });
        // on an error the threads take no more kernels
        next.store(missing.len(), std::sync::atomic::Ordering::Relaxed);
        outcome
    })
}

fn prepare_uncached(dev: &Device, k: &Kernel, sig: Signature) -> Result<(Prepared, bool)> {
    let l = lowered_as(k, sig, &Target::of(dev.info()))?;
    let start = std::time::Instant::now();
    let before = compile::thread_compile_count();
    let spirv = compile::compile_kernel(&l.name, &l.shader.source)?;
    let compiled = compile::thread_compile_count() > before;
    let key = compile::stable_hash(&l.shader.source);
    let words = 1 + 2 * l.shader.addresses.len() + l.program.params.len();
    if 4 * words as u32 > dev.info().max_push_constant_bytes {
        return Err(Error::Unsupported {
            what: format!(
                "a kernel reading {} runtime scalars ({} push-constant bytes)",
                l.program.var_params.len(),
                4 * words
            ),
            feature: "more push-constant space",
            device: dev.info().name.clone(),
        });
    }
    let texels = l
        .shader
        .bindings
        .iter()
        .filter(|b| b.1 == View::Texel)
        .count() as u32;
    let layout = KernelLayout {
        bindings: u32::from(!l.shader.addresses.contains(&0))
            + l.program.more_outputs.len() as u32
            + l.shader.bindings.len() as u32
            - texels,
        texels,
        push_constant_bytes: 4
            * (1 + 2 * l.shader.addresses.len() as u32 + l.program.params.len() as u32),
    };
    let pipeline = dev.pipeline(key, &spirv, layout)?;
    slow_start::note_build(
        start.elapsed().as_nanos() as u64,
        &dev.info().name,
        compile::ShaderCache::global().dir(),
    );
    Ok((
        Prepared {
            name: l.name.clone(),
            shader: l.shader.clone(),
            pipeline,
            program: l.program.clone(),
        },
        compiled,
    ))
}

/// 64-bit types need device features that not every device has: `k`'s output and inputs
/// checked before anything of it is prepared.
fn check_dtypes(dev: &Device, k: &Kernel) -> Result<()> {
    for d in std::iter::once(k.root.dtype()).chain(k.inputs.iter().map(|i| i.dtype())) {
        check_dtype(dev, d)?;
    }
    Ok(())
}

fn check_dtype(dev: &Device, d: crate::dtype::DType) -> Result<()> {
    use crate::dtype::DType;
    let info = dev.info();
    let missing = match d {
        DType::I64 | DType::U64 if !info.shader_int64 => Some("shaderInt64"),
        DType::F64 if !info.shader_float64 => Some("shaderFloat64"),
        DType::F64 if !info.shader_int64 => Some("shaderInt64"),
        _ => None,
    };
    match missing {
        Some(feature) => Err(Error::Unsupported {
            what: format!("dtype {d}"),
            feature,
            device: info.name.clone(),
        }),
        None => Ok(()),
    }
}

/// The dispatch of a prepared kernel writing `outs` (its root's buffer, then those of a
/// multi-output kernel's further roots) and reading `inputs` (by input index).
pub fn dispatch(
    dev: &Device,
    p: &Prepared,
    outs: &[Arc<Buffer>],
    inputs: &[Arc<Buffer>],
) -> Result<Dispatch> {
    dispatch_with(dev, p, outs, inputs, &|_| None)
}

/// [`dispatch`] with the vars `bind` gives a value for read at that value instead of the
/// one the kernel was lowered with. `outs` must hold a buffer for each of the kernel's
/// outputs, and `inputs` one for each input its shader binds.
pub fn dispatch_with(
    dev: &Device,
    p: &Prepared,
    outs: &[Arc<Buffer>],
    inputs: &[Arc<Buffer>],
    bind: &dyn Fn(u64) -> Option<Scalar>,
) -> Result<Dispatch> {
    let shader = &p.shader;
    let wanted = 1 + p.program.more_outputs.len();
    let bound = shader.bindings.iter().map(|(i, _)| *i + 1);
    let addressed = shader.addresses.iter().copied().filter(|&b| b > 0);
    let reads = bound.chain(addressed).max().unwrap_or(0);
    let [out, ..] = outs else {
        return Err(Error::internal(
            "dispatch",
            format!("kernel {} got no output buffer", p.name),
        ));
    };
    if outs.len() != wanted || inputs.len() < reads {
        return Err(Error::internal(
            "dispatch",
            format!(
                "kernel {} writes {wanted} outputs and reads {reads} inputs, given {} and {}",
                p.name,
                outs.len(),
                inputs.len()
            ),
        ));
    }
    let buffer = |b: usize| if b == 0 { out } else { &inputs[b - 1] };
    let mut bindings = vec![Binding {
        buffer: out.clone(),
        writes: true,
        by_address: shader.addresses.contains(&0),
    }];
    for more in &outs[1..] {
        bindings.push(Binding {
            buffer: more.clone(),
            writes: true,
            by_address: false,
        });
    }
    for (input, _view) in &shader.bindings {
        bindings.push(Binding {
            buffer: inputs[*input].clone(),
            writes: false,
            by_address: false,
        });
    }
    for &b in shader.addresses.iter().filter(|&&b| b != 0) {
        bindings.push(Binding {
            buffer: buffer(b).clone(),
            writes: false,
            by_address: true,
        });
    }
    let workgroups = p.program.workgroups();
    let max_x = dev.info().max_workgroup_count[0].max(1) as u64;
    let x = workgroups.min(max_x);
    let y = workgroups.div_ceil(x.max(1));
    // the element count, the addresses (low word first), the scalars and trip counts
    let addresses = shader.addresses.iter().flat_map(|&b| {
        let a = buffer(b).address();
        [a as u32, (a >> 32) as u32]
    });
    let mut params = p.program.params.clone();
    for &(id, word, dtype) in &p.program.var_params {
        if let Some(v) = bind(id) {
            let words = param_words(v, dtype);
            params[word..word + words.len()].copy_from_slice(&words);
        }
    }
    Ok(Dispatch {
        pipeline: p.pipeline.clone(),
        bindings,
        push_constants: std::iter::once(p.program.numel as u32)
            .chain(addresses)
            .chain(params)
            .flat_map(u32::to_le_bytes)
            .collect(),
        groups: [x as u32, y as u32, 1],
    })
}
