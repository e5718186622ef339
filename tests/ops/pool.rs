//! Pooling against explicit loops in numpy with torch's semantics (fixtures/ops_pool.json, made
//! by scripts/gen_ops_conv.py), errors, the typed API, and fusion into one kernel per reduction.

use tg_test_support::fixture;
use tg_test_support::padding;

use fixture::{Case, arg, usizes};
use padding::padding;
use tg::prelude::*;
use tg::runtime::Lazy;

fn pool_options(c: &Case) -> Pool {
    let mut p = Pool::new(usizes(arg(c, "kernel")))
        .dilation(usizes(arg(c, "dilation")))
        .padding(padding(arg(c, "padding")))
        .ceil_mode(arg(c, "ceil_mode").as_bool().expect("ceil_mode"))
        .count_include_pad(
            arg(c, "count_include_pad")
                .as_bool()
                .expect("count_include_pad"),
        );
    if !arg(c, "stride").is_null() {
        p = p.stride(usizes(arg(c, "stride")));
    }
    p
}

fn run(c: &Case) -> Result<Vec<Lazy>, String> {
    let t = tg_test_support::inputs(c);
    let r = match c.json["op"].as_str().expect("op") {
        "pool" => t[0]
            .pool(
                &usizes(arg(c, "kernel")),
                usizes(arg(c, "stride")),
                usizes(arg(c, "dilation")),
            )
            .map(|x| vec![x]),
        "avg_pool2d" => t[0].avg_pool2d(&pool_options(c)).map(|x| vec![x]),
        "max_pool2d" => t[0].max_pool2d(&pool_options(c)).map(|x| vec![x]),
        "max_pool2d_with_indices" => t[0]
            .max_pool2d_with_indices(&pool_options(c))
            .map(|(v, i)| vec![v, i]),
        "max_unpool2d" => {
            let size = arg(c, "output_size");
            let size = (!size.is_null()).then(|| usizes(size));
            t[0].max_unpool2d(&t[1], &pool_options(c), size.as_deref())
                .map(|x| vec![x])
        }
        op => panic!("unknown op {op}"),
    };
    r.map(|v| v.into_iter().map(DynTensor::into_lazy).collect())
        .map_err(|e| e.to_string())
}

#[test]
fn pooling_matches_reference() {
    fixture::run_all_multi("ops_pool.json", run);
}

#[test]
fn pooling_errors_name_the_op_and_sizes() {
    let x = DynTensor::zeros(&[1, 1, 3, 3], DType::F32).unwrap();
    let e = x.max_pool2d(&Pool::new([4, 2])).unwrap_err();
    assert!(matches!(
        e,
        Error::Shape {
            op: "max_pool2d",
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "max_pool2d: the window of 4 (kernel 4, dilation 1) does not fit axis 2 of size 3 with padding (0, 0) (input [1, 1, 3, 3])"
    );
    let e = x
        .avg_pool2d(&Pool::new([2, 2]).stride([1, 1, 1]))
        .unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "avg_pool2d", ref message } if message.contains("stride"))
    );
    let e = x
        .avg_pool2d(&Pool::new([2, 2]).padding(Padding::Flat(vec![1, 1])))
        .unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "avg_pool2d", ref message } if message.contains("2 spatial axes need 4"))
    );
    let e = x.max_pool2d(&Pool::new([2, 2]).stride(0)).unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "max_pool2d", ref message } if message.contains("zero"))
    );
    let e = DynTensor::zeros(&[3], DType::F32)
        .unwrap()
        .pool(&[2, 2], 1, 1)
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "pool", ref message } if message.contains("too few axes"))
    );
    let (v, i) = x
        .max_pool2d_with_indices(&Pool::new([2, 2]).stride(1))
        .unwrap();
    let e = v
        .max_unpool2d(&i.reshape(&[1, 1, 4]).unwrap(), &Pool::new([2, 2]), None)
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "max_unpool2d", ref message } if message.contains("[1, 1, 4]"))
    );
    let e = v.max_unpool2d(&v, &Pool::new([2, 2]), None).unwrap_err();
    assert!(matches!(
        e,
        Error::DType {
            op: "max_unpool2d",
            dtype: DType::F32,
            ..
        }
    ));
}

