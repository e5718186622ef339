//! ONNX's backend-test layout: a folder with `model.onnx` and `test_data_set_N/` folders of
//! `input_J.pb` and `output_J.pb` (serialized `TensorProto`s), plus, where
//! `scripts/gen_onnx_node_tests.py` wrote it, `tolerance.json` with the case's rtol and atol.

use std::path::{Path, PathBuf};

use tg_onnx_format::{DType, Error, HostTensor, HostValue, Result, ValueKind};

use crate::{OnnxModel, OnnxValue};

/// ONNX's default tolerances for node tests.
pub const DEFAULT_RTOL: f64 = 1e-3;
/// See [`DEFAULT_RTOL`].
pub const DEFAULT_ATOL: f64 = 1e-7;

/// A case's comparison tolerances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative.
    pub rtol: f64,
    /// Absolute.
    pub atol: f64,
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The tolerance of a case folder: `tolerance.json` if present, else ONNX's defaults.
pub fn tolerance(dir: &Path) -> Tolerance {
    let mut t = Tolerance {
        rtol: DEFAULT_RTOL,
        atol: DEFAULT_ATOL,
    };
    if let Ok(text) = std::fs::read_to_string(dir.join("tolerance.json")) {
        let field = |key: &str| -> Option<f64> {
            let at = text.find(&format!("\"{key}\""))?;
            let rest = text[at..].split_once(':')?.1;
            let end = rest.find([',', '}']).unwrap_or(rest.len());
            rest[..end].trim().parse().ok()
        };
        if let Some(r) = field("rtol") {
            t.rtol = r;
        }
        if let Some(a) = field("atol") {
            t.atol = a;
        }
    }
    t
}

/// The data sets of a case folder, in order.
pub fn data_sets(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut sets: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| Error::Io {
            path: dir.to_path_buf(),
            message: e.to_string(),
        })?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = name.strip_prefix("test_data_set_")?.parse().ok()?;
            Some((n, e.path()))
        })
        .collect();
    sets.sort();
    Ok(sets.into_iter().map(|(_, p)| p).collect())
}

/// The `prefix_J.pb` values of a data-set folder, in order, decoded as `kinds` declares
/// them (tensors where a kind is missing).
pub fn values(set: &Path, prefix: &str, kinds: &[ValueKind]) -> Result<Vec<HostValue>> {
    let mut out = Vec::new();
    for j in 0.. {
        let p = set.join(format!("{prefix}_{j}.pb"));
        if !p.exists() {
            break;
        }
        let kind = kinds.get(j).cloned().unwrap_or(ValueKind::Tensor);
        out.push(HostValue::decode(&read(&p)?, &kind, &p.to_string_lossy())?);
    }
    Ok(out)
}

/// A host value on the device.
pub fn to_device(v: &HostValue) -> Result<OnnxValue> {
    Ok(match v {
        HostValue::Tensor(h) => OnnxValue::Tensor(crate::to_device(h)?),
        HostValue::Sequence(items) => {
            OnnxValue::Sequence(items.iter().map(to_device).collect::<Result<_>>()?)
        }
        HostValue::Optional(x) => OnnxValue::Optional(match x {
            Some(x) => Some(Box::new(to_device(x)?)),
            None => None,
        }),
    })
}

/// Compares a value of any kind with its expected value.
pub fn compare_value(
    name: &str,
    got: &OnnxValue,
    want: &HostValue,
    tol: Tolerance,
) -> std::result::Result<(), String> {
    match (got, want) {
        (OnnxValue::Tensor(t), HostValue::Tensor(w)) => {
            let g = crate::to_host(t).map_err(|e| e.to_string())?;
            compare(name, &g, w, tol)
        }
        (OnnxValue::Sequence(g), HostValue::Sequence(w)) => {
            if g.len() != w.len() {
                return Err(format!(
                    "{name}: a sequence of {} where {} are expected",
                    g.len(),
                    w.len()
                ));
            }
            g.iter()
                .zip(w)
                .enumerate()
                .try_for_each(|(i, (g, w))| compare_value(&format!("{name}[{i}]"), g, w, tol))
        }
        (OnnxValue::Optional(g), HostValue::Optional(w)) => match (g, w) {
            (None, None) => Ok(()),
            (Some(g), Some(w)) => compare_value(name, g, w, tol),
            _ => Err(format!("{name}: optional presence differs")),
        },
        // an optional output holding a value compares with the value
        (OnnxValue::Optional(Some(g)), w) => compare_value(name, g, w, tol),
        (g, HostValue::Optional(Some(w))) => compare_value(name, g, w, tol),
        _ => Err(format!("{name}: a value of another kind than expected")),
    }
}

