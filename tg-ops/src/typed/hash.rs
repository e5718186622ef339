//! Typed hashing: `keccak::<Sha3_256>()` replaces the last axis by the digest (a static size
//! for the standard functions), `hash()` gives 16 bytes, `nbytes()` the size in bytes.

use crate::dtype::Dtype;
use crate::shape::{Const, Dim, Shape};
use crate::tensor::{Tensor, ok};
use crate::untyped::hash::Keccak;

/// A shape of rank 1 or more with its last dimension replaced by `D`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no last axis to hash over",
    note = "reshape a rank-0 tensor to `Rank1<1>` first"
)]
pub trait ReplaceLast: Shape {
    /// The shape with the last dimension `D`.
    type With<D: Dim>: Shape;
}

macro_rules! replace_last {
    ($($b:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($b: Dim,)* L: Dim> ReplaceLast for ($($b,)* L,) {
            type With<D: Dim> = ($($b,)* D,);
        }
    };
}

replace_last!();
replace_last!(B0);
replace_last!(B0, B1);
replace_last!(B0, B1, B2);
replace_last!(B0, B1, B2, B3);
replace_last!(B0, B1, B2, B3, B4);

/// A Keccak configuration as a type, with its digest size as a dimension.
pub trait KeccakSpec {
    /// The runtime configuration.
    const CONFIG: Keccak;
    /// The digest length: static for the standard functions.
    type Out: Dim;
}

/// SHA3-224: 28-byte digests.
pub struct Sha3_224;
/// SHA3-256: 32-byte digests.
pub struct Sha3_256;
/// The first 16 bytes of SHAKE128.
pub struct Shake128;
/// Keccak with rate `RATE` bytes and domain byte `DS` (`KeccakCustom<136, 1>` is Ethereum's
/// Keccak-256); the digest length `(200 - RATE) / 2` is a dynamic dimension.
pub struct KeccakCustom<const RATE: usize, const DS: u8>;

impl KeccakSpec for Sha3_224 {
    const CONFIG: Keccak = Keccak::Sha3_224;
    type Out = Const<28>;
}
impl KeccakSpec for Sha3_256 {
    const CONFIG: Keccak = Keccak::Sha3_256;
    type Out = Const<32>;
}
impl KeccakSpec for Shake128 {
    const CONFIG: Keccak = Keccak::Shake128;
    type Out = Const<16>;
}
impl<const RATE: usize, const DS: u8> KeccakSpec for KeccakCustom<RATE, DS> {
    const CONFIG: Keccak = Keccak::Custom {
        rate: RATE,
        dsbyte: DS,
    };
    type Out = usize;
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The Keccak digest `K` of each row of the last axis, over the elements' little-endian
    /// bytes (see [`DynTensor::keccak`](crate::DynTensor::keccak)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::hash::Sha3_256;
    /// let t = Tensor::<Rank2<2, 3>, u8>::from_slice(b"abcabc").unwrap();
    /// let d: Tensor<Rank2<2, 32>, u8> = t.keccak::<Sha3_256>();
    /// assert_eq!(d.to_vec().unwrap()[..4], [0x3a, 0x98, 0x5d, 0xa7]);
    /// ```
    #[track_caller]
    pub fn keccak<K: KeccakSpec>(&self) -> Tensor<S::With<K::Out>, u8>
    where
        S: ReplaceLast,
    {
        const {
            let rate = K::CONFIG.params().0;
            assert!(
                rate > 0 && rate < 200,
                "keccak: the rate must be 1..200 bytes"
            );
        };
        Tensor::from_dyn(ok(self.as_dyn().keccak(K::CONFIG)))
    }

    /// tinygrad's 16-byte hash of the whole tensor (see
    /// [`DynTensor::hash`](crate::DynTensor::hash)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let h: Tensor<Rank1<16>, u8> = t.hash();
    /// assert_eq!(h.to_vec().unwrap()[..4], [234, 91, 157, 205]);
    /// ```
    #[track_caller]
    pub fn hash(&self) -> Tensor<(Const<16>,), u8> {
        Tensor::from_dyn(ok(self.as_dyn().hash()))
    }

    /// The size of the elements in bytes.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(Tensor::<Rank2<2, 3>, u16>::from_slice(&[0; 6]).unwrap().nbytes(), 12);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.as_dyn().nbytes()
    }
}
