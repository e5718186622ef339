//! Scaled dot-product attention through the runtime's fused attention (`Lazy::attention`):
//! the forward and the gradients of q, k and v (and an additive mask) against numpy
//! (fixtures/ops_attention.json, made by scripts/gen_ops_attention.py), causal, unmasked and
//! masked (bool and additive masks as they broadcast); many and long rows against
//! the composition of ops (`TG_LONG_TESTS=1` adds T 1024); and, with no device, that
//! no kernel of the fused attention's forward or backward stores `T x T` values a head.

use tg::prelude::*;
use tg::runtime::device::DeviceInfo;
use tg::runtime::graph::node::Op;
use tg::runtime::kernel::Strategy;
use tg::runtime::ops::{AttentionMask, AttentionPass};
use tg_test_support::fixture;

use fixture::{Case, arg};

use crate::random;

/// Whether `out` (an attention's output, not yet realized) is the fused attention's: its
/// values cut from the pass's output (and, for f16, cast back).
fn is_fused(out: &DynTensor) -> bool {
    let mut node = out.lazy().clone();
    for _ in 0..3 {
        if matches!(node.op(), Op::Attention(AttentionPass::Forward, ..)) {
            return true;
        }
        match node.srcs().first() {
            Some(s) => node = s.clone(),
            None => return false,
        }
    }
    false
}

/// The output and the gradients of q, k and v of `sum(out * r)`.
fn forward_backward(
    q: &DynTensor,
    k: &DynTensor,
    v: &DynTensor,
    r: &DynTensor,
    attention: impl Fn(&DynTensor, &DynTensor, &DynTensor) -> DynTensor,
) -> Vec<DynTensor> {
    let (q, k, v) = (q.requires_grad(), k.requires_grad(), v.requires_grad());
    let out = attention(&q, &k, &v);
    let loss = out.mul(r).unwrap().sum(None, false).unwrap();
    let mut all = vec![out];
    all.extend(loss.gradient(&[&q, &k, &v], None).unwrap());
    all
}

fn check_case(c: &Case) -> Result<(), String> {
    let causal = arg(c, "causal").as_bool().expect("causal");
    let tensors: Vec<DynTensor> = (0..c.inputs.len())
        .map(|i| DynTensor::from_lazy(fixture::lazy(&c.inputs[i])))
        .collect();
    let (q, k, v, r) = (&tensors[0], &tensors[1], &tensors[2], &tensors[3]);
    // an additive mask gets its gradient too
    let mask = tensors
        .get(4)
        .map(|m| match c.json["args"]["mask"].as_str() {
            Some("add") => m.requires_grad(),
            _ => m.clone(),
        });
    let probe = q
        .scaled_dot_product_attention(k, v, mask.as_ref(), 0.0, causal)
        .map_err(|e| e.to_string())?;
    if !is_fused(&probe) {
        return Err("not the fused attention".into());
    }
    let (q, k, v) = (q.requires_grad(), k.requires_grad(), v.requires_grad());
    let out = q
        .scaled_dot_product_attention(&k, &v, mask.as_ref(), 0.0, causal)
        .map_err(|e| e.to_string())?;
    let loss = out.mul(r).unwrap().sum(None, false).unwrap();
    let mut wrt = vec![&q, &k, &v];
    if let Some(m) = mask.as_ref().filter(|m| m.is_requires_grad()) {
        wrt.push(m);
    }
    let mut got = vec![out.clone()];
    got.extend(loss.gradient(&wrt, None).map_err(|e| e.to_string())?);
    if got.len() != c.outs.len() {
        return Err(format!(
            "{} outputs, the fixture has {}",
            got.len(),
            c.outs.len()
        ));
    }
    let tols = c.json["tols"].as_array().expect("tols");
    for (i, (g, want)) in got.iter().zip(&c.outs).enumerate() {
        let tol = tols[i].as_array().expect("tol");
        let (rtol, atol) = (tol[0].as_f64().unwrap(), tol[1].as_f64().unwrap());
        fixture::compare(g.lazy(), want, rtol, atol)
            .map_err(|e| format!("{}: {e}", ["out", "dq", "dk", "dv", "dmask"][i]))?;
    }
    Ok(())
}

