//! `tg-onnx`: inspect, run, test and time ONNX models on tg.
//!
//! ```text
//! tg-onnx info MODEL
//! tg-onnx run MODEL --input NAME=FILE.npy ... --out DIR
//! tg-onnx test DIR...          (backend-test folders; prints `N passed, N failed`)
//! tg-onnx bench MODEL [--runs N]
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use tg_onnx::{Dim, Error, HostTensor, Model, OnnxModel, npy, testcase};

const USAGE: &str = "usage:
  tg-onnx info MODEL
  tg-onnx run MODEL --input NAME=FILE.npy ... --out DIR
  tg-onnx test DIR...
  tg-onnx bench MODEL [--runs N]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("info") if args.len() == 2 => info(Path::new(&args[1])),
        Some("run") if args.len() >= 2 => run(&args[1..]),
        Some("test") if args.len() >= 2 => return test(&args[1..]),
        Some("bench") if args.len() >= 2 => bench(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dims(d: &Option<Vec<Dim>>) -> String {
    match d {
        None => "?".to_string(),
        Some(d) => format!(
            "[{}]",
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Inputs, outputs, the op histogram; an unsupported op is the load error naming its node.
fn info(path: &Path) -> Result<(), Error> {
    let model = match Model::load(path) {
        Ok(m) => m,
        Err(e @ (Error::UnsupportedOp { .. } | Error::UnsupportedOpset { .. })) => {
            let bytes = std::fs::read(path).map_err(|io| Error::Io {
                path: path.to_path_buf(),
                message: io.to_string(),
            })?;
            let all = Model::unsupported_ops(&bytes)?;
            println!("unsupported ops ({}):", all.len());
            for u in &all {
                println!("  {u}");
            }
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    println!("opset {} (producer {:?})", model.opset, model.producer);
    for v in model.inputs() {
        let dt = v.dtype.map(|d| d.name()).unwrap_or("?");
        println!("input  {}: {dt} {}", v.name, dims(&v.dims));
    }
    for v in model.outputs() {
        let dt = v.dtype.map(|d| d.name()).unwrap_or("?");
        println!("output {}: {dt} {}", v.name, dims(&v.dims));
    }
    let weights: usize = model
        .graph
        .initializers
        .iter()
        .filter_map(|n| model.graph.constants.get(n))
        .map(|t| t.numel())
        .sum();
    println!(
        "{} initializers ({weights} values), {} nodes after folding",
        model.graph.initializers.len(),
        model.graph.nodes.len()
    );
    let mut hist: BTreeMap<&str, usize> = BTreeMap::new();
    for n in &model.graph.nodes {
        *hist.entry(n.op.name()).or_default() += 1;
    }
    for (op, n) in hist {
        println!("  {op:24} {n}");
    }
    println!("unsupported ops: none");
    Ok(())
}

fn run(args: &[String]) -> Result<(), Error> {
    let model_path = PathBuf::from(&args[0]);
    let mut inputs: Vec<(String, HostTensor)> = Vec::new();
    let mut out: Option<PathBuf> = None;
    let mut i = 1;
    let usage = |m: &str| Error::Data {
        path: model_path.clone(),
        message: format!("{m}\n{USAGE}"),
    };
    while i < args.len() {
        match args[i].as_str() {
            "--input" => {
                let spec = args
                    .get(i + 1)
                    .ok_or_else(|| usage("--input needs NAME=FILE"))?;
                let (name, file) = spec
                    .split_once('=')
                    .ok_or_else(|| usage("--input needs NAME=FILE"))?;
                inputs.push((name.to_string(), npy::read(Path::new(file))?));
                i += 2;
            }
            "--out" => {
                out = Some(PathBuf::from(
                    args.get(i + 1).ok_or_else(|| usage("--out needs DIR"))?,
                ));
                i += 2;
            }
            other => return Err(usage(&format!("unknown argument {other:?}"))),
        }
    }
    let out = out.ok_or_else(|| usage("--out DIR is required"))?;
    let model = OnnxModel::load(&model_path)?;
    let tensors = inputs
        .iter()
        .map(|(n, h)| Ok((n.as_str(), tg_onnx::to_device(h)?)))
        .collect::<Result<Vec<_>, Error>>()?;
    let outs = model.run(&tensors)?;
    std::fs::create_dir_all(&out).map_err(|e| Error::Io {
        path: out.clone(),
        message: e.to_string(),
    })?;
    for (name, t) in outs {
        let file = out.join(format!("{}.npy", sanitize(&name)));
        npy::write(&file, &tg_onnx::to_host(&t)?)?;
        println!("{}", file.display());
    }
    Ok(())
}

/// An output name as a file name: path separators and odd characters become `_`.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn test(dirs: &[String]) -> ExitCode {
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut cases: Vec<PathBuf> = Vec::new();
    for d in dirs {
        let p = PathBuf::from(d);
        if p.join("model.onnx").exists() {
            cases.push(p);
        } else if let Ok(rd) = std::fs::read_dir(&p) {
            let mut sub: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("model.onnx").exists())
                .collect();
            sub.sort();
            cases.extend(sub);
        } else {
            println!("{d}: FAIL no model.onnx and not a folder of cases");
            failed += 1;
        }
    }
    for case in cases {
        let name = case
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(|| testcase::run_case(&case))
            .unwrap_or_else(|_| Err("panicked".to_string()));
        let ms = started.elapsed().as_millis();
        match outcome {
            Ok(()) => {
                passed += 1;
                println!("{name}: ok ({ms} ms)");
            }
            Err(e) => {
                failed += 1;
                println!("{name}: FAIL {} ({ms} ms)", e.replace('\n', " "));
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn bench(args: &[String]) -> Result<(), Error> {
    let path = PathBuf::from(&args[0]);
    let runs: usize = match args.get(1).map(String::as_str) {
        Some("--runs") => args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20),
        _ => 20,
    };
    let started = Instant::now();
    let model = OnnxModel::load(&path)?;
    let loaded = started.elapsed();
    // inputs of the declared shapes, symbolic sizes 1, filled with a fixed pattern
    let mut inputs = Vec::new();
    for v in model.inputs() {
        let shape: Vec<usize> = v
            .dims
            .as_ref()
            .map(|d| {
                d.iter()
                    .map(|x| if let Dim::Fixed(n) = x { *n } else { 1 })
                    .collect()
            })
            .unwrap_or_default();
        let dt = v.dtype.unwrap_or(tg_onnx::DType::F32);
        let n: usize = shape.iter().product();
        let vals: Vec<f64> = (0..n)
            .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
            .collect();
        let h = HostTensor::from_f64s(dt, &shape, &vals);
        inputs.push((v.name.clone(), tg_onnx::to_device(&h)?));
    }
    let named: Vec<(&str, tg_ops::DynTensor)> = inputs
        .iter()
        .map(|(n, t)| (n.as_str(), t.clone()))
        .collect();
    // reading the outputs back waits for the device (a replay only submits)
    let wait = |outs: Vec<(String, tg_ops::DynTensor)>| -> Result<(), Error> {
        for (_, t) in outs {
            tg_onnx::to_host(&t)?;
        }
        Ok(())
    };
    let t0 = Instant::now();
    wait(model.run(&named)?)?;
    let first = t0.elapsed() + loaded;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        wait(model.run(&named)?)?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
    let key: Vec<_> = named
        .iter()
        .map(|(_, t)| (t.dtype(), t.shape().to_vec()))
        .collect();
    let kernels = model
        .kernels(&key)
        .map(|k| k.to_string())
        .unwrap_or_else(|| "not replayed (data-dependent)".to_string());
    println!(
        "first run (load, compile, first inference): {:.2} s",
        first.as_secs_f64()
    );
    println!("median latency over {runs} runs: {median:.3} ms");
    println!("kernels per run: {kernels}");
    Ok(())
}
