//! Keccak against the `sha3` crate (RustCrypto) on messages around the rate boundaries and a
//! long one, batched and of several dtypes; the 16-byte tree hash against the same definition
//! computed with `sha3::Shake128` on the host; nbytes; errors.

use sha3::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};
use tg::prelude::*;
use tg_ops::untyped::hash::Keccak;

/// Deterministic message bytes.
fn message(n: usize, seed: usize) -> Vec<u8> {
    (0..n)
        .map(|i| ((i * 31 + seed * 17 + 7) % 251) as u8)
        .collect()
}

/// The first 16 bytes of SHAKE128.
fn shake16(data: &[u8]) -> Vec<u8> {
    let mut h = sha3::Shake128::default();
    h.update(data);
    let mut out = vec![0u8; 16];
    h.finalize_xof().read(&mut out);
    out
}

/// The reference digest of `cfg`.
fn reference(cfg: Keccak, data: &[u8]) -> Vec<u8> {
    match cfg {
        Keccak::Sha3_224 => sha3::Sha3_224::digest(data).to_vec(),
        Keccak::Sha3_256 => sha3::Sha3_256::digest(data).to_vec(),
        Keccak::Shake128 => shake16(data),
        Keccak::Custom {
            rate: 136,
            dsbyte: 0x01,
        } => sha3::Keccak256::digest(data).to_vec(),
        Keccak::Custom {
            rate: 72,
            dsbyte: 0x06,
        } => sha3::Sha3_512::digest(data).to_vec(),
        other => panic!("no reference for {other:?}"),
    }
}

/// Hashes `rows` messages of `n` bytes in one batch and compares each row.
fn check(cfg: Keccak, n: usize, rows: usize) {
    let msgs: Vec<Vec<u8>> = (0..rows).map(|r| message(n, r)).collect();
    let flat: Vec<u8> = msgs.concat();
    let t = DynTensor::from_slice(&[rows, n], &flat).unwrap();
    let d = t.keccak(cfg).unwrap();
    assert_eq!(d.shape(), &[rows, cfg.output_bytes()]);
    let got = d.to_vec::<u8>().unwrap();
    for (r, m) in msgs.iter().enumerate() {
        let row = &got[r * cfg.output_bytes()..(r + 1) * cfg.output_bytes()];
        assert_eq!(
            row,
            reference(cfg, m).as_slice(),
            "{cfg:?}, {n} bytes, row {r}"
        );
    }
}

const CONFIGS: [Keccak; 5] = [
    Keccak::Sha3_224,
    Keccak::Sha3_256,
    Keccak::Shake128,
    Keccak::Custom {
        rate: 136,
        dsbyte: 0x01,
    },
    Keccak::Custom {
        rate: 72,
        dsbyte: 0x06,
    },
];

#[test]
fn keccak_matches_sha3_at_block_boundaries() {
    for cfg in CONFIGS {
        let rate = cfg.params().0;
        let mut sizes = vec![0, 1, 135, 136, 137, rate - 1, rate, rate + 1];
        sizes.sort_unstable();
        sizes.dedup();
        for n in sizes {
            check(cfg, n, 2);
        }
    }
}

#[test]
fn keccak_matches_sha3_on_a_long_message() {
    check(Keccak::Sha3_256, 10_000, 1);
}

#[test]
fn keccak_hashes_the_bytes_of_any_dtype_over_the_last_axis() {
    let v: Vec<f32> = (0..6).map(|i| i as f32 * 1.5 - 2.0).collect();
    let t = DynTensor::from_slice(&[2, 1, 3], &v).unwrap();
    let d = t.keccak(Keccak::Sha3_256).unwrap();
    assert_eq!(d.shape(), &[2, 1, 32]);
    let got = d.to_vec::<u8>().unwrap();
    for r in 0..2 {
        let bytes: Vec<u8> = v[r * 3..r * 3 + 3]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(
            &got[r * 32..(r + 1) * 32],
            sha3::Sha3_256::digest(&bytes).as_slice()
        );
    }
    let w = [-3i64, 1 << 40, 7];
    let d = DynTensor::from_slice(&[3], &w)
        .unwrap()
        .keccak(Keccak::Shake128)
        .unwrap();
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(d.to_vec::<u8>().unwrap(), shake16(&bytes));
    let h = [f16::from_f32(1.5), f16::from_f32(-0.25)];
    let d = DynTensor::from_slice(&[2], &h)
        .unwrap()
        .keccak(Keccak::Sha3_224)
        .unwrap();
    let bytes: Vec<u8> = h.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(
        d.to_vec::<u8>().unwrap(),
        sha3::Sha3_224::digest(&bytes).to_vec()
    );
    let b = [true, false, true];
    let d = DynTensor::from_slice(&[3], &b)
        .unwrap()
        .keccak(Keccak::Sha3_256)
        .unwrap();
    assert_eq!(
        d.to_vec::<u8>().unwrap(),
        sha3::Sha3_256::digest([1u8, 0, 1]).to_vec()
    );
    // an empty batch has no rows to hash
    let e = DynTensor::zeros(&[0, 4], DType::U8)
        .unwrap()
        .keccak(Keccak::Sha3_256)
        .unwrap();
    assert_eq!(e.shape(), &[0, 32]);
}

