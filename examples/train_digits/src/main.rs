//! tg's main demo: a small CNN learns the UCI handwritten digits (8x8 images, 1,437 for
//! training and 360 for testing, a fixed split) on the default Vulkan device.
//!
//! The whole training step (forward, gradients, Adam's update of every parameter and
//! BatchNorm's running statistics, all in place) is one `#[kernel]` function (`src/lib.rs`),
//! recorded on its first call and replayed after, with the learning rate and Adam's bias
//! corrections bound as runtime scalars each step. With `--replay`, the same step is written
//! with the library (`tg::nn::DigitsCnn`, `tg::optim::Adam`) and recorded by
//! `tg::replay::Replay` instead. The test pass is a recording too. Afterwards the weights are
//! saved as safetensors, loaded into a freshly initialised model, and tested again.
//!
//! `cargo run --release -p train_digits [-- --replay]` writes
//! `target/train_digits/{model.safetensors,train_digits.png}` under the folder it runs in
//! (the chart is `docs/train_digits.png`). `TG_DEBUG=1` shows every realize; `TG_DEVICE`
//! picks a device.

use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use tg::data::{DataLoader, digits};
use tg::nn::{DigitsCnn as Cnn, Module};
use tg::optim::{Adam, Optimizer, schedule};
use tg::prelude::*;
use tg::replay::Replay;
use tg::untyped::loss::Reduction;
use train_digits::{BATCH, KernelStep};

const EPOCHS: u64 = 12;
const LR: f64 = 0.01;
const SEED: u32 = 7;

/// How a step is run: the demo's `#[kernel]`, or the library's layers and optimizer recorded
/// by a `Replay`.
enum Trainer {
    Kernel(Box<KernelStep>),
    Library { opt: Box<Adam>, step: Replay },
}

impl Trainer {
    /// One step on a batch with learning rate `lr`: the batch's loss and the kernels run.
    fn step(
        &mut self,
        model: &mut Cnn,
        x: &DynTensor,
        y: &DynTensor,
        lr: f64,
    ) -> tg::Result<(f64, u64)> {
        let before = tg::runtime::thread_stats().kernels;
        let loss = match self {
            Trainer::Kernel(k) => k.step(x, y, lr as f32)?,
            Trainer::Library { opt, step } => {
                opt.set_lr(lr);
                let binds = opt.advance();
                let out = step.run(&[x, y], &binds, || {
                    let logits = model.forward(x)?;
                    let loss =
                        logits.sparse_categorical_crossentropy(y, None, 0.0, Reduction::Mean)?;
                    let mut outs = vec![loss.clone()];
                    outs.extend(opt.descend(model, &loss)?);
                    outs.extend(model.tensors()?.into_iter().map(|(_, t)| t));
                    Ok(outs)
                })?;
                out.into_iter().next().expect("the loss")
            }
        };
        let kernels = tg::runtime::thread_stats().kernels - before;
        Ok((f64::from(loss.to_vec::<f32>()?[0]), kernels))
    }
}

/// Test accuracy: the evaluation pass, recorded once by `eval`, replayed after.
fn accuracy(model: &mut Cnn, eval: &mut Replay, x: &DynTensor, labels: &[i32]) -> tg::Result<f64> {
    model.set_training(false);
    let out = eval.run(&[x], &[], || {
        Ok(vec![model.forward(x)?.argmax(Some(-1), false)?])
    })?;
    model.set_training(true);
    let predicted = out[0].to_vec::<i32>()?;
    let right = predicted.iter().zip(labels).filter(|(p, l)| p == l).count();
    Ok(100.0 * right as f64 / labels.len() as f64)
}

