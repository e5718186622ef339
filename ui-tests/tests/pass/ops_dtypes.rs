//! The valid twins of the dtype cases in tests/fail/ops_*.rs: each op on a dtype it allows,
//! with the result dtype tinygrad gives.
use tg::prelude::*;

fn main() {
    let i = Tensor::<Rank1<3>, i32>::from_slice(&[1, 2, 3]).unwrap();
    let f = Tensor::<Rank1<3>, f32>::from_slice(&[0.5, 1.0, 1.5]).unwrap();
    let b = Tensor::<Rank1<3>, bool>::from_slice(&[true, false, true]).unwrap();
    let bits: Tensor<Rank1<3>, i32> = (&i & 1) | (&i << 2) ^ (&i >> 1);
    let not_b: Tensor<Rank1<3>, bool> = !&b;
    let not_i: Tensor<Rank1<3>, i32> = !&i;
    let neg: Tensor<Rank1<3>, f32> = -&f;
    let xor: Tensor<Rank1<3>, f16> = Tensor::<Rank1<3>, f16>::zeros().bitcast::<u16>().bitwise_xor(1u16).bitcast();
    let lerp: Tensor<Rank1<3>> = f.lerp(&f, 0.5);
    let relu: Tensor<Rank1<3>, i32> = i.relu();
    let bc: Tensor<Rank1<3>, u32> = f.bitcast::<u32>();
    let mixed: Tensor<Rank1<3>, i16> = Tensor::<Rank1<3>, i8>::zeros() + Tensor::<Rank1<3>, u8>::zeros();
    let s: Tensor<Rank0, i32> = Tensor::<Rank1<3>, i8>::zeros().sum();
    let m: Tensor<Rank0, f32> = i.mean();
    let ri: Tensor<Rank1<3>, i32> = Tensor::randint(0, 10);
    let rf: Tensor<Rank1<3>, f32> = Tensor::rand();
    let w: Tensor<Rank1<3>> = b.where_(&f, 0.0);
    let sized = [
        bits.numel(), not_b.numel(), not_i.numel(), neg.numel(), xor.numel(), lerp.numel(), relu.numel(),
        bc.numel(), mixed.numel(), s.numel(), m.numel(), ri.numel(), rf.numel(), w.numel(),
    ];
    assert!(sized.iter().all(|&n| n == 3 || n == 1));
    assert_eq!(bits.to_vec().unwrap(), vec![5, 9, 13]);
}
