//! `OnnxModel` end to end on small models built here with the protobuf types: results,
//! record and replay, data-dependent runs, and every kind of bad input as its typed error.

use prost::Message;
use tg_onnx::{DType, Dim, Error, ExternalDataProblem, OnnxModel};
use tg_onnx_format::proto::{
    AttributeProto, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto,
    TensorProto, TensorShapeProto, TypeProto, ValueInfoProto, attribute_proto, tensor_proto,
    tensor_shape_proto, type_proto,
};
use tg_ops::DynTensor;

const F32: i32 = tensor_proto::DataType::Float as i32;
const I64: i32 = tensor_proto::DataType::Int64 as i32;

fn dim(d: &str) -> tensor_shape_proto::Dimension {
    let value = match d.parse::<i64>() {
        Ok(n) => tensor_shape_proto::dimension::Value::DimValue(n),
        Err(_) => tensor_shape_proto::dimension::Value::DimParam(d.to_string()),
    };
    tensor_shape_proto::Dimension {
        value: Some(value),
        ..Default::default()
    }
}

fn info(name: &str, elem: i32, dims: &[&str]) -> ValueInfoProto {
    ValueInfoProto {
        name: Some(name.into()),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: Some(elem),
                shape: Some(TensorShapeProto {
                    dim: dims.iter().map(|d| dim(d)).collect(),
                }),
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}

fn node(op: &str, inputs: &[&str], outputs: &[&str], attrs: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        op_type: Some(op.into()),
        name: Some(format!("{op}_node")),
        input: inputs.iter().map(|s| s.to_string()).collect(),
        output: outputs.iter().map(|s| s.to_string()).collect(),
        attribute: attrs,
        ..Default::default()
    }
}

fn int_attr(name: &str, v: i64) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        r#type: Some(attribute_proto::AttributeType::Int as i32),
        i: Some(v),
        ..Default::default()
    }
}

fn tensor_f32(name: &str, dims: &[i64], v: &[f32]) -> TensorProto {
    TensorProto {
        name: Some(name.into()),
        dims: dims.to_vec(),
        data_type: Some(F32),
        float_data: v.to_vec(),
        ..Default::default()
    }
}

fn model(
    nodes: Vec<NodeProto>,
    inputs: Vec<ValueInfoProto>,
    outputs: Vec<ValueInfoProto>,
    inits: Vec<TensorProto>,
    opset: i64,
) -> Vec<u8> {
    ModelProto {
        ir_version: Some(8),
        opset_import: vec![OperatorSetIdProto {
            domain: Some(String::new()),
            version: Some(opset),
        }],
        graph: Some(GraphProto {
            name: Some("g".into()),
            node: nodes,
            input: inputs,
            output: outputs,
            initializer: inits,
            ..Default::default()
        }),
        ..Default::default()
    }
    .encode_to_vec()
}

/// `relu(x + b)` over `[batch, 3]`.
fn add_relu() -> Vec<u8> {
    model(
        vec![
            node("Add", &["x", "b"], &["s"], vec![]),
            node("Relu", &["s"], &["y"], vec![]),
        ],
        vec![info("x", F32, &["batch", "3"])],
        vec![info("y", F32, &["batch", "3"])],
        vec![tensor_f32("b", &[3], &[1.0, -2.0, 0.5])],
        13,
    )
}

fn f32s(t: &DynTensor) -> Vec<f32> {
    t.to_vec::<f32>().unwrap()
}

#[test]
fn runs_records_and_replays() {
    let m = OnnxModel::from_bytes(&add_relu()).unwrap();
    assert_eq!(
        m.inputs()[0].dims.as_ref().unwrap()[0],
        Dim::Symbol("batch".into())
    );
    let x = DynTensor::from_slice(&[2, 3], &[1.0f32, 1.0, 1.0, -5.0, 5.0, -1.0]).unwrap();
    let y = m.run(&[("x", x)]).unwrap();
    assert_eq!(y[0].0, "y");
    assert_eq!(f32s(&y[0].1), vec![2.0, 0.0, 1.5, 0.0, 3.0, 0.0]);
    let key = vec![(DType::F32, vec![2, 3])];
    let kernels = m.kernels(&key).expect("the first run is recorded");
    assert!(kernels >= 1);
    // a replay computes the new inputs
    let x2 = DynTensor::from_slice(&[2, 3], &[0.0f32, 3.0, 0.0, 0.0, 0.0, 0.0]).unwrap();
    assert_eq!(
        f32s(&m.run(&[("x", x2)]).unwrap()[0].1),
        vec![1.0, 1.0, 0.5, 1.0, 0.0, 0.5]
    );
    // another batch size is another recording
    let x3 = DynTensor::from_slice(&[1, 3], &[-1.0f32, 2.0, 3.0]).unwrap();
    assert_eq!(
        f32s(&m.run(&[("x", x3)]).unwrap()[0].1),
        vec![0.0, 0.0, 3.5]
    );
    assert!(m.kernels(&[(DType::F32, vec![1, 3])]).is_some());
}

