//! `#[kernel]`: symbolic shape checks at expansion, correct values, compiled replay.

use tg::prelude::*;

#[kernel]
fn layer<const B: usize>(
    x: Tensor<shape![B, 8]>,
    w: Tensor<shape![8, 3]>,
    b: Tensor<shape![3]>,
) -> Tensor<shape![B, 3]> {
    let h = x.matmul(w) + b;
    h.relu()
}

#[kernel]
fn scaled(x: Tensor<shape![_, 4]>, k: f32) -> Tensor<shape![_, 4]> {
    (x * k).sum(1, true) + x
}

fn reference(x: &[f32], w: &[f32], b: &[f32], rows: usize) -> Vec<f32> {
    let mut out = vec![0.0; rows * 3];
    for i in 0..rows {
        for j in 0..3 {
            let s: f32 = (0..8).map(|k| x[i * 8 + k] * w[k * 3 + j]).sum();
            out[i * 3 + j] = (s + b[j]).max(0.0);
        }
    }
    out
}

#[test]
fn a_kernel_computes_and_replays() {
    let wd: Vec<f32> = (0..24).map(|i| (i as f32 * 0.37).sin()).collect();
    let bd = [0.1f32, -0.2, 0.3];
    let w = Tensor::<Rank2<8, 3>>::from_slice(&wd).unwrap();
    let b = Tensor::<Rank1<3>>::from_slice(&bd).unwrap();
    let x1d: Vec<f32> = (0..32).map(|i| (i as f32 * 0.11).cos()).collect();
    let x1 = Tensor::<Rank2<4, 8>>::from_slice(&x1d).unwrap();
    let y1 = layer(x1, w.clone(), b.clone());
    let got = y1.to_vec().unwrap();
    let want = reference(&x1d, &wd, &bd, 4);
    assert!(
        got.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-5),
        "{got:?} vs {want:?}"
    );

    let x2d: Vec<f32> = (0..32).map(|i| (i as f32 * 0.29).sin()).collect();
    let x2 = Tensor::<Rank2<4, 8>>::from_slice(&x2d).unwrap();
    x2.realize().unwrap();
    let before = tg::runtime::thread_stats();
    let y2 = layer(x2, w.clone(), b.clone());
    let after = tg::runtime::thread_stats();
    assert_eq!(after.nodes - before.nodes, 0, "no graph built on replay");
    assert_eq!(after.schedules - before.schedules, 0);
    assert_eq!(after.compiles - before.compiles, 0);
    let got = y2.to_vec().unwrap();
    let want = reference(&x2d, &wd, &bd, 4);
    assert!(got.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-5));

    // another batch size records again
    let x3 = Tensor::<Rank2<2, 8>>::from_slice(&x2d[..16]).unwrap();
    let y3 = layer(x3, w, b);
    assert_eq!(y3.dims(), vec![2, 3]);
}

#[test]
fn scalar_operands_are_rebound_on_replay() {
    let x = Tensor::<shape![_, 4]>::from_slice_shape(
        (2, Const),
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
    )
    .unwrap();
    x.realize().unwrap();
    let y = scaled(x.clone(), 2.0).to_vec().unwrap();
    assert_eq!(y, vec![21.0, 22.0, 23.0, 24.0, 57.0, 58.0, 59.0, 60.0]);
    // `k` is only an operand: a var of the recording, not part of its key
    let before = tg::runtime::thread_stats();
    for i in 0..50 {
        let k = i as f32 * 0.5;
        let y = scaled(x.clone(), k).to_vec().unwrap();
        let want = |r: usize, c: usize| {
            let row = &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0][r * 4..r * 4 + 4];
            row.iter().map(|v| v * k).sum::<f32>() + row[c]
        };
        assert_eq!(y[1], want(0, 1), "k = {k}");
        assert_eq!(y[6], want(1, 2), "k = {k}");
    }
    let after = tg::runtime::thread_stats();
    assert_eq!(after.schedules, before.schedules, "every call replayed");
    assert_eq!(after.compiles, before.compiles);
    // another batch size (a dynamic dim) records again
    let x3 = Tensor::<shape![_, 4]>::from_slice_shape((1, Const), &[1.0, 1.0, 1.0, 1.0]).unwrap();
    assert_eq!(scaled(x3, 1.0).to_vec().unwrap(), vec![5.0; 4]);
}

