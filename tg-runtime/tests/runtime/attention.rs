//! The fused attention (`Lazy::attention`, `Lazy::attention_ends`) against f64 arithmetic on
//! the host, forward and gradients, under each kind of mask. The loop budget's child runs the
//! same check at 1,600 queries and keys, where every pass is split into chunks.

use tg_runtime::{DType, Error, Lazy};

/// Which keys the checked attention's queries see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Masking {
    /// Query `i` sees keys `0..=i`.
    Causal,
    /// Every key, plus an additive mask of one row of keys a head: some hidden (`-inf`), the
    /// rest offset.
    Added,
    /// Query `i` of head `h` sees keys `0..=e` for an end `e` of its own (`[h, t]`): some
    /// below 0 (key 0 alone), some past the last key (every key), the rest in between.
    Ends,
    /// Causal, with dropout of a fifth of the weights (a fixed pattern of kept bits, the
    /// kept scaled by 1.25).
    CausalDropout,
    /// The additive mask of `Added`, with the dropout of `CausalDropout`.
    AddedDropout,
}

impl Masking {
    /// Every masking.
    pub const ALL: [Masking; 5] = [
        Masking::Causal,
        Masking::Added,
        Masking::Ends,
        Masking::CausalDropout,
        Masking::AddedDropout,
    ];
}

/// Whether weight `(i, j)` of head `h` is kept under the masks with dropout.
fn kept(h: usize, i: usize, j: usize) -> bool {
    !(i * 7 + j * 3 + h).is_multiple_of(5)
}

/// Values in [-1, 1) from a hash of the index and `seed`.
fn wave(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (((i * 2654435761 + seed * 40503) % 4096) as f32 / 2048.0) - 1.0)
        .collect()
}

/// The ends of `Masking::Ends` for `h` heads of `t` queries.
fn ends(h: usize, t: usize) -> Vec<i32> {
    (0..h * t)
        .map(|i| match i % 5 {
            0 => -3,
            1 => (i % t) as i32,
            2 => (t + 7) as i32,
            3 => (i % t / 2) as i32,
            _ => ((i * 37) % t) as i32,
        })
        .collect()
}