#[test]
fn a_data_dependent_model_runs_eagerly_and_correctly() {
    let bytes = model(
        vec![node("NonZero", &["x"], &["y"], vec![])],
        vec![info("x", F32, &["4"])],
        vec![info("y", I64, &["1", "n"])],
        vec![],
        13,
    );
    let m = OnnxModel::from_bytes(&bytes).unwrap();
    for (x, want) in [
        (vec![0.0f32, 1.0, 0.0, 2.0], vec![1i64, 3]),
        (vec![3.0f32, 0.0, 0.0, 0.0], vec![0i64]),
    ] {
        let y = m
            .run(&[("x", DynTensor::from_slice(&[4], &x).unwrap())])
            .unwrap();
        assert_eq!(y[0].1.to_vec::<i64>().unwrap(), want);
    }
    assert_eq!(m.kernels(&[(DType::F32, vec![4])]), None);
}

#[test]
fn shape_subgraphs_fold_on_the_host() {
    // Reshape(x, Concat(Shape(x)[0], [-1])) : the target shape costs no kernel
    let bytes = model(
        vec![
            node("Shape", &["x"], &["s"], vec![]),
            node("Gather", &["s", "zero"], &["b"], vec![]),
            node("Unsqueeze", &["b", "axes"], &["b1"], vec![]),
            node(
                "Concat",
                &["b1", "minus1"],
                &["target"],
                vec![int_attr("axis", 0)],
            ),
            node("Reshape", &["x", "target"], &["y"], vec![]),
        ],
        vec![info("x", F32, &["n", "2", "2"])],
        vec![info("y", F32, &["n", "4"])],
        vec![
            TensorProto {
                name: Some("zero".into()),
                dims: vec![],
                data_type: Some(I64),
                int64_data: vec![0],
                ..Default::default()
            },
            TensorProto {
                name: Some("axes".into()),
                dims: vec![1],
                data_type: Some(I64),
                int64_data: vec![0],
                ..Default::default()
            },
            TensorProto {
                name: Some("minus1".into()),
                dims: vec![1],
                data_type: Some(I64),
                int64_data: vec![-1],
                ..Default::default()
            },
        ],
        13,
    );
    let m = OnnxModel::from_bytes(&bytes).unwrap();
    let x =
        DynTensor::from_slice(&[2, 2, 2], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]).unwrap();
    let y = m.run(&[("x", x)]).unwrap();
    assert_eq!(y[0].1.shape(), &[2, 4]);
    // a reshape of an input is a view: nothing to compute but the output's copy
    assert!(m.kernels(&[(DType::F32, vec![2, 2, 2])]).unwrap() <= 1);
}

#[test]
fn truncated_and_garbage_files_are_malformed() {
    let bytes = add_relu();
    assert!(matches!(
        OnnxModel::from_bytes(&bytes[..bytes.len() / 2]),
        Err(Error::Malformed { .. })
    ));
    assert!(matches!(
        OnnxModel::from_bytes(&[0xff, 0xff, 0xff, 0x07, 1, 2, 3]),
        Err(Error::Malformed { .. })
    ));
    assert!(matches!(
        OnnxModel::load("/nonexistent/model.onnx"),
        Err(Error::Io { .. })
    ));
}

