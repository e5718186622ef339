use tg::prelude::*;

// `N >= 3` can only be checked once the kernel is instantiated: a post-monomorphization
// assert rejects `f::<2>`
#[kernel]
fn f<const N: usize>(x: Tensor<shape![3]>) -> Tensor<shape![N]> {
    x.pad_to([N])
}

fn main() {
    let x: Tensor<Rank1<3>> = Tensor::zeros();
    let _: Tensor<Rank1<2>> = f(x);
}
