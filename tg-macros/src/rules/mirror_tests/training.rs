//! Mirror tests of the training rules (see the parent module): losses, batchnorm, the
//! transposed convolution, interpolation, max pooling with indices and max unpooling; and the
//! errors of bad inputs (the ui-tests `kernel_train_*` cases show them through rustc).

use proc_macro2::TokenStream;
use tg_ops::untyped::gather::Interpolation;
use tg_ops::untyped::loss::Reduction;
use tg_ops::{Conv, Padding, Pool};

use super::{check, check2};
use crate::dsl::parse::parse_expr;
use crate::kernel::infer::Ctx;
use crate::kernel::value::Val;
use crate::sym::Poly;
use tg_core::DType::{self as Dt, *};

#[test]
fn loss_rules_agree_with_tg_ops() {
    use Reduction::{Mean, None as Each, Sum};
    // binary cross-entropy: broadcast, float dtype met with the targets'
    check(
        "p.binary_crossentropy(y)",
        &[("p", &[4, 3], F32), ("y", &[4, 3], F32)],
        |t| t[0].binary_crossentropy(&t[1], Mean),
    );
    check(
        "p.binary_crossentropy(y, reduction = \"none\")",
        &[("p", &[4, 1], F16), ("y", &[3], F32)],
        |t| t[0].binary_crossentropy(&t[1], Each),
    );
    check(
        "p.binary_crossentropy(y, \"sum\")",
        &[("p", &[1], I32), ("y", &[2, 5], I8)],
        |t| t[0].binary_crossentropy(&t[1], Sum),
    );
    check(
        "p.binary_crossentropy(y = y, reduction = \"none\")",
        &[("p", &[2, 3], F16), ("y", &[2, 3], Bool)],
        |t| t[0].binary_crossentropy(&t[1], Each),
    );
    check(
        "p.binary_crossentropy(y)",
        &[("p", &[2, 3], F32), ("y", &[2, 4], F32)],
        |t| t[0].binary_crossentropy(&t[1], Mean),
    );
    check(
        "x.binary_crossentropy_logits(y)",
        &[("x", &[4, 3], F32), ("y", &[4, 3], F32)],
        |t| t[0].binary_crossentropy_logits(&t[1], Mean, None),
    );
    check(
        "x.binary_crossentropy_logits(y, \"none\", w)",
        &[("x", &[4, 3], F16), ("y", &[4, 3], F16), ("w", &[3], F64)],
        |t| t[0].binary_crossentropy_logits(&t[1], Each, Some(&t[2])),
    );
    check(
        "x.binary_crossentropy_logits(y, pos_weight = w, reduction = \"none\")",
        &[
            ("x", &[1, 3], F32),
            ("y", &[4, 1], U8),
            ("w", &[2, 1, 1], F32),
        ],
        |t| t[0].binary_crossentropy_logits(&t[1], Each, Some(&t[2])),
    );
    check(
        "x.binary_crossentropy_logits(y, pos_weight = w, reduction = \"sum\")",
        &[("x", &[4, 3], F32), ("y", &[4, 3], F32), ("w", &[2], F32)],
        |t| t[0].binary_crossentropy_logits(&t[1], Sum, Some(&t[2])),
    );
    // sparse categorical: classes on the last axis
    check(
        "x.sparse_categorical_crossentropy(y)",
        &[("x", &[4, 10], F32), ("y", &[4], I32)],
        |t| t[0].sparse_categorical_crossentropy(&t[1], None, 0.0, Mean),
    );
    check(
        "x.sparse_categorical_crossentropy(y, -100, 0.1, \"none\")",
        &[("x", &[2, 3, 5], F16), ("y", &[2, 3], I64)],
        |t| t[0].sparse_categorical_crossentropy(&t[1], Some(-100), 0.1, Each),
    );
    check(
        "x.sparse_categorical_crossentropy(y, ignore_index = 1, label_smoothing = 1.0, reduction = \"sum\")",
        &[("x", &[1], I32), ("y", &[], U8)],
        |t| t[0].sparse_categorical_crossentropy(&t[1], Some(1), 1.0, Sum),
    );
    check(
        "x.sparse_categorical_crossentropy(y)",
        &[("x", &[4, 10], F32), ("y", &[4], F32)],
        |t| t[0].sparse_categorical_crossentropy(&t[1], None, 0.0, Mean),
    );
    check(
        "x.sparse_categorical_crossentropy(y)",
        &[("x", &[4, 10], F32), ("y", &[4, 10], I32)],
        |t| t[0].sparse_categorical_crossentropy(&t[1], None, 0.0, Mean),
    );
    check(
        "x.sparse_categorical_crossentropy(y, label_smoothing = 1.5)",
        &[("x", &[4, 10], F32), ("y", &[4], I32)],
        |t| t[0].sparse_categorical_crossentropy(&t[1], None, 1.5, Mean),
    );
    // cross-entropy: classes on axis 1 (axis 0 of a 1-D input); labels or probabilities
    check(
        "x.cross_entropy(y)",
        &[("x", &[4, 10], F32), ("y", &[4], I32)],
        |t| t[0].cross_entropy(&t[1], Mean, 0.0),
    );
    check(
        "x.cross_entropy(y, label_smoothing = 0.2, reduction = \"none\")",
        &[("x", &[2, 5, 3, 3], F16), ("y", &[2, 3, 3], I16)],
        |t| t[0].cross_entropy(&t[1], Each, 0.2),
    );
    check(
        "x.cross_entropy(y, \"sum\", 0.0)",
        &[("x", &[7], F64), ("y", &[], I32)],
        |t| t[0].cross_entropy(&t[1], Sum, 0.0),
    );
    check(
        "x.cross_entropy(y, reduction = \"none\")",
        &[("x", &[4, 1], F16), ("y", &[4, 1], F16)],
        |t| t[0].cross_entropy(&t[1], Each, 0.0),
    );
    check(
        "x.cross_entropy(y, reduction = \"none\")",
        &[("x", &[4, 3], F16), ("y", &[4, 3], I32)],
        |t| t[0].cross_entropy(&t[1], Each, 0.0),
    );
    check(
        "x.cross_entropy(y)",
        &[("x", &[4, 3], I8), ("y", &[4, 3], F64)],
        |t| t[0].cross_entropy(&t[1], Mean, 0.0),
    );
    check(
        "x.cross_entropy(y)",
        &[("x", &[4, 3], F32), ("y", &[4, 5], F32)],
        |t| t[0].cross_entropy(&t[1], Mean, 0.0),
    );
    check(
        "x.cross_entropy(y)",
        &[("x", &[4, 3], F32), ("y", &[3], I32)],
        |t| t[0].cross_entropy(&t[1], Mean, 0.0),
    );
    check(
        "x.cross_entropy(y)",
        &[("x", &[4, 3], F32), ("y", &[4], F32)],
        |t| t[0].cross_entropy(&t[1], Mean, 0.0),
    );
    check(
        "x.cross_entropy(y)",
        &[("x", &[], F32), ("y", &[], I32)],
        |t| t[0].cross_entropy(&t[1], Mean, 0.0),
    );
    check(
        "x.cross_entropy(y, label_smoothing = -0.5)",
        &[("x", &[4, 3], F32), ("y", &[4], I32)],
        |t| t[0].cross_entropy(&t[1], Mean, -0.5),
    );
    // nll: log-probabilities (N, C, ...), weights per class
    check(
        "x.nll_loss(y)",
        &[("x", &[4, 10], F32), ("y", &[4], I32)],
        |t| t[0].nll_loss(&t[1], None, None, Mean),
    );
    check(
        "x.nll_loss(y, w, -1, \"none\")",
        &[
            ("x", &[2, 3, 4, 1], F16),
            ("y", &[2, 4, 1], I8),
            ("w", &[3], F32),
        ],
        |t| t[0].nll_loss(&t[1], Some(&t[2]), Some(-1), Each),
    );
    check(
        "x.nll_loss(y, weight = w, reduction = \"sum\")",
        &[("x", &[1, 1], F16), ("y", &[1], U8), ("w", &[1], F16)],
        |t| t[0].nll_loss(&t[1], Some(&t[2]), None, Sum),
    );
    check(
        "x.nll_loss(y, ignore_index = 0)",
        &[("x", &[3, 2], F16), ("y", &[3], I64)],
        |t| t[0].nll_loss(&t[1], None, Some(0), Mean),
    );
    check(
        "x.nll_loss(y, reduction = \"sum\")",
        &[("x", &[3, 2], I8), ("y", &[3], I16)],
        |t| t[0].nll_loss(&t[1], None, None, Sum),
    );
    check(
        "x.nll_loss(y, reduction = \"none\")",
        &[("x", &[3, 2], U8), ("y", &[3], I32)],
        |t| t[0].nll_loss(&t[1], None, None, Each),
    );
    check(
        "x.nll_loss(y)",
        &[("x", &[3, 2], I16), ("y", &[3], U8)],
        |t| t[0].nll_loss(&t[1], None, None, Mean),
    );
    check(
        "x.nll_loss(y, w)",
        &[("x", &[3, 2], F32), ("y", &[3], I32), ("w", &[3], F32)],
        |t| t[0].nll_loss(&t[1], Some(&t[2]), None, Mean),
    );
    check("x.nll_loss(y)", &[("x", &[3], F32), ("y", &[], I32)], |t| {
        t[0].nll_loss(&t[1], None, None, Mean)
    });
    check(
        "x.nll_loss(y)",
        &[("x", &[3, 2], F32), ("y", &[2], I32)],
        |t| t[0].nll_loss(&t[1], None, None, Mean),
    );
    check(
        "x.nll_loss(y)",
        &[("x", &[3, 2], F32), ("y", &[3], Bool)],
        |t| t[0].nll_loss(&t[1], None, None, Mean),
    );
}

