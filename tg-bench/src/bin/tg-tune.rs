//! `cargo run --release --bin tg-tune [-- WORKLOAD...]`: searches the tile shape of the
//! register-blocked kernels of some workloads on the selected device and keeps the choices
//! in the cache folder, so later runs with `TG_TUNE=cached` (or `TG_TUNE=1`, which also
//! searches classes not seen yet) use them. It searches whatever `TG_TUNE` says.
//!
//! Workloads: `matmul N` (N x N by N x N), `matmul NxKxM`, `conv` (the benchmark's
//! (8,64,56,56) x 64 3x3 direct convolution); each in f32, and `f16` after a matmul for f16
//! inputs. Without arguments: tg-bench's matmuls (256 to 2048, f32 and f16) and its
//! convolution. Each search prints every candidate's time and the choice.

use tg::prelude::*;
use tg::runtime::tune::{self, Mode};
use tg_bench::input;

/// One workload: what to realize, by name.
enum Workload {
    Matmul {
        n: usize,
        k: usize,
        m: usize,
        f16: bool,
    },
    Conv,
}

fn parse(args: &[String]) -> Result<Vec<Workload>, String> {
    let mut out = Vec::new();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        match a.as_str() {
            "matmul" => {
                let dims = it.next().ok_or("matmul needs N or NxKxM")?;
                let d: Vec<usize> = dims
                    .split('x')
                    .map(|s| s.parse().map_err(|_| format!("matmul: bad size {dims:?}")))
                    .collect::<Result<_, _>>()?;
                let (n, k, m) = match d[..] {
                    [n] => (n, n, n),
                    [n, k, m] => (n, k, m),
                    _ => return Err(format!("matmul: {dims:?} is neither N nor NxKxM")),
                };
                let f16 = it.next_if(|s| s.as_str() == "f16").is_some();
                out.push(Workload::Matmul { n, k, m, f16 });
            }
            "conv" => out.push(Workload::Conv),
            other => {
                return Err(format!(
                    "unknown workload {other:?} (matmul N, matmul NxKxM, conv)"
                ));
            }
        }
    }
    Ok(out)
}

fn run(w: &Workload) -> tg::Result<()> {
    match *w {
        Workload::Matmul { n, k, m, f16 } => {
            let (mut a, mut b) = (input(&[n, k], 1), input(&[k, m], 2));
            if f16 {
                // stored as f16, as tg-bench's f16 rows read them
                (a, b) = (a.cast(DType::F16), b.cast(DType::F16));
                a.realize()?;
                b.realize()?;
            }
            a.matmul(&b)?.realize().map(|_| ())
        }
        Workload::Conv => {
            let x = input(&[8, 64, 56, 56], 4);
            let w = input(&[64, 64, 3, 3], 5);
            let conv = Conv::new().padding(1).algorithm(ConvAlgorithm::Direct);
            x.conv2d(&w, None, &conv)?.realize().map(|_| ())
        }
    }
}

fn main() -> tg::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut workloads = match parse(&args) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("tg-tune: {e}");
            std::process::exit(2);
        }
    };
    if workloads.is_empty() {
        for n in [256, 512, 1024, 2048] {
            for f16 in [false, true] {
                workloads.push(Workload::Matmul { n, k: n, m: n, f16 });
            }
        }
        workloads.push(Workload::Conv);
    }
    tune::set_mode(Mode::Search);
    let dev = tg::runtime::device::Device::get()?;
    println!("device: {}", dev.info());
    let mut seen = 0;
    for w in &workloads {
        run(w)?;
        tg::runtime::synchronize()?;
        let searches = tune::searches();
        for s in &searches[seen..] {
            println!("{}", tune::describe(s));
        }
        seen = searches.len();
    }
    match tg::runtime::compile::ShaderCache::global().dir() {
        Some(dir) => println!(
            "{seen} kernel class(es) searched; choices in {}",
            tune::cache::path(dir).display()
        ),
        None => {
            println!("{seen} kernel class(es) searched; the disk cache is off, so nothing was kept")
        }
    }
    Ok(())
}
