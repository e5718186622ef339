use tg::nn::TypedEmbedding;
use tg::prelude::*;

// An embedding's rows are `DIM` wide: `[B, T]` ids give `[B, T, 4]`, not the `[B, T, 8]`
// the body binds.
#[kernel]
fn embed<const B: usize, const T: usize>(
    emb: &TypedEmbedding<11, 4>,
    ids: &Tensor<shape![B, T], i32>,
) -> Tensor<shape![B, T, 8]> {
    let x: Tensor<shape![B, T, 8]> = emb.forward(ids);
    x
}

fn main() {}
