//! Classifies an image with an ONNX model turned into a typed function when this example
//! compiles (`tg::onnx_kernel!`): the model's input `image: float32 [batch, 3, 32, 32]` makes
//! the function take a `Tensor<shape![BATCH, 3, 32, 32]>`, and it returns the model's
//! `probs: float32 [batch, 10]` as a `Tensor<shape![BATCH, 10]>`.
//!
//! `cargo run --example onnx_classify [IMAGE]` (default: examples/models/sample.png). The model
//! (examples/models/tiny_cnn.onnx, two conv/relu/pool blocks and a dense layer with seeded
//! random weights, from scripts/gen_onnx_small_models.py) stands in for a trained one: the
//! classes it prints are arbitrary, the plumbing is what a real model uses.

use std::error::Error;

use tg::prelude::*;

tg::onnx_kernel!(fn tiny_cnn = "models/tiny_cnn.onnx");

const SIZE: u32 = 32;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/examples/models/sample.png").to_string()
    });
    let img = image::open(&path)?.to_rgb8();
    let img = image::imageops::resize(&img, SIZE, SIZE, image::imageops::FilterType::Triangle);
    // channels first, values in [0, 1]
    let plane = (SIZE * SIZE) as usize;
    let mut data = vec![0.0f32; 3 * plane];
    for (i, p) in img.pixels().enumerate() {
        for c in 0..3 {
            data[c * plane + i] = p[c] as f32 / 255.0;
        }
    }
    let x: Tensor<shape![1, 3, 32, 32]> = Tensor::from_slice(&data)?;
    let probs: Tensor<shape![1, 10]> = tiny_cnn(&x)?;
    let probs = probs.to_vec()?;
    let mut ranked: Vec<(usize, f32)> = probs.iter().copied().enumerate().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("{path}: top 5 of {} classes", probs.len());
    for (class, p) in ranked.iter().take(5) {
        println!("  class {class}: {:.2}%", p * 100.0);
    }
    Ok(())
}
