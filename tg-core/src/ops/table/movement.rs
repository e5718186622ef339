//! Movement: views, padding, joins and splits, repeats and the diagonal. Every one keeps the
//! dtype (joins take the dtype their tensors meet in).

use super::*;

const fn view(name: &'static str, doc: &'static str, params: &'static [Param], shape: S) -> OpSig {
    OpSig::new(name, Family::Movement, doc)
        .params(params)
        .shape(shape)
}

const fn mode() -> Param {
    p("mode", Kind::PadMode).or(ArgDefault::Str("constant"))
}

const fn value() -> Param {
    p("value", Kind::PadValue).or(ArgDefault::Int(0))
}

/// The movement ops.
pub static OPS: &[OpSig] = &[
    view("reshape", "The same elements in a new shape; one size may be `-1`", &[p("shape", Kind::Shape)], S::Reshape),
    view("permute", "The axes in a new order", &[p("order", Kind::AxisList)], S::Permute),
    view(
        "transpose",
        "Two axes swapped",
        &[
            p("a", Kind::Axis).or(ArgDefault::Int(-2)),
            p("b", Kind::Axis).or(ArgDefault::Int(-1)),
        ],
        S::Transpose,
    ),
    view("t", "The last two axes swapped", &[], S::MatrixT),
    view("expand", "Size-1 axes stretched to a target shape (`-1` keeps an axis)", &[p("shape", Kind::Shape)], S::Expand),
    view("broadcast_to", "The tensor broadcast to a shape, as numpy's", &[p("shape", Kind::Sizes)], S::BroadcastTo),
    view(
        "squeeze",
        "Every size-1 axis removed, or the given one",
        &[p("axis", Kind::OptAxis).or(ArgDefault::Absent)],
        S::Squeeze,
    ),
    view("unsqueeze", "A size-1 axis inserted", &[p("axis", Kind::Axis)], S::Unsqueeze),
    view(
        "flatten",
        "The axes `start..=end` merged into one",
        &[
            p("start", Kind::Axis).or(ArgDefault::Int(0)),
            p("end", Kind::Axis).or(ArgDefault::Int(-1)),
        ],
        S::Flatten,
    ),
    view(
        "unflatten",
        "One axis split into sizes (one may be `-1`)",
        &[p("axis", Kind::Axis), p("sizes", Kind::Shape)],
        S::Unflatten,
    ),
    view("flip", "The order along the axes reversed", &[p("axes", Kind::AxisList)], S::Flip),
    view(
        "pad",
        "Each axis padded by `(before, after)` elements of `value` (a negative amount cuts)",
        &[
            p("pads", Kind::Pairs),
            p("value", Kind::Fill).or(ArgDefault::F64(0.0)),
        ],
        S::Pad,
    ),
    view(
        "pad_with",
        "Each axis padded by `(before, after)` in a mode: constant (with `value`), reflect, replicate, circular",
        &[
            p("pads", Kind::Pairs),
            mode(),
            value(),
        ],
        S::Pad,
    ),
    view(
        "pad_flat",
        "torch's flat padding: `(before, after)` from the last axis backwards",
        &[
            p("pads", Kind::Ints),
            p("value", Kind::Fill).or(ArgDefault::Int(0)),
        ],
        S::PadFlat,
    ),
    view(
        "pad_flat_with",
        "torch's flat padding in a mode",
        &[p("pads", Kind::Ints), mode(), value()],
        S::PadFlat,
    ),
    view(
        "pad_to",
        "Zeros at the end of each axis up to a target (`-1` keeps an axis)",
        &[p("shape", Kind::OptShape)],
        S::PadTo,
    ),
    view(
        "pad_to_with",
        "`value` at the end of each axis up to a target (`-1` keeps an axis)",
        &[p("shape", Kind::OptShape), p("value", Kind::Fill)],
        S::PadTo,
    ),
    view(
        "shrink_to",
        "The start of each axis, cut to a target (`-1` keeps an axis)",
        &[p("shape", Kind::OptShape)],
        S::ShrinkTo,
    ),
    view("shrink", "`start..end` of each axis", &[p("ranges", Kind::Ranges)], S::Shrink),
    view("repeat", "Each axis tiled (extra leading counts add axes)", &[p("repeats", Kind::Counts)], S::Repeat),
    view(
        "repeat_interleave",
        "Each element repeated along an axis (over the flattened tensor without one)",
        &[
            p("repeats", Kind::Size),
            p("axis", Kind::OptAxis).or(ArgDefault::Absent),
        ],
        S::RepeatInterleave,
    ),
    view(
        "roll",
        "Elements shifted along axes, wrapping around (over the flattened tensor without axes)",
        &[
            p("shifts", Kind::Ints),
            p("axes", Kind::Axes).or(ArgDefault::Absent),
        ],
        S::Roll,
    ),
    view(
        "diagonal",
        "The diagonal of two axes, as a new last axis",
        &[
            p("offset", Kind::Axis).or(ArgDefault::Int(0)),
            p("dim1", Kind::Axis).or(ArgDefault::Int(0)),
            p("dim2", Kind::Axis).or(ArgDefault::Int(1)),
        ],
        S::Diagonal,
    ),
    view(
        "cat",
        "The receiver and the tensors joined along an axis",
        &[
            p("tensors", Kind::Tensors),
            p("axis", Kind::Axis).or(ArgDefault::Int(0)),
        ],
        S::Cat,
    )
    .call(Call::Join)
    .dtype(&[T::Meet(&["tensors"])]),
    view(
        "stack",
        "The receiver and the tensors stacked along a new axis",
        &[
            p("tensors", Kind::Tensors),
            p("axis", Kind::Axis).or(ArgDefault::Int(0)),
        ],
        S::Stack,
    )
    .call(Call::Join)
    .dtype(&[T::Meet(&["tensors"])]),
    view(
        "chunk",
        "The tensor cut into `chunks` pieces along an axis (the last smaller)",
        &[
            p("chunks", Kind::Size),
            p("axis", Kind::Axis).or(ArgDefault::Int(0)),
        ],
        S::Chunk,
    )
    .outputs(Outputs::List),
    view(
        "split",
        "The tensor cut along an axis into pieces of the given sizes, or of one size (the last smaller)",
        &[
            p("sizes", Kind::SplitSizes),
            p("axis", Kind::Axis).or(ArgDefault::Int(0)),
        ],
        S::Split,
    )
    .call(Call::Split)
    .outputs(Outputs::List),
    view(
        "split_every",
        "The tensor cut along an axis into pieces of `size` (the last smaller)",
        &[
            p("size", Kind::Size),
            p("axis", Kind::Axis).or(ArgDefault::Int(0)),
        ],
        S::SplitEvery,
    )
    .outputs(Outputs::List),
];
