//! Losses against torch's definitions written out in numpy (fixtures/ops_loss.json, made by
//! scripts/gen_ops_loss_linalg.py), error messages, and the typed API's output types.

use tg_test_support::fixture;

use fixture::{Case, arg};
use tg::prelude::*;
use tg::runtime::Lazy;
use tg_ops::untyped::loss::Reduction;

fn reduction(c: &Case) -> Reduction {
    match arg(c, "reduction").as_str().expect("reduction") {
        "none" => Reduction::None,
        "sum" => Reduction::Sum,
        "mean" => Reduction::Mean,
        r => panic!("unknown reduction {r}"),
    }
}

fn loss(c: &Case) -> std::result::Result<Vec<Lazy>, String> {
    let t = tg_test_support::inputs(c);
    let r = reduction(c);
    let ignore = arg(c, "ignore_index").as_i64();
    let smoothing = arg(c, "label_smoothing").as_f64().unwrap_or(0.0);
    let out = match c.json["op"].as_str().expect("op") {
        "binary_crossentropy" => t[0].binary_crossentropy(&t[1], r),
        "binary_crossentropy_logits" => t[0].binary_crossentropy_logits(&t[1], r, t.get(2)),
        "sparse_categorical_crossentropy" => {
            t[0].sparse_categorical_crossentropy(&t[1], ignore, smoothing, r)
        }
        "cross_entropy" => t[0].cross_entropy(&t[1], r, smoothing),
        "nll_loss" => t[0].nll_loss(&t[1], t.get(2), ignore, r),
        op => panic!("unknown op {op}"),
    };
    out.map(|o| vec![o.into_lazy()]).map_err(|e| e.to_string())
}

#[test]
fn losses_match_torch_definitions() {
    fixture::run_all_multi("ops_loss.json", loss);
}

#[test]
fn loss_errors_name_the_op_and_shapes() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let labels = DynTensor::zeros(&[2], DType::I32).unwrap();
    let shape = |e: Error, op: &str, needle: &str| matches!(&e, Error::Shape { op: o, message } if *o == op && message.contains(needle));
    const SCCE: &str = "sparse_categorical_crossentropy";
    let three = DynTensor::zeros(&[3], DType::I32).unwrap();
    let e = x
        .sparse_categorical_crossentropy(&three, None, 0.0, Reduction::Mean)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "sparse_categorical_crossentropy: labels [3] must have the logits' shape [2, 3] without its last (class) axis"
    );
    assert!(shape(e, SCCE, "[2, 3]"));
    let e = x.sparse_categorical_crossentropy(&labels.cast(DType::F32), None, 0.0, Reduction::Mean);
    assert!(matches!(
        e,
        Err(Error::DType {
            op: SCCE,
            dtype: DType::F32,
            ..
        })
    ));
    let e = x
        .sparse_categorical_crossentropy(&labels, None, 1.5, Reduction::Mean)
        .unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: SCCE, ref message } if message.contains("1.5")),
        "{e:?}"
    );
    let e = x.cross_entropy(&three, Reduction::Sum, 0.0).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Broadcast {
                op: "cross_entropy",
                ..
            }
        ) || shape(e, "cross_entropy", "[3]")
    );
    let e = DynTensor::zeros(&[], DType::F32)
        .unwrap()
        .cross_entropy(&labels, Reduction::Sum, 0.0)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::RankTooLow {
                op: "cross_entropy",
                min: 1,
                ..
            }
        ),
        "{e:?}"
    );
    let e = DynTensor::zeros(&[3], DType::F32)
        .unwrap()
        .nll_loss(&labels, None, None, Reduction::Sum)
        .unwrap_err();
    assert!(shape(e, "nll_loss", "(N, C, ...)"));
    let w = DynTensor::zeros(&[2], DType::F32).unwrap();
    let e = x
        .nll_loss(&labels, Some(&w), None, Reduction::Sum)
        .unwrap_err();
    assert!(shape(e, "nll_loss", "weight"));
    let e = x
        .binary_crossentropy(&DynTensor::zeros(&[4], DType::F32).unwrap(), Reduction::Sum)
        .unwrap_err();
    assert!(
        matches!(e, Error::Broadcast { op: "binary_crossentropy", ref lhs, ref rhs } if lhs == &[2, 3] && rhs == &[4]),
        "{e:?}"
    );
}

