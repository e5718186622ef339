use tg::prelude::*;

// queries of 4 features against keys of 5: the scores' matmul fails at `key`
#[kernel]
fn f(q: Tensor<shape![2, 8, 4]>, k: Tensor<shape![2, 8, 5]>) -> Tensor<shape![2, 8, 4]> {
    q.scaled_dot_product_attention(k, q, is_causal = true)
}

fn main() {}