#[test]
fn each_pool_is_one_kernel() {
    let x = DynTensor::from_slice(
        &[1, 2, 6, 6],
        &(0..72).map(|i| i as f32).collect::<Vec<_>>(),
    )
    .unwrap();
    x.realize().unwrap();
    let kernels = |t: DynTensor| {
        let before = tg::runtime::thread_stats().kernels;
        t.realize().unwrap();
        tg::runtime::thread_stats().kernels - before
    };
    assert_eq!(
        kernels(
            x.max_pool2d(&Pool::new([3, 3]).stride(2).padding(1))
                .unwrap()
        ),
        1
    );
    assert_eq!(kernels(x.avg_pool2d(&Pool::new([2, 2])).unwrap()), 1);
    assert_eq!(
        kernels(
            x.pool(&[3, 3], 1, 2)
                .unwrap()
                .sum(Some(&[-1, -2]), false)
                .unwrap()
        ),
        1
    );
}

#[test]
fn typed_pools_check_rank_and_sizes() {
    let x = Tensor::<Rank4<1, 1, 4, 4>, i8>::from_slice(
        &(0..16).map(|i| i as i8 - 8).collect::<Vec<_>>(),
    )
    .unwrap();
    let m: Tensor<Rank4<1, 1, 2, 2>, i8> = x.max_pool2d(&Pool::new([2, 2]));
    assert_eq!(m.to_vec().unwrap(), vec![-3, -1, 5, 7]);
    let a: Tensor<Rank4<1, 1, 2, 2>, f32> = x.avg_pool2d(&Pool::new([2, 2]));
    assert_eq!(a.to_vec().unwrap(), vec![-5.5, -3.5, 2.5, 4.5]);
    let (v, i) = x.max_pool2d_with_indices::<Rank4<1, 1, 2, 2>>(&Pool::new([2, 2]));
    assert_eq!(i.to_vec().unwrap(), vec![5, 7, 13, 15]);
    let u: Tensor<Rank4<1, 1, 4, 4>, i32> = v.max_unpool2d(&i, &Pool::new([2, 2]));
    assert_eq!(u.to_vec().unwrap()[5], -3);
    // a dynamic output dim takes whatever the pool gives
    let d: Tensor<(Const<1>, Const<1>, usize, usize), i8> =
        x.max_pool2d(&Pool::new([3, 3]).stride(1));
    assert_eq!(d.dims(), vec![1, 1, 2, 2]);
    // a static output dim the options do not give is a run-time error
    let bad = x.try_max_pool2d::<Rank4<1, 1, 3, 3>>(&Pool::new([2, 2]));
    assert!(matches!(
        bad,
        Err(Error::Shape { op: "Tensor::from_dyn", ref message }) if message.contains("does not fit")
    ));
    // dynamic input sizes
    let dy = Tensor::<(usize, usize)>::from_slice_shape((2, 6), &[1.0; 12]).unwrap();
    let p: Tensor<(usize, usize)> = dy.avg_pool2d(&Pool::new([3]).ceil_mode(true).stride(4));
    assert_eq!(p.to_vec().unwrap(), vec![1.0, 1.0, 1.0, 1.0]);
    assert!(
        dy.try_max_pool2d::<(usize, usize)>(&Pool::new([7]))
            .is_err()
    );
}

#[test]
fn out_size_helper_matches_the_ops() {
    use tg::typed::pool::pool_out_size;
    let x = DynTensor::zeros(&[1, 1, 9, 10], DType::F32).unwrap();
    for (k, s, d, p, ceil) in [
        (3, 2, 1, 1, false),
        (3, 2, 1, 1, true),
        (2, 2, 1, 1, true),
        (2, 3, 2, 0, true),
        (4, 3, 1, 2, false),
    ] {
        let y = x
            .max_pool2d(
                &Pool::new([k, k])
                    .stride(s)
                    .dilation(d)
                    .padding(p)
                    .ceil_mode(ceil),
            )
            .unwrap();
        let want = [
            pool_out_size(9, k, s, d, p as isize, p as isize, ceil),
            pool_out_size(10, k, s, d, p as isize, p as isize, ceil),
        ];
        assert_eq!(&y.shape()[2..], want, "k {k} s {s} d {d} p {p} ceil {ceil}");
    }
}