#[test]
fn attention_matches_numpy() {
    fixture::run_each("ops_attention.json", check_case);
}

/// softmax(q k^T / sqrt(d) + mask) v of ops, the `[.., T, T]` scores materialized.
fn composed(q: &DynTensor, k: &DynTensor, v: &DynTensor, causal: bool) -> DynTensor {
    let (l, s, d) = (q.shape()[2], k.shape()[2], q.shape()[3]);
    let scores = q
        .matmul(&k.transpose(-1, -2).unwrap())
        .unwrap()
        .div((d as f64).sqrt())
        .unwrap();
    let scores = if causal {
        DynTensor::ones(&[l, s], DType::Bool)
            .unwrap()
            .tril(0)
            .unwrap()
            .where_(&scores, f32::NEG_INFINITY)
            .unwrap()
    } else {
        scores
    };
    scores.softmax(-1, None).unwrap().matmul(v).unwrap()
}

/// Many rows, so that an invocation takes several (`ClassDefaults::attention`: on a CPU up
/// to 8 where the invocations still keep the cores busy), the last block partial (T 67), and
/// a row of a thousand keys as one invocation's loop (within llvmpipe's budget): the fused
/// forward and gradients match the composition's, causal and not. `TG_LONG_TESTS=1` adds
/// T 1024.
#[test]
fn many_and_long_rows_match_the_composition() {
    let long = tg::runtime::config::switch(tg::runtime::config::Var::LongTests);
    let mut shapes = vec![[16, 4, 67, 16], [1, 2, 260, 16]];
    if long {
        shapes.extend([[1, 2, 1024, 16], [4, 4, 1024, 16]]);
    }
    for shape in shapes {
        let (q, k, v) = (random(&shape, 1), random(&shape, 2), random(&shape, 3));
        let r = random(&shape, 4);
        for causal in [false, true] {
            let fused = forward_backward(&q, &k, &v, &r, |q, k, v| {
                q.scaled_dot_product_attention(k, v, None, 0.0, causal)
                    .unwrap()
            });
            let reference = forward_backward(&q, &k, &v, &r, |q, k, v| composed(q, k, v, causal));
            for (i, (a, b)) in fused.iter().zip(&reference).enumerate() {
                let (a, b) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
                // normwise: the largest difference against the largest value (f32 sums of
                // up to a thousand terms, each path its own order)
                let most = b.iter().fold(0.0f32, |m, y| m.max(y.abs()));
                let worst = a
                    .iter()
                    .zip(&b)
                    .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
                assert!(
                    worst <= 1e-5 * most,
                    "{shape:?} causal {causal}: {} differs from the composition's by {worst}, its largest value {most}",
                    ["out", "dq", "dk", "dv"][i]
                );
            }
        }
    }
}

/// `dropout(softmax(q k^T / sqrt(d) + mask)) v` of ops: the weights' `rand` drawn from the
/// process-wide stream, as `scaled_dot_product_attention`'s composition draws it.
fn composed_dropout(
    q: &DynTensor,
    k: &DynTensor,
    v: &DynTensor,
    mask: Option<&DynTensor>,
    causal: bool,
    p: f64,
) -> DynTensor {
    let (l, s, d) = (q.shape()[2], k.shape()[2], q.shape()[3]);
    let mut scores = q
        .matmul(&k.transpose(-1, -2).unwrap())
        .unwrap()
        .div((d as f64).sqrt())
        .unwrap();
    if causal {
        scores = DynTensor::ones(&[l, s], DType::Bool)
            .unwrap()
            .tril(0)
            .unwrap()
            .where_(&scores, f32::NEG_INFINITY)
            .unwrap();
    }
    if let Some(m) = mask {
        scores = scores.add(m).unwrap();
    }
    scores
        .softmax(-1, None)
        .unwrap()
        .dropout(p)
        .unwrap()
        .matmul(v)
        .unwrap()
}