/// The fused attention of `[2, t, d]` queries and keys and `[2, t, dv]` values under `mask`
/// and the gradients of q, k and v of `sum(out * r)` (the logsumexp's column weighed too,
/// so the backward's `delta` takes its gradient), against f64 on the host.
pub fn attention_matches_the_host(mask: Masking, t: usize, d: usize, dv: usize) {
    let h = 2;
    let (qv, kv, vv, rv) = (
        wave(h * t * d, 1),
        wave(h * t * d, 2),
        wave(h * t * dv, 3),
        wave(h * t * dv, 4),
    );
    let mv: Vec<f32> = (0..h * t)
        .map(|i| match i % 7 {
            0 => f32::NEG_INFINITY,
            c => c as f32 * 0.25 - 1.0,
        })
        .collect();
    let ev = ends(h, t);
    let q = Lazy::from_slice(&[h, t, d], &qv).unwrap();
    let k = Lazy::from_slice(&[h, t, d], &kv).unwrap();
    let v = Lazy::from_slice(&[h, t, dv], &vv).unwrap();
    let p_drop = 0.2;
    let keep: Vec<bool> = (0..h * t * t)
        .map(|n| kept(n / (t * t), n / t % t, n % t))
        .collect();
    let bits = Lazy::from_slice(&[h, t, t], &keep)
        .unwrap()
        .pack_bits()
        .unwrap();
    let dropping = matches!(mask, Masking::CausalDropout | Masking::AddedDropout);
    let out = match mask {
        Masking::Causal => q.attention(&k, &v, true, None),
        Masking::CausalDropout => q.attention_dropout(&k, &v, true, None, &bits, p_drop),
        Masking::AddedDropout => {
            let m = Lazy::from_slice(&[h, 1, t], &mv).unwrap();
            q.attention_dropout(&k, &v, false, Some(&m), &bits, p_drop)
        }
        Masking::Added => {
            let m = Lazy::from_slice(&[h, 1, t], &mv).unwrap();
            q.attention(&k, &v, false, Some(&m))
        }
        Masking::Ends => {
            let e = Lazy::from_slice(&[h, t], &ev).unwrap();
            q.attention_ends(&k, &v, &e)
        }
    }
    .unwrap();
    // the values' gradient `r`, the logsumexp's `dl`
    let dl = wave(h * t, 5);
    let mut seed = Vec::with_capacity(h * t * (dv + 1));
    for (row, l) in rv.chunks(dv).zip(&dl) {
        seed.extend_from_slice(row);
        seed.push(*l);
    }
    let seed = Lazy::from_slice(&[h, t, dv + 1], &seed).unwrap();
    let grads = out.gradient(&[&q, &k, &v], Some(&seed)).unwrap();
    let got_out = out.to_vec::<f32>().unwrap();
    let got: Vec<Vec<f32>> = grads.iter().map(|g| g.to_vec::<f32>().unwrap()).collect();

    let scale = 1.0 / (d as f64).sqrt();
    let (mut out_w, mut dq, mut dk, mut dvw) = (
        vec![0f64; h * t * (dv + 1)],
        vec![0f64; h * t * d],
        vec![0f64; h * t * d],
        vec![0f64; h * t * dv],
    );
    for hh in 0..h {
        let at = |x: &[f32], w: usize, i: usize, c: usize| x[(hh * t + i) * w + c] as f64;
        for i in 0..t {
            let seen = match mask {
                Masking::Causal | Masking::CausalDropout => i + 1,
                Masking::Added | Masking::AddedDropout => t,
                Masking::Ends => (ev[hh * t + i].max(0) as usize + 1).min(t),
            };
            let s: Vec<f64> = (0..seen)
                .map(|j| {
                    let dot: f64 = (0..d).map(|c| at(&qv, d, i, c) * at(&kv, d, j, c)).sum();
                    let added = match mask {
                        Masking::Added | Masking::AddedDropout => mv[hh * t + j] as f64,
                        _ => 0.0,
                    };
                    dot * scale + added
                })
                .collect();
            let most = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = s.iter().map(|x| (x - most).exp()).collect();
            let total: f64 = e.iter().sum();
            let p: Vec<f64> = e.iter().map(|x| x / total).collect();
            // each weight's dropout factor (1 without)
            let z: Vec<f64> = (0..seen)
                .map(|j| match (dropping, kept(hh, i, j)) {
                    (false, _) => 1.0,
                    (true, true) => 1.0 / (1.0 - p_drop),
                    (true, false) => 0.0,
                })
                .collect();
            for c in 0..dv {
                out_w[(hh * t + i) * (dv + 1) + c] =
                    (0..seen).map(|j| p[j] * z[j] * at(&vv, dv, j, c)).sum();
            }
            out_w[(hh * t + i) * (dv + 1) + dv] = most + total.ln();
            let dp: Vec<f64> = (0..seen)
                .map(|j| {
                    z[j] * (0..dv)
                        .map(|c| at(&rv, dv, i, c) * at(&vv, dv, j, c))
                        .sum::<f64>()
                })
                .collect();
            // a row's logsumexp has the gradient `p` with respect to its scores
            let delta: f64 = (0..seen).map(|j| p[j] * dp[j]).sum::<f64>() - dl[hh * t + i] as f64;
            for j in 0..seen {
                let ds = p[j] * (dp[j] - delta);
                for c in 0..d {
                    dq[(hh * t + i) * d + c] += ds * at(&kv, d, j, c) * scale;
                    dk[(hh * t + j) * d + c] += ds * at(&qv, d, i, c) * scale;
                }
                for c in 0..dv {
                    dvw[(hh * t + j) * dv + c] += p[j] * z[j] * at(&rv, dv, i, c);
                }
            }
        }
    }
    for (what, g, w) in [
        ("out", &got_out, &out_w),
        ("dq", &got[0], &dq),
        ("dk", &got[1], &dk),
        ("dv", &got[2], &dvw),
    ] {
        assert_eq!(g.len(), w.len(), "{mask:?} {what}: length");
        let most = w.iter().fold(0f64, |a, x| a.max(x.abs()));
        for (i, (a, b)) in g.iter().zip(w.iter()).enumerate() {
            assert!(
                (*a as f64 - b).abs() <= 1e-4 * most + 1e-6,
                "{mask:?} attention {what}: [{i}] = {a}, want {b}"
            );
        }
    }
}

/// Each mask unsplit, at lengths that leave the last block of rows partial (37) and fill it
/// (64), and with dropout (37 keys: a row's bits end inside its second word). Rows of 4 and
/// 3 are read as a vector and element by element; of 16 and 8 as pairs of vectors where the
/// device loads pairs (a CPU driver with 64-bit integers), of 12 as vectors.
#[test]
fn the_fused_attention_matches_the_host() {
    for (d, dv) in [(4, 3), (16, 8), (12, 8)] {
        for t in [37, 64] {
            for mask in Masking::ALL {
                attention_matches_the_host(mask, t, d, dv);
            }
        }
    }
}

