use tg::nn::TypedSelfAttention;
use tg::prelude::*;

// Self-attention takes `[B, T, 8]`; the body gives it `[B, 8]` (no time axis).
#[kernel]
fn attend<const B: usize>(
    attn: &TypedSelfAttention<8, 2>,
    x: &Tensor<shape![B, 8]>,
) -> Tensor<shape![B, 8]> {
    attn.forward(x)
}

fn main() {}
