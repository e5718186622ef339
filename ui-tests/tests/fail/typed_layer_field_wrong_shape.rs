use tg::nn::TypedSelfAttention;
use tg::prelude::*;

// A typed layer's tensors are typed fields: a query projection of another width is a type
// error where it is assigned.
fn main() {
    let mut attn = TypedSelfAttention::<8, 2>::new().unwrap();
    attn.q = Tensor::<Rank2<8, 4>>::zeros();
}