#[test]
fn batchnorm_rule_agrees_with_tg_ops() {
    check(
        "x.batchnorm(m, v)",
        &[
            ("x", &[2, 3, 4, 4], F32),
            ("m", &[3], F32),
            ("v", &[3], F32),
        ],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1]),
    );
    check(
        "x.batchnorm(m, v, w, b)",
        &[
            ("x", &[2, 3, 4], F16),
            ("m", &[3], F16),
            ("v", &[3], F32),
            ("w", &[3], F16),
            ("b", &[3], F64),
        ],
        |t| t[0].batchnorm(Some(&t[3]), Some(&t[4]), &t[1], &t[2], &[1]),
    );
    check(
        "x.batchnorm(mean = m, invstd = v, bias = b, axis = [-1])",
        &[
            ("x", &[2, 5], I32),
            ("m", &[5], I32),
            ("v", &[5], I8),
            ("b", &[5], I32),
        ],
        |t| t[0].batchnorm(None, Some(&t[3]), &t[1], &t[2], &[-1]),
    );
    // the statistics are reshaped: only their count must match
    check(
        "x.batchnorm(m, v, axis = [1, 2])",
        &[
            ("x", &[2, 3, 4], F32),
            ("m", &[12], F32),
            ("v", &[3, 4], F32),
        ],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1, 2]),
    );
    check(
        "x.batchnorm(m, v, axis = [1, 2])",
        &[
            ("x", &[2, 3, 4], F32),
            ("m", &[4, 3], F32),
            ("v", &[12], F32),
        ],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1, 2]),
    );
    // an invstd with another rank broadcasts as it is
    check(
        "x.batchnorm(m, v)",
        &[
            ("x", &[2, 3, 1], F32),
            ("m", &[3], F32),
            ("v", &[1, 3, 5], F32),
        ],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1]),
    );
    check(
        "x.batchnorm(m, v)",
        &[
            ("x", &[2, 3, 1], F32),
            ("m", &[3], F32),
            ("v", &[4, 1, 3, 1], F32),
        ],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1]),
    );
    check(
        "x.batchnorm(m, v)",
        &[
            ("x", &[2, 3, 4], F32),
            ("m", &[3], F32),
            ("v", &[1, 2, 4], F32),
        ],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1]),
    );
    check(
        "x.batchnorm(m, v, axis = [])",
        &[("x", &[2, 3], F32), ("m", &[], F32), ("v", &[], F32)],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[]),
    );
    check(
        "x.batchnorm(m, v, axis = [1, -2])",
        &[("x", &[2, 3], F32), ("m", &[3], F32), ("v", &[3], F32)],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1, -2]),
    );
    check(
        "x.batchnorm(m, v, axis = 2)",
        &[("x", &[2, 3], F32), ("m", &[3], F32), ("v", &[3], F32)],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[2]),
    );
    check(
        "x.batchnorm(m, v)",
        &[("x", &[2, 3], F32), ("m", &[4], F32), ("v", &[3], F32)],
        |t| t[0].batchnorm(None, None, &t[1], &t[2], &[1]),
    );
    check(
        "x.batchnorm(m, v, w)",
        &[
            ("x", &[2, 3], F32),
            ("m", &[3], F32),
            ("v", &[3], F32),
            ("w", &[1], F32),
        ],
        |t| t[0].batchnorm(Some(&t[3]), None, &t[1], &t[2], &[1]),
    );
}