#[kernel]
fn leaky(x: Tensor<shape![4]>, slope: f32) -> Tensor<shape![4]> {
    x.leaky_relu(slope)
}

#[test]
fn a_scalar_used_as_an_option_keys_the_replay() {
    let x = Tensor::<Rank1<4>>::from_slice(&[-2.0, -1.0, 0.5, 3.0]).unwrap();
    assert_eq!(
        leaky(x.clone(), 0.5).to_vec().unwrap(),
        vec![-1.0, -0.5, 0.5, 3.0]
    );
    let before = tg::runtime::thread_stats();
    assert_eq!(
        leaky(x, 0.25).to_vec().unwrap(),
        vec![-0.5, -0.25, 0.5, 3.0]
    );
    assert!(
        tg::runtime::thread_stats().schedules > before.schedules,
        "a new slope records anew"
    );
}

/// The README's example.
#[kernel]
fn classify<const B: usize>(
    x: Tensor<shape![B, 1, 28, 28]>,
    w: Tensor<shape![8, 1, 3, 3]>,
    fc: Tensor<shape![1352, 10]>,
) -> Tensor<shape![B, 10]> {
    let h = x.conv2d(w, padding = 0).relu().max_pool2d(2); // [B, 8, 13, 13]
    h.reshape([B, -1]).matmul(fc).softmax(-1)
}

#[test]
fn the_readme_kernel_runs() {
    let _turn = crate::RANDOM_STREAM
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let x = Tensor::<Rank4<2, 1, 28, 28>>::rand();
    let w = Tensor::<Rank4<8, 1, 3, 3>>::rand();
    let fc = Tensor::<Rank2<1352, 10>>::rand();
    let p = classify(x, w, fc).to_vec().unwrap();
    for row in p.chunks(10) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    }
}

#[kernel]
fn stats_pair(x: Tensor<shape![4, 6]>) -> (Tensor<shape![4, 6]>, Tensor<shape![4, 6], i32>) {
    let (v, i) = x.sort(1, true);
    (v - x.var_mean(1, true).1, i)
}

#[test]
fn pairs_unpack_in_kernels() {
    let x =
        Tensor::<Rank2<4, 6>>::from_vec((0..24).map(|i| ((i * 7) % 11) as f32).collect()).unwrap();
    let (v, i) = stats_pair(x);
    let (v, i) = (v.to_vec().unwrap(), i.to_vec().unwrap());
    assert_eq!(&i[..6], &[3, 1, 4, 2, 5, 0]);
    let row: Vec<f32> = (0..6).map(|k| ((k * 7) % 11) as f32).collect();
    let mean = row.iter().sum::<f32>() / 6.0;
    assert!((v[0] - (10.0 - mean)).abs() < 1e-5);
}

#[kernel]
fn jitter(x: Tensor<shape![64]>) -> Tensor<shape![64]> {
    x + x.rand_like()
}

#[test]
fn a_kernel_drawing_random_numbers_replays_fresh_numbers() {
    let _turn = crate::RANDOM_STREAM
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let x = Tensor::<Rank1<64>>::from_vec((0..64).map(|i| i as f32).collect()).unwrap();
    x.realize().unwrap();
    DynTensor::manual_seed(1234);
    let a = jitter(x.clone()).to_vec().unwrap();
    let before = tg::runtime::thread_stats();
    let b = jitter(x.clone()).to_vec().unwrap();
    let c = jitter(x.clone()).to_vec().unwrap();
    let after = tg::runtime::thread_stats();
    assert_eq!(after.nodes, before.nodes, "replayed: no graph built");
    assert_eq!(
        after.schedules, before.schedules,
        "replayed: nothing scheduled"
    );
    DynTensor::manual_seed(1234);
    for (call, got) in [&a, &b, &c].into_iter().enumerate() {
        let eager = (&x + &x.rand_like()).to_vec().unwrap();
        assert_eq!(
            got, &eager,
            "call {call} draws what an eager run with the seed draws"
        );
    }
    assert_ne!(b, c);
    for (i, (a, b)) in a.iter().zip(&b).enumerate() {
        let base = i as f32;
        assert!(
            (base..base + 1.0).contains(a) && (base..base + 1.0).contains(b),
            "{i}: {a} {b}"
        );
    }
    assert_ne!(
        a, b,
        "a replay would have repeated the first call's numbers"
    );
}