#[test]
fn unsupported_ops_and_opsets_are_named() {
    let bytes = model(
        vec![node("FancyOp", &["x"], &["y"], vec![])],
        vec![info("x", F32, &["1"])],
        vec![info("y", F32, &["1"])],
        vec![],
        13,
    );
    match OnnxModel::from_bytes(&bytes) {
        Err(Error::UnsupportedOp { node, op_type, .. }) => {
            assert_eq!(node, "FancyOp_node");
            assert_eq!(op_type, "FancyOp");
        }
        other => panic!("{other:?}"),
    }
    let det = model(
        vec![node("Det", &["x"], &["y"], vec![])],
        vec![info("x", F32, &["2", "2"])],
        vec![info("y", F32, &[])],
        vec![],
        13,
    );
    assert!(matches!(
        OnnxModel::from_bytes(&det),
        Err(Error::UnsupportedOp {
            reason: Some(_),
            ..
        })
    ));
    let bytes = model(
        vec![node("Relu", &["x"], &["y"], vec![])],
        vec![info("x", F32, &["1"])],
        vec![info("y", F32, &["1"])],
        vec![],
        99,
    );
    assert!(matches!(
        OnnxModel::from_bytes(&bytes),
        Err(Error::UnsupportedOpset { version: 99, .. })
    ));
}

#[test]
fn undefined_values_and_overflowing_dims_are_refused() {
    let bytes = model(
        vec![node("Add", &["x", "nowhere"], &["y"], vec![])],
        vec![info("x", F32, &["1"])],
        vec![info("y", F32, &["1"])],
        vec![],
        13,
    );
    assert!(matches!(
        OnnxModel::from_bytes(&bytes),
        Err(Error::UndefinedValue { input, .. }) if input == "nowhere"
    ));
    let huge = TensorProto {
        name: Some("w".into()),
        dims: vec![1 << 40, 1 << 40],
        data_type: Some(F32),
        ..Default::default()
    };
    let bytes = model(
        vec![node("Add", &["x", "w"], &["y"], vec![])],
        vec![info("x", F32, &["1"])],
        vec![info("y", F32, &["1"])],
        vec![huge],
        13,
    );
    assert!(matches!(
        OnnxModel::from_bytes(&bytes),
        Err(Error::DimOverflow { tensor, .. }) if tensor == "w"
    ));
}

#[test]
fn wrong_inputs_are_refused_before_anything_runs() {
    let m = OnnxModel::from_bytes(&add_relu()).unwrap();
    let i32x = DynTensor::from_slice(&[1, 3], &[1i32, 2, 3]).unwrap();
    assert!(matches!(
        m.run(&[("x", i32x)]),
        Err(Error::InputDType {
            expected: DType::F32,
            found: DType::I32,
            ..
        })
    ));
    let wide = DynTensor::from_slice(&[1, 4], &[1.0f32; 4]).unwrap();
    assert!(matches!(
        m.run(&[("x", wide)]),
        Err(Error::InputShape { .. })
    ));
    assert!(matches!(m.run(&[]), Err(Error::MissingInput { .. })));
    let x = DynTensor::from_slice(&[1, 3], &[1.0f32; 3]).unwrap();
    assert!(matches!(
        m.run(&[("x", x.clone()), ("z", x.clone())]),
        Err(Error::UnknownInput { .. })
    ));
    assert!(matches!(
        m.run(&[("x", x.clone()), ("x", x)]),
        Err(Error::RepeatedInput { .. })
    ));
    // nothing was recorded by the refused calls
    assert_eq!(m.kernels(&[(DType::F32, vec![1, 4])]), None);
}

