use tg::prelude::*;

// `B` and `C` can only be compared once the kernel is instantiated: a post-monomorphization
// assert rejects `add::<2, 3>` (the run would reject it too)
#[kernel]
fn add<const B: usize, const C: usize>(x: Tensor<shape![B, 3]>, y: Tensor<shape![C, 3]>) -> Tensor<shape![B, 3]> {
    x + y
}

fn main() {
    let x: Tensor<Rank2<2, 3>> = Tensor::zeros();
    let y: Tensor<Rank2<3, 3>> = Tensor::zeros();
    let _ = add(x, y);
}
