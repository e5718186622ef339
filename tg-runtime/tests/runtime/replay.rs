//! A recorded call replays its kernels on new inputs: no graph, no schedule, no compile.

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, record, thread_stats};

/// relu(x @ w + b) for x (4, 8), w (8, 3), b (3,), with a realize in the middle.
fn layer(x: &Lazy, w: &Lazy, b: &Lazy) -> tg_runtime::Result<Vec<Lazy>> {
    let xe = x.reshape(&[4, 8, 1])?.expand(&[4, 8, 3])?;
    let we = w.reshape(&[1, 8, 3])?.expand(&[4, 8, 3])?;
    let h = xe
        .binary(BinaryOp::Mul, &we)?
        .reduce(ReduceOp::Add, &[1])?
        .reshape(&[4, 3])?;
    let h = h.contiguous();
    h.realize()?;
    let y = h.binary(BinaryOp::Add, &b.reshape(&[1, 3])?.expand(&[4, 3])?)?;
    let y = y.binary(
        BinaryOp::Max,
        &Lazy::constant(0.0f32, DType::F32, &[4, 3]).unwrap(),
    )?;
    Ok(vec![y, h])
}

fn reference(x: &[f32], w: &[f32], b: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0; 12];
    for i in 0..4 {
        for j in 0..3 {
            let s: f32 = (0..8).map(|k| x[i * 8 + k] * w[k * 3 + j]).sum();
            out[i * 3 + j] = (s + b[j]).max(0.0);
        }
    }
    out
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
}

#[test]
fn second_call_replays_without_graph_schedule_or_compile() {
    let w_data: Vec<f32> = (0..24).map(|i| (i as f32 * 0.37).sin()).collect();
    let b_data = [0.1f32, -0.2, 0.3];
    let w = Lazy::from_slice(&[8, 3], &w_data).unwrap();
    let b = Lazy::from_slice(&[3], &b_data).unwrap();
    let x1_data: Vec<f32> = (0..32).map(|i| (i as f32 * 0.11).cos()).collect();
    let x1 = Lazy::from_slice(&[4, 8], &x1_data).unwrap();
    // weights are inputs here; they could as well be captured (fixed) buffers
    let (outs, rec) = record(&[&x1, &w, &b], || layer(&x1, &w, &b)).unwrap();
    assert!(close(
        &outs[0].to_vec::<f32>().unwrap(),
        &reference(&x1_data, &w_data, &b_data)
    ));
    assert_eq!(rec.kernels(), 2);

    let x2_data: Vec<f32> = (0..32).map(|i| (i as f32 * 0.29 + 1.0).sin()).collect();
    let x2 = Lazy::from_slice(&[4, 8], &x2_data).unwrap();
    x2.realize().unwrap();
    let before = thread_stats();
    let outs = rec.replay(&[&x2, &w, &b]).unwrap();
    let after = thread_stats();
    assert_eq!(after.nodes - before.nodes, 0, "no graph built");
    assert_eq!(after.schedules - before.schedules, 0, "nothing scheduled");
    assert_eq!(after.compiles - before.compiles, 0, "nothing compiled");
    assert_eq!(after.kernels - before.kernels, 2);
    assert!(close(
        &outs[0].to_vec::<f32>().unwrap(),
        &reference(&x2_data, &w_data, &b_data)
    ));
    assert_eq!(outs[1].shape(), &[4, 3]);

    // new weights replay too: they are inputs of the recording
    let w3: Vec<f32> = w_data.iter().map(|v| v * 2.0).collect();
    let w3l = Lazy::from_slice(&[8, 3], &w3).unwrap();
    let outs = rec.replay(&[&x2, &w3l, &b]).unwrap();
    assert!(close(
        &outs[0].to_vec::<f32>().unwrap(),
        &reference(&x2_data, &w3, &b_data)
    ));
}