/// Dropout inside the fused attention drops the weights the composition drops for one
/// seed (the same draw from the process-wide stream, kept as a bit a weight): the output
/// and the gradients of q, k and v (and an additive mask's) match the composition's, causal,
/// unmasked and masked, with rows of keys that end inside a word of bits (37, 70). It is the
/// fused attention (its passes read the bits; no `T x T` weights are stored), and its
/// output differs from the attention without dropout.
#[test]
fn dropout_in_the_fused_attention_drops_the_composed_weights() {
    let _turn = crate::creation::GLOBAL_STREAM
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let p = 0.3;
    for (shape, causal, masked) in [
        ([2, 3, 37, 8], false, false),
        ([2, 3, 37, 8], true, false),
        ([1, 2, 70, 16], false, true),
    ] {
        let (q, k, v) = (random(&shape, 21), random(&shape, 22), random(&shape, 23));
        let r = random(&shape, 24);
        let mask = masked.then(|| random(&[1, 1, shape[2], shape[2]], 25).requires_grad());
        let run = |attention: &dyn Fn(&DynTensor, &DynTensor, &DynTensor) -> DynTensor| {
            let (q, k, v) = (q.requires_grad(), k.requires_grad(), v.requires_grad());
            let out = attention(&q, &k, &v);
            let loss = out.mul(&r).unwrap().sum(None, false).unwrap();
            let mut wrt = vec![&q, &k, &v];
            wrt.extend(mask.as_ref());
            let mut all = vec![out];
            all.extend(loss.gradient(&wrt, None).unwrap());
            all.into_iter()
                .map(|t| t.to_vec::<f32>().unwrap())
                .collect::<Vec<_>>()
        };
        let fused = |q: &DynTensor, k: &DynTensor, v: &DynTensor| {
            q.scaled_dot_product_attention(k, v, mask.as_ref(), p, causal)
                .unwrap()
        };
        assert!(is_fused(&fused(&q, &k, &v)), "{shape:?}");
        DynTensor::manual_seed(5);
        let got = run(&fused);
        DynTensor::manual_seed(5);
        let want = run(&|q, k, v| composed_dropout(q, k, v, mask.as_ref(), causal, p));
        let names = ["out", "dq", "dk", "dv", "dmask"];
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            let most = b.iter().fold(0.0f32, |m, y| m.max(y.abs()));
            let worst = a
                .iter()
                .zip(b)
                .fold(0.0f32, |m, (x, y)| m.max((x - y).abs()));
            assert!(
                worst <= 1e-5 * most,
                "{shape:?} causal {causal} masked {masked}: {} differs from the composition's by {worst}, its largest value {most}",
                names[i]
            );
        }
        let undropped = q
            .scaled_dot_product_attention(&k, &v, mask.as_ref(), 0.0, causal)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert_ne!(got[0], undropped, "{shape:?}: nothing was dropped");
    }
    // planned: three passes that read the bits; the kept decisions stored a byte a weight
    // for the kernel that packs them, where the composition stores weights of 4 bytes
    for info in described() {
        let dims = [2, 2, 256, 16];
        let weights = dims[0] * dims[1] * dims[2] * dims[2];
        let plan = |attention: &dyn Fn(&DynTensor, &DynTensor, &DynTensor) -> DynTensor| {
            let [q, k, v] = [1, 2, 3].map(|s| random(&dims, s).requires_grad());
            let out = attention(&q, &k, &v);
            let grads = out
                .sum(None, false)
                .unwrap()
                .gradient(&[&q, &k, &v], None)
                .unwrap();
            let targets: Vec<&tg::runtime::Lazy> = std::iter::once(out.lazy())
                .chain(grads.iter().map(|g| g.lazy()))
                .collect();
            tg::runtime::realize::plan(&targets, &info).unwrap()
        };
        let bytes = |p: &tg::runtime::realize::Planned| {
            std::iter::once(&p.kernel.root)
                .chain(&p.kernel.also)
                .map(|n| n.numel() * n.dtype().size())
                .max()
                .unwrap_or(0)
        };
        let fused = plan(&|q, k, v| {
            q.scaled_dot_product_attention(k, v, None, 0.5, true)
                .unwrap()
        });
        let most = fused.iter().map(bytes).max().unwrap();
        assert!(most <= weights, "{most} bytes stored for {weights} weights");
        assert_eq!(dropping(&fused), 3);
        let composition = plan(&|q, k, v| composed_dropout(q, k, v, None, true, 0.5));
        assert!(composition.iter().map(bytes).max().unwrap() >= 4 * weights);
    }
    // a loop over the device's budget splits with dropout too, each chunk of keys with its
    // bits packed again (values under a small budget: tg-runtime's loop_budget test)
    let tight = DeviceInfo {
        loop_budget: Some(200),
        ..fixture::described::lavapipe()
    };
    let q = random(&[1, 1, 256, 8], 26);
    let out = q
        .scaled_dot_product_attention(&q, &q, None, 0.5, false)
        .unwrap();
    let chunks = dropping(&tg::runtime::realize::plan(&[out.lazy()], &tight).unwrap());
    assert!(chunks > 1, "{chunks} passes");
}

