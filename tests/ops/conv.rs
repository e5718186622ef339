//! Convolutions against explicit loops in numpy with torch's semantics (fixtures/ops_conv.json,
//! made by scripts/gen_ops_conv.py), each case through every algorithm it lists (direct,
//! Winograd, IMAGE); the Winograd and IMAGE forms against the direct one on bigger inputs;
//! image_dot against dot; errors; the typed API; kernel counts.

use tg_test_support::fixture;
use tg_test_support::padding;

use fixture::{Case, arg, dtype, usizes};
use padding::padding;
use serde_json::Value;
use tg::prelude::*;
use tg::runtime::codegen::program::Strategy;

use crate::random;

fn algorithm(name: &str) -> ConvAlgorithm {
    match name {
        "direct" => ConvAlgorithm::Direct,
        "winograd" => ConvAlgorithm::Winograd,
        "image" => ConvAlgorithm::Image,
        a => panic!("unknown algorithm {a}"),
    }
}

fn options(c: &Case, alg: ConvAlgorithm) -> Conv {
    let mut o = Conv::new()
        .groups(arg(c, "groups").as_u64().expect("groups") as usize)
        .stride(usizes(arg(c, "stride")))
        .dilation(usizes(arg(c, "dilation")))
        .padding(padding(arg(c, "padding")))
        .algorithm(alg);
    if let Some(op) = arg(c, "output_padding").as_array() {
        o = o.output_padding(
            op.iter()
                .map(|v| v.as_u64().expect("size") as usize)
                .collect::<Vec<_>>(),
        );
    }
    if !arg(c, "acc").is_null() {
        o = o.acc(dtype(arg(c, "acc")));
    }
    o
}