#[test]
fn conv_transpose2d_rule_agrees_with_tg_ops() {
    check(
        "x.conv_transpose2d(w)",
        &[("x", &[2, 3, 5, 4], F32), ("w", &[3, 4, 3, 3], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new()),
    );
    check(
        "x.conv_transpose2d(w, b, stride = 2, padding = 1, output_padding = 1)",
        &[
            ("x", &[1, 4, 5, 5], F16),
            ("w", &[4, 2, 3, 3], F16),
            ("b", &[2], F32),
        ],
        |t| {
            t[0].conv_transpose2d(
                &t[1],
                Some(&t[2]),
                &Conv::new().stride(2).padding(1).output_padding(1),
            )
        },
    );
    check(
        "x.conv_transpose2d(weight = w, groups = 2, dilation = [2, 1], stride = [1, 3], padding = [(1, 0), (0, 2)])",
        &[("x", &[2, 4, 3, 4], F32), ("w", &[4, 3, 2, 3], F32)],
        |t| {
            t[0].conv_transpose2d(
                &t[1],
                None,
                &Conv::new()
                    .groups(2)
                    .dilation([2, 1])
                    .stride([1, 3])
                    .padding(Padding::Pairs(vec![(1, 0), (0, 2)])),
            )
        },
    );
    check(
        "x.conv_transpose2d(w, b, groups = 3)",
        &[
            ("x", &[1, 3, 1, 1], I8),
            ("w", &[3, 1, 1, 1], I8),
            ("b", &[3], I32),
        ],
        |t| t[0].conv_transpose2d(&t[1], Some(&t[2]), &Conv::new().groups(3)),
    );
    check(
        "x.conv_transpose2d(w, stride = 3)",
        &[("x", &[2, 1, 4], U8), ("w", &[1, 2, 2], I16)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new().stride(3)),
    );
    check(
        "x.conv_transpose2d(w)",
        &[("x", &[1, 2, 3, 3, 3], F32), ("w", &[2, 1, 2, 2, 2], F64)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new()),
    );
    // padding that takes off all of the output, or more than the input has
    check(
        "x.conv_transpose2d(w, padding = 1)",
        &[("x", &[1, 1, 1, 1], F32), ("w", &[1, 1, 1, 1], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new().padding(1)),
    );
    check(
        "x.conv_transpose2d(w, padding = 1)",
        &[("x", &[1, 1, 2, 2], F32), ("w", &[1, 1, 2, 2], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new().padding(1)),
    );
    check(
        "x.conv_transpose2d(w, padding = [(3, -3)], output_padding = 3)",
        &[("x", &[1, 1, 2], F32), ("w", &[1, 1, 1], F32)],
        |t| {
            t[0].conv_transpose2d(
                &t[1],
                None,
                &Conv::new()
                    .padding(Padding::Pairs(vec![(3, -3)]))
                    .output_padding(3),
            )
        },
    );
    check(
        "x.conv_transpose2d(w, padding = -1)",
        &[("x", &[1, 1, 2], F32), ("w", &[1, 1, 2], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new().padding(-1)),
    );
    check(
        "x.conv_transpose2d(w)",
        &[("x", &[2, 3, 5, 4], F32), ("w", &[4, 4, 3, 3], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new()),
    );
    check(
        "x.conv_transpose2d(w, groups = 2)",
        &[("x", &[2, 3, 5, 4], F32), ("w", &[3, 4, 3, 3], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new().groups(2)),
    );
    check(
        "x.conv_transpose2d(w, b)",
        &[
            ("x", &[2, 3, 5], F32),
            ("w", &[3, 4, 3], F32),
            ("b", &[3], F32),
        ],
        |t| t[0].conv_transpose2d(&t[1], Some(&t[2]), &Conv::new()),
    );
    check(
        "x.conv_transpose2d(w)",
        &[("x", &[2, 3, 5], F32), ("w", &[3, 4, 3, 3], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new()),
    );
    check(
        "x.conv_transpose2d(w)",
        &[("x", &[2, 3, 0], F32), ("w", &[3, 4, 3], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new()),
    );
    check(
        "x.conv_transpose2d(w, stride = 0)",
        &[("x", &[2, 3, 4], F32), ("w", &[3, 4, 3], F32)],
        |t| t[0].conv_transpose2d(&t[1], None, &Conv::new().stride(0)),
    );
    // conv2d adds its bias in the dtype both meet in
    check(
        "x.conv2d(w, b)",
        &[
            ("x", &[1, 2, 4], I8),
            ("w", &[3, 2, 2], I8),
            ("b", &[3], F16),
        ],
        |t| t[0].conv2d(&t[1], Some(&t[2]), &Conv::new()),
    );
}

#[test]
fn interpolate_rule_agrees_with_tg_ops() {
    use Interpolation::*;
    check("x.interpolate([8, 6])", &[("x", &[2, 3, 4, 4], F32)], |t| {
        t[0].interpolate(&[8, 6], Linear, false)
    });
    check(
        "x.interpolate(5, \"linear\", true)",
        &[("x", &[2, 3, 4], F16)],
        |t| t[0].interpolate(&[5], Linear, true),
    );
    check(
        "x.interpolate(size = [1, 1], align_corners = true)",
        &[("x", &[1, 1, 4, 4], F32)],
        |t| t[0].interpolate(&[1, 1], Linear, true),
    );
    check(
        "x.interpolate([3, 2, 7], \"nearest\")",
        &[("x", &[3, 1, 4], U8)],
        |t| t[0].interpolate(&[3, 2, 7], Nearest, false),
    );
    check(
        "x.interpolate([2], mode = \"nearest-exact\")",
        &[("x", &[4, 9], I32)],
        |t| t[0].interpolate(&[2], NearestExact, false),
    );
    check(
        "x.interpolate([0, 3], mode = \"linear\")",
        &[("x", &[2, 0, 2], F32)],
        |t| t[0].interpolate(&[0, 3], Linear, false),
    );
    check("x.interpolate([1, 3])", &[("x", &[2, 0, 2], F32)], |t| {
        t[0].interpolate(&[1, 3], Linear, false)
    });
    check("x.interpolate([2, 2, 2])", &[("x", &[4, 4], F32)], |t| {
        t[0].interpolate(&[2, 2, 2], Linear, false)
    });
    check("x.interpolate([])", &[("x", &[4, 4], F32)], |t| {
        t[0].interpolate(&[], Linear, false)
    });
    check(
        "x.interpolate([2], mode = \"nearest\", align_corners = true)",
        &[("x", &[4, 4], F32)],
        |t| t[0].interpolate(&[2], Nearest, true),
    );
}

#[test]
fn max_pool_with_indices_and_unpool_rules_agree_with_tg_ops() {
    check2(
        "x.max_pool2d_with_indices(2)",
        &[("x", &[2, 3, 8, 6], F32)],
        |t| t[0].max_pool2d_with_indices(&Pool::new([2, 2])),
    );
    check2(
        "x.max_pool2d_with_indices([3, 3], stride = 2, padding = 1, ceil_mode = true)",
        &[("x", &[1, 2, 7, 6], F16)],
        |t| t[0].max_pool2d_with_indices(&Pool::new([3, 3]).stride(2).padding(1).ceil_mode(true)),
    );
    check2(
        "x.max_pool2d_with_indices(kernel = [2], dilation = 2, stride = 1)",
        &[("x", &[3, 5], I8)],
        |t| t[0].max_pool2d_with_indices(&Pool::new([2]).dilation(2).stride(1)),
    );
    check2(
        "x.max_pool2d_with_indices([1, 1])",
        &[("x", &[1, 1, 1, 1], Bool)],
        |t| t[0].max_pool2d_with_indices(&Pool::new([1, 1])),
    );
    check(
        "v.max_unpool2d(i)",
        &[("v", &[2, 3, 4, 3], F32), ("i", &[2, 3, 4, 3], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2, 2]), None),
    );
    check(
        "v.max_unpool2d(i, [3, 2], stride = [2, 1], padding = 1, dilation = [1, 2])",
        &[("v", &[1, 2, 3, 4], F16), ("i", &[1, 2, 3, 4], I64)],
        |t| {
            t[0].max_unpool2d(
                &t[1],
                &Pool::new([3, 2]).stride([2, 1]).padding(1).dilation([1, 2]),
                None,
            )
        },
    );
    check(
        "v.max_unpool2d(indices = i, kernel = 3, output_size = [9, 9, 7])",
        &[("v", &[1, 1, 2, 2], I8), ("i", &[1, 1, 2, 2], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([3]), Some(&[9, 9, 7])),
    );
    check(
        "v.max_unpool2d(i, 2)",
        &[("v", &[1, 1, 1], Bool), ("i", &[1, 1, 1], U8)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2]), None),
    );
    check(
        "v.max_unpool2d(i, 3, padding = 2)",
        &[("v", &[1, 1, 1], F32), ("i", &[1, 1, 1], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([3]).padding(2), None),
    );
    check(
        "v.max_unpool2d(i)",
        &[("v", &[2, 3, 4, 3], F32), ("i", &[2, 3, 4, 2], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2, 2]), None),
    );
    check(
        "v.max_unpool2d(i)",
        &[("v", &[2, 3, 4, 3], F32), ("i", &[2, 3, 4, 3], F32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2, 2]), None),
    );
    check(
        "v.max_unpool2d(i, output_size = [5])",
        &[("v", &[2, 3, 4, 3], F32), ("i", &[2, 3, 4, 3], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2, 2]), Some(&[5])),
    );
    check(
        "v.max_unpool2d(i, [2, 2, 2])",
        &[("v", &[2, 3, 4, 3], F32), ("i", &[2, 3, 4, 3], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2, 2, 2]), None),
    );
    check(
        "v.max_unpool2d(i)",
        &[("v", &[4, 3], F32), ("i", &[4, 3], I32)],
        |t| t[0].max_unpool2d(&t[1], &Pool::new([2, 2]), None),
    );
}

/// Evaluates `expr` through the rules with tensors of (possibly symbolic) shapes; `B` is a
/// const parameter.
fn eval(expr: &str, vars: &[(&str, Vec<Poly>, Dt)]) -> syn::Result<Val> {
    let b = proc_macro2::Ident::new("B", proc_macro2::Span::call_site());
    let mut ctx = Ctx::new(vec![b]);
    for (name, shape, d) in vars {
        let ident = proc_macro2::Ident::new(name, proc_macro2::Span::call_site());
        ctx.env.insert(
            name.to_string(),
            Val::Tensor {
                shape: shape.clone(),
                dtype: *d,
                code: quote::quote!(#ident),
            },
        );
    }
    let tokens: TokenStream = expr.parse().expect("tokens");
    parse_expr(tokens).and_then(|a| ctx.eval(&a))
}

fn dims(v: &[i64]) -> Vec<Poly> {
    v.iter().map(|&d| Poly::constant(d)).collect()
}

/// The error `expr` gives; it must mention every one of `want`.
fn error_mentions(expr: &str, vars: &[(&str, Vec<Poly>, Dt)], want: &[&str]) {
    let e = match eval(expr, vars) {
        Ok(_) => panic!("{expr}: accepted"),
        Err(e) => e.to_string(),
    };
    for w in want {
        assert!(
            e.contains(w),
            "{expr}: the error `{e}` does not mention `{w}`"
        );
    }
}

#[test]
fn training_rules_report_bad_inputs() {
    let b = Poly::param("B");
    let sym = |rest: &[i64]| {
        let mut v = vec![b.clone()];
        v.extend(dims(rest));
        v
    };
    let x = ("x", sym(&[10]), F32);
    error_mentions(
        "x.cross_entropy(y)",
        &[x.clone(), ("y", sym(&[5]), F32)],
        &[
            "`cross_entropy`",
            "[B, 5]",
            "[B, 10]",
            "axis 1 is 5, not 10",
        ],
    );
    error_mentions(
        "x.cross_entropy(y)",
        &[x.clone(), ("y", sym(&[2, 2]), I32)],
        &["`cross_entropy`", "[B, 2, 2]", "labels of shape [B]"],
    );
    error_mentions(
        "x.cross_entropy(y)",
        &[x.clone(), ("y", sym(&[]), F32)],
        &["`cross_entropy`", "integer", "f32"],
    );
    error_mentions(
        "x.cross_entropy(y, label_smoothing = 1.5)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "label_smoothing", "1.5"],
    );
    error_mentions(
        "x.cross_entropy(y, label_smoothing = -0.5)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "-0.5"],
    );
    error_mentions(
        "x.cross_entropy(y, smoothing = 0.1)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &[
            "`cross_entropy`",
            "no argument `smoothing`",
            "label_smoothing",
        ],
    );
    error_mentions(
        "x.cross_entropy(y, reduction = \"avg\")",
        &[x.clone(), ("y", sym(&[]), I32)],
        &[
            "`cross_entropy`",
            "unknown reduction \"avg\"",
            "\"mean\", \"sum\", \"none\"",
        ],
    );
    error_mentions(
        "x.cross_entropy(y, reduction = 1)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "reduction as a string"],
    );
    error_mentions(
        "x.cross_entropy(y, \"sum\", reduction = \"sum\")",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`cross_entropy`", "by position and by name"],
    );
    error_mentions(
        "x.cross_entropy()",
        std::slice::from_ref(&x),
        &["`cross_entropy`", "targets"],
    );
    error_mentions(
        "x.nll_loss(y)",
        &[("x", dims(&[3, 10]), F32), ("y", dims(&[4]), I32)],
        &["`nll_loss`", "[4]", "[3, 10]", "axis 0 is 4, not 3"],
    );
    error_mentions(
        "x.nll_loss(y)",
        &[x.clone(), ("y", sym(&[10]), I32)],
        &["`nll_loss`", "[B, 10]", "without the class axis 1"],
    );
    error_mentions(
        "x.nll_loss(y, w)",
        &[x.clone(), ("y", sym(&[]), I32), ("w", dims(&[5]), F32)],
        &["`nll_loss`", "weight [5]", "10 classes"],
    );
    error_mentions(
        "x.nll_loss(y, ignore_index = 1.5)",
        &[x.clone(), ("y", sym(&[]), I32)],
        &["`nll_loss`", "integer"],
    );
    error_mentions(
        "x.sparse_categorical_crossentropy(y)",
        &[("x", sym(&[3, 10]), F32), ("y", sym(&[4]), I32)],
        &[
            "`sparse_categorical_crossentropy`",
            "[B, 4]",
            "[B, 3, 10]",
            "axis 1 is 4, not 3",
        ],
    );
    error_mentions(
        "p.binary_crossentropy(y)",
        &[("p", sym(&[3]), F32), ("y", sym(&[4]), F32)],
        &["`binary_crossentropy`", "[B, 3]", "[B, 4]", "axis -1"],
    );
    error_mentions(
        "p.binary_crossentropy_logits(y, pos_weight = w)",
        &[
            ("p", sym(&[3]), F32),
            ("y", sym(&[3]), F32),
            ("w", dims(&[2]), F32),
        ],
        &["`binary_crossentropy_logits`", "[2]", "[B, 3]"],
    );
    error_mentions(
        "x.batchnorm(m, v)",
        &[
            ("x", sym(&[4, 8, 8]), F32),
            ("m", dims(&[3]), F32),
            ("v", dims(&[4]), F32),
        ],
        &[
            "`batchnorm`",
            "mean of shape [3]",
            "[B, 4, 8, 8]",
            "axes [1]",
        ],
    );
    error_mentions(
        "x.batchnorm(m, v, axis = [1, 1])",
        &[
            ("x", sym(&[4]), F32),
            ("m", dims(&[4]), F32),
            ("v", dims(&[4]), F32),
        ],
        &["`batchnorm`", "appears twice"],
    );
    error_mentions(
        "x.batchnorm(m, v, axis = 3)",
        &[
            ("x", sym(&[4]), F32),
            ("m", dims(&[4]), F32),
            ("v", dims(&[4]), F32),
        ],
        &["`batchnorm`", "axis 3", "[B, 4]"],
    );
    error_mentions(
        "x.batchnorm(m)",
        &[("x", sym(&[4]), F32), ("m", dims(&[4]), F32)],
        &["`batchnorm`", "invstd"],
    );
    error_mentions(
        "x.conv_transpose2d(w)",
        &[("x", sym(&[3, 8, 8]), F32), ("w", dims(&[4, 2, 3, 3]), F32)],
        &[
            "`conv_transpose2d`",
            "[B, 3, 8, 8]",
            "[4, 2, 3, 3]",
            "3 channels (axis 1)",
        ],
    );
    error_mentions(
        "x.conv_transpose2d(w, groups = 3)",
        &[("x", sym(&[4, 8, 8]), F32), ("w", dims(&[4, 2, 3, 3]), F32)],
        &["`conv_transpose2d`", "[4, 2, 3, 3]", "3 groups"],
    );
    error_mentions(
        "x.conv_transpose2d(w, b)",
        &[
            ("x", sym(&[4, 8]), F32),
            ("w", dims(&[4, 2, 3]), F32),
            ("b", dims(&[4]), F32),
        ],
        &[
            "`conv_transpose2d`",
            "bias has 4 values",
            "2 output channels",
        ],
    );
    error_mentions(
        "x.conv_transpose2d(w, padding = 3)",
        &[("x", sym(&[4, 2]), F32), ("w", dims(&[4, 2, 3]), F32)],
        &[
            "`conv_transpose2d`",
            "padding (3, 3)",
            "axis 2",
            "[B, 4, 2]",
        ],
    );
    error_mentions(
        "x.conv_transpose2d(w, stride = 0)",
        &[("x", sym(&[4, 2]), F32), ("w", dims(&[4, 2, 3]), F32)],
        &["`conv_transpose2d`", "stride [0]"],
    );
    error_mentions(
        "x.conv_transpose2d(w, output_padding = [1, 1])",
        &[("x", sym(&[4, 2]), F32), ("w", dims(&[4, 2, 3]), F32)],
        &["`conv_transpose2d`", "2 values given for 1 spatial axes"],
    );
    error_mentions(
        "x.interpolate([4, 4, 4, 4])",
        &[("x", sym(&[3, 8]), F32)],
        &["`interpolate`", "4 size(s)", "[B, 3, 8]"],
    );
    error_mentions(
        "x.interpolate([4], \"bicubic\")",
        &[("x", sym(&[3, 8]), F32)],
        &[
            "`interpolate`",
            "unknown mode \"bicubic\"",
            "\"nearest-exact\"",
        ],
    );
    error_mentions(
        "x.interpolate([4], mode = \"nearest\", align_corners = true)",
        &[("x", sym(&[3, 8]), F32)],
        &["`interpolate`", "align_corners", "\"nearest\""],
    );
    error_mentions(
        "x.interpolate([-4])",
        &[("x", sym(&[3, 8]), F32)],
        &["`interpolate`", "-4"],
    );
    error_mentions(
        "x.interpolate([4])",
        &[("x", sym(&[3, 0]), F32)],
        &["`interpolate`", "empty axis 2", "[B, 3, 0]"],
    );
    error_mentions(
        "x.max_pool2d_with_indices(0)",
        &[("x", sym(&[3, 8, 8]), F32)],
        &["`max_pool2d_with_indices`", "kernel [0, 0]"],
    );
    error_mentions(
        "x.max_pool2d_with_indices([3, 3, 3, 3, 3])",
        &[("x", sym(&[3, 8, 8]), F32)],
        &["`max_pool2d_with_indices`", "5-D window", "[B, 3, 8, 8]"],
    );
    error_mentions(
        "x.max_pool2d_with_indices(9)",
        &[("x", sym(&[3, 8, 8]), F32)],
        &["`max_pool2d_with_indices`", "axis 2", "[B, 3, 8, 8]"],
    );
    error_mentions(
        "v.max_unpool2d(i)",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 3]), I32)],
        &[
            "`max_unpool2d`",
            "[B, 2, 4, 3]",
            "[B, 2, 4, 4]",
            "axis 3 is 3, not 4",
        ],
    );
    error_mentions(
        "v.max_unpool2d(i)",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 4]), F32)],
        &["`max_unpool2d`", "integer", "f32"],
    );
    error_mentions(
        "v.max_unpool2d(i, output_size = [8])",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 4]), I32)],
        &[
            "`max_unpool2d`",
            "output_size has 1 entries",
            "2 spatial axes",
        ],
    );
    error_mentions(
        "v.max_unpool2d(i, 2, padding = 5)",
        &[("v", sym(&[2, 4, 4]), F32), ("i", sym(&[2, 4, 4]), I32)],
        &["`max_unpool2d`", "negative size", "[B, 2, 4, 4]"],
    );
    error_mentions(
        "v.max_unpool2d(i, 1)",
        &[("v", dims(&[2, 4]), F32), ("i", dims(&[2, 4]), I32)],
        &["`max_unpool2d`", "[2, 4]"],
    );
}