#[test]
fn typed_losses_compute_shapes_and_dtypes() {
    use tg_ops::typed::loss::{Mean, Sum, Unreduced};
    let logits = Tensor::<Rank2<2, 3>, f16>::from_slice(&[f16::ZERO; 6]).unwrap();
    let labels = Tensor::<Rank1<2>, i64>::from_slice(&[0, 2]).unwrap();
    // integer labels: tinygrad's one-hot targets are f32, so is the loss
    let ce: Tensor<(), f32> = logits.cross_entropy(&labels, Mean, 0.1);
    assert!((ce.item().unwrap() - 3f32.ln()).abs() < 1e-3);
    let each: Tensor<Rank1<2>, f16> =
        logits.sparse_categorical_crossentropy(&labels, None, 0.0, Unreduced);
    assert_eq!(each.dims(), vec![2]);
    let probs = Tensor::<Rank2<2, 3>, f32>::from_slice(&[0.5, 0.25, 0.25, 0.0, 0.0, 1.0]).unwrap();
    let cp: Tensor<Rank1<2>, f32> = logits.cross_entropy_probs(&probs, Unreduced, 0.0);
    assert_eq!(cp.dims(), vec![2]);
    // a vector of logits: classes on axis 0, one label
    let v = Tensor::<Rank1<4>>::from_slice(&[0.0; 4]).unwrap();
    let one = Tensor::<(), i32>::from_slice(&[3]).unwrap();
    let lv: Tensor<()> = v.cross_entropy(&one, Unreduced, 0.0);
    assert!((lv.item().unwrap() - 4f32.ln()).abs() < 1e-6);
    // (N, C, d) log-probabilities with a class weight, a dynamic batch
    let lp = Tensor::<shape![_, 3, 2]>::from_slice_shape((2, Const, Const), &[-1.0; 12]).unwrap();
    let y = Tensor::<shape![_, 2], i32>::from_slice_shape((2, Const), &[0, 1, 2, -1]).unwrap();
    let w = Tensor::<Rank1<3>>::from_slice(&[1.0, 2.0, 3.0]).unwrap();
    let nll: Tensor<shape![_, 2]> = lp.nll_loss_weighted(&y, &w, Some(-1), Unreduced);
    assert_eq!(nll.to_vec().unwrap(), vec![1.0, 2.0, 3.0, 0.0]);
    let total: Tensor<()> = lp.nll_loss(&y, Some(-1), Sum);
    assert_eq!(total.item().unwrap(), 3.0);
    // dynamic sizes that differ: the try_ form reports, the plain form would panic
    let short = Tensor::<shape![_, 2], i32>::from_slice_shape((1, Const), &[0, 1]).unwrap();
    assert!(lp.try_nll_loss(&short, None, Mean).is_err());
    let p = Tensor::<Rank2<1, 2>>::from_slice(&[0.25, 0.75]).unwrap();
    let t = Tensor::<Rank2<1, 2>, bool>::from_slice(&[false, true]).unwrap();
    let bce: Tensor<Rank2<1, 2>> = p.binary_crossentropy(&t, Unreduced);
    assert!((bce.to_vec().unwrap()[1] + 0.75f32.ln()).abs() < 1e-6);
    let pw = Tensor::<Rank1<2>>::from_slice(&[2.0, 2.0]).unwrap();
    let bl: Tensor<()> = p.binary_crossentropy_logits_weighted(&t, &pw, Sum);
    assert!(bl.item().unwrap() > 0.0);
    assert!(logits.try_cross_entropy(&labels, Mean, -0.5).is_err());
}