/// The planned kernels that are passes of a dropout attention.
fn dropping(plan: &[tg::runtime::realize::Planned]) -> usize {
    plan.iter()
        .filter(|p| {
            matches!(
                p.strategy,
                Strategy::Attention {
                    dropout: Some(_),
                    ..
                }
            )
        })
        .count()
}

/// lavapipe as tg sees it (a CPU with llvmpipe's loop budget), and a GPU without one.
fn described() -> [DeviceInfo; 2] {
    [fixture::described::lavapipe(), fixture::described::gpu()]
}

/// The planned forward and backward of a causal attention of `(b, h, t, d)` tensors, by
/// `attention`: each kernel's strategy, loops and the elements it stores.
fn planned(
    info: &DeviceInfo,
    [b, h, t, d]: [usize; 4],
    attention: impl Fn(&DynTensor, &DynTensor, &DynTensor) -> DynTensor,
) -> Vec<(Strategy, u64, usize)> {
    let shape = [b, h, t, d];
    let [q, k, v] = [1, 2, 3].map(|s| random(&shape, s).requires_grad());
    let out = attention(&q, &k, &v);
    let loss = out.sum(None, false).unwrap();
    let grads = loss.gradient(&[&q, &k, &v], None).unwrap();
    let targets: Vec<&tg::runtime::Lazy> = std::iter::once(out.lazy())
        .chain(grads.iter().map(|g| g.lazy()))
        .collect();
    tg::runtime::realize::plan(&targets, info)
        .unwrap()
        .into_iter()
        .map(|p| {
            let stored = std::iter::once(&p.kernel.root)
                .chain(&p.kernel.also)
                .map(|n| n.numel())
                .max()
                .unwrap_or(0);
            (p.strategy, p.loops, stored)
        })
        .collect()
}

/// With no device: the fused attention's forward and backward (B 2, H 2, T 256, D 16) store
/// nothing of `T x T` a head (the composition does, which shows the check can fail): the
/// forward is one kernel, the backward two passes; their GLSL compiles where buffers are
/// read by device address; T 16384, the longest row, fits llvmpipe's loop budget.
#[test]
fn fused_attention_stores_no_scores() {
    let dims = [2, 2, 256, 16];
    let scores = dims[0] * dims[1] * dims[2] * dims[2];
    let fused = |q: &DynTensor, k: &DynTensor, v: &DynTensor| {
        q.scaled_dot_product_attention(k, v, None, 0.0, true)
            .unwrap()
    };
    for info in described() {
        let kernels = planned(&info, dims, fused);
        let most = kernels.iter().map(|k| k.2).max().unwrap();
        assert!(most < scores / 4, "{kernels:?}");
        for pass in [
            AttentionPass::Forward,
            AttentionPass::GradQ { lse_grad: false },
            AttentionPass::GradKV,
        ] {
            let n = kernels
                .iter()
                .filter(|k| matches!(k.0, Strategy::Attention { pass: p, mask: AttentionMask::Causal, d: 16, dv: 16, .. } if p == pass))
                .count();
            assert_eq!(n, 1, "{pass:?}: {kernels:?}");
        }
        let composition = planned(&info, dims, |q, k, v| composed(q, k, v, true));
        assert!(composition.iter().any(|k| k.2 >= scores), "{composition:?}");
    }
    // buffers past one binding's range are read by device address, vectors too: the
    // passes' GLSL through those macros compiles (no device needed)
    let [cpu, _] = described();
    let small = DeviceInfo {
        max_storage_buffer_range: 1 << 10,
        ..cpu.clone()
    };
    let shape = [2, 2, 37, 8];
    let [q, k, v] = [1, 2, 3].map(|s| random(&shape, s).requires_grad());
    let out = fused(&q, &k, &v);
    let grads = out
        .sum(None, false)
        .unwrap()
        .gradient(&[&q, &k, &v], None)
        .unwrap();
    let targets: Vec<&tg::runtime::Lazy> = grads.iter().map(|g| g.lazy()).collect();
    let passes: Vec<_> = tg::runtime::realize::plan(&targets, &small)
        .unwrap()
        .into_iter()
        .filter(|p| matches!(p.strategy, Strategy::Attention { .. }))
        .collect();
    assert_eq!(passes.len(), 3);
    for p in passes {
        assert!(p.source.contains("buffer_reference"), "{}", p.source);
        tg::runtime::compile::compile_glsl(&p.source).unwrap_or_else(|e| panic!("{e}"));
    }
    let longest = planned(&cpu, [1, 1, 16384, 4], fused);
    let loops = longest
        .iter()
        .filter(|k| matches!(k.0, Strategy::Attention { .. }))
        .map(|k| k.1)
        .collect::<Vec<_>>();
    assert_eq!(loops, vec![16385; 3], "{longest:?}");
}

