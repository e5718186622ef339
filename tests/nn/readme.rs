//! The README's training example, as written there (with its inputs made here).

use std::path::Path;

use tg::nn::{Linear, Module};
use tg::optim::{Adam, Optimizer};
use tg::prelude::*;
use tg::untyped::loss::Reduction;

#[derive(Module)]
struct Net {
    fc1: Linear,
    fc2: Linear,
}

fn readme(x: &DynTensor, y: &DynTensor, path: &Path) -> tg::Result<(f32, f32)> {
    let mut net = Net {
        fc1: Linear::new(64, 32, true)?,
        fc2: Linear::new(32, 10, true)?,
    };
    let mut opt = Adam::new(&mut net, 1e-3)?;
    let logits = net.fc2.forward(&net.fc1.forward(x)?.relu()?)?;
    let loss = logits.sparse_categorical_crossentropy(y, None, 0.0, Reduction::Mean)?;
    let written = opt.step(&mut net, &loss)?; // gradients, every parameter assigned in place
    tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>())?;
    net.save(path)?; // net.load(..) writes into the tensors in place
    let after = net
        .fc2
        .forward(&net.fc1.forward(x)?.relu()?)?
        .sparse_categorical_crossentropy(y, None, 0.0, Reduction::Mean)?;
    Ok((loss.to_vec::<f32>()?[0], after.to_vec::<f32>()?[0]))
}

#[test]
fn the_readme_training_example_runs_and_learns() {
    let x = DynTensor::rand(&[16, 64], DType::F32).unwrap();
    let y = DynTensor::from_slice(&[16], &[3i32; 16]).unwrap();
    let path =
        std::env::temp_dir().join(format!("tg_readme_net_{}.safetensors", std::process::id()));
    let (before, after) = readme(&x, &y, &path).unwrap();
    assert!(after < before, "{before} -> {after}");
    assert_eq!(tg::state::load(&path).unwrap().len(), 4);
    std::fs::remove_file(&path).unwrap();
}
