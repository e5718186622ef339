use tg::nn::TypedSelfAttention;

// 4 heads do not divide a width of 6: `new` fails to build for this pair.
fn main() {
    let _attn = TypedSelfAttention::<6, 4>::new();
}
