//! The validation layer is on with TG_VALIDATION=1, stays quiet under normal use, and turns a
//! misuse into an error of the call that made it. Runs in a child process with TG_VALIDATION=1
//! whatever the parent's setting, since the device reads it once per process.

use crate::device_common::*;
use tg_runtime::Error;
use tg_runtime::compile::compile_glsl;
use tg_runtime::device::{Device, KernelLayout, take_validation_messages};

#[test]
fn validation_layer_in_a_child_process() {
    let out = run_child("child_validation", &[("TG_VALIDATION", "1")]);
    assert_eq!(child_value(&out, "VALIDATION"), "true");
    assert_eq!(child_value(&out, "MISUSE"), "caught");
}

#[test]
#[ignore = "run by validation_layer_in_a_child_process"]
fn child_validation() {
    let device = Device::get().expect("device");
    println!("VALIDATION={}", device.info().validation);

    // Normal use: a dependent chain, copies, a pipeline; no messages at all.
    let n = 1000;
    let p = kernel(AXPB, 2, 12).unwrap();
    let x = upload(&vec![1.0; n]).unwrap();
    let y = device.alloc(4 * n as u64).unwrap();
    let z = device.alloc(4 * n as u64).unwrap();
    device
        .execute(
            &[axpb(&p, &x, &y, n, 2.0, 0.0), axpb(&p, &y, &z, n, 2.0, 1.0)],
            true,
        )
        .unwrap();
    assert_eq!(download(&z).unwrap(), vec![5.0; n]);
    assert_eq!(take_validation_messages(), Vec::<String>::new());

    // A misuse the safe API cannot rule out: a layout that declares fewer push-constant bytes
    // than the shader uses. The layer reports it, and the call fails with its message.
    let source = AXPB
        .replace("float d; }", "float d; float e; }")
        .replace("k + d;", "k + d + e;");
    let spirv = compile_glsl(&source).unwrap();
    let wrong = KernelLayout {
        bindings: 2,
        texels: 0,
        push_constant_bytes: 12,
    };
    match device.pipeline(0xbad, &spirv, wrong) {
        Err(Error::Validation { messages }) => {
            println!("{}", messages.join("\n"));
            println!("MISUSE=caught");
        }
        other => println!("MISUSE=missed {other:?}"),
    }
}