/// Every case through every algorithm it lists, each with its tolerance.
#[test]
fn convolutions_match_reference() {
    let cases = fixture::load("ops_conv.json");
    let mut failures = Vec::new();
    let mut runs = 0;
    for c in &cases {
        let t = tg_test_support::inputs(c);
        let bias = if arg(c, "bias").as_bool().expect("bias") {
            t.get(2)
        } else {
            None
        };
        for alg in arg(c, "algorithms").as_array().expect("algorithms") {
            let name = alg.as_str().expect("algorithm");
            let o = options(c, algorithm(name));
            let got = match c.json["op"].as_str().expect("op") {
                "conv2d" => t[0].conv2d(&t[1], bias, &o),
                "conv_transpose2d" => t[0].conv_transpose2d(&t[1], bias, &o),
                op => panic!("unknown op {op}"),
            }
            .and_then(|y| then(c, &t[0], y));
            let (rtol, atol) = if name == "winograd" {
                let w = usizes_f(arg(c, "winograd_tol"));
                (w[0], w[1])
            } else {
                (c.rtol, c.atol)
            };
            runs += 1;
            let result = got
                .map_err(|e| e.to_string())
                .and_then(|g| fixture::compare(&g.into_lazy(), &c.out, rtol, atol));
            if let Err(e) = result {
                failures.push(format!("{} [{name}]: {e}", c.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What a case applies after its convolution (fused into its kernel): the input added back,
/// then a clip.
fn then(c: &Case, x: &DynTensor, y: DynTensor) -> tg::runtime::Result<DynTensor> {
    let y = if arg(c, "residual").as_bool() == Some(true) {
        y.add(x)?
    } else {
        y
    };
    match arg(c, "clip").as_array() {
        Some(b) => {
            let bound = |i: usize| Operand::from(b[i].as_f64().expect("a clip bound"));
            y.clip(Some(bound(0)), Some(bound(1)))
        }
        None => Ok(y),
    }
}

fn usizes_f(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|x| x.as_f64().expect("number"))
        .collect()
}

fn max_diff(a: &DynTensor, b: &DynTensor) -> f32 {
    assert_eq!(a.shape(), b.shape());
    let (a, b) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
    a.iter()
        .zip(&b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn kernels(t: &DynTensor) -> u64 {
    let before = tg::runtime::thread_stats().kernels;
    t.realize().unwrap();
    (tg::runtime::thread_stats().kernels - before) as u64
}

#[test]
fn winograd_and_image_agree_with_direct() {
    let x = random(&[2, 6, 13, 11], 1);
    let w = random(&[8, 3, 3, 3], 2);
    let b = random(&[8], 3);
    let conv = Conv::new().groups(2).padding(1);
    let direct = x.conv2d(&w, Some(&b), &conv).unwrap();
    // 11 output columns: the sum into 12, so it tiles, then the cut with the bias
    assert_eq!(
        kernels(&direct),
        2,
        "the direct form over a ragged row is a tiled reduction and its cut"
    );
    let whole = random(&[2, 6, 13, 12], 4)
        .conv2d(&w, Some(&b), &conv)
        .unwrap();
    assert_eq!(
        kernels(&whole),
        1,
        "the direct form over whole vectors is one fused reduction"
    );
    let wino = x.conv2d_winograd(&w, Some(&b), &conv).unwrap();
    assert!(
        kernels(&wino) >= 3,
        "the Winograd form stores its transforms"
    );
    let via_option = x
        .conv2d(
            &w,
            Some(&b),
            &conv.clone().algorithm(ConvAlgorithm::Winograd),
        )
        .unwrap();
    assert!(
        kernels(&via_option) >= 3,
        "the option takes the Winograd path"
    );
    let image = x
        .conv2d(&w, Some(&b), &conv.clone().algorithm(ConvAlgorithm::Image))
        .unwrap();
    // sums of 27 products of values in [-1, 1]
    assert!(
        max_diff(&direct, &wino) < 1e-4,
        "winograd differs by {}",
        max_diff(&direct, &wino)
    );
    assert!(max_diff(&direct, &via_option) < 1e-4);
    assert!(
        max_diff(&direct, &image) < 1e-5,
        "image differs by {}",
        max_diff(&direct, &image)
    );

    // 1-D and 3-D Winograd
    let x1 = random(&[1, 4, 17], 4);
    let w1 = random(&[3, 4, 3], 5);
    let d1 = x1
        .conv2d(
            &w1,
            None,
            &Conv::new().padding(Padding::Pairs(vec![(2, 0)])),
        )
        .unwrap();
    let p1 = x1
        .conv2d_winograd(
            &w1,
            None,
            &Conv::new().padding(Padding::Pairs(vec![(2, 0)])),
        )
        .unwrap();
    assert!(max_diff(&d1, &p1) < 1e-4);
    let x3 = random(&[1, 2, 6, 5, 7], 6);
    let w3 = random(&[2, 2, 3, 3, 3], 7);
    let d3 = x3.conv2d(&w3, None, &Conv::new()).unwrap();
    let p3 = x3.conv2d_winograd(&w3, None, &Conv::new()).unwrap();
    assert!(
        max_diff(&d3, &p3) < 1e-4,
        "3-D winograd differs by {}",
        max_diff(&d3, &p3)
    );
}

#[test]
fn options_that_winograd_and_image_cannot_take_compute_directly() {
    let x = random(&[1, 2, 7, 7], 8);
    let w = random(&[2, 2, 3, 3], 9);
    let strided = Conv::new().stride(2);
    let e = x.conv2d_winograd(&w, None, &strided).unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "conv2d_winograd", ref message } if message.contains("stride")),
        "{e:?}"
    );
    let direct = x.conv2d(&w, None, &strided).unwrap();
    let fallback = x
        .conv2d(
            &w,
            None,
            &strided.clone().algorithm(ConvAlgorithm::Winograd),
        )
        .unwrap();
    assert_eq!(kernels(&fallback), 1);
    assert_eq!(max_diff(&direct, &fallback), 0.0);
    let w5 = random(&[2, 2, 5, 5], 10);
    assert!(matches!(
        x.conv2d_winograd(&w5, None, &Conv::new()),
        Err(Error::Argument { op: "conv2d_winograd", ref message }) if message.contains("kernel")
    ));
    let x1 = random(&[1, 2, 9], 11);
    let e = x1
        .image_conv2d(&random(&[2, 2, 3], 12), None, &Conv::new())
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "image_conv2d", ref message } if message.contains("2-D")),
        "{e:?}"
    );
    let ints = DynTensor::ones(&[1, 1, 4, 4], DType::I32).unwrap();
    let e = ints
        .image_conv2d(
            &DynTensor::ones(&[1, 1, 3, 3], DType::I32).unwrap(),
            None,
            &Conv::new(),
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::DType {
                op: "image_conv2d",
                dtype: DType::I32,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn image_dot_equals_dot() {
    for (a, b) in [
        (vec![5, 7], vec![7, 6]),
        (vec![3, 2, 5], vec![5, 9]),
        (vec![2, 3, 4, 5], vec![3, 5, 2]),
        (vec![6], vec![6, 3]),
        (vec![1, 8], vec![8, 1]),
    ] {
        let (x, w) = (random(&a, 13), random(&b, 14));
        let want = x.dot(&w, None).unwrap();
        let got = x.image_dot(&w, None).unwrap();
        assert_eq!(got.shape(), want.shape(), "{a:?} @ {b:?}");
        assert!(max_diff(&got, &want) < 1e-5, "{a:?} @ {b:?}");
    }
    let e = random(&[2, 3], 1)
        .image_dot(&random(&[4, 3, 2], 2), None)
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "image_dot", ref message } if message.contains("[4]")),
        "{e:?}"
    );
}

#[test]
fn conv_errors_name_the_op_and_shapes() {
    let x = DynTensor::zeros(&[1, 4, 5, 5], DType::F32).unwrap();
    let w = |shape: &[usize]| DynTensor::zeros(shape, DType::F32).unwrap();
    let conv = |weight: &[usize], bias: Option<&[usize]>, c: &Conv| {
        x.conv2d(&w(weight), bias.map(w).as_ref(), c)
            .expect_err("should fail")
    };
    let e = conv(&[2, 3, 3, 3], None, &Conv::new());
    assert!(matches!(e, Error::Shape { op: "conv2d", .. }));
    assert_eq!(
        e.to_string(),
        "conv2d: the input [1, 4, 5, 5] has 4 channels (axis 1), the weight [2, 3, 3, 3] takes 3 x 1 group(s) = 3"
    );
    let e = conv(&[3, 2, 3, 3], None, &Conv::new().groups(2));
    assert!(
        matches!(e, Error::Shape { op: "conv2d", ref message } if message.contains("3 output channels do not split into 2 groups"))
    );
    let e = conv(&[2, 4, 3, 3], Some(&[3]), &Conv::new());
    assert!(
        matches!(e, Error::Shape { op: "conv2d", ref message } if message.contains("bias has 3 values for 2"))
    );
    let e = conv(&[2, 4, 6, 3], None, &Conv::new());
    assert!(
        matches!(e, Error::Shape { op: "conv2d", ref message } if message.contains("axis 2 of size 5"))
    );
    let e = conv(&[2, 4, 3], None, &Conv::new());
    assert!(
        matches!(e, Error::Shape { op: "conv2d", ref message } if message.contains("one rank"))
    );
    let e = conv(
        &[2, 4, 3, 3],
        None,
        &Conv::new().padding(Padding::PerAxis(vec![1, 1, 1])),
    );
    assert!(
        matches!(e, Error::Argument { op: "conv2d", ref message } if message.contains("2 spatial axes"))
    );
    let e = conv(&[2, 4, 3, 3], None, &Conv::new().groups(0));
    assert!(matches!(e, Error::Argument { op: "conv2d", .. }));
    let e = x
        .conv_transpose2d(&w(&[3, 2, 3, 3]), None, &Conv::new())
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "conv_transpose2d", ref message } if message.contains("4 input channels"))
    );
}

