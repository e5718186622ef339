use tg::prelude::*;

/// Cross-entropy on labels (mean and per sample) and nll on log-probabilities (sum).
#[kernel]
fn classify<const B: usize>(
    x: Tensor<shape![B, 3]>,
    y: Tensor<shape![B], i32>,
) -> (Tensor<shape![]>, Tensor<shape![B]>, Tensor<shape![]>) {
    let each = x.cross_entropy(y, reduction = "none", label_smoothing = 0.0);
    (
        x.cross_entropy(y),
        each,
        x.log_softmax(1).nll_loss(y, reduction = "sum"),
    )
}

#[kernel]
fn sparse(x: Tensor<shape![2, 2]>, y: Tensor<shape![2], i32>) -> Tensor<shape![]> {
    x.sparse_categorical_crossentropy(y, ignore_index = -100)
}

#[kernel]
fn binary(
    p: Tensor<shape![2]>,
    x: Tensor<shape![2]>,
    y: Tensor<shape![2]>,
    w: Tensor<shape![1]>,
) -> (Tensor<shape![]>, Tensor<shape![2]>) {
    (
        p.binary_crossentropy(y, "sum"),
        x.binary_crossentropy_logits(y, "none", w),
    )
}

fn close(got: Vec<f32>, want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-3, "{got:?} vs {want:?}");
    }
}

fn main() {
    // softmax of [0, 0, 0] is 1/3 each; of [0, ln 3, 0] it is [1/5, 3/5, 1/5]
    let x = Tensor::<Rank2<2, 3>>::from_slice(&[0.0, 0.0, 0.0, 0.0, 3f32.ln(), 0.0]).unwrap();
    let y = Tensor::<Rank1<2>, i32>::from_slice(&[2, 1]).unwrap();
    let (mean, each, sum) = classify(x, y);
    let (a, b) = (3f32.ln(), (5f32 / 3.0).ln());
    close(each.to_vec().unwrap(), &[a, b]);
    close(mean.to_vec().unwrap(), &[(a + b) / 2.0]);
    close(sum.to_vec().unwrap(), &[a + b]);

    // the second label is ignored: the mean is the first sample's loss
    let x = Tensor::<Rank2<2, 2>>::from_slice(&[0.0, 0.0, 5.0, 5.0]).unwrap();
    let y = Tensor::<Rank1<2>, i32>::from_slice(&[1, -100]).unwrap();
    close(sparse(x, y).to_vec().unwrap(), &[2f32.ln()]);

    let p = Tensor::<Rank1<2>>::from_slice(&[0.5, 0.9]).unwrap();
    let x = Tensor::<Rank1<2>>::from_slice(&[0.0, 100.0]).unwrap();
    let y = Tensor::<Rank1<2>>::from_slice(&[1.0, 1.0]).unwrap();
    let w = Tensor::<Rank1<1>>::from_slice(&[2.0]).unwrap();
    let (bce, logits) = binary(p, x, y, w);
    close(bce.to_vec().unwrap(), &[2f32.ln() - 0.9f32.ln()]);
    // pos_weight 2 doubles the positive term: 2 ln 2, and about 0 for a logit of 100
    close(logits.to_vec().unwrap(), &[2.0 * 2f32.ln(), 0.0]);
}
