//! The valid twins of the shape cases in tests/fail/ops_*.rs: matching shapes, axes in range,
//! static targets that fit. Only one value is read back, to keep the run short.
use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::ones();
    let b = Tensor::<Rank2<3, 4>>::ones();
    let c: Tensor<Rank2<2, 4>> = a.matmul(&b);
    let v: Tensor<Rank1<2>> = a.matmul(&Tensor::<Rank1<3>>::ones());
    let batched: Tensor<Rank3<5, 3, 6>> = Tensor::<Rank3<5, 3, 4>>::zeros().matmul(&Tensor::<Rank3<5, 4, 6>>::zeros());
    let y: Tensor<Rank2<8, 2>> = Tensor::<Rank2<8, 3>>::zeros().linear(&Tensor::<Rank2<3, 2>>::zeros(), None);
    let dynamic = Tensor::<shape![_, 3]>::zeros_shape((2, Const));
    let sum: Tensor<Rank2<2, 3>> = &a + &dynamic;
    let r: Tensor<Rank2<3, 2>> = a.reshape();
    let s: Tensor<Rank1<2>> = a.sum_axis::<1>();
    let m: Tensor<Rank3<1, 1, 3>> = a.max_keepdim::<-2>().unsqueeze::<0>();
    let sq: Tensor<Rank1<3>> = Tensor::<Rank2<1, 3>>::zeros().squeeze::<0>();
    let u: Tensor<Rank3<2, 3, 1>> = a.unsqueeze::<2>();
    let t: Tensor<Rank2<3, 2>> = a.transpose::<0, -1>();
    let p: Tensor<Rank3<4, 2, 3>> = Tensor::<Rank3<2, 3, 4>>::zeros().permute::<Perm3<2, 0, 1>>();
    let f: Tensor<Rank2<2, 3>> = a.flip::<-2>();
    let cat: Tensor<Rank2<4, 3>> = a.cat::<0, _>(&a);
    let st: Tensor<Rank3<2, 2, 3>> = Tensor::stack::<0, _>(&[a.clone(), a.clone()]);
    let pad: Tensor<Rank2<4, 3>> = a.pad(&[(1, 1), (0, 0)], 0.0);
    let pt: Tensor<Rank2<2, 4>> = a.pad_to();
    let sh: Tensor<Rank2<1, 3>> = a.shrink_to();
    let e: Tensor<Rank2<2, 3>> = Tensor::<Rank2<1, 3>>::zeros().expand();
    let d: Tensor<Rank1<2>> = Tensor::<Rank2<2, 2>>::zeros().diagonal();
    let fl: Tensor<Rank2<2, 12>> = Tensor::<Rank3<2, 3, 4>>::zeros().flatten_to();
    let parts = Tensor::<Rank2<4, 3>>::zeros().split::<1>(&[1, 2]);
    let shapes = [
        c.dims(), v.dims(), batched.dims(), y.dims(), sum.dims(), r.dims(), s.dims(), m.dims(), sq.dims(),
        u.dims(), t.dims(), p.dims(), f.dims(), cat.dims(), st.dims(), pad.dims(), pt.dims(), sh.dims(),
        e.dims(), d.dims(), fl.dims(), parts[1].dims(),
    ];
    assert_eq!(shapes[0], vec![2, 4]);
    assert_eq!(shapes[21], vec![4, 2]);
    assert_eq!(c.sum().item().unwrap(), 24.0);
}