#[test]
fn typed_convs_tie_channels_and_check_sizes() {
    use tg::typed::conv::{conv_out_size, conv_transpose_out_size};
    let x = Tensor::<Rank4<2, 3, 8, 8>>::from_slice(&[0.5; 384]).unwrap();
    let w = Tensor::<Rank4<4, 3, 3, 3>>::from_slice(&[1.0; 108]).unwrap();
    let b = Tensor::<Rank1<4>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    const O: usize = conv_out_size(8, 3, 2, 1, 1, 1);
    let y: Tensor<Rank4<2, 4, O, O>> = x.conv2d(&w, Some(&b), &Conv::new().stride(2).padding(1));
    assert_eq!(y.to_vec().unwrap()[O + 1], 13.5 + 1.0); // an inner window: 27 * 0.5 plus bias
    let wy: Tensor<Rank4<2, 4, 8, 8>> = x.conv2d(
        &w,
        Some(&b),
        &Conv::new().padding(1).algorithm(ConvAlgorithm::Winograd),
    );
    assert!((wy.to_vec().unwrap()[9] - 14.5).abs() < 1e-4);
    // i8 convolutions sum to i32
    let xi = Tensor::<Rank3<1, 1, 4>, i8>::from_slice(&[100, 100, 100, 100]).unwrap();
    let wi = Tensor::<Rank3<1, 1, 2>, i8>::from_slice(&[1, 1]).unwrap();
    let yi: Tensor<Rank3<1, 1, 3>, i32> = xi.conv2d(&wi, None, &Conv::new());
    assert_eq!(yi.to_vec().unwrap(), vec![200, 200, 200]);
    // transposed
    const T: usize = conv_transpose_out_size(8, 3, 2, 1, 1, 1, 1);
    let wt = Tensor::<Rank4<3, 2, 3, 3>>::from_slice(&[1.0; 54]).unwrap();
    let yt: Tensor<Rank4<2, 2, T, T>> = x.conv_transpose2d(
        &wt,
        None,
        &Conv::new().stride(2).padding(1).output_padding(1),
    );
    assert_eq!(yt.dims(), vec![2, 2, 16, 16]);
    // dynamic spatial sizes: the run checks them
    let yd: Tensor<(Const<2>, Const<4>, usize, usize)> =
        x.conv2d(&w, None, &Conv::new().dilation(3));
    assert_eq!(yd.dims(), vec![2, 4, 2, 2]);
    let bad = x.try_conv2d::<Rank4<2, 4, 5, 5>, _, _>(&w, None, &Conv::new());
    assert!(matches!(
        bad,
        Err(Error::Shape { op: "Tensor::from_dyn", ref message }) if message.contains("does not fit")
    ));
    let acc = x.try_conv2d::<Rank4<2, 4, 6, 6>, _, _>(&w, None, &Conv::new().acc(DType::F64));
    assert!(matches!(
        acc,
        Err(Error::DType {
            op: "conv2d",
            dtype: DType::F64,
            ..
        })
    ));
    // image_dot through the typed API
    let a = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let m = Tensor::<Rank2<3, 2>>::from_slice(&[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]).unwrap();
    let p: Tensor<Rank2<2, 2>> = a.image_dot(&m);
    assert_eq!(p.to_vec().unwrap(), vec![4.0, 5.0, 10.0, 11.0]);
}