#[test]
fn training_rules_keep_symbolic_dims() {
    let b = Poly::param("B");
    let shape = |v: &Val| match v {
        Val::Tensor { shape, .. } => shape.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        _ => panic!("not a tensor"),
    };
    let sym = |rest: &[i64]| {
        let mut v = vec![b.clone()];
        v.extend(dims(rest));
        v
    };
    let v = eval(
        "x.conv_transpose2d(w, stride = 2)",
        &[("x", sym(&[3, 4]), F32), ("w", dims(&[3, 5, 3]), F32)],
    )
    .expect("accepted");
    assert_eq!(shape(&v), ["B", "5", "9"]);
    let v = eval(
        "x.cross_entropy(y, reduction = \"none\")",
        &[("x", sym(&[10]), F32), ("y", sym(&[]), I32)],
    )
    .expect("accepted");
    assert_eq!(shape(&v), ["B"]);
    let v = eval("x.interpolate([B * 2, 2])", &[("x", dims(&[1, 3, 4]), F32)]).expect("accepted");
    assert_eq!(shape(&v), ["1", "2*B", "2"]);
    let v = eval(
        "v.max_unpool2d(i, 2)",
        &[
            ("v", vec![b.clone(), Poly::constant(1), b.clone()], F32),
            ("i", vec![b.clone(), Poly::constant(1), b.clone()], I32),
        ],
    )
    .expect("accepted");
    assert_eq!(shape(&v), ["B", "1", "2*B"]);
}
