//! Printing against numpy (fixtures/ops_creation_display.json, made by
//! scripts/gen_ops_creation.py): `Display` must equal `str(array)` and `Debug` must equal
//! `"DynTensor(" + np.array2string(a, separator=", ", prefix=..., suffix=...) + suffix`.

use tg_test_support::fixture;

use tg::prelude::*;
use tg::typed::display::{Nested, PrintOptions};

#[test]
fn display_and_debug_match_numpy() {
    let path = fixture::fixtures_dir().join("ops_creation_display.json");
    let text = std::fs::read_to_string(&path).expect("fixture file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("fixture json");
    let cases = json["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for c in cases {
        let name = c["name"].as_str().unwrap_or("?");
        let t = DynTensor::from_lazy(fixture::lazy(&fixture::spec(&c["input"])));
        for (kind, got, want) in [
            ("str", format!("{t}"), &c["str"]),
            ("debug", format!("{t:?}"), &c["debug"]),
        ] {
            let want = want.as_str().expect("expected string");
            if got != want {
                failures.push(format!(
                    "{name} ({kind}):\n--- got ---\n{got}\n--- want ---\n{want}"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn typed_tensors_print_with_their_name() {
    let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(t.to_string(), "[[1. 2.]\n [3. 4.]]");
    assert_eq!(
        format!("{t:?}"),
        "Tensor([[1., 2.],\n        [3., 4.]], shape=[2, 2], dtype=float32)"
    );
    let s = Tensor::<Rank0, f16>::from_slice(&[f16::from_f32(0.1)]).unwrap();
    assert_eq!(s.to_string(), "0.1");
    assert_eq!(format!("{s:?}"), "Tensor(0.1, shape=[], dtype=float16)");
}

#[test]
fn print_options_change_precision_and_summary() {
    let t = DynTensor::from_slice(&[6], &[1.0f64 / 3.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let opts = PrintOptions {
        precision: 3,
        threshold: 4,
        edgeitems: 1,
        linewidth: 75,
    };
    assert_eq!(t.to_string_with(&opts).unwrap(), "[0.333 ... 6.   ]");
}

#[test]
fn nested_readback_follows_the_axes() {
    let t = Tensor::<Rank2<2, 0>, i32>::zeros();
    assert_eq!(
        t.to_nested().unwrap(),
        Nested::List(vec![Nested::List(vec![]), Nested::List(vec![])])
    );
    let s = Tensor::<Rank0, bool>::ones();
    assert_eq!(s.to_nested().unwrap(), Nested::Item(true));
}

#[test]
fn device_errors_print_instead_of_panicking() {
    // an element count no device can allocate
    let huge = DynTensor::zeros(&[1 << 31, 1 << 20], DType::F32)
        .unwrap()
        .contiguous();
    let shown = format!("{huge}");
    assert!(shown.starts_with("<error: "), "{shown}");
    let debug = format!("{huge:?}");
    assert!(
        debug.starts_with("DynTensor(<error: ")
            && debug.ends_with("shape=[2147483648, 1048576], dtype=float32)"),
        "{debug}"
    );
}
