use tg::prelude::*;

// a split unpacked into names, a chunk picked with `.1`, triangles, diagonals and padding
#[kernel]
fn pieces(
    x: Tensor<shape![5, 2]>,
) -> (
    Tensor<shape![2, 2]>,
    Tensor<shape![3, 4]>,
    Tensor<shape![2, 4]>,
    Tensor<shape![5]>,
    Tensor<shape![2]>,
) {
    let (a, b) = x.split([2, 3], 0);
    let c = x.chunk(2, 1).1;
    let d = b.pad_to([-1, 4]);
    let e = a.pad_with([(0, 0), (1, 1)], "reflect");
    (a.tril(), d, e, c.squeeze(1), x.diagonal(-1))
}

// scatter a tensor, reduce into ones, add a scalar, then pack what is left
#[kernel]
fn scatters(
    z: Tensor<shape![2, 3]>,
    i: Tensor<shape![1, 3], i32>,
    s: Tensor<shape![1, 3]>,
) -> (
    Tensor<shape![2, 3]>,
    Tensor<shape![2, 3]>,
    Tensor<shape![2, 3]>,
    Tensor<shape![4]>,
    Tensor<shape![4, 2], i32>,
) {
    let w = z.scatter(0, i, s);
    let ones = z + 1.0;
    let summed = ones.scatter_reduce(0, i, s, "sum");
    let added = ones.scatter(0, i, 2.0, reduce = "add");
    let picked = w.masked_select_sized(w > 5.0, 4, fill_value = -1.0);
    (w, summed, added, picked, w.nonzero_sized(4, -1))
}

// const-parameter sizes: a chunk of 4 columns, a split at `B - 1`, a selection of `B`
// elements; the diagonal of a `[B, 4]` matrix has `min(B, 4)` elements, declared `_`
#[kernel]
fn generic<const B: usize>(
    x: Tensor<shape![B, 4]>,
) -> (
    Tensor<shape![B, 2]>,
    Tensor<shape![B, 6]>,
    Tensor<shape![B]>,
    Tensor<shape![_]>,
    Tensor<shape![1, 4]>,
) {
    let half = x.chunk(2, 1).0;
    let last = x.split([B - 1, 1], 0).1;
    (half, x.pad_to([-1, 6]), x.masked_select_sized(x > 5.0, B), x.diagonal(), last)
}

fn main() {
    let x = Tensor::<Rank2<5, 2>>::from_slice(&[0., 1., 2., 3., 4., 5., 6., 7., 8., 9.]).unwrap();
    let (tril, padded, reflected, column, diagonal) = pieces(x);
    assert_eq!(tril.to_vec().unwrap(), vec![0., 0., 2., 3.]);
    assert_eq!(
        padded.to_vec().unwrap(),
        vec![4., 5., 0., 0., 6., 7., 0., 0., 8., 9., 0., 0.]
    );
    assert_eq!(reflected.to_vec().unwrap(), vec![1., 0., 1., 0., 3., 2., 3., 2.]);
    assert_eq!(column.to_vec().unwrap(), vec![1., 3., 5., 7., 9.]);
    assert_eq!(diagonal.to_vec().unwrap(), vec![2., 5.]);

    let z: Tensor<Rank2<2, 3>> = Tensor::zeros();
    let i = Tensor::<Rank2<1, 3>, i32>::from_slice(&[1, 0, 1]).unwrap();
    let s = Tensor::<Rank2<1, 3>>::from_slice(&[7., 8., 9.]).unwrap();
    let (w, summed, added, picked, nonzero) = scatters(z, i, s);
    assert_eq!(w.to_vec().unwrap(), vec![0., 8., 0., 7., 0., 9.]);
    assert_eq!(summed.to_vec().unwrap(), vec![1., 9., 1., 8., 1., 10.]);
    assert_eq!(added.to_vec().unwrap(), vec![1., 3., 1., 3., 1., 3.]);
    assert_eq!(picked.to_vec().unwrap(), vec![8., 7., 9., -1.]);
    assert_eq!(nonzero.to_vec().unwrap(), vec![0, 1, 1, 0, 1, 2, -1, -1]);

    let x = Tensor::<Rank2<3, 4>>::from_slice(&[0., 1., 2., 3., 4., 5., 6., 7., 8., 9., 10., 11.])
        .unwrap();
    let (half, wide, big, diagonal, last) = generic(x);
    assert_eq!(half.to_vec().unwrap(), vec![0., 1., 4., 5., 8., 9.]);
    assert_eq!(
        wide.to_vec().unwrap(),
        vec![0., 1., 2., 3., 0., 0., 4., 5., 6., 7., 0., 0., 8., 9., 10., 11., 0., 0.]
    );
    assert_eq!(big.to_vec().unwrap(), vec![6., 7., 8.]);
    assert_eq!(diagonal.to_vec().unwrap(), vec![0., 5., 10.]);
    assert_eq!(last.to_vec().unwrap(), vec![8., 9., 10., 11.]);
}
