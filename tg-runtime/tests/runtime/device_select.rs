//! TG_DEVICE selection, on the devices of this machine and on made-up lists.

use crate::device_common::run_child;
use tg_runtime::Error;
use tg_runtime::device::{Device, DeviceCandidate, DeviceType, choose_device, list_devices};

#[test]
fn select_by_index_and_by_name() {
    let devices = list_devices().expect("list devices");
    assert!(!devices.is_empty());
    let info = Device::get().expect("device").info();
    let chosen = &devices[info.index];
    assert_eq!(chosen.name, info.name);

    assert_eq!(
        choose_device(&devices, Some(&info.index.to_string())).unwrap(),
        info.index
    );
    let part = info.name.split_whitespace().next().unwrap().to_uppercase();
    let by_name = choose_device(&devices, Some(&part)).unwrap();
    assert!(devices[by_name].name.to_uppercase().contains(&part));
    if info.name.contains("llvmpipe") {
        assert_eq!(choose_device(&devices, Some("0")).unwrap(), 0);
        assert_eq!(
            devices[choose_device(&devices, Some("llvmpipe")).unwrap()].name,
            info.name
        );
    }
}

#[test]
fn bogus_names_and_indices_list_what_exists() {
    let devices = list_devices().expect("list devices");
    for wanted in ["no-such-gpu-9000", "999"] {
        match choose_device(&devices, Some(wanted)) {
            Err(Error::DeviceNotFound {
                wanted: w,
                available,
            }) => {
                assert_eq!(w, wanted);
                assert!(
                    available.contains(&format!("0: {}", devices[0].name)),
                    "{available}"
                );
                let message = Error::DeviceNotFound {
                    wanted: w,
                    available,
                }
                .to_string();
                assert!(message.contains("TG_DEVICE"), "{message}");
            }
            other => panic!("expected DeviceNotFound for {wanted}, got {other:?}"),
        }
    }
}

#[test]
fn default_prefers_gpus() {
    let mk = |index, name: &str, device_type| DeviceCandidate {
        index,
        name: name.into(),
        device_type,
        api_version: (1, 3, 0),
        compute: true,
    };
    let lavapipe = mk(0, "llvmpipe (LLVM 15.0.6, 256 bits)", DeviceType::Cpu);
    let igpu = mk(1, "Intel(R) UHD Graphics", DeviceType::Integrated);
    let dgpu = mk(2, "NVIDIA H200", DeviceType::Discrete);
    let all = [lavapipe.clone(), igpu.clone(), dgpu];
    assert_eq!(choose_device(&all, None).unwrap(), 2);
    assert_eq!(choose_device(&all[..2], None).unwrap(), 1);
    assert_eq!(choose_device(&all, Some("LLVMPIPE")).unwrap(), 0);
    assert_eq!(choose_device(&all, Some(" 1 ")).unwrap(), 1);
    let old = DeviceCandidate {
        api_version: (1, 1, 0),
        ..mk(0, "old", DeviceType::Discrete)
    };
    assert!(matches!(
        choose_device(&[old], None),
        Err(Error::NoVulkan { .. })
    ));
}

#[test]
fn start_up_errors_name_the_fix() {
    let out = run_child("child_start_up_error", &[("TG_DEVICE", "no-such-gpu-9000")]);
    assert!(out.contains("ERROR=DeviceNotFound"), "{out}");
    let out = run_child(
        "child_start_up_error",
        &[("VK_ICD_FILENAMES", "/nonexistent/icd.json")],
    );
    assert!(out.contains("ERROR=NoVulkan"), "{out}");
    assert!(out.contains("mesa-vulkan-drivers"), "{out}");
    let out = run_child(
        "child_start_up_error",
        &[
            ("TG_VALIDATION", "1"),
            ("VK_LAYER_PATH", "/nonexistent"),
            ("VK_ADD_LAYER_PATH", ""),
        ],
    );
    assert!(out.contains("ERROR=NoVulkan"), "{out}");
    assert!(out.contains("vulkan-validationlayers"), "{out}");
}

#[test]
#[ignore = "run by start_up_errors_name_the_fix"]
fn child_start_up_error() {
    let first = Device::get().expect_err("start-up should fail");
    let again = Device::get().expect_err("and fail again");
    assert_eq!(first.to_string(), again.to_string());
    let kind = format!("{first:?}");
    println!(
        "ERROR={}",
        kind.split([' ', '{']).next().unwrap_or_default()
    );
    println!("{first}");
}
