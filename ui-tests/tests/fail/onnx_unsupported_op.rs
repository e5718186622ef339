// A model tg cannot import is a compile error naming the op and the node.
tg::onnx_kernel!(fn det = "../../models/unsupported.onnx");

fn main() {}