#[test]
fn a_symbol_binds_across_inputs() {
    let bytes = model(
        vec![node("Add", &["a", "b"], &["y"], vec![])],
        vec![info("a", F32, &["n"]), info("b", F32, &["n"])],
        vec![info("y", F32, &["n"])],
        vec![],
        13,
    );
    let m = OnnxModel::from_bytes(&bytes).unwrap();
    let a = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    let b = DynTensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    match m.run(&[("a", a), ("b", b)]) {
        Err(Error::InputShape {
            symbol: Some((s, 2)),
            ..
        }) => assert_eq!(s, "n"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_node_that_cannot_take_its_inputs_names_itself() {
    let bytes = model(
        vec![node("Add", &["a", "b"], &["y"], vec![])],
        vec![info("a", F32, &["2", "3"]), info("b", F32, &["4"])],
        vec![info("y", F32, &["2", "3"])],
        vec![],
        13,
    );
    let m = OnnxModel::from_bytes(&bytes).unwrap();
    let a = DynTensor::from_slice(&[2, 3], &[0.0f32; 6]).unwrap();
    let b = DynTensor::from_slice(&[4], &[0.0f32; 4]).unwrap();
    match m.run(&[("a", a), ("b", b)]) {
        Err(Error::Op { node, shapes, .. }) => {
            assert_eq!(node, "Add_node");
            assert_eq!(shapes, vec![vec![2, 3], vec![4]]);
        }
        other => panic!("{other:?}"),
    }
}

fn external(location: &str, offset: Option<&str>) -> Vec<u8> {
    let mut entries = vec![StringStringEntryProto {
        key: Some("location".into()),
        value: Some(location.into()),
    }];
    if let Some(o) = offset {
        entries.push(StringStringEntryProto {
            key: Some("offset".into()),
            value: Some(o.into()),
        });
    }
    let w = TensorProto {
        name: Some("w".into()),
        dims: vec![2],
        data_type: Some(F32),
        data_location: Some(tensor_proto::DataLocation::External as i32),
        external_data: entries,
        ..Default::default()
    };
    model(
        vec![node("Mul", &["x", "w"], &["y"], vec![])],
        vec![info("x", F32, &["2"])],
        vec![info("y", F32, &["2"])],
        vec![w],
        13,
    )
}

#[test]
fn external_data_is_read_from_the_model_folder_only() {
    let dir = std::env::temp_dir().join(format!("tg-onnx-ext-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut data = vec![0u8; 4];
    data.extend_from_slice(&2.0f32.to_le_bytes());
    data.extend_from_slice(&(-3.0f32).to_le_bytes());
    std::fs::write(dir.join("w.bin"), &data).unwrap();
    std::fs::write(dir.join("good.onnx"), external("w.bin", Some("4"))).unwrap();
    let m = OnnxModel::load(dir.join("good.onnx")).unwrap();
    let x = DynTensor::from_slice(&[2], &[1.5f32, 2.0]).unwrap();
    assert_eq!(f32s(&m.run(&[("x", x)]).unwrap()[0].1), vec![3.0, -6.0]);
    std::fs::write(dir.join("missing.onnx"), external("absent.bin", None)).unwrap();
    assert!(matches!(
        OnnxModel::load(dir.join("missing.onnx")),
        Err(Error::ExternalData {
            problem: ExternalDataProblem::Unreadable(_),
            ..
        })
    ));
    for bad in ["../w.bin", "/etc/hostname"] {
        std::fs::write(dir.join("escape.onnx"), external(bad, None)).unwrap();
        assert!(matches!(
            OnnxModel::load(dir.join("escape.onnx")),
            Err(Error::ExternalData {
                problem: ExternalDataProblem::OutsideModelFolder,
                ..
            })
        ));
    }
    std::fs::write(dir.join("short.onnx"), external("w.bin", Some("8"))).unwrap();
    assert!(matches!(
        OnnxModel::load(dir.join("short.onnx")),
        Err(Error::ExternalData {
            problem: ExternalDataProblem::OutOfRange { .. },
            ..
        }) | Err(Error::BadTensorData { .. })
    ));
    // bytes have no folder to read from
    assert!(matches!(
        OnnxModel::from_bytes(&external("w.bin", None)),
        Err(Error::ExternalData {
            problem: ExternalDataProblem::NoModelFolder,
            ..
        })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn if_with_a_known_condition_runs_its_branch() {
    let branch = |value: f32| GraphProto {
        name: Some("b".into()),
        node: vec![node("Add", &["x", "k"], &["out"], vec![])],
        initializer: vec![tensor_f32("k", &[], &[value])],
        output: vec![info("out", F32, &["2"])],
        ..Default::default()
    };
    let graph_attr = |name: &str, g: GraphProto| AttributeProto {
        name: Some(name.into()),
        r#type: Some(attribute_proto::AttributeType::Graph as i32),
        g: Some(g),
        ..Default::default()
    };
    let cond = TensorProto {
        name: Some("c".into()),
        dims: vec![],
        data_type: Some(tensor_proto::DataType::Bool as i32),
        int32_data: vec![0],
        ..Default::default()
    };
    let bytes = model(
        vec![node(
            "If",
            &["c"],
            &["y"],
            vec![
                graph_attr("then_branch", branch(100.0)),
                graph_attr("else_branch", branch(-1.0)),
            ],
        )],
        vec![info("x", F32, &["2"])],
        vec![info("y", F32, &["2"])],
        vec![cond],
        13,
    );
    let m = OnnxModel::from_bytes(&bytes).unwrap();
    let x = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    assert_eq!(f32s(&m.run(&[("x", x)]).unwrap()[0].1), vec![0.0, 1.0]);
    assert!(m.kernels(&[(DType::F32, vec![2])]).is_some());
}

fn tensor_i64(name: &str, dims: &[i64], v: &[i64]) -> TensorProto {
    TensorProto {
        name: Some(name.into()),
        dims: dims.to_vec(),
        data_type: Some(I64),
        int64_data: v.to_vec(),
        ..Default::default()
    }
}

/// A one-node model over input `x` (f32 of `dims`) and the initializers `inits`, the node
/// reading `x` then the initializers in order.
fn one_node(op: &str, dims: &[&str], inits: Vec<TensorProto>, opset: i64) -> Vec<u8> {
    let mut ins = vec!["x"];
    let names: Vec<String> = inits.iter().map(|t| t.name.clone().unwrap()).collect();
    ins.extend(names.iter().map(String::as_str));
    model(
        vec![node(op, &ins, &["y"], vec![])],
        vec![info("x", F32, dims)],
        vec![info("y", F32, &[])],
        inits,
        opset,
    )
}

/// Runs `bytes` on a `[2, 3]` input (loading it first); the error of either step.
fn run_err(bytes: &[u8]) -> Error {
    let run = || -> Result<(), Error> {
        let m = OnnxModel::from_bytes(bytes)?;
        let x = DynTensor::from_slice(&[2, 3], &[1.0f32; 6]).unwrap();
        m.run(&[("x", x)])?;
        Ok(())
    };
    run().expect_err("a damaged model must be refused")
}

#[test]
fn empty_scalar_inputs_are_element_count_errors() {
    // CumSum's axis, TopK's k: an empty tensor where a scalar belongs
    for (op, name) in [("CumSum", "axis"), ("TopK", "k")] {
        let bytes = one_node(op, &["2", "3"], vec![tensor_i64(name, &[0], &[])], 13);
        match run_err(&bytes) {
            Error::ElementCount {
                node,
                value,
                expected: 1,
                found: 0,
                ..
            } => assert_eq!(
                (node.as_str(), value.as_str()),
                (&*format!("{op}_node"), name)
            ),
            other => panic!("{op}: {other:?}"),
        }
    }
    // OneHot's depth, empty; its values are given
    let bytes = model(
        vec![node("OneHot", &["x", "depth", "values"], &["y"], vec![])],
        vec![info("x", F32, &["2", "3"])],
        vec![info("y", F32, &[])],
        vec![
            tensor_i64("depth", &[0], &[]),
            tensor_f32("values", &[2], &[0.0, 1.0]),
        ],
        11,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::ElementCount { value, expected: 1, found: 0, .. } if value == "depth"
    ));
    // two elements where one belongs is refused too
    let bytes = one_node(
        "CumSum",
        &["2", "3"],
        vec![tensor_i64("axis", &[2], &[0, 1])],
        13,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::ElementCount {
            expected: 1,
            found: 2,
            ..
        }
    ));
}

#[test]
fn short_list_inputs_are_element_count_errors() {
    // Pad of a rank-2 input needs 4 pads
    let bytes = one_node(
        "Pad",
        &["2", "3"],
        vec![tensor_i64("pads", &[2], &[1, 1])],
        13,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::ElementCount { value, expected: 4, found: 2, .. } if value == "pads"
    ));
    // Slice's ends shorter than its starts
    let bytes = one_node(
        "Slice",
        &["2", "3"],
        vec![
            tensor_i64("starts", &[2], &[0, 0]),
            tensor_i64("ends", &[1], &[1]),
        ],
        13,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::ElementCount { value, expected: 2, found: 1, .. } if value == "ends"
    ));
}

/// A model of one `Range` node over constant operands (folded when it loads).
fn range_model(start: TensorProto, limit: TensorProto, delta: TensorProto) -> Vec<u8> {
    model(
        vec![node("Range", &["s", "l", "d"], &["y"], vec![])],
        vec![],
        vec![info("y", I64, &["n"])],
        vec![start, limit, delta],
        13,
    )
}

#[test]
fn bad_range_operands_are_typed_errors() {
    let s = |v: i64| tensor_i64("s", &[], &[v]);
    let l = |v: i64| tensor_i64("l", &[], &[v]);
    let d = |v: i64| tensor_i64("d", &[], &[v]);
    match OnnxModel::from_bytes(&range_model(s(0), l(10), d(0))) {
        Err(Error::InputValue {
            node, value, found, ..
        }) => assert_eq!((&*node, &*value, found), ("Range_node", "d", 0.0)),
        other => panic!("{other:?}"),
    }
    let f = |name: &str, v: f32| tensor_f32(name, &[], &[v]);
    assert!(matches!(
        OnnxModel::from_bytes(&range_model(f("s", 0.0), f("l", 1.0), f("d", 0.0))),
        Err(Error::InputValue { value, .. }) if value == "d"
    ));
    assert!(matches!(
        OnnxModel::from_bytes(&range_model(tensor_i64("s", &[0], &[]), l(10), d(1))),
        Err(Error::ElementCount { value, expected: 1, found: 0, .. }) if value == "s"
    ));
    // 2^62 elements
    assert!(matches!(
        OnnxModel::from_bytes(&range_model(s(i64::MIN), l(i64::MAX), d(4))),
        Err(Error::DimOverflow { tensor, .. }) if tensor == "Range_node"
    ));
}

#[test]
fn huge_or_negative_sizes_are_dim_overflow() {
    let cases = [
        ("Reshape", "shape", vec![1i64 << 40, 1 << 40, 0]),
        ("Reshape", "shape", vec![-2, 3]),
        ("Expand", "shape", vec![-1, 3]),
        ("Expand", "shape", vec![1 << 40, 2, 3]),
        ("Tile", "repeats", vec![1 << 20, 1 << 20]),
    ];
    for (op, name, v) in cases {
        let bytes = one_node(
            op,
            &["2", "3"],
            vec![tensor_i64(name, &[v.len() as i64], &v)],
            13,
        );
        match run_err(&bytes) {
            Error::DimOverflow { tensor, .. } => assert_eq!(tensor, format!("{op}_node")),
            other => panic!("{op} {v:?}: {other:?}"),
        }
    }
    // negative repeats are a bad value
    let bytes = one_node(
        "Tile",
        &["2", "3"],
        vec![tensor_i64("repeats", &[2], &[1, -1])],
        13,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::InputValue { value, .. } if value == "repeats"
    ));
}

#[test]
fn an_axis_out_of_range_is_an_axis_error() {
    let bytes = one_node(
        "CumSum",
        &["2", "3"],
        vec![tensor_i64("axis", &[], &[5])],
        13,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::Axis {
            axis: 5,
            rank: 2,
            ..
        }
    ));
}

fn graph_attr(name: &str, g: GraphProto) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        r#type: Some(attribute_proto::AttributeType::Graph as i32),
        g: Some(g),
        ..Default::default()
    }
}