/// A direct convolution is a reduction whose outputs share inputs along two axes: the input
/// pixels along the output channels, the weights along the pixels. Register blocking takes its
/// rows along the output channels, and each loop iteration folds 4 steps of the reduction
/// (channels x 3 x 3: its last axis is not a multiple of 4, but the trip is): per row one
/// vector of 4 weights (contiguous along the reduction), per step the 4 pixels of each vector
/// of columns, so `rows` rows of `cols` vectors load `rows + 16 * cols` values for
/// `rows * cols * 64` multiply-adds (along the image rows they would load 16 pixels a step for
/// each row), and the result stays right. A padded input read often enough (here
/// 302M reads) is copied once, so those loads check no bounds.
#[test]
fn direct_convolution_tiles_along_output_channels() {
    let info = tg::runtime::device::Device::get().unwrap().info().clone();
    let direct = Conv::new().padding(1).algorithm(ConvAlgorithm::Direct);
    let x = random(&[2, 16, 16, 16], 11);
    let w = random(&[16, 16, 3, 3], 12);
    let y = x.conv2d(&w, None, &direct).unwrap();
    let planned = tg::runtime::realize::plan(&[y.lazy()], &info).unwrap();
    assert_eq!(planned.len(), 1, "{planned:?}");
    let Strategy::Tile { rows, cols, .. } = planned[0].strategy else {
        panic!("not a tile: {planned:?}");
    };
    assert_eq!(planned[0].loads, rows + 16 * cols, "{}", planned[0].source);
    let image = x
        .conv2d(
            &w,
            None,
            &Conv::new().padding(1).algorithm(ConvAlgorithm::Image),
        )
        .unwrap();
    assert!(max_diff(&y, &image) < 1e-4);
    // 8 x 32 x 64 x 64 outputs, each reading 288 padded input values
    let x = random(&[8, 32, 64, 64], 13);
    let w = random(&[32, 32, 3, 3], 14);
    let planned =
        tg::runtime::realize::plan(&[x.conv2d(&w, None, &direct).unwrap().lazy()], &info).unwrap();
    assert_eq!(planned.len(), 2, "{planned:?}");
    // a CPU's tiles take 32 rows of 4 vectors of this many outputs, a GPU's 4 rows of one:
    // a weight vector per row and 4 pixels per step for each of a row's vectors
    let Strategy::Tile { rows, cols, .. } = planned[1].strategy else {
        panic!("not a tile: {planned:?}");
    };
    assert_eq!(planned[1].loads, rows + 16 * cols, "{}", planned[1].source);
    assert!(!planned[1].source.contains(" ? "), "{}", planned[1].source);
}

