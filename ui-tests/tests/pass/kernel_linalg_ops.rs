use tg::prelude::*;

#[kernel]
fn bilinear<const B: usize>(x: Tensor<shape![B, 3]>, m: Tensor<shape![3, 2]>, y: Tensor<shape![B, 2]>) -> Tensor<shape![B]> {
    x.einsum("bi,ij,bj->b", m, y)
}

#[kernel]
fn trace_and_diag(a: Tensor<shape![3, 3], i32>) -> (Tensor<shape![], i32>, Tensor<shape![3], i32>) {
    (a.einsum("ii"), a.einsum("ii->i"))
}

#[kernel]
fn batched_transpose(a: Tensor<shape![_, 2, 3]>) -> Tensor<shape![_, 3, 2]> {
    a.einsum("...ij->...ji")
}

#[kernel]
fn qr_back(x: Tensor<shape![4, 3]>) -> (Tensor<shape![4, 3]>, Tensor<shape![4, 4]>) {
    let (q, r) = x.qr();
    (q.matmul(r), q.einsum("ki,kj->ij", q))
}

#[kernel]
fn singular_values(x: Tensor<shape![2, 3]>) -> (Tensor<shape![2, 2]>, Tensor<shape![2]>, Tensor<shape![3, 3]>) {
    x.svd()
}

#[kernel]
fn reduced_svd(x: Tensor<shape![3, 2]>) -> Tensor<shape![3, 2]> {
    let (u, s, vh) = x.svd(full_matrices = false);
    (u * s.reshape([1, 2])).matmul(vh)
}

#[kernel]
fn orthogonalize(x: Tensor<shape![2, 2]>) -> Tensor<shape![2, 2]> {
    x.newton_schulz(20, [1.5, -0.5], eps = 1e-7)
}

#[kernel]
fn digests(x: Tensor<shape![1, 3], u8>) -> (Tensor<shape![1, 32], u8>, Tensor<shape![1, 16], u8>, Tensor<shape![1, 32], u8>) {
    (x.keccak(), x.keccak("shake_128"), x.keccak(cfg = (136, 6)))
}

#[kernel]
fn whole(x: Tensor<shape![3], u8>) -> Tensor<shape![16], u8> {
    x.hash()
}

fn close(got: Vec<f32>, want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-4, "{got:?} vs {want:?}");
    }
}

fn main() {
    let x = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 0.0, 1.0, 0.0]).unwrap();
    let m = Tensor::<Rank2<3, 2>>::from_slice(&[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]).unwrap();
    let y = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    // x m = [[4, 5], [0, 1]]; rows dotted with y: 4 + 10, 0 + 4
    close(bilinear(x, m, y).to_vec().unwrap(), &[14.0, 4.0]);

    let a = Tensor::<Rank2<3, 3>, i32>::from_slice(&[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
    let (t, d) = trace_and_diag(a);
    assert_eq!((t.item().unwrap(), d.to_vec().unwrap()), (15, vec![1, 5, 9]));

    let b = Tensor::<shape![_, 2, 3]>::from_slice_shape((2, Const, Const), &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]).unwrap();
    let bt = batched_transpose(b);
    assert_eq!(bt.dims(), vec![2, 3, 2]);
    close(bt.to_vec().unwrap(), &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0, 6.0, 9.0, 7.0, 10.0, 8.0, 11.0]);

    let data = [2.0, -1.0, 0.5, 1.0, 3.0, 1.0, 0.0, 1.0, 4.0, 1.0, 0.0, 2.0];
    let (back, gram) = qr_back(Tensor::<Rank2<4, 3>>::from_slice(&data).unwrap());
    close(back.to_vec().unwrap(), &data);
    close(gram.to_vec().unwrap(), &[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);

    let (u, s, vh) = singular_values(Tensor::<Rank2<2, 3>>::from_slice(&[3.0, 0.0, 0.0, 0.0, -2.0, 0.0]).unwrap());
    close(s.to_vec().unwrap(), &[3.0, 2.0]);
    assert_eq!((u.dims(), vh.dims()), (vec![2, 2], vec![3, 3]));

    let tall = [1.0, 2.0, 3.0, 4.0, 5.0, 7.0];
    close(reduced_svd(Tensor::<Rank2<3, 2>>::from_slice(&tall).unwrap()).to_vec().unwrap(), &tall);

    let o = orthogonalize(Tensor::<Rank2<2, 2>>::from_slice(&[2.0, 0.0, 0.0, 0.5]).unwrap()).to_vec().unwrap();
    assert!((o[0] - 1.0).abs() < 1e-3 && (o[3] - 1.0).abs() < 1e-3 && o[1].abs() < 1e-3, "{o:?}");

    let (sha, shake, custom) = digests(Tensor::<Rank2<1, 3>, u8>::from_slice(b"abc").unwrap());
    let sha = sha.to_vec().unwrap();
    assert_eq!(sha[..4], [0x3a, 0x98, 0x5d, 0xa7]);
    assert_eq!(custom.to_vec().unwrap(), sha);
    assert_eq!(shake.dims(), vec![1, 16]);
    let h = whole(Tensor::<Rank1<3>, u8>::from_slice(&[1, 2, 3]).unwrap()).to_vec().unwrap();
    assert_eq!(h[..4], [49, 125, 10, 30]);
}