fn string_attr(name: &str, v: &str) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        r#type: Some(attribute_proto::AttributeType::String as i32),
        s: Some(v.as_bytes().to_vec()),
        ..Default::default()
    }
}

/// A model of one node `op` over input `x` (f32 `[2, 3]`) and the named inputs `more` (empty
/// names are omitted optional inputs), with initializers `inits` and attributes `attrs`.
fn node_model(
    op: &str,
    more: &[&str],
    outputs: &[&str],
    inits: Vec<TensorProto>,
    attrs: Vec<AttributeProto>,
    opset: i64,
) -> Vec<u8> {
    let mut ins = vec!["x"];
    ins.extend(more);
    model(
        vec![node(op, &ins, outputs, attrs)],
        vec![info("x", F32, &["2", "3"])],
        outputs.iter().map(|o| info(o, F32, &[])).collect(),
        inits,
        opset,
    )
}

#[test]
fn damaged_control_flow_is_refused() {
    // If: an empty condition, and a missing one
    let branch = GraphProto {
        name: Some("b".into()),
        node: vec![node("Identity", &["x"], &["out"], vec![])],
        output: vec![info("out", F32, &["2", "3"])],
        ..Default::default()
    };
    let if_model = |cond: TensorProto, ins: &[&str]| {
        let mut inits = vec![cond];
        inits.retain(|_| !ins.is_empty());
        model(
            vec![node(
                "If",
                ins,
                &["y"],
                vec![
                    graph_attr("then_branch", branch.clone()),
                    graph_attr("else_branch", branch.clone()),
                ],
            )],
            vec![info("x", F32, &["2", "3"])],
            vec![info("y", F32, &[])],
            inits,
            13,
        )
    };
    let empty = TensorProto {
        name: Some("c".into()),
        dims: vec![0],
        data_type: Some(tensor_proto::DataType::Bool as i32),
        ..Default::default()
    };
    match run_err(&if_model(empty.clone(), &["c"])) {
        Error::ElementCount {
            node,
            expected: 1,
            found: 0,
            ..
        } => assert_eq!(node, "If_node"),
        other => panic!("If with an empty condition: {other:?}"),
    }
    assert!(matches!(
        run_err(&if_model(empty, &[])),
        Error::Arity { node, .. } if node == "If_node"
    ));
    // If without its else branch
    let bytes = model(
        vec![node(
            "If",
            &["c"],
            &["y"],
            vec![graph_attr("then_branch", branch.clone())],
        )],
        vec![info("x", F32, &["2", "3"])],
        vec![info("y", F32, &[])],
        vec![TensorProto {
            name: Some("c".into()),
            data_type: Some(tensor_proto::DataType::Bool as i32),
            int32_data: vec![0],
            ..Default::default()
        }],
        13,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::Attribute { node, attribute, .. } if node == "If_node" && attribute == "else_branch"
    ));

    // Loop: an empty trip count; a body that does not output its condition
    let body = |outputs: Vec<ValueInfoProto>| GraphProto {
        name: Some("body".into()),
        node: vec![node("Identity", &["cond_in"], &["cond_out"], vec![])],
        input: vec![
            info("i", I64, &[]),
            info("cond_in", tensor_proto::DataType::Bool as i32, &[]),
        ],
        output: outputs,
        ..Default::default()
    };
    let loop_model = |trips: TensorProto, body: GraphProto| {
        model(
            vec![node(
                "Loop",
                &["m", ""],
                &["y"],
                vec![graph_attr("body", body)],
            )],
            vec![info("x", F32, &["2", "3"])],
            vec![info("y", F32, &[])],
            vec![trips],
            13,
        )
    };
    let cond_out = || info("cond_out", tensor_proto::DataType::Bool as i32, &[]);
    match run_err(&loop_model(
        tensor_i64("m", &[0], &[]),
        body(vec![cond_out()]),
    )) {
        Error::ElementCount {
            node,
            value,
            expected: 1,
            found: 0,
            ..
        } => assert_eq!((&*node, &*value), ("Loop_node", "m")),
        other => panic!("Loop with an empty trip count: {other:?}"),
    }
    assert!(matches!(
        run_err(&loop_model(tensor_i64("m", &[], &[3]), body(vec![]))),
        Error::Arity { node, .. } if node == "Loop_node"
    ));
}

