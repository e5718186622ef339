// An ONNX model as a typed function: the batch is the model's symbolic dimension, a const
// parameter taken from the argument's type.
use tg::prelude::*;

tg::onnx_kernel!(fn classify = "../../models/tiny_classifier.onnx");

fn main() {
    let x: Tensor<shape![2, 4]> = Tensor::from_slice(&[1.0, 2.0, 3.0, 4.0, -1.0, 0.0, 1.0, 0.5]).unwrap();
    let y: Tensor<shape![2, 3]> = classify(&x).unwrap();
    let p = y.to_vec().unwrap();
    assert!((p[0] + p[1] + p[2] - 1.0).abs() < 1e-5);
    // the second call replays the first one's kernels
    let again = classify(&x).unwrap().to_vec().unwrap();
    assert_eq!(p, again);
}