/// Compares an output with its expected value; `Err` says how it differs.
pub fn compare(
    name: &str,
    got: &HostTensor,
    want: &HostTensor,
    tol: Tolerance,
) -> std::result::Result<(), String> {
    if got.dtype != want.dtype {
        return Err(format!(
            "{name}: dtype {} where {} is expected",
            got.dtype.name(),
            want.dtype.name()
        ));
    }
    if got.shape != want.shape {
        return Err(format!(
            "{name}: shape {:?} where {:?} is expected",
            got.shape, want.shape
        ));
    }
    let mut worst: Option<(usize, f64, f64)> = None;
    let mut bad = 0usize;
    let (gi, wi, gf, wf) = (got.to_i64s(), want.to_i64s(), got.to_f64s(), want.to_f64s());
    for i in 0..want.numel().min(gf.len()).min(wf.len()) {
        let ok = if want.dtype.is_float() {
            let (g, w) = (gf[i], wf[i]);
            (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= tol.atol + tol.rtol * w.abs()
        } else if want.dtype == DType::U64 {
            gi[i] as u64 == wi[i] as u64
        } else {
            gi[i] == wi[i]
        };
        if !ok {
            bad += 1;
            if worst.is_none() {
                worst = Some((i, gf[i], wf[i]));
            }
        }
    }
    match worst {
        None => Ok(()),
        Some((i, g, w)) => Err(format!(
            "{name}: {bad} of {} elements differ; first at {i}: {g} where {w} is expected",
            want.numel()
        )),
    }
}

/// Runs every data set of one case folder; `Ok(())` when all outputs match.
pub fn run_case(dir: &Path) -> std::result::Result<(), String> {
    let model = OnnxModel::load(dir.join("model.onnx")).map_err(|e| e.to_string())?;
    let tol = tolerance(dir);
    let sets = data_sets(dir).map_err(|e| e.to_string())?;
    if sets.is_empty() {
        return Err("no test_data_set_N folders".to_string());
    }
    let declared = model.inputs().to_vec();
    let in_kinds: Vec<ValueKind> = declared.iter().map(|v| v.kind.clone()).collect();
    let out_kinds: Vec<ValueKind> = model.outputs().iter().map(|v| v.kind.clone()).collect();
    for set in sets {
        let inputs = values(&set, "input", &in_kinds).map_err(|e| e.to_string())?;
        let wants = values(&set, "output", &out_kinds).map_err(|e| e.to_string())?;
        let mut named = Vec::new();
        for (info, h) in declared.iter().zip(&inputs) {
            named.push((info.name.as_str(), to_device(h).map_err(|e| e.to_string())?));
        }
        let outs = model.run_values(&named).map_err(|e| e.to_string())?;
        if outs.len() < wants.len() {
            return Err(format!(
                "{} outputs where {} are expected",
                outs.len(),
                wants.len()
            ));
        }
        for (((name, got), want), info) in outs.iter().zip(&wants).zip(model.outputs()) {
            if let HostValue::Tensor(w) = want
                && w.exotic != info.exotic
            {
                return Err(format!(
                    "{name}: the model declares {:?}, the data holds {:?}",
                    info.exotic, w.exotic
                ));
            }
            compare_value(name, got, want, tol)?;
        }
    }
    Ok(())
}
