//! Reads the JSON fixtures that `scripts/gen_*_fixtures.py` make with numpy, and compares
//! realized tensors with them. A module of the `tg-test-support` crate; tg-runtime's tests
//! still include this file by path (they cannot use a crate that depends on tg-ops).

#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;
use tg_runtime::{DType, Lazy, Scalar};

/// A tensor as the fixtures write it: values, or a pattern to regenerate.
pub struct Spec {
    /// Its dtype.
    pub dtype: DType,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its values in row-major order.
    pub values: Vec<Scalar>,
}

/// One case of a fixture file: the op's arguments, inputs, expected outputs and tolerances.
pub struct Case {
    /// The case's name, for failure messages.
    pub name: String,
    /// The whole JSON object, for op-specific arguments (`arg`).
    pub json: Value,
    /// The input tensors.
    pub inputs: Vec<Spec>,
    /// The expected output (the first of several).
    pub out: Spec,
    /// All expected outputs of a multi-output op ("outs"), else just `out`.
    pub outs: Vec<Spec>,
    /// Relative tolerance of float comparisons.
    pub rtol: f64,
    /// Absolute tolerance of float comparisons.
    pub atol: f64,
}

/// The repository's `fixtures/` folder: the nearest one above the crate being built (the
/// facade at the root, the crates one level below it, this crate two).
pub fn fixtures_dir() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .map(|a| a.join("fixtures"))
        .find(|f| f.is_dir())
        .unwrap_or_else(|| panic!("no fixtures/ folder above {}", here.display()))
}

/// The cases of `fixtures/<file>`; panics with the path on a missing or malformed file.
pub fn load(file: &str) -> Vec<Case> {
    let path = fixtures_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap_or("?").to_string(),
            inputs: c["inputs"]
                .as_array()
                .map(|a| a.iter().map(spec).collect())
                .unwrap_or_default(),
            out: spec(if c.get("out").is_some() {
                &c["out"]
            } else {
                &c["outs"][0]
            }),
            outs: match c.get("outs").and_then(|o| o.as_array()) {
                Some(list) => list.iter().map(spec).collect(),
                None => vec![spec(&c["out"])],
            },
            rtol: c["rtol"].as_f64().unwrap_or(0.0),
            atol: c["atol"].as_f64().unwrap_or(0.0),
            json: c.clone(),
        })
        .collect()
}

/// A dtype as numpy names it.
pub fn dtype(v: &Value) -> DType {
    let name = v.as_str().expect("dtype name");
    DType::from_name(name).unwrap_or_else(|| panic!("unknown dtype {name}"))
}

/// A list of sizes.
pub fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|x| x.as_u64().expect("usize") as usize)
        .collect()
}

/// One value as the fixtures spell it, in `d`'s kind.
pub fn scalar(v: &Value, d: DType) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::String(s) => Scalar::Float(match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("bad value {other}"),
        }),
        Value::Number(n) if d.is_float() => Scalar::Float(n.as_f64().expect("float")),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Scalar::Int(i)
            } else if let Some(u) = n.as_u64() {
                Scalar::UInt(u)
            } else {
                Scalar::Float(n.as_f64().expect("number"))
            }
        }
        _ => panic!("bad value {v}"),
    }
}

fn pattern(d: DType, n: usize, p: &Value) -> Vec<Scalar> {
    let seed = p["seed"].as_u64().expect("seed");
    (0..n as u64)
        .map(|i| {
            let h = (i.wrapping_mul(2654435761).wrapping_add(seed * 40503)) % (1u64 << 32);
            if d.is_bool() {
                Scalar::Bool(h & 1 == 1)
            } else if d.is_float() {
                let (lo, hi) = (p["lo"].as_f64().expect("lo"), p["hi"].as_f64().expect("hi"));
                Scalar::Float(lo + (hi - lo) * (h as f64 / 4294967296.0)).cast(d)
            } else {
                let (lo, hi) = (p["lo"].as_i64().expect("lo"), p["hi"].as_i64().expect("hi"));
                Scalar::Int(lo + (h % (hi - lo + 1) as u64) as i64).cast(d)
            }
        })
        .collect()
}

/// A tensor spec: dtype, shape, and its data or the pattern that regenerates it.
pub fn spec(v: &Value) -> Spec {
    let d = dtype(&v["dtype"]);
    let shape = usizes(&v["shape"]);
    let n: usize = shape.iter().product();
    let values = if let Some(p) = v.get("pattern") {
        pattern(d, n, p)
    } else {
        v["data"]
            .as_array()
            .expect("data")
            .iter()
            .map(|x| scalar(x, d))
            .collect()
    };
    Spec {
        dtype: d,
        shape,
        values,
    }
}

