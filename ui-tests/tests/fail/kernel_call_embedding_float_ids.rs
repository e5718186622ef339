use tg::nn::TypedEmbedding;
use tg::prelude::*;

// An embedding's ids must be integers: a float tensor is an error at the call.
#[kernel]
fn embed<const B: usize, const T: usize>(
    emb: &TypedEmbedding<11, 8>,
    ids: &Tensor<shape![B, T]>,
) -> Tensor<shape![B, T, 8]> {
    emb.forward(ids)
}

fn main() {}