#[test]
fn damaged_resize_split_unpool_and_grid_inputs_are_typed_errors() {
    let f = |name: &str, v: &[f32]| tensor_f32(name, &[v.len() as i64], v);
    // Resize (opset 13: x, roi, scales, sizes): a scale per axis, positive and finite
    let resize = |inits: Vec<TensorProto>, more: &[&str]| {
        node_model("Resize", more, &["y"], inits, vec![], 13)
    };
    assert!(matches!(
        run_err(&resize(vec![f("s", &[1.0, 2.0, 3.0])], &["", "s"])),
        Error::ElementCount {
            expected: 2,
            found: 3,
            ..
        }
    ));
    for bad in [0.0, -2.0, f32::NAN, f32::INFINITY] {
        match run_err(&resize(vec![f("s", &[1.0, bad])], &["", "s"])) {
            Error::InputValue { node, found, .. } => {
                assert_eq!(node, "Resize_node");
                assert!(found.to_bits() == (bad as f64).to_bits() || bad.is_nan());
            }
            other => panic!("Resize scale {bad}: {other:?}"),
        }
    }
    // sizes: negative, too many, or past tg's element limit
    let sizes = |v: &[i64]| tensor_i64("z", &[v.len() as i64], v);
    assert!(matches!(
        run_err(&resize(vec![sizes(&[2, -3])], &["", "", "z"])),
        Error::InputValue { value, .. } if value == "z"
    ));
    assert!(matches!(
        run_err(&resize(vec![sizes(&[2, 3, 4])], &["", "", "z"])),
        Error::ElementCount {
            expected: 2,
            found: 3,
            ..
        }
    ));
    assert!(matches!(
        run_err(&resize(vec![sizes(&[1 << 31, 1 << 31])], &["", "", "z"])),
        Error::DimOverflow { tensor, .. } if tensor == "Resize_node"
    ));
    // a policy Resize does not have
    let bytes = node_model(
        "Resize",
        &["", "", "z"],
        &["y"],
        vec![sizes(&[4, 6])],
        vec![string_attr("keep_aspect_ratio_policy", "sideways")],
        18,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::Attribute { attribute, .. } if attribute == "keep_aspect_ratio_policy"
    ));
    assert!(matches!(
        run_err(&resize(vec![], &[])),
        Error::NodeInput { node, .. } | Error::Arity { node, .. } if node == "Resize_node"
    ));

    // Split (opset 13: sizes as input 1): one per output, none negative, adding up
    let split = |v: &[i64], outs: &[&str]| {
        node_model(
            "Split",
            &["s"],
            outs,
            vec![tensor_i64("s", &[v.len() as i64], v)],
            vec![int_attr("axis", 1)],
            13,
        )
    };
    assert!(matches!(
        run_err(&split(&[1, 2, 0], &["a", "b"])),
        Error::ElementCount { value, expected: 2, found: 3, .. } if value == "s"
    ));
    assert!(matches!(
        run_err(&split(&[4, -1], &["a", "b"])),
        Error::InputValue { value, .. } if value == "s"
    ));
    assert!(matches!(
        run_err(&split(&[1, 1], &["a", "b"])),
        Error::NodeInput { node, .. } if node == "Split_node"
    ));
    // the attribute form of opset 11: a wrong count is the attribute's error
    let ints = |name: &str, v: &[i64]| AttributeProto {
        name: Some(name.into()),
        r#type: Some(attribute_proto::AttributeType::Ints as i32),
        ints: v.to_vec(),
        ..Default::default()
    };
    let bytes = node_model(
        "Split",
        &[],
        &["a", "b"],
        vec![],
        vec![int_attr("axis", 1), ints("split", &[3])],
        11,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::Attribute { attribute, .. } if attribute == "split"
    ));

    // MaxUnpool over a (1, 1, 2, 2) input: output_shape short, negative or huge
    let unpool = |os: &[i64]| {
        let x = tensor_f32("v", &[1, 1, 2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let i = tensor_i64("i", &[1, 1, 2, 2], &[0, 3, 8, 15]);
        model(
            vec![node(
                "MaxUnpool",
                &["v", "i", "os"],
                &["y"],
                vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2, 2])],
            )],
            vec![info("x", F32, &["2", "3"])],
            vec![info("y", F32, &[])],
            vec![x, i, tensor_i64("os", &[os.len() as i64], os)],
            11,
        )
    };
    assert!(matches!(
        run_err(&unpool(&[4])),
        Error::ElementCount {
            expected: 4,
            found: 1,
            ..
        }
    ));
    for os in [&[1i64, 1, -4, 4][..], &[1, 1, 1 << 40, 1 << 40]] {
        match run_err(&unpool(os)) {
            Error::DimOverflow { tensor, .. } => assert_eq!(tensor, "MaxUnpool_node"),
            other => panic!("MaxUnpool output_shape {os:?}: {other:?}"),
        }
    }
    // strides that do not fit the spatial axes
    let bytes = model(
        vec![node(
            "MaxUnpool",
            &["v", "i"],
            &["y"],
            vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2])],
        )],
        vec![info("x", F32, &["2", "3"])],
        vec![info("y", F32, &[])],
        vec![
            tensor_f32("v", &[1, 1, 1, 1], &[1.0]),
            tensor_i64("i", &[1, 1, 1, 1], &[0]),
        ],
        11,
    );
    assert!(matches!(
        run_err(&bytes),
        Error::NodeInput { node, .. } if node == "MaxUnpool_node"
    ));

    // AffineGrid (opset 20): a size that is negative, huge, or of the wrong rank
    let grid = |size: &[i64]| {
        let theta = tensor_f32("t", &[1, 2, 3], &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        model(
            vec![node("AffineGrid", &["t", "size"], &["y"], vec![])],
            vec![info("x", F32, &["2", "3"])],
            vec![info("y", F32, &[])],
            vec![theta, tensor_i64("size", &[size.len() as i64], size)],
            20,
        )
    };
    for size in [&[1i64, 1, -2, 2][..], &[1, 1, 1 << 20, 1 << 20]] {
        match run_err(&grid(size)) {
            Error::DimOverflow { tensor, .. } => assert_eq!(tensor, "AffineGrid_node"),
            other => panic!("AffineGrid size {size:?}: {other:?}"),
        }
    }
    assert!(matches!(
        run_err(&grid(&[1, 1, 2])),
        Error::NodeInput { node, .. } if node == "AffineGrid_node"
    ));
}