/// A buffer node holding the spec's values.
pub fn lazy(s: &Spec) -> Lazy {
    let mut bytes = Vec::with_capacity(s.values.len() * s.dtype.size());
    for v in &s.values {
        bytes.extend(v.to_le_bytes(s.dtype));
    }
    Lazy::from_bytes(s.dtype, &s.shape, bytes).expect("fixture input")
}

fn decode(bytes: &[u8], d: DType) -> Vec<Scalar> {
    bytes
        .chunks_exact(d.size())
        .map(|b| match d {
            DType::Bool => Scalar::Bool(b[0] != 0),
            DType::F16 => Scalar::Float(half::f16::from_le_bytes([b[0], b[1]]).to_f64()),
            DType::F32 => Scalar::Float(f32::from_le_bytes(b.try_into().unwrap()) as f64),
            DType::F64 => Scalar::Float(f64::from_le_bytes(b.try_into().unwrap())),
            _ => {
                let mut w = [0u8; 8];
                w[..b.len()].copy_from_slice(b);
                let u = u64::from_le_bytes(w);
                let bits = d.bits();
                if d.is_signed_int() {
                    Scalar::Int(((u << (64 - bits)) as i64) >> (64 - bits))
                } else {
                    Scalar::UInt(u)
                }
            }
        })
        .collect()
}

/// Checks a realized tensor against the expected spec; the error lists the first mismatches.
pub fn compare(got: &Lazy, want: &Spec, rtol: f64, atol: f64) -> Result<(), String> {
    if got.shape() != want.shape.as_slice() || got.dtype() != want.dtype {
        return Err(format!(
            "got {:?} {}, want {:?} {}",
            got.shape(),
            got.dtype(),
            want.shape,
            want.dtype
        ));
    }
    let bytes = got.to_bytes().map_err(|e| format!("realize failed: {e}"))?;
    let vals = decode(&bytes, want.dtype);
    let mut bad = Vec::new();
    for (i, (g, w)) in vals.iter().zip(&want.values).enumerate() {
        let ok = match (g, w.cast(want.dtype)) {
            (Scalar::Float(a), Scalar::Float(b)) => {
                (a.is_nan() && b.is_nan())
                    || (a.is_infinite() && a == &b)
                    || (b.is_finite() && (a - b).abs() <= atol + rtol * b.abs())
            }
            (a, b) => a.as_i128() == b.as_i128(),
        };
        if !ok {
            bad.push(format!("[{i}] got {g:?} want {:?}", w.cast(want.dtype)));
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        let n = bad.len();
        bad.truncate(8);
        Err(format!(
            "{n} of {} values differ: {}",
            vals.len(),
            bad.join(", ")
        ))
    }
}

/// Runs every case of a fixture file through `run` and fails listing all failing cases.
pub fn run_all(file: &str, run: impl Fn(&Case) -> Result<Lazy, String>) {
    run_each(file, |c| {
        run(c).and_then(|got| compare(&got, &c.out, c.rtol, c.atol))
    });
}

/// Runs `check` on every case of `file`, and fails listing every case it rejects.
pub fn run_each(file: &str, check: impl Fn(&Case) -> Result<(), String>) {
    let cases = load(file);
    assert!(!cases.is_empty(), "{file} has no cases");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| check(c).err().map(|e| format!("{}: {e}", c.name)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Compares a case's several outputs, in the order of "outs", with `compare`.
pub fn compare_outs(got: &[Lazy], c: &Case) -> Result<(), String> {
    if got.len() != c.outs.len() {
        return Err(format!("{} outputs, {} expected", got.len(), c.outs.len()));
    }
    got.iter()
        .zip(&c.outs)
        .enumerate()
        .try_for_each(|(i, (g, w))| {
            compare(g, w, c.rtol, c.atol).map_err(|e| format!("output {i}: {e}"))
        })
}

/// Like `run_all` for ops with several outputs: `run` returns them in the order of "outs".
pub fn run_all_multi(file: &str, run: impl Fn(&Case) -> Result<Vec<Lazy>, String>) {
    run_each(file, |c| run(c).and_then(|got| compare_outs(&got, c)));
}

/// The JSON argument `key` of a case.
pub fn arg<'a>(c: &'a Case, key: &str) -> &'a Value {
    &c.json["args"][key]
}