#[test]
fn keccak_errors_name_the_op() {
    let e = DynTensor::zeros(&[], DType::U8)
        .unwrap()
        .keccak(Keccak::Sha3_256)
        .unwrap_err();
    assert!(
        matches!(e, Error::RankTooLow { op: "keccak", min: 1, ref shape } if shape.is_empty()),
        "{e:?}"
    );
    for rate in [0, 200] {
        let e = DynTensor::zeros(&[4], DType::U8)
            .unwrap()
            .keccak(Keccak::Custom { rate, dsbyte: 6 })
            .unwrap_err();
        assert!(
            matches!(e, Error::Argument { op: "keccak", ref message } if message.contains(&rate.to_string())),
            "{e:?}"
        );
    }
}

/// tinygrad's tree hash, on the host: 1 MiB chunks of 256 SHAKE128-hashed 4 KiB rows whose
/// digests are hashed again, repeated over the joined chunk digests until one chunk is left.
fn tree_hash(bytes: &[u8]) -> Vec<u8> {
    const MB: usize = 1 << 20;
    let hash_1mb = |chunk: &[u8]| -> Vec<u8> {
        let inner: Vec<u8> = chunk.chunks(4096).flat_map(shake16).collect();
        shake16(&inner)
    };
    let mut data = bytes.to_vec();
    let mut chunks = data.len().div_ceil(MB);
    while chunks > 1 {
        data.resize(chunks * MB, 0);
        data = data.chunks(MB).flat_map(hash_1mb).collect();
        chunks = chunks.div_ceil(MB / 16);
    }
    data.resize(MB, 0);
    hash_1mb(&data)
}

#[test]
fn tree_hash_matches_its_definition() {
    let v: Vec<f32> = (0..5).map(|i| i as f32 - 1.25).collect();
    let t = DynTensor::from_slice(&[5], &v).unwrap();
    let h = t.hash().unwrap();
    assert_eq!(h.shape(), &[16]);
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(h.to_vec::<u8>().unwrap(), tree_hash(&bytes));
}

#[test]
fn tree_hash_of_several_chunks() {
    let n = (1 << 20) + 3;
    let data = message(n, 5);
    let h = DynTensor::from_slice(&[n], &data).unwrap().hash().unwrap();
    assert_eq!(h.to_vec::<u8>().unwrap(), tree_hash(&data));
}

#[test]
fn nbytes_counts_element_bytes() {
    assert_eq!(DynTensor::zeros(&[2, 3], DType::F16).unwrap().nbytes(), 12);
    assert_eq!(DynTensor::zeros(&[0, 3], DType::I64).unwrap().nbytes(), 0);
    assert_eq!(DynTensor::zeros(&[], DType::Bool).unwrap().nbytes(), 1);
}

#[test]
fn typed_keccak_names_the_digest_size() {
    use tg_ops::typed::hash::{KeccakCustom, Sha3_224, Shake128};
    let t = Tensor::<Rank2<2, 3>, u8>::from_slice(b"abcxyz").unwrap();
    let d: Tensor<Rank2<2, 28>, u8> = t.keccak::<Sha3_224>();
    assert_eq!(
        &d.to_vec().unwrap()[28..],
        sha3::Sha3_224::digest(b"xyz").as_slice()
    );
    let s: Tensor<Rank2<2, 16>, u8> = t.keccak::<Shake128>();
    assert_eq!(&s.to_vec().unwrap()[..16], shake16(b"abc").as_slice());
    let k: Tensor<shape![2, _], u8> = t.keccak::<KeccakCustom<136, 1>>();
    assert_eq!(
        &k.to_vec().unwrap()[..32],
        sha3::Keccak256::digest(b"abc").as_slice()
    );
    assert_eq!(t.nbytes(), 6);
}
