//! Gradients of composed ops against central finite differences, in f64 on the device.
//!
//! Each op `f` is reduced to a scalar `L = sum(f(x) * r)` with fixed pseudo-random `r` (so
//! every output element matters with its own weight), and the gradient `dL/dx` that autograd
//! gives is checked along four pseudo-random directions `d` per input:
//! `<dL/dx, d> == (L(x + h d) - L(x - h d)) / 2h`. Directional checks cover every element at
//! once with six forward passes per op instead of two per element.

use tg::prelude::*;
use tg::untyped::loss::Reduction;

/// Deterministic values in `[lo, hi)`.
fn values(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    (0..n as u64)
        .map(|i| {
            let h = (i.wrapping_mul(2_654_435_761) ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let u = (h >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * u
        })
        .collect()
}

fn f64_tensor(shape: &[usize], v: &[f64]) -> DynTensor {
    DynTensor::from_slice(shape, v).unwrap()
}

/// `sum(f(x) * r)` as an f64 on the host.
fn loss_of(f: &dyn Fn(&[DynTensor]) -> DynTensor, xs: &[DynTensor], seed: u64) -> (DynTensor, f64) {
    let y = f(xs);
    let r = f64_tensor(y.shape(), &values(y.numel(), seed, -1.0, 1.0));
    let l = y.mul(&r).unwrap().sum(None, false).unwrap();
    let v = l.to_vec::<f64>().unwrap()[0];
    (l, v)
}

/// Checks `f`'s gradient with respect to every input (shape, value range) along four
/// directions each; `rtol` allows for ops whose central difference is rougher (kinks).
fn check(name: &str, inputs: &[(&[usize], (f64, f64))], f: impl Fn(&[DynTensor]) -> DynTensor) {
    const H: f64 = 1e-6;
    let seed = name
        .bytes()
        .fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
    let xs: Vec<DynTensor> = inputs
        .iter()
        .enumerate()
        .map(|(i, (shape, (lo, hi)))| {
            let n = shape.iter().product();
            // tracked: the forward pass is realized before the gradient is taken
            f64_tensor(shape, &values(n, seed.wrapping_add(i as u64), *lo, *hi)).requires_grad()
        })
        .collect();
    let (l, _) = loss_of(&f, &xs, seed ^ 0xABCD);
    let refs: Vec<&DynTensor> = xs.iter().collect();
    let grads = l.gradient(&refs, None).unwrap();
    for (i, x) in xs.iter().enumerate() {
        let g = grads[i].to_vec::<f64>().unwrap();
        let base = x.to_vec::<f64>().unwrap();
        for dir in 0..4u64 {
            let dir_seed = seed.wrapping_mul(7).wrapping_add(dir * 101 + i as u64);
            let d = values(base.len(), dir_seed, -1.0, 1.0);
            let moved = |s: f64| {
                let mut ys = xs.clone();
                let v: Vec<f64> = base.iter().zip(&d).map(|(b, d)| b + s * H * d).collect();
                ys[i] = f64_tensor(x.shape(), &v);
                loss_of(&f, &ys, seed ^ 0xABCD).1
            };
            let numeric = (moved(1.0) - moved(-1.0)) / (2.0 * H);
            let analytic: f64 = g.iter().zip(&d).map(|(g, d)| g * d).sum();
            let tol = 1e-6 + 1e-5 * numeric.abs().max(analytic.abs());
            assert!(
                (numeric - analytic).abs() <= tol,
                "{name}: input {i} direction {dir}: autograd {analytic} vs central difference {numeric}"
            );
        }
    }
}

#[test]
fn softmax_family() {
    check("softmax", &[(&[3, 5], (-2.0, 2.0))], |x| {
        x[0].softmax(-1, None).unwrap()
    });
    check("softmax axis 0", &[(&[3, 5], (-2.0, 2.0))], |x| {
        x[0].softmax(0, None).unwrap()
    });
    check("log_softmax", &[(&[3, 5], (-2.0, 2.0))], |x| {
        x[0].log_softmax(-1, None).unwrap()
    });
    check("logsumexp", &[(&[4, 6], (-3.0, 3.0))], |x| {
        x[0].logsumexp(Some(&[1]), false).unwrap()
    });
}

#[test]
fn layernorm() {
    check("layernorm", &[(&[3, 7], (-2.0, 2.0))], |x| {
        x[0].layernorm(&[-1], 1e-5).unwrap()
    });
    check("layernorm two axes", &[(&[2, 3, 4], (-2.0, 2.0))], |x| {
        x[0].layernorm(&[1, 2], 1e-5).unwrap()
    });
}

#[test]
fn conv2d_with_stride_dilation_groups_padding() {
    let c = Conv::new().stride(2).padding(1).dilation(1).groups(2);
    check(
        "conv2d stride 2 padding 1 groups 2",
        &[
            (&[2, 4, 6, 5], (-1.0, 1.0)),
            (&[6, 2, 3, 3], (-1.0, 1.0)),
            (&[6], (-1.0, 1.0)),
        ],
        |x| x[0].conv2d(&x[1], Some(&x[2]), &c).unwrap(),
    );
    let d = Conv::new().dilation(2).padding(2);
    check(
        "conv2d dilation 2 padding 2",
        &[(&[1, 2, 5, 5], (-1.0, 1.0)), (&[3, 2, 3, 3], (-1.0, 1.0))],
        |x| x[0].conv2d(&x[1], None, &d).unwrap(),
    );
    let t = Conv::new().stride(2).padding(1).output_padding(1);
    check(
        "conv_transpose2d stride 2",
        &[(&[1, 2, 3, 3], (-1.0, 1.0)), (&[2, 3, 3, 3], (-1.0, 1.0))],
        |x| x[0].conv_transpose2d(&x[1], None, &t).unwrap(),
    );
}

#[test]
fn pooling() {
    // distinct values, away from ties, so max is differentiable at the point
    check("max_pool2d", &[(&[2, 2, 6, 6], (-3.0, 3.0))], |x| {
        x[0].max_pool2d(&Pool::new([2, 2])).unwrap()
    });
    check(
        "max_pool2d stride 1 padding 1",
        &[(&[1, 2, 5, 5], (-3.0, 3.0))],
        |x| {
            x[0].max_pool2d(&Pool::new([3, 3]).stride(1).padding(1))
                .unwrap()
        },
    );
    check("avg_pool2d", &[(&[2, 2, 6, 6], (-3.0, 3.0))], |x| {
        x[0].avg_pool2d(&Pool::new([3, 3]).stride(2).padding(1))
            .unwrap()
    });
    // overlapping windows differentiate by their own rule (one shifted view per tap): the
    // forms it takes, and a kernel past its tap limit, which keeps the ops' gradient
    let forms: [(&str, &[usize], Pool); 5] = [
        (
            "max 1-D, dilation 2, ceil mode",
            &[2, 3, 11],
            Pool::new([3]).stride(2).dilation(2).ceil_mode(true),
        ),
        (
            "max stride (1, 2), padding ((1, 0), (0, 1))",
            &[1, 2, 6, 7],
            Pool::new([2, 3])
                .stride([1, 2])
                .padding(vec![(1isize, 0isize), (0, 1)]),
        ),
        ("max 3-D", &[1, 1, 4, 5, 4], Pool::new([2, 2, 2]).stride(1)),
        (
            "avg without the padding counted",
            &[1, 2, 7, 7],
            Pool::new([3, 3])
                .stride(2)
                .padding(1)
                .count_include_pad(false),
        ),
        (
            "avg 9x9 over 10x10 (81 taps)",
            &[1, 1, 10, 10],
            Pool::new([9, 9]).stride(1),
        ),
    ];
    for (name, shape, p) in forms {
        let max = name.starts_with("max");
        check(name, &[(shape, (-3.0, 3.0))], |x| {
            if max {
                x[0].max_pool2d(&p).unwrap()
            } else {
                x[0].avg_pool2d(&p).unwrap()
            }
        });
    }
    // the windows themselves
    check("pool", &[(&[2, 7, 6], (-3.0, 3.0))], |x| {
        x[0].pool(&[3, 2], [2, 1], [1, 2]).unwrap()
    });
    // unpooling sums into positions (repeated, and one outside the output)
    let at =
        DynTensor::from_slice(&[1, 2, 2, 3], &[0i32, 5, 5, 11, 3, 2, 0, 0, 7, 9, 20, -1]).unwrap();
    check("max_unpool2d", &[(&[1, 2, 2, 3], (-1.0, 1.0))], |x| {
        x[0].max_unpool2d(&at, &Pool::new([2, 2]), None).unwrap()
    });
}

#[test]
fn gather_index_cumsum_sort() {
    let idx = DynTensor::from_slice(&[3, 4], &[0i32, 4, 2, 2, 1, 1, 3, 0, 4, 3, 2, 1]).unwrap();
    check("gather", &[(&[3, 5], (-1.0, 1.0))], |x| {
        x[0].gather(1, &idx).unwrap()
    });
    // tensor indices: non-adjacent axes, repeated, negative and out-of-range positions
    let rows = DynTensor::from_slice(&[2, 3], &[0i32, 2, 0, -1, 7, 1]).unwrap();
    let cols = DynTensor::from_slice(&[3], &[3i32, 0, 3]).unwrap();
    check("index by tensors", &[(&[3, 2, 4], (-1.0, 1.0))], |x| {
        x[0].index(&idx![&rows, .., &cols]).unwrap()
    });
    check("embedding", &[(&[5, 3], (-1.0, 1.0))], |x| {
        let mut e = tg::nn::Embedding::new(5, 3).unwrap();
        e.weight = x[0].clone();
        let ids = DynTensor::from_slice(&[2, 3], &[4i64, 0, 4, 9, 1, 4]).unwrap();
        e.forward(&ids).unwrap()
    });
    // the lookup fused into the matmul that reads it (the gather inside a reduction's loop)
    check(
        "embedding into a matmul",
        &[(&[5, 3], (-1.0, 1.0)), (&[3, 4], (-1.0, 1.0))],
        |x| {
            let mut e = tg::nn::Embedding::new(5, 3).unwrap();
            e.weight = x[0].clone();
            let ids = DynTensor::from_slice(&[2, 3], &[4i32, 0, 4, 2, 1, 4]).unwrap();
            e.forward(&ids).unwrap().matmul(&x[1]).unwrap()
        },
    );
    check("cumsum", &[(&[3, 6], (-1.0, 1.0))], |x| {
        x[0].cumsum(1).unwrap()
    });
    // long enough to split into chunks combined by logaddexp
    check(
        "logcumsumexp of a long row",
        &[(&[1, 600], (-3.0, 3.0))],
        |x| x[0].logcumsumexp(-1).unwrap(),
    );
    check("cumsum axis 0", &[(&[4, 3], (-1.0, 1.0))], |x| {
        x[0].cumsum(0).unwrap()
    });
    // running extremes of floats: a scan of order-preserving keys with a rule of its own
    check("cummax", &[(&[3, 7], (-2.0, 2.0))], |x| {
        x[0].cummax(1).unwrap().0
    });
    check("cummin axis 0", &[(&[6, 2], (-2.0, 2.0))], |x| {
        x[0].cummin(0).unwrap().0
    });
    check("sort values", &[(&[3, 8], (-4.0, 4.0))], |x| {
        x[0].sort(-1, false).unwrap().0
    });
    check("sort descending", &[(&[8, 2], (-4.0, 4.0))], |x| {
        x[0].sort(0, true).unwrap().0
    });
    // topk's partial network: blocks of 4, then a round that halves them
    check("topk", &[(&[2, 13], (-4.0, 4.0))], |x| {
        x[0].topk(3, -1, true).unwrap().0
    });
}

/// conv2d's own derivative rule (the input's gradient a transposed convolution, the weight's
/// written out over the windows) in every arrangement it takes, and a padding that cuts,
/// which keeps the gradient through the ops.
#[test]
fn conv_gradients_in_every_arrangement() {
    let cases: [(&str, Conv, &[usize], &[usize]); 6] = [
        (
            "1-D, stride 2, padding (1, 2)",
            Conv::new().stride(2).padding(vec![(1isize, 2isize)]),
            &[2, 3, 9],
            &[4, 3, 3],
        ),
        (
            "stride (1, 2), dilation (2, 1), padding ((0, 1), (2, 0))",
            Conv::new()
                .stride([1, 2])
                .dilation([2, 1])
                .padding(vec![(0isize, 1isize), (2, 0)]),
            &[1, 2, 7, 6],
            &[3, 2, 3, 2],
        ),
        (
            "depthwise, padding 1",
            Conv::new().groups(4).padding(1),
            &[1, 4, 6, 6],
            &[4, 1, 3, 3],
        ),
        (
            "stride past the kernel",
            Conv::new().stride(3),
            &[1, 2, 7, 7],
            &[3, 2, 2, 2],
        ),
        (
            "padding that cuts",
            Conv::new().padding(-1),
            &[1, 2, 7, 7],
            &[2, 2, 3, 3],
        ),
        (
            "3-D, stride 2, padding 1",
            Conv::new().stride(2).padding(1),
            &[1, 2, 4, 4, 4],
            &[2, 2, 2, 2, 2],
        ),
    ];
    for (name, c, x, w) in cases {
        check(name, &[(x, (-1.0, 1.0)), (w, (-1.0, 1.0))], |t| {
            t[0].conv2d(&t[1], None, &c).unwrap()
        });
    }
    // the same rule whatever algorithm computed the forward (with the bias through the ops)
    let winograd = Conv::new().padding(1).algorithm(ConvAlgorithm::Winograd);
    check(
        "Winograd, padding 1, bias",
        &[
            (&[2, 4, 6, 5], (-1.0, 1.0)),
            (&[4, 4, 3, 3], (-1.0, 1.0)),
            (&[4], (-1.0, 1.0)),
        ],
        |t| t[0].conv2d(&t[1], Some(&t[2]), &winograd).unwrap(),
    );
    // the IMAGE layout sums in f32, too rough for f64 differences: its gradients are the
    // direct form's (one rule), to the bit
    let x = f64_tensor(&[2, 4, 6, 5], &values(240, 7, -1.0, 1.0));
    let w = f64_tensor(&[4, 4, 3, 3], &values(144, 8, -1.0, 1.0));
    let g = f64_tensor(&[2, 4, 6, 5], &values(240, 9, -1.0, 1.0));
    let grads = |alg| {
        let c = Conv::new().padding(1).algorithm(alg);
        let y = x.conv2d(&w, None, &c).unwrap();
        let d = y.gradient(&[&x, &w], Some(&g)).unwrap();
        (d[0].to_vec::<f64>().unwrap(), d[1].to_vec::<f64>().unwrap())
    };
    assert_eq!(grads(ConvAlgorithm::Image), grads(ConvAlgorithm::Direct));
}

#[test]
fn matmul_with_broadcasting() {
    check(
        "matmul batch broadcast",
        &[(&[2, 1, 3, 4], (-1.0, 1.0)), (&[3, 4, 2], (-1.0, 1.0))],
        |x| x[0].matmul(&x[1]).unwrap(),
    );
    check(
        "matmul vector",
        &[(&[4], (-1.0, 1.0)), (&[2, 4, 3], (-1.0, 1.0))],
        |x| x[0].matmul(&x[1]).unwrap(),
    );
}

#[test]
fn losses() {
    let labels = DynTensor::from_slice(&[4], &[2i32, 0, 1, 2]).unwrap();
    check(
        "sparse_categorical_crossentropy",
        &[(&[4, 3], (-2.0, 2.0))],
        |x| {
            x[0].sparse_categorical_crossentropy(&labels, None, 0.1, Reduction::Mean)
                .unwrap()
        },
    );
    check(
        "cross_entropy with probabilities",
        &[(&[4, 3], (-2.0, 2.0)), (&[4, 3], (0.0, 1.0))],
        |x| x[0].cross_entropy(&x[1], Reduction::Sum, 0.0).unwrap(),
    );
    check("nll_loss", &[(&[4, 3], (-3.0, -0.1))], |x| {
        x[0].nll_loss(&labels, None, None, Reduction::Mean).unwrap()
    });
    check(
        "binary_crossentropy_logits",
        &[(&[5], (-3.0, 3.0)), (&[5], (0.0, 1.0))],
        |x| {
            x[0].binary_crossentropy_logits(&x[1], Reduction::Mean, None)
                .unwrap()
        },
    );
    check(
        "binary_crossentropy",
        &[(&[5], (0.1, 0.9)), (&[5], (0.0, 1.0))],
        |x| x[0].binary_crossentropy(&x[1], Reduction::Sum).unwrap(),
    );
}

#[test]
fn layers_compose() {
    // the layers of tg::nn, differentiated through their parameters' shapes
    check(
        "rmsnorm",
        &[(&[3, 6], (-2.0, 2.0)), (&[6], (0.5, 1.5))],
        |x| {
            let ms = x[0].square().unwrap().mean(Some(&[-1]), true).unwrap();
            x[0].mul(ms.add(1e-6).unwrap().rsqrt().unwrap())
                .unwrap()
                .mul(&x[1])
                .unwrap()
        },
    );
    check(
        "scaled_dot_product_attention causal",
        &[
            (&[2, 3, 4], (-1.0, 1.0)),
            (&[2, 3, 4], (-1.0, 1.0)),
            (&[2, 3, 2], (-1.0, 1.0)),
        ],
        |x| tg::nn::scaled_dot_product_attention(&x[0], &x[1], &x[2], None, 0.0, true).unwrap(),
    );
}

#[test]
#[should_panic(expected = "central difference")]
fn the_check_catches_a_wrong_gradient() {
    // autograd sees x * c with c = x detached (gradient x), the function is x^2 (2x)
    check("detached square", &[(&[4], (0.5, 2.0))], |x| {
        x[0].mul(x[0].detach()).unwrap()
    });
}

/// A running maximum shares each output's gradient equally among the elements up to it that
/// equal it, as the max reductions of tinygrad's composition do (torch gives it all to one).
#[test]
fn running_extremes_share_the_gradient_among_ties() {
    let xs = [1.0f32, 3.0, 3.0, 2.0, 3.0, 5.0, 5.0, 0.0, 5.0];
    let w: Vec<f32> = (1..=xs.len()).map(|v| v as f32).collect();
    let x = DynTensor::from_slice(&[xs.len()], &xs).unwrap();
    let seed = DynTensor::from_slice(&[xs.len()], &w).unwrap();
    for min in [false, true] {
        let (y, sign) = if min {
            (x.neg().unwrap().cummin(0).unwrap().0, -1.0f32)
        } else {
            (x.cummax(0).unwrap().0, 1.0)
        };
        let got = y
            .gradient(&[&x], Some(&seed))
            .unwrap()
            .remove(0)
            .to_vec::<f32>()
            .unwrap();
        let mut want = vec![0.0f32; xs.len()];
        for i in 0..xs.len() {
            let m = xs[..=i].iter().cloned().fold(f32::MIN, f32::max);
            let ties: Vec<usize> = (0..=i).filter(|&j| xs[j] == m).collect();
            for &j in &ties {
                want[j] += sign * w[i] / ties.len() as f32;
            }
        }
        for (j, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!((a - b).abs() < 1e-5, "min {min}: element {j}: {a} vs {b}");
        }
    }
}