#[kernel]
fn residual<const B: usize>(
    x: &Tensor<shape![B, 4]>,
    w: &Tensor<shape![4, 4]>,
) -> Tensor<shape![B, 4]> {
    x.matmul(w) + x
}

/// Kernel arguments by shared reference: the caller keeps its tensors, no `.clone()`, and
/// the values are the same as by value.
#[test]
fn kernels_take_tensors_by_reference() {
    let x = Tensor::<Rank2<2, 4>>::from_slice(&[1., 2., 3., 4., 5., 6., 7., 8.]).unwrap();
    let eye = Tensor::<Rank2<4, 4>>::from_slice(
        &(0..16)
            .map(|i| if i % 5 == 0 { 1.0 } else { 0.0 })
            .collect::<Vec<f32>>(),
    )
    .unwrap();
    let first = residual(&x, &eye).to_vec().unwrap();
    let again = residual(&x, &eye).to_vec().unwrap();
    let want: Vec<f32> = x.to_vec().unwrap().iter().map(|v| 2.0 * v).collect();
    assert_eq!(first, want);
    assert_eq!(again, want);
}

/// A whole training step in one kernel: forward, gradient, and the update written in place
/// into the weights (a call input), recorded on the first call and replayed after.
#[kernel]
fn sgd_step(
    x: &Tensor<shape![16, 4]>,
    y: &Tensor<shape![16, 1]>,
    w: &Tensor<shape![4, 1]>,
    lr: f32,
) -> (Tensor<shape![]>, Tensor<shape![4, 1]>) {
    let err = x.matmul(w) - y;
    let loss = (err * err).mean();
    let g = loss.gradient(w);
    (loss, w.assign(w - g * lr))
}

#[test]
fn a_training_step_kernel_replays_updates_in_place() {
    let xs: Vec<f32> = (0..64).map(|i| ((i * 7) % 11) as f32 * 0.1).collect();
    let true_w = [0.5f32, -1.0, 2.0, 0.25];
    let ys: Vec<f32> = (0..16)
        .map(|r| (0..4).map(|c| xs[r * 4 + c] * true_w[c]).sum())
        .collect();
    let x = Tensor::<Rank2<16, 4>>::from_slice(&xs).unwrap();
    let y = Tensor::<Rank2<16, 1>>::from_slice(&ys).unwrap();
    let w = Tensor::<Rank2<4, 1>>::parameter(&Tensor::zeros());
    // the same steps on the host
    let mut host = [0.0f32; 4];
    let mut losses = Vec::new();
    let mut before = tg::runtime::thread_stats();
    for step in 0..30 {
        if step == 1 {
            before = tg::runtime::thread_stats();
        }
        let lr = if step < 10 { 0.5 } else { 0.25 };
        let (loss, _) = sgd_step(&x, &y, &w, lr);
        losses.push(loss.to_vec().unwrap()[0]);
        let mut grad = [0.0f32; 4];
        let mut l = 0.0;
        for r in 0..16 {
            let e: f32 = (0..4).map(|c| xs[r * 4 + c] * host[c]).sum::<f32>() - ys[r];
            l += e * e / 16.0;
            for (c, g) in grad.iter_mut().enumerate() {
                *g += 2.0 * e * xs[r * 4 + c] / 16.0;
            }
        }
        assert!(
            (losses[step] - l).abs() <= 1e-4 * l.max(1.0),
            "step {step}: {} vs {l}",
            losses[step]
        );
        for c in 0..4 {
            host[c] -= lr * grad[c];
        }
    }
    let after = tg::runtime::thread_stats();
    assert_eq!(
        after.schedules, before.schedules,
        "recorded once, replayed 29 times"
    );
    assert_eq!(
        after.nodes, before.nodes,
        "no graph built after the first step"
    );
    let got = w.to_vec().unwrap();
    for c in 0..4 {
        assert!((got[c] - host[c]).abs() < 1e-4, "{got:?} vs {host:?}");
    }
    assert!(losses[29] < losses[0] / 10.0, "it learns: {losses:?}");
}