/// Ends of one for all (`[1, 1]`) read as that end for every query, and a float end is read
/// as the integer: the same as an additive mask hiding the keys past it.
#[test]
fn one_end_for_every_query_is_an_additive_mask() {
    let (h, t, d) = (3, 20, 8);
    let q = Lazy::from_slice(&[h, 5, d], &wave(h * 5 * d, 5)).unwrap();
    let k = Lazy::from_slice(&[h, t, d], &wave(h * t * d, 6)).unwrap();
    let v = Lazy::from_slice(&[h, t, d], &wave(h * t * d, 7)).unwrap();
    let end = 11;
    let hidden: Vec<f32> = (0..t)
        .map(|j| if j <= end { 0.0 } else { f32::NEG_INFINITY })
        .collect();
    let m = Lazy::from_slice(&[1, 1, t], &hidden).unwrap();
    let want = q.attention(&k, &v, false, Some(&m)).unwrap();
    for e in [
        Lazy::constant(end as i32, DType::I32, &[1, 1]).unwrap(),
        Lazy::constant(end as f32, DType::F32, &[h, 1]).unwrap(),
    ] {
        let got = q.attention_ends(&k, &v, &e).unwrap();
        let (g, w) = (got.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
        for (a, b) in g.iter().zip(&w) {
            assert!((a - b).abs() <= 1e-6, "{a} against {b}");
        }
    }
}

/// Ends of the wrong shape or a mask of booleans are errors naming the op and the shapes.
#[test]
fn ends_of_the_wrong_shape_are_errors() {
    let q = Lazy::constant(0.0f32, DType::F32, &[2, 5, 4]).unwrap();
    let k = Lazy::constant(0.0f32, DType::F32, &[2, 9, 4]).unwrap();
    for shape in [&[2, 9][..], &[3, 5], &[2, 5, 1], &[5]] {
        let e = Lazy::constant(1i32, DType::I32, shape).unwrap();
        let err = q.attention_ends(&k, &k, &e).unwrap_err().to_string();
        assert!(
            err.contains("attention_ends") && err.contains(&format!("{shape:?}")),
            "{err}"
        );
    }
    let b = Lazy::constant(true, DType::Bool, &[2, 5]).unwrap();
    assert!(q.attention_ends(&k, &k, &b).is_err());
}

/// Kept bits of the wrong shape or dtype, or a dropout probability outside `[0, 1)`, are
/// errors naming the op (and the shapes); bits of the right shape, 32 keys a word, are taken.
#[test]
fn dropout_bits_of_the_wrong_shape_are_errors() {
    let q = Lazy::constant(0.0f32, DType::F32, &[2, 5, 4]).unwrap();
    let k = Lazy::constant(0.0f32, DType::F32, &[2, 40, 4]).unwrap();
    let bits = |shape: &[usize], dtype: DType| Lazy::constant(0u32, dtype, shape).unwrap();
    for shape in [&[2, 5, 1][..], &[2, 5, 40], &[5, 2], &[1, 5, 2]] {
        let err = q
            .attention_dropout(&k, &k, false, None, &bits(shape, DType::U32), 0.1)
            .unwrap_err();
        assert!(
            matches!(&err, Error::Shape { op: "attention_dropout", message } if message.contains(&format!("{shape:?}"))),
            "{err}"
        );
    }
    let err = q
        .attention_dropout(&k, &k, false, None, &bits(&[2, 5, 2], DType::I32), 0.1)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DType {
                op: "attention_dropout",
                ..
            }
        ),
        "{err}"
    );
    for p in [-0.1, 1.0, f64::NAN] {
        let err = q
            .attention_dropout(&k, &k, true, None, &bits(&[2, 5, 2], DType::U32), p)
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::Argument {
                    op: "attention_dropout",
                    ..
                }
            ),
            "{err}"
        );
    }
    assert!(
        q.attention_dropout(&k, &k, true, None, &bits(&[2, 5, 2], DType::U32), 0.5)
            .is_ok()
    );
}

/// Bools packed a bit each into u32 words (bit `j % 32` of word `j / 32`), against the words
/// made on the host, and unpacked again, at a length that ends inside a word (70); a packing
/// of numbers or an unpacking past the words is an error naming the op.
#[test]
fn bits_pack_into_words_and_back() {
    let (rows, n) = (3, 70);
    let keep: Vec<bool> = (0..rows * n).map(|i| (i * i + 3 * i) % 7 < 3).collect();
    let words = Lazy::from_slice(&[rows, n], &keep)
        .unwrap()
        .pack_bits()
        .unwrap();
    assert_eq!(words.shape(), &[rows, 3]);
    let mut want = vec![0u32; rows * 3];
    for (i, &k) in keep.iter().enumerate() {
        let (r, j) = (i / n, i % n);
        want[r * 3 + j / 32] |= u32::from(k) << (j % 32);
    }
    assert_eq!(words.to_vec::<u32>().unwrap(), want);
    let words = Lazy::from_slice(&[rows, 3], &want).unwrap();
    let back = words.unpack_bits(n).unwrap().to_vec::<bool>().unwrap();
    assert_eq!(back, keep);
    let err = Lazy::constant(1.0f32, DType::F32, &[2, 4])
        .unwrap()
        .pack_bits()
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DType {
                op: "pack_bits",
                ..
            }
        ),
        "{err}"
    );
    let err = words.unpack_bits(97).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Shape {
                op: "unpack_bits",
                ..
            }
        ),
        "{err}"
    );
}
