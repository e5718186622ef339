//! Multi-output kernels on the device (`schedule/multi.rs`): an optimizer step over many
//! small parameters, packed into a few dispatches, writes what one kernel per value writes,
//! eagerly and in a replayed recording whose learning rate a var rebinds.

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, Scalar, realize_report, record};

use crate::graphs::{adam_update, layer_norm, norm_statistics, product};

/// Shapes of a small model's parameters: vectors (one not a whole number of 4-element
/// vectors) and matrices.
const SHAPES: [&[usize]; 6] = [&[64], &[64], &[33], &[64], &[16, 16], &[16, 16]];

/// Deterministic values in [-1, 1) for parameter `i`'s `what`.
fn values(i: usize, what: u32, n: usize) -> Vec<f32> {
    (0..n)
        .map(|j| {
            let x = (j as u32).wrapping_mul(2654435761) ^ (i as u32 * 40503 + what * 977);
            (x % 2000) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// Parameters p, m, v (buffers of their own) and a gradient for each shape.
struct State {
    params: Vec<[Lazy; 3]>,
    grads: Vec<Lazy>,
}

fn state() -> State {
    state_of(&SHAPES)
}

/// [`state`] for parameters of `shapes`.
fn state_of(shapes: &[&[usize]]) -> State {
    let mut params = Vec::new();
    let mut grads = Vec::new();
    for (i, shape) in shapes.iter().enumerate() {
        let n = shape.iter().product();
        let param = |what: u32, scale: f32| {
            let host: Vec<f32> = values(i, what, n).iter().map(|x| x * scale).collect();
            let p = Lazy::parameter(&Lazy::from_slice(shape, &host).unwrap()).unwrap();
            p.realize().unwrap();
            p
        };
        // v is a running mean of squares: not negative
        let v = param(3, 0.5);
        let v = v.assign(&v.binary(BinaryOp::Mul, &v).unwrap()).unwrap();
        v.realize().unwrap();
        params.push([param(1, 1.0), param(2, 0.1), v]);
        grads.push(Lazy::from_slice(shape, &values(i, 4, n)).unwrap());
    }
    State { params, grads }
}

fn lr_of(value: f32, shape: &[usize]) -> Lazy {
    Lazy::var(7, value, DType::F32, shape).unwrap()
}

/// Every parameter's update, each value realized on its own (one kernel each).
fn unpacked_step(s: &mut State, lr: f32) {
    for (i, [p, m, v]) in s.params.iter_mut().enumerate() {
        let [m2, v2, p2] = adam_update(p, &s.grads[i], m, v, &lr_of(lr, p.shape()));
        for x in [&m2, &v2, &p2] {
            x.realize().unwrap();
        }
        (*p, *m, *v) = (p2, m2, v2);
    }
}

/// Every parameter's update as one realize; the new values.
fn packed_step(s: &State, lr: f32) -> Vec<Lazy> {
    s.params
        .iter()
        .zip(&s.grads)
        .flat_map(|([p, m, v], g)| adam_update(p, g, m, v, &lr_of(lr, p.shape())))
        .collect()
}

fn read(s: &State) -> Vec<Vec<f32>> {
    s.params
        .iter()
        .flat_map(|vals| vals.iter().map(|x| x.to_vec::<f32>().unwrap()))
        .collect()
}

/// Equal up to one rounding of the last operation (a shader may contract a multiply and an
/// add differently once values are computed in one kernel).
fn assert_near(got: &[Vec<f32>], want: &[Vec<f32>]) {
    for (g, w) in got.iter().zip(want) {
        for (a, b) in g.iter().zip(w) {
            assert!((a - b).abs() <= 1e-6 * b.abs().max(1e-3), "{a} vs {b}");
        }
    }
}

#[test]
fn packed_updates_equal_one_kernel_each() {
    let mut unpacked = state();
    unpacked_step(&mut unpacked, 0.05);
    let packed = state();
    let new = packed_step(&packed, 0.05);
    let report = realize_report(&new.iter().collect::<Vec<_>>(), false).unwrap();
    // m, v and p of six parameters: 18 kernels one by one; packed by shape (64, 33, 16x16),
    // within the device's bindings
    assert!(
        report.kernels.len() <= 3 * 3,
        "{} dispatches: {:?}",
        report.kernels.len(),
        report.kernels
    );
    assert!(report.kernels.len() < 18, "{:?}", report.kernels);
    assert_near(&read(&packed), &read(&unpacked));
}

/// Updates of parameters of one size and other shapes (`[8, 32]`, `[32, 8]`, `[256]`; `[3,
/// 11]` and `[11, 3]`, no whole number of vectors) share kernels, each computed at its
/// element's place in its own shape: the `[32, 8]` parameter's gradient is a transposed
/// `[8, 32]` buffer, which an index of the group's shape would read wrongly.
#[test]
fn updates_of_one_size_in_other_shapes_equal_one_kernel_each() {
    let shapes: [&[usize]; 5] = [&[8, 32], &[32, 8], &[256], &[3, 11], &[11, 3]];
    let transposed = Lazy::from_slice(&[8, 32], &values(9, 4, 256))
        .unwrap()
        .permute(&[1, 0])
        .unwrap();
    let mut unpacked = state_of(&shapes);
    unpacked.grads[1] = transposed.clone();
    unpacked_step(&mut unpacked, 0.05);
    let mut packed = state_of(&shapes);
    packed.grads[1] = transposed;
    let new = packed_step(&packed, 0.05);
    let report = realize_report(&new.iter().collect::<Vec<_>>(), false).unwrap();
    // m, v and p of five parameters, packed by size (256 and 33)
    assert_eq!(report.kernels.len(), 2, "{:?}", report.kernels);
    assert_near(&read(&packed), &read(&unpacked));
}

#[test]
fn a_replayed_packed_step_updates_every_parameter() {
    let mut unpacked = state();
    let packed = state();
    let (_, rec) = record(&[&packed.grads[0]], || Ok(packed_step(&packed, 0.05))).unwrap();
    assert!(rec.kernels() < 18, "{} kernels", rec.kernels());
    unpacked_step(&mut unpacked, 0.05);
    for lr in [0.01f32, 0.2, 0.07] {
        rec.replay_with(&[&packed.grads[0]], &[(7, Scalar::Float(lr as f64))])
            .unwrap();
        unpacked_step(&mut unpacked, lr);
    }
    assert_near(&read(&packed), &read(&unpacked));
}

/// A reduction read by two kernels with the elementwise kernel reading it packed into its
/// own (`1 / sqrt(var + eps)` beside the variance): two dispatches, every value as the host
/// computes it, for rows not a whole number of vectors too.
#[test]
fn a_reduction_and_its_elementwise_reader_in_one_kernel_equal_the_host() {
    // (rows of 64 are one row kernel, below)
    for (rows, cols) in [(16usize, 32usize), (7, 33)] {
        let xs = values(0, 9, rows * cols);
        let x = Lazy::from_slice(&[rows, cols], &xs).unwrap();
        let (_, rstd, scaled) = norm_statistics(&x);
        x.realize().unwrap();
        let report = realize_report(&[&rstd, &scaled], false).unwrap();
        assert_eq!(report.kernels.len(), 2, "{:?}", report.kernels);
        let (got_rstd, got_scaled) = (
            rstd.to_vec::<f32>().unwrap(),
            scaled.to_vec::<f32>().unwrap(),
        );
        for r in 0..rows {
            let row = &xs[r * cols..(r + 1) * cols];
            let v: f64 = row.iter().map(|&a| f64::from(a) * f64::from(a)).sum();
            let want = 1.0 / (v + 1e-5).sqrt();
            assert!(
                (f64::from(got_rstd[r]) - want).abs() <= 1e-5 * want,
                "row {r}"
            );
            for (c, &a) in row.iter().enumerate() {
                let w = v * f64::from(a);
                let g = f64::from(got_scaled[r * cols + c]);
                assert!((g - w).abs() <= 1e-5 * w.abs().max(1.0), "({r}, {c})");
            }
        }
    }
}

/// Three products of one input (a query, key and value projection) in one kernel: every
/// value as the host computes it.
#[test]
fn products_sharing_a_kernel_equal_the_host() {
    let (m, k, n) = (16usize, 64usize, 64usize);
    let xs = values(1, 3, m * k);
    let x = Lazy::from_slice(&[m, k], &xs).unwrap();
    let ws: Vec<Vec<f32>> = (0..3).map(|i| values(2 + i, 5, k * n)).collect();
    let products: Vec<Lazy> = ws
        .iter()
        .map(|w| product(&x, &Lazy::from_slice(&[k, n], w).unwrap()))
        .collect();
    let report = realize_report(&products.iter().collect::<Vec<_>>(), false).unwrap();
    assert_eq!(report.kernels.len(), 1, "{:?}", report.kernels);
    for (w, p) in ws.iter().zip(&products) {
        let got = p.to_vec::<f32>().unwrap();
        for i in 0..m {
            for j in 0..n {
                let want: f64 = (0..k)
                    .map(|t| f64::from(xs[i * k + t]) * f64::from(w[t * n + j]))
                    .sum();
                let g = f64::from(got[i * n + j]);
                assert!((g - want).abs() <= 1e-5 * want.abs().max(1.0), "({i}, {j})");
            }
        }
    }
}

/// Gradients summed in the step (each a sum of 4 rows, `[1, n]` reshaped to the parameter's
/// shape) with the updates that read them: the updates wait behind all the sums
/// (`multi.rs`), so sums of one shape share a kernel, and a vector's updates join its sums'
/// (`[1, n]` and `[n]`: the same index); the values equal those of one kernel each.
#[test]
fn updates_after_their_summed_gradients_equal_one_kernel_each() {
    let summed = |s: &mut State| {
        for (i, g) in s.grads.iter_mut().enumerate() {
            let shape = g.shape().to_vec();
            let n: usize = shape.iter().product();
            let rows = Lazy::from_slice(&[4, n], &values(i, 6, 4 * n)).unwrap();
            *g = rows
                .reduce(ReduceOp::Add, &[0])
                .unwrap()
                .reshape(&shape)
                .unwrap();
        }
    };
    let mut unpacked = state();
    summed(&mut unpacked);
    for g in &unpacked.grads {
        g.realize().unwrap();
    }
    unpacked_step(&mut unpacked, 0.05);
    let mut packed = state();
    summed(&mut packed);
    let new = packed_step(&packed, 0.05);
    let report = realize_report(&new.iter().collect::<Vec<_>>(), false).unwrap();
    // six sums of three shapes, and the updates of three shapes: a sum read by its update
    // right after it was a kernel of its own (nine dispatches). The vectors' updates join
    // their sums (`[1, 64]` with `[64]`, `[1, 33]` with `[33]`); the matrices' sums are
    // `[1, 256]`, another order of elements than `[16, 16]`: four
    assert_eq!(report.kernels.len(), 4, "{:?}", report.kernels);
    assert_near(&read(&packed), &read(&unpacked));
}

/// A weight's gradient as autograd sums it over a product's broadcast batch axis,
/// `[1, 64, 64]` (a tiled reduction), and Adam's update of the `[64, 64]` weight reading it:
/// each weight's update joins its gradient's kernel (the two gradients share no operand, so
/// they are two kernels: `shares_loads`), and the values equal one kernel each.
#[test]
fn updates_in_their_tiled_gradients_kernel_equal_one_kernel_each() {
    let shapes: [&[usize]; 2] = [&[64, 64], &[64, 64]];
    let (b, k, n) = (16usize, 64usize, 64usize);
    let weight_grads = |s: &mut State| {
        for (i, g) in s.grads.iter_mut().enumerate() {
            let x = Lazy::from_slice(&[b, k, 1], &values(i, 7, b * k)).unwrap();
            let dy = Lazy::from_slice(&[b, 1, n], &values(i, 8, b * n)).unwrap();
            let products = x
                .expand(&[b, k, n])
                .unwrap()
                .binary(BinaryOp::Mul, &dy.expand(&[b, k, n]).unwrap())
                .unwrap();
            *g = products
                .reduce(ReduceOp::Add, &[0])
                .unwrap()
                .reshape(&[k, n])
                .unwrap();
        }
    };
    let mut unpacked = state_of(&shapes);
    weight_grads(&mut unpacked);
    for g in &unpacked.grads {
        g.realize().unwrap();
    }
    unpacked_step(&mut unpacked, 0.05);
    let mut packed = state_of(&shapes);
    weight_grads(&mut packed);
    let new = packed_step(&packed, 0.05);
    let report = realize_report(&new.iter().collect::<Vec<_>>(), false).unwrap();
    assert_eq!(
        report.kernels,
        ["Rtx4_1x64x64_float32", "Rtx4_1x64x64_float32"],
        "{:?}",
        report.kernels
    );
    assert_near(&read(&packed), &read(&unpacked));
}

/// A layer norm with its mean and reciprocal deviation kept, one row kernel writing all three
/// (`schedule/row_outputs.rs`): every value as the host computes it, over row counts and
/// lengths that give each way of running rows (a subgroup a row, several rows a workgroup;
/// a workgroup a row where rows are few and long; an invocation a row where they are many).
#[test]
fn a_row_kernel_writing_its_row_values_equals_the_host() {
    for (rows, cols) in [(16usize, 64usize), (3, 1024), (4096, 64), (5, 76)] {
        let xs: Vec<f32> = values(0, 11, rows * cols)
            .iter()
            .enumerate()
            .map(|(i, v)| v + (i / cols % 7) as f32 * 0.25)
            .collect();
        let x = Lazy::from_slice(&[rows, cols], &xs).unwrap();
        x.realize().unwrap();
        let (mean, rstd, normalized) = layer_norm(&x);
        let report = realize_report(&[&mean, &rstd, &normalized], false).unwrap();
        assert_eq!(
            report.kernels.len(),
            1,
            "{rows}x{cols}: {:?}",
            report.kernels
        );
        let (got_mean, got_rstd, got) = (
            mean.to_vec::<f32>().unwrap(),
            rstd.to_vec::<f32>().unwrap(),
            normalized.to_vec::<f32>().unwrap(),
        );
        for r in 0..rows {
            let row: Vec<f64> = xs[r * cols..(r + 1) * cols]
                .iter()
                .map(|&a| f64::from(a))
                .collect();
            let m = row.iter().sum::<f64>() / cols as f64;
            let v = row.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / cols as f64;
            let s = 1.0 / (v + 1e-5).sqrt();
            let close =
                |got: f32, want: f64| (f64::from(got) - want).abs() <= 1e-4 * want.abs().max(1.0);
            assert!(
                close(got_mean[r], m),
                "{rows}x{cols} mean {r}: {} {m}",
                got_mean[r]
            );
            assert!(
                close(got_rstd[r], s),
                "{rows}x{cols} rstd {r}: {} {s}",
                got_rstd[r]
            );
            for (c, a) in row.iter().enumerate() {
                let want = (a - m) * s;
                assert!(
                    close(got[r * cols + c], want),
                    "{rows}x{cols} ({r}, {c}) {} {want} mean {} {m} rstd {} {s}",
                    got[r * cols + c],
                    got_mean[r],
                    got_rstd[r]
                );
            }
        }
    }
}

/// A log-softmax's row maxima and logsumexps, the softmax that reads them, and a loss summing
/// the logsumexps, dispatched between them: the loss moves after the row kernel, which
/// computes the maxima and logsumexps and writes them (`row_outputs.rs`). Every value as
/// the host computes it.
#[test]
fn a_kernel_moved_after_the_row_kernel_equals_the_host() {
    let (rows, cols) = (32usize, 76usize);
    let xs = values(3, 2, rows * cols);
    let x = Lazy::from_slice(&[rows, cols], &xs).unwrap();
    x.realize().unwrap();
    let (m, lse, loss, soft) = crate::graphs::softmax_and_loss(&x);
    let report = realize_report(&[&m, &lse, &loss, &soft], false).unwrap();
    assert_eq!(report.kernels.len(), 2, "{:?}", report.kernels);
    let (got_lse, got_loss, got) = (
        lse.to_vec::<f32>().unwrap(),
        loss.to_vec::<f32>().unwrap()[0],
        soft.to_vec::<f32>().unwrap(),
    );
    let mut total = 0.0;
    for r in 0..rows {
        let row: Vec<f64> = xs[r * cols..(r + 1) * cols]
            .iter()
            .map(|&a| f64::from(a))
            .collect();
        let want = row.iter().map(|a| a.exp()).sum::<f64>().ln();
        total += want;
        assert!(
            (f64::from(got_lse[r]) - want).abs() <= 1e-5 * want.abs().max(1.0),
            "row {r}"
        );
        for (c, a) in row.iter().enumerate() {
            let p = (a - want).exp();
            assert!(
                (f64::from(got[r * cols + c]) - p).abs() <= 1e-5,
                "({r}, {c})"
            );
        }
    }
    assert!((f64::from(got_loss) - total).abs() <= 1e-4 * total.abs().max(1.0));
}
