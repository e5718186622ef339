// The model takes [batch, 4]; a [2, 5] tensor does not fit its typed signature.
use tg::prelude::*;

tg::onnx_kernel!(fn classify = "../../models/tiny_classifier.onnx");

fn main() {
    let x: Tensor<shape![2, 5]> = Tensor::from_slice(&[0.0; 10]).unwrap();
    let _ = classify(&x);
}
