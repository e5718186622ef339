//! ONNX models at batch 1 on tg against its peers, each timed in turn: tg (the default
//! device: lavapipe here) between rounds of onnxruntime's CPU provider, tinygrad's CPU backend
//! and ncnn's Vulkan backend on the same device (through `scripts/bench_onnx_peers.py`).
//!
//! `cargo run --release -p tg-bench --bin tg-bench-onnx [-- --runs N] [MODELS_DIR]`: the models
//! are `scripts/gen_onnx_models.py`'s light ResNet-50 (seeded random weights, 3 x 224 x 224)
//! and MobileNetV2-style stack (3 x 96 x 96), generated into `target/onnx-models` when missing.
//! tg's first run (load, compile, first inference) is taken with a cold kernel cache (a fresh
//! `TG_CACHE_DIR`; Mesa's own shader cache may still be warm).

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use tg::onnx::{HostTensor, OnnxModel};

const MODELS: [(&str, [usize; 4]); 2] = [
    ("light_resnet50", [1, 3, 224, 224]),
    ("mobilenetv2", [1, 3, 96, 96]),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// The number after `"key": ` in a JSON line of the peers script.
fn field(line: &str, key: &str) -> Option<f64> {
    let at = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

fn text(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!("\"{key}\": \""))? + key.len() + 5;
    let rest = &line[at..];
    Some(rest[..rest.find('"')?].to_string())
}

fn tg_round(model: &OnnxModel, name: &str, x: &tg::DynTensor, runs: usize) -> Vec<f64> {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let out = model.run(&[(name, x.clone())]).expect("tg run");
            // reading the output back waits for the device (a replay only submits)
            out[0].1.to_vec::<f32>().expect("read back");
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 10usize;
    let mut dir = PathBuf::from("target/onnx-models");
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--runs" {
            runs = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(runs);
            i += 2;
        } else {
            dir = PathBuf::from(&args[i]);
            i += 1;
        }
    }
    let cache = std::env::temp_dir().join(format!("tg-bench-onnx-cache-{}", std::process::id()));
    // SAFETY: set before any other thread exists and before tg reads its configuration.
    unsafe { std::env::set_var("TG_CACHE_DIR", &cache) };
    if MODELS
        .iter()
        .any(|(m, _)| !dir.join(m).join("model.onnx").exists())
    {
        eprintln!("generating the models into {}", dir.display());
        let ok = Command::new("python3")
            .args(["scripts/gen_onnx_models.py"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            ok,
            "scripts/gen_onnx_models.py failed (pip install onnx==1.23.2 onnxruntime==1.32.0)"
        );
    }
    println!(
        "| model | tg first run (cold cache) | tg median | peer | peer first run | peer median | peer / tg |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, shape) in MODELS {
        let path = dir.join(name).join("model.onnx");
        let n: usize = shape.iter().product();
        let values: Vec<f64> = (0..n)
            .map(|i| ((i * 7919) % 2000) as f64 / 1000.0 - 1.0)
            .collect();
        let host = HostTensor::from_f64s(tg::DType::F32, &shape, &values);
        let input_file = std::env::temp_dir().join(format!("tg-bench-onnx-{name}.npy"));
        tg::onnx::npy::write(&input_file, &host).expect("write the input");
        let started = Instant::now();
        let model = OnnxModel::load(&path).expect("load");
        let input_name = model.inputs()[0].name.clone();
        let x = tg::onnx::to_device(&host).expect("upload");
        let out = model
            .run(&[(input_name.as_str(), x.clone())])
            .expect("first run");
        out[0].1.realize().expect("realize");
        let first = started.elapsed().as_secs_f64();
        let mut tg_times = tg_round(&model, &input_name, &x, runs);
        let peers = Command::new("python3")
            .arg("scripts/bench_onnx_peers.py")
            .arg(&path)
            .arg(&input_file)
            .arg(runs.to_string())
            .output();
        tg_times.extend(tg_round(&model, &input_name, &x, runs));
        let tg_median = median(tg_times);
        let key: Vec<_> = vec![(tg::DType::F32, shape.to_vec())];
        let kernels = model.kernels(&key).unwrap_or(0);
        println!("| {name} | {first:.2} s | {tg_median:.1} ms ({kernels} kernels) | | | | |");
        match peers {
            Ok(out) => {
                for line in String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .filter(|l| l.starts_with('{'))
                {
                    let peer = text(line, "peer").unwrap_or_default();
                    match (field(line, "first_s"), field(line, "median_ms")) {
                        (Some(f), Some(m)) => println!(
                            "| | | | {peer} | {f:.2} s | {m:.1} ms | {:.2} |",
                            m / tg_median
                        ),
                        _ => println!(
                            "| | | | {peer} | failed: {} | | |",
                            text(line, "error").unwrap_or_default()
                        ),
                    }
                }
            }
            Err(e) => println!("| | | | peers | not run: {e} | | |"),
        }
    }
    let _ = std::fs::remove_dir_all(&cache);
}