/// A pointwise convolution over a 6 x 6 image, its clip and the input added back are one
/// kernel, tiled along the output channels over the image flattened (36 columns, whole
/// vectors; the rows of 6 are not), on both device classes; its values are the fixtures'
/// `pointwise_6x6_clip` and `pointwise_6x6_residual`.
#[test]
fn a_pointwise_convolution_and_what_follows_tile_over_the_flattened_image() {
    let x = random(&[1, 64, 6, 6], 16);
    let w = random(&[96, 64, 1, 1], 17);
    let b = random(&[96], 18);
    let skip = random(&[1, 96, 6, 6], 19);
    let y = x
        .conv2d(&w, Some(&b), &Conv::new())
        .unwrap()
        .add(&skip)
        .unwrap()
        .clip(Some(0.0.into()), Some(6.0.into()))
        .unwrap();
    for info in [fixture::described::lavapipe(), fixture::described::gpu()] {
        let planned = tg::runtime::realize::plan(&[y.lazy()], &info).unwrap();
        assert_eq!(planned.len(), 1, "{planned:?}");
        let k = &planned[0].kernel;
        assert!(
            matches!(k.strategy, Strategy::Tile { .. }),
            "{}: not a tile: {:?}",
            info.name,
            k.strategy
        );
        assert_eq!(k.root.shape(), [1, 96, 6, 6]);
        assert_eq!(k.body.shape(), [1, 96, 36]);
    }
}

/// Columns computed past a direct convolution's last output axis (whole vectors for the
/// tiles) are left out where the wider output would pass the 2^31 - 1 elements kernels
/// index: 4.5M x 64 x 7 outputs fit, 4.5M x 64 x 8 do not, so the convolution is planned at
/// its own width (one kernel) instead of failing for columns it never asked for.
#[test]
fn columns_for_tiles_stay_within_the_element_limit() {
    let info = tg::runtime::device::Device::get().unwrap().info().clone();
    let direct = Conv::new().algorithm(ConvAlgorithm::Direct);
    let w = random(&[64, 1, 16], 15);
    let plan = |bs: usize| {
        let x = DynTensor::ones(&[bs, 1, 22], DType::F32).unwrap();
        let y = x.conv2d(&w, None, &direct).unwrap();
        assert_eq!(y.shape(), [bs, 64, 7]);
        tg::runtime::realize::plan(&[y.lazy()], &info)
    };
    // small: widened to 8 columns, computed and cut (2 kernels)
    assert_eq!(plan(16).unwrap().len(), 2);
    let planned = plan(4_500_000).unwrap();
    assert_eq!(planned.len(), 1, "{planned:?}");
}