/// Creation ops, attention and sampling in a body: a causal mask and positions made in the
/// kernel, attention through the mask and through `is_causal`, and samples from each row's
/// softmax.
#[kernel]
fn attend(
    q: Tensor<shape![2, 8, 4]>,
    v: Tensor<shape![2, 8, 3]>,
) -> (
    Tensor<shape![2, 8, 3]>,
    Tensor<shape![2, 8, 3]>,
    Tensor<shape![8]>,
    Tensor<shape![8, 5], i32>,
) {
    let mask = Tensor::ones([8, 8], bool).tril();
    let masked = q.scaled_dot_product_attention(q, v, attn_mask = mask);
    let causal = q.scaled_dot_product_attention(q, v, is_causal = true);
    let pos = Tensor::arange(0, 8, dtype = f32) * 0.5;
    let probs = (q.sum(2) + Tensor::zeros([2, 8])).softmax(1).t();
    (
        masked,
        causal,
        pos,
        probs.multinomial(5, replacement = true),
    )
}

#[test]
fn creation_attention_and_sampling_in_a_kernel_match_eager() {
    let _turn = crate::RANDOM_STREAM
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let q =
        Tensor::<Rank3<2, 8, 4>>::from_vec((0..64).map(|i| ((i * 5) % 7) as f32 * 0.1).collect())
            .unwrap();
    let v = Tensor::<Rank3<2, 8, 3>>::from_vec((0..48).map(|i| ((i * 3) % 5) as f32).collect())
        .unwrap();
    q.realize().unwrap();
    v.realize().unwrap();
    for call in 0..2 {
        DynTensor::manual_seed(77 + call);
        let (masked, causal, pos, samples) = attend(q.clone(), v.clone());
        let (masked, causal) = (masked.to_vec().unwrap(), causal.to_vec().unwrap());
        let (pos, samples) = (pos.to_vec().unwrap(), samples.to_vec().unwrap());
        DynTensor::manual_seed(77 + call);
        let (qd, vd) = (q.as_dyn(), v.as_dyn());
        let eager = qd
            .scaled_dot_product_attention(qd, vd, None, 0.0, true)
            .unwrap();
        let eager = eager.to_vec::<f32>().unwrap();
        for (a, b) in masked.iter().chain(&causal).zip(eager.iter().chain(&eager)) {
            assert!((a - b).abs() <= 1e-6 * b.abs().max(1.0), "{a} vs {b}");
        }
        assert_eq!(pos, (0..8).map(|i| i as f32 * 0.5).collect::<Vec<_>>());
        let probs = qd
            .sum(Some(&[2]), false)
            .unwrap()
            .softmax(1, None)
            .unwrap()
            .t()
            .unwrap();
        let want = probs.multinomial(5, true).unwrap().to_vec::<i32>().unwrap();
        assert_eq!(
            samples, want,
            "call {call}: the kernel draws what an eager run draws"
        );
    }
}

/// A KV cache's write in a kernel body: the step's row at a position given as a scalar
/// argument, written into the cache (a call input) in place; recorded on the first call and
/// replayed at each new position, the rest of the cache kept.
#[kernel]
fn cache_row(
    cache: &Tensor<shape![2, 8, 4]>,
    row: &Tensor<shape![2, 1, 4]>,
    pos: i32,
) -> Tensor<shape![2, 8, 4]> {
    cache.assign_window(1, pos, row * 2.0)
}

#[test]
fn a_kernel_writes_a_window_at_a_rebound_position() {
    let cache = Tensor::<Rank3<2, 8, 4>>::parameter(&Tensor::zeros());
    let mut host = [0.0f32; 64];
    // schedules the calls after the first make
    let mut replayed = 0;
    for (step, pos) in [0i32, 5, 7, 3, 9].into_iter().enumerate() {
        let v: Vec<f32> = (0..8).map(|i| (step * 8 + i) as f32).collect();
        let row = Tensor::<Rank3<2, 1, 4>>::from_slice(&v).unwrap();
        // (uploaded before the call: an upload is a schedule of its own)
        row.realize().unwrap();
        let before = tg::runtime::thread_stats().schedules;
        let written = cache_row(&cache, &row, pos);
        if step > 0 {
            replayed += tg::runtime::thread_stats().schedules - before;
        }
        if (pos as usize) < 8 {
            for o in 0..2 {
                for c in 0..4 {
                    host[(o * 8 + pos as usize) * 4 + c] = 2.0 * v[o * 4 + c];
                }
            }
        }
        assert_eq!(written.to_vec().unwrap(), host, "position {pos}");
    }
    assert_eq!(replayed, 0, "recorded once, replayed");
    assert_eq!(cache.to_vec().unwrap(), host);
}