fn plot(path: &Path, losses: &[f64], accs: &[f64]) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    let bytes =
        std::fs::read(FONT).map_err(|e| format!("{FONT}: {e} (install fonts-dejavu-core)"))?;
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
        .map_err(|_| format!("{FONT} is not a font plotters can read"))?;
    let root = BitMapBackend::new(path, (900, 360)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(450);
    let epochs = losses.len() as f64;
    let max_loss = losses.iter().cloned().fold(0.0, f64::max) * 1.1;
    let mut c = ChartBuilder::on(&left)
        .caption("training loss", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(1.0..epochs, 0.0..max_loss)?;
    c.configure_mesh()
        .x_desc("epoch")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    c.draw_series(LineSeries::new(
        losses.iter().enumerate().map(|(i, &l)| (i as f64 + 1.0, l)),
        &RED,
    ))?;
    let min_acc = (accs.iter().cloned().fold(100.0, f64::min).min(90.0) / 5.0).floor() * 5.0;
    let mut c = ChartBuilder::on(&right)
        .caption("test accuracy (%)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d(1.0..epochs, min_acc..100.0)?;
    c.configure_mesh()
        .x_desc("epoch")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    c.draw_series(LineSeries::new(
        accs.iter().enumerate().map(|(i, &a)| (i as f64 + 1.0, a)),
        &BLUE,
    ))?;
    root.present()?;
    Ok(())
}

fn main() -> tg::Result<()> {
    let start = Instant::now();
    let device = tg::runtime::device::Device::get()?;
    println!(
        "tg train_digits: a CNN on the UCI digits, on {}",
        device.info()
    );
    let out_dir = PathBuf::from("target/train_digits");
    std::fs::create_dir_all(&out_dir).map_err(|e| tg::Error::Io {
        path: out_dir.display().to_string(),
        message: e.to_string(),
    })?;

    let (train, test) = digits()?.train_test_split();
    let loader = DataLoader::new(train.inputs()?, train.targets()?, BATCH)?
        .shuffle(true)
        .seed(u64::from(SEED))
        .drop_last(true);
    let test_x = test
        .inputs()?
        .gather(&(0..test.len()).collect::<Vec<_>>())?;
    println!(
        "{} training and {} test images, batches of {BATCH}, {EPOCHS} epochs, Adam (lr {LR}, cosine)",
        train.len(),
        test.len()
    );

    let library = std::env::args().any(|a| a == "--replay");
    DynTensor::manual_seed(SEED);
    let mut model = Cnn::new()?;
    let mut trainer = if library {
        println!("the training step: tg::nn + tg::optim, recorded by tg::replay::Replay");
        Trainer::Library {
            opt: Box::new(Adam::new(&mut model, LR)?),
            step: Replay::new(),
        }
    } else {
        println!("the training step: one #[kernel] function (examples/train_digits/src/lib.rs)");
        Trainer::Kernel(Box::new(KernelStep::new(&mut model)?))
    };
    let mut eval = Replay::new();
    let total = EPOCHS * loader.num_batches() as u64;
    let (mut losses, mut accs) = (Vec::new(), Vec::new());
    let mut kernels = 0;
    let style = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}")
        .expect("a valid template")
        .progress_chars("=> ");
    for epoch in 0..EPOCHS {
        let t0 = Instant::now();
        let bar = ProgressBar::new(loader.num_batches() as u64)
            .with_style(style.clone())
            .with_prefix(format!("epoch {:>2}/{EPOCHS}", epoch + 1));
        let mut sum = 0.0;
        for (i, batch) in loader.epoch(epoch).enumerate() {
            let (x, y) = batch?;
            let lr = schedule::cosine(
                LR,
                LR * 0.02,
                total,
                epoch * loader.num_batches() as u64 + i as u64,
            );
            let (loss, k) = trainer.step(&mut model, &x, &y, lr)?;
            kernels = k;
            sum += loss;
            let rate = ((i + 1) * BATCH) as f64 / t0.elapsed().as_secs_f64();
            bar.set_message(format!("loss {loss:.4}  {rate:.0} images/s"));
            bar.inc(1);
        }
        bar.finish_and_clear();
        let acc = accuracy(&mut model, &mut eval, &test_x, test.labels())?;
        let mean = sum / loader.num_batches() as f64;
        println!(
            "epoch {:>2}/{EPOCHS}  loss {mean:.4}  test accuracy {acc:.1}%  {:.2} s",
            epoch + 1,
            t0.elapsed().as_secs_f64()
        );
        losses.push(mean);
        accs.push(acc);
    }
    println!(
        "trained in {:.1} s; a step runs {kernels} kernels",
        start.elapsed().as_secs_f64()
    );

    let chart = out_dir.join("train_digits.png");
    match plot(&chart, &losses, &accs) {
        Ok(()) => println!("chart: {}", chart.display()),
        Err(e) => println!("no chart: {e}"),
    }
    let weights = out_dir.join("model.safetensors");
    model.save(&weights)?;
    DynTensor::manual_seed(SEED + 1);
    let mut fresh = Cnn::new()?;
    fresh.load(&weights)?;
    let acc = accuracy(&mut fresh, &mut Replay::new(), &test_x, test.labels())?;
    println!(
        "saved {} and loaded it into a fresh model",
        weights.display()
    );
    println!("test accuracy: {acc:.1}%");
    Ok(())
}