/// A query row whose keys a mask hides, every one of them, is NaN in the fused attention as
/// in the composed softmax (0 / 0); the other rows match the composition, and so do the
/// gradients of q, k and v at the rows that see a key.
#[test]
fn a_row_with_every_key_hidden_is_nan_as_composed() {
    let (q, k, v) = (
        random(&[1, 2, 3, 4], 11),
        random(&[1, 2, 5, 4], 12),
        random(&[1, 2, 5, 4], 13),
    );
    // row 1 sees nothing; row 0 sees keys 1 and 3 (key 0 hidden); row 2 every key
    let hidden = [
        false, true, false, true, false, false, false, false, false, false, true, true, true, true,
        true,
    ];
    let mask = DynTensor::from_slice(&[3, 5], &hidden).unwrap();
    let fused = q
        .scaled_dot_product_attention(&k, &v, Some(&mask), 0.0, false)
        .unwrap();
    assert!(is_fused(&fused));
    let scores = q
        .matmul(&k.transpose(-1, -2).unwrap())
        .unwrap()
        .div(2.0)
        .unwrap();
    let composed = mask
        .where_(&scores, f32::NEG_INFINITY)
        .unwrap()
        .softmax(-1, None)
        .unwrap()
        .matmul(&v)
        .unwrap();
    let (a, b) = (
        fused.to_vec::<f32>().unwrap(),
        composed.to_vec::<f32>().unwrap(),
    );
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        let row = (i / 4) % 3;
        match row {
            1 => assert!(x.is_nan() && y.is_nan(), "[{i}] {x} and {y}"),
            _ => assert!((x - y).abs() <= 1e-6, "[{i}] {x} against {y}"),
        }
    }
}

/// With no device: a key-padding mask (a row per batch entry, shared by its heads and its
/// queries) keeps the fused attention's forward and backward free of `T x T` values a head:
/// the mask is stored as it broadcasts (one row of keys a head), and it takes the masked
/// template on both device classes.
#[test]
fn a_padding_mask_stores_no_scores() {
    let dims = [2, 2, 256, 16];
    let scores = dims[0] * dims[1] * dims[2] * dims[2];
    let keep: Vec<bool> = (0..2 * 256).map(|i| i % 256 < 200 + i / 256 * 40).collect();
    let mask = DynTensor::from_slice(&[2, 1, 1, 256], &keep).unwrap();
    let attention = |q: &DynTensor, k: &DynTensor, v: &DynTensor| {
        q.scaled_dot_product_attention(k, v, Some(&mask), 0.0, false)
            .unwrap()
    };
    for info in described() {
        let kernels = planned(&info, dims, attention);
        let most = kernels.iter().map(|k| k.2).max().unwrap();
        assert!(most < scores / 4, "{kernels:?}");
        let masked = kernels
            .iter()
            .filter(|k| {
                matches!(
                    k.0,
                    Strategy::Attention {
                        mask: AttentionMask::Add {
                            heads: true,
                            rows: false
                        },
                        ..
                    }
                )
            })
            .count();
        assert_eq!(masked, 3, "{kernels:?}");
    }
}
