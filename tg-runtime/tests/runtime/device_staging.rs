//! The staging-copy path of discrete GPUs, forced on lavapipe with TG_STAGING=1 in a child
//! process (the setting applies when the device is created, once per process).

use crate::device_common::*;
use tg_runtime::device::{Device, take_validation_messages};

#[test]
fn staging_path_in_a_child_process() {
    let validation = std::env::var("TG_VALIDATION").unwrap_or_default();
    let out = run_child(
        "child_staging",
        &[("TG_STAGING", "1"), ("TG_VALIDATION", &validation)],
    );
    assert_eq!(child_value(&out, "MAPPED"), "false");
}

#[test]
#[ignore = "run by staging_path_in_a_child_process"]
fn child_staging() {
    let device = Device::get().expect("device");
    println!("MAPPED={}", device.info().host_visible_device_memory);

    for size in [0u64, 1, 5, 33, 4097, 100_003] {
        let buf = device.alloc(size).unwrap();
        let data: Vec<u8> = (0..size).map(|i| (i * 13 + 1) as u8).collect();
        device.write(&buf, 0, &data).unwrap();
        let mut back = vec![0u8; size as usize];
        device.read(&buf, 0, &mut back).unwrap();
        assert_eq!(back, data, "size {size}");
    }
    let buf = device.alloc(64).unwrap();
    device.write(&buf, 0, &[0; 64]).unwrap();
    device.write(&buf, 17, &[1, 2, 3]).unwrap();
    let mut mid = [9u8; 5];
    device.read(&buf, 16, &mut mid).unwrap();
    assert_eq!(mid, [0, 1, 2, 3, 0]);

    // Uploads, a dependent chain, an upload over a buffer a kernel just read, a download.
    let n = 5000;
    let p = kernel(AXPB, 2, 12).unwrap();
    let x = upload(&vec![3.0; n]).unwrap();
    let y = device.alloc(4 * n as u64).unwrap();
    let z = device.alloc(4 * n as u64).unwrap();
    device
        .execute(
            &[axpb(&p, &x, &y, n, 2.0, 0.0), axpb(&p, &y, &z, n, 1.0, 1.0)],
            false,
        )
        .unwrap();
    assert_eq!(download(&z).unwrap(), vec![7.0; n]);
    let ones: Vec<u8> = (0..n).flat_map(|_| 1.0f32.to_le_bytes()).collect();
    device.write(&x, 0, &ones).unwrap();
    device
        .execute(&[axpb(&p, &x, &z, n, 2.0, 0.0)], false)
        .unwrap();
    assert_eq!(download(&z).unwrap(), vec![2.0; n]);
    assert_eq!(take_validation_messages(), Vec::<String>::new());
}
