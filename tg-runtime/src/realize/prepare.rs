//! Turns a scheduled kernel into a dispatch: lower and render (cached), compile (cached),
//! pipeline.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, LazyLock, Mutex};

use crate::codegen::glsl::{self, Shader};
use crate::codegen::lower::lower;
use crate::codegen::program::{Program, Strategy};
use crate::compile;
use crate::device::{Binding, Buffer, Device, DeviceInfo, Dispatch, KernelLayout, Pipeline};
use crate::error::{Error, Result};
use crate::schedule::Kernel;

/// A kernel lowered and rendered, not yet compiled.
pub struct Lowered {
    pub name: String,
    pub shader: Shader,
    pub program: Program,
}

/// A kernel ready to record.
pub struct Prepared {
    pub name: String,
    pub shader: Shader,
    pub pipeline: Arc<Pipeline>,
    pub program: Program,
}

/// Short name in tinygrad's style: `E` elementwise, `R` with a reduction, then the output shape.
pub fn kernel_name(k: &Kernel, p: &Program) -> String {
    let kind = if p.blocks.len() > 1 { "R" } else { "E" };
    let coop = match p.strategy {
        Strategy::Serial => "",
        Strategy::Cooperative { .. } => "c",
        Strategy::Row { .. } => "r",
    };
    let shape: Vec<String> = k.root.shape().iter().map(|d| d.to_string()).collect();
    format!("{kind}{coop}_{}_{}", shape.join("x"), k.root.dtype())
}

/// A map from kernel signatures, shared by all threads.
type BySignature<T> = LazyLock<Mutex<HashMap<(u64, u64), Arc<T>>>>;

/// Kernels lowered and rendered, by structural signature: the scheduler asks each planned
/// kernel's loop count, and preparing it later reuses the work.
static LOWERED: BySignature<Lowered> = LazyLock::new(Default::default);
/// Prepared kernels by structural signature, so a graph shaped like an earlier one skips
/// lowering, rendering and shader hashing.
static PREPARED: BySignature<Prepared> = LazyLock::new(Default::default);

fn cached<K: Eq + Hash, T>(
    map: &Mutex<HashMap<K, Arc<T>>>,
    key: K,
    make: impl FnOnce() -> Result<T>,
) -> Result<(Arc<T>, bool)> {
    if let Some(v) = map.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok((v.clone(), false));
    }
    let v = Arc::new(make()?);
    map.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, v.clone());
    Ok((v, true))
}

/// What rendering may use of a device.
pub fn target(info: &DeviceInfo) -> glsl::Target {
    glsl::Target {
        subgroup_arithmetic: info.subgroup_arithmetic,
        preserve_inf_nan_f32: info.preserve_inf_nan_f32,
        preserve_inf_nan_f64: info.preserve_inf_nan_f64,
    }
}

/// `k` lowered and rendered for `target` (cached by signature).
pub fn lowered(k: &Kernel, target: glsl::Target) -> Result<Arc<Lowered>> {
    let key = super::signature::signature(k);
    let (l, _) = cached(&LOWERED, key, || {
        let program = lower(&k.body, &k.inputs, k.strategy);
        let m = program.index_magnitude();
        if m > i128::from(i32::MAX) {
            return Err(Error::internal(
                "codegen",
                format!(
                    "kernel {:?} computes index values up to {m}, past 32 bits",
                    k.root
                ),
            ));
        }
        let shader = glsl::render(&program, target);
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
    let key = super::signature::signature(k);
    let mut compiled = false;
    let (p, _) = cached(&PREPARED, key, || {
        let (p, c) = prepare_uncached(dev, k)?;
        compiled = c;
        Ok(p)
    })?;
    Ok((p, compiled))
}

fn prepare_uncached(dev: &Device, k: &Kernel) -> Result<(Prepared, bool)> {
    for d in std::iter::once(k.root.dtype()).chain(k.inputs.iter().map(|i| i.dtype())) {
        check_dtype(dev, d)?;
    }
    let l = lowered(k, target(dev.info()))?;
    let before = compile::compile_count();
    let spirv = compile::compile_glsl(&l.shader.source)?;
    let compiled = compile::compile_count() > before;
    let key = compile::stable_hash(&l.shader.source);
    let layout = KernelLayout {
        bindings: 1 + l.shader.bindings.len() as u32,
        push_constant_bytes: 4,
    };
    let pipeline = dev.pipeline(key, &spirv, layout)?;
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

/// 64-bit types need device features that not every device has.
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

/// The dispatch of a prepared kernel writing `out` and reading `inputs` (by input index).
pub fn dispatch(dev: &Device, p: &Prepared, out: &Arc<Buffer>, inputs: &[Arc<Buffer>]) -> Dispatch {
    let mut bindings = vec![Binding {
        buffer: out.clone(),
        writes: true,
    }];
    for (input, _view) in &p.shader.bindings {
        bindings.push(Binding {
            buffer: inputs[*input].clone(),
            writes: false,
        });
    }
    let groups = p.program.groups() as u64;
    let workgroups = match p.program.strategy {
        Strategy::Serial => groups.div_ceil(glsl::SERIAL_THREADS as u64),
        Strategy::Cooperative { .. } | Strategy::Row { .. } => groups,
    };
    let max_x = dev.info().max_workgroup_count[0].max(1) as u64;
    let x = workgroups.min(max_x);
    let y = workgroups.div_ceil(x.max(1));
    Dispatch {
        pipeline: p.pipeline.clone(),
        bindings,
        push_constants: (p.program.numel as u32).to_le_bytes().to_vec(),
        groups: [x as u32, y as u32, 1],
    }
}