#[test]
fn replay_checks_its_inputs() {
    let x = Lazy::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    let (_, rec) = record(&[&x], || Ok(vec![x.binary(BinaryOp::Add, &x)?])).unwrap();
    let wrong = Lazy::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    let err = rec
        .replay(&[&wrong])
        .expect_err("shape mismatch")
        .to_string();
    assert!(err.contains("do not match"), "{err}");
    let wrong = Lazy::from_slice(&[2], &[1i32, 2]).unwrap();
    assert!(!rec.matches(&[&wrong]));
    let ok = rec
        .replay(&[&Lazy::from_slice(&[2], &[5.0f32, 6.0]).unwrap()])
        .unwrap();
    assert_eq!(ok[0].to_vec::<f32>().unwrap(), vec![10.0, 12.0]);
}

/// A body that builds an expression an earlier realize computed (and something still holds)
/// is recorded computing it: hash-consing would otherwise hand the body the realized node,
/// whose buffer the recording would read as a fixed one, and every replay would return the
/// value the earlier inputs gave. (Seen as a wrong first replay of a GPT training step whose
/// eager loss on the same model and batch was still held: the constants another thread's
/// graphs held kept that graph findable.)
#[test]
fn an_expression_realized_before_the_recording_is_computed_by_it() {
    let two = Lazy::constant(2.0f32, DType::F32, &[4]).unwrap();
    let x = Lazy::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let eager = x.binary(BinaryOp::Mul, &two).unwrap();
    assert_eq!(eager.to_vec::<f32>().unwrap(), [2.0, 4.0, 6.0, 8.0]);
    let (outs, rec) = record(&[&x], || Ok(vec![x.binary(BinaryOp::Mul, &two)?])).unwrap();
    assert_eq!(outs[0].to_vec::<f32>().unwrap(), [2.0, 4.0, 6.0, 8.0]);
    let x2 = Lazy::from_slice(&[4], &[10.0f32, 20.0, 30.0, 40.0]).unwrap();
    let outs = rec.replay(&[&x2]).unwrap();
    assert_eq!(outs[0].to_vec::<f32>().unwrap(), [20.0, 40.0, 60.0, 80.0]);
    assert_eq!(rec.kernels(), 1, "the recording computes x * 2");
    // the eager result keeps its value
    assert_eq!(eager.to_vec::<f32>().unwrap(), [2.0, 4.0, 6.0, 8.0]);
}

/// The same for a value of vars alone, realized before the recording: a replay that rebinds
/// the var computes with the new value. Constants alone, which cannot change, are shared.
#[test]
fn a_value_of_vars_realized_before_the_recording_follows_their_rebinding() {
    let id = 0x7467_0001;
    // the var and the constant stay alive, so the body's expression finds the realized sum
    let var = Lazy::var(id, 3.0f32, DType::F32, &[4]).unwrap();
    let one = Lazy::constant(1.0f32, DType::F32, &[4]).unwrap();
    let scale = var.binary(BinaryOp::Add, &one).unwrap();
    assert_eq!(scale.to_vec::<f32>().unwrap(), [4.0; 4]);
    let x = Lazy::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let (outs, rec) = record(&[&x], || {
        let scale = Lazy::var(id, 3.0f32, DType::F32, &[4])?.binary(BinaryOp::Add, &one)?;
        Ok(vec![x.binary(BinaryOp::Mul, &scale)?])
    })
    .unwrap();
    assert_eq!(outs[0].to_vec::<f32>().unwrap(), [4.0, 8.0, 12.0, 16.0]);
    let outs = rec
        .replay_with(&[&x], &[(id, tg_runtime::Scalar::Float(9.0))])
        .unwrap();
    assert_eq!(outs[0].to_vec::<f32>().unwrap(), [10.0, 20.0, 30.0, 40.0]);

    // a realized value of constants alone is the body's too (its buffer read as fixed)
    let ten = Lazy::constant(10.0f32, DType::F32, &[4]).unwrap();
    let eleven = ten.binary(BinaryOp::Add, &one).unwrap();
    eleven.realize().unwrap();
    let built = std::cell::Cell::new(0);
    let (_, rec) = record(&[&x], || {
        let eleven = ten.binary(BinaryOp::Add, &one)?;
        built.set(eleven.id());
        Ok(vec![x.binary(BinaryOp::Mul, &eleven)?])
    })
    .unwrap();
    assert_eq!(built.get(), eleven.id());
    let outs = rec.replay(&[&x]).unwrap();
    assert_eq!(outs[0].to_vec::<f32>().unwrap(), [11.0, 22.0, 33.0, 44.0]);
}
