use tg::prelude::*;

// The body has a shape error; the macro still emits the signature (around the error), so the
// callers below type-check and the error is the only one reported.
#[kernel]
fn layer<const B: usize>(x: Tensor<shape![B, 784]>, w: &Tensor<shape![785, 10]>) -> Tensor<shape![B, 10]> {
    x.matmul(w).relu()
}

fn logits(x: Tensor<Rank2<4, 784>>, w: &Tensor<Rank2<785, 10>>) -> Vec<f32> {
    let y: Tensor<Rank2<4, 10>> = layer(x, w);
    y.softmax::<1>().to_vec().unwrap()
}

fn main() {
    let w = Tensor::<Rank2<785, 10>>::zeros();
    let _ = logits(Tensor::zeros(), &w);
}
