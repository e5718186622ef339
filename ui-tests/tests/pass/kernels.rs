use tg::prelude::*;

#[kernel]
fn mlp<const B: usize>(
    x: Tensor<shape![B, 8]>,
    w1: Tensor<shape![8, 16]>,
    w2: Tensor<shape![16, 4]>,
) -> Tensor<shape![B, 4]> {
    let h = (x.matmul(w1) + 0.5).relu();
    let logits = h.matmul(w2);
    logits - logits.max(1, true)
}

#[kernel]
fn reshaped<const B: usize>(x: Tensor<shape![B, 784]>) -> Tensor<shape![B, 28, 28]> {
    x.reshape([B, 28, -1])
}

#[kernel]
fn stats(x: Tensor<shape![_, 6]>) -> (Tensor<shape![_]>, Tensor<shape![_, 6]>) {
    let m = x.mean(1);
    (m, x - x.mean(1, true))
}

#[kernel]
fn cnn<const B: usize>(x: Tensor<shape![B, 1, 12, 12]>, w: Tensor<shape![4, 1, 3, 3]>, b: Tensor<shape![4]>) -> Tensor<shape![B, 4, 5, 5]> {
    let y = x.conv2d(w, b, padding = 1).relu().max_pool2d(2, stride = 2).layernorm([1, 2, 3]);
    tensor!(y[.., .., 1:, 1:])
}

fn main() {
    let img: Tensor<Rank4<2, 1, 12, 12>> = Tensor::ones();
    let cw: Tensor<Rank4<4, 1, 3, 3>> = Tensor::ones();
    let cb: Tensor<Rank1<4>> = Tensor::zeros();
    assert_eq!(cnn(img, cw, cb).dims(), vec![2, 4, 5, 5]);
    let x: Tensor<Rank2<2, 8>> = Tensor::zeros();
    let w1: Tensor<Rank2<8, 16>> = Tensor::ones();
    let w2: Tensor<Rank2<16, 4>> = Tensor::ones();
    assert_eq!(mlp(x, w1, w2).dims(), vec![2, 4]);
    let y: Tensor<Rank2<3, 784>> = Tensor::zeros();
    assert_eq!(reshaped(y).dims(), vec![3, 28, 28]);
    let z = Tensor::<shape![_, 6]>::zeros_shape((5, Const));
    let (m, c) = stats(z);
    assert_eq!((m.dims(), c.dims()), (vec![5], vec![5, 6]));
    use_add();
}

#[kernel]
fn add<const B: usize, const C: usize>(x: Tensor<shape![B, 3]>, y: Tensor<shape![C, 3]>) -> Tensor<shape![B, 3]> {
    x + y
}

fn use_add() {
    let x: Tensor<Rank2<2, 3>> = Tensor::zeros();
    let y: Tensor<Rank2<2, 3>> = Tensor::ones();
    assert_eq!(add(x, y).to_vec().unwrap(), vec![1.0; 6]);
}
