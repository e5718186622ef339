//! Buffer windows: tensors over byte ranges of one buffer, bound at their offsets, with
//! barriers per window, and the alignment and padding rules that make that safe.

use tg_runtime::device::Device;
use tg_runtime::{BinaryOp, DType, Error, Lazy};

fn bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn tensors_over_windows_of_one_buffer() {
    let device = Device::get().unwrap();
    let align = device.info().window_alignment;
    let n = 1000; // 4000 bytes, padded to whole vectors: 4000
    let span = 4096u64.next_multiple_of(align);
    let buffer = device.alloc(4 * span).unwrap();
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (i * 2) as f32).collect();
    device.write(&buffer, 0, &bytes(&a)).unwrap();
    device.write(&buffer, span, &bytes(&b)).unwrap();
    let wa = buffer.window(0, span, align).unwrap();
    let wb = buffer.window(span, span, align).unwrap();
    let wc = buffer.window(2 * span, span, align).unwrap();
    let la = Lazy::from_buffer(wa, DType::F32, &[n]).unwrap();
    let lb = Lazy::from_buffer(wb, DType::F32, &[n]).unwrap();
    let lc = Lazy::from_buffer(wc, DType::F32, &[n]).unwrap();
    // c = a + b written in place into the third window; then a = c * 2 into the first, which
    // the first kernel read: the barrier covers the windows that conflict
    let c = lc.assign(&la.binary(BinaryOp::Add, &lb).unwrap()).unwrap();
    let two = Lazy::constant(2.0f32, DType::F32, &[n]).unwrap();
    let a2 = la.assign(&c.binary(BinaryOp::Mul, &two).unwrap()).unwrap();
    tg_runtime::realize(&[&c, &a2]).unwrap();
    let mut back = vec![0u8; 4 * n];
    device.read(&buffer, 2 * span, &mut back).unwrap();
    let got: Vec<f32> = back
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(got, want, "c in the third window");
    assert_eq!(
        a2.to_vec::<f32>().unwrap(),
        want.iter().map(|v| v * 2.0).collect::<Vec<_>>()
    );
    // the second window is untouched
    device.read(&buffer, span, &mut back).unwrap();
    assert_eq!(back, bytes(&b));
}

#[test]
fn windows_check_alignment_and_padding() {
    let device = Device::get().unwrap();
    let align = device.info().window_alignment;
    let buffer = device.alloc(4096).unwrap();
    assert!(matches!(
        buffer.window(4, 64, align),
        Err(Error::Argument {
            op: "Buffer::window",
            ..
        })
    ));
    assert!(buffer.window(4000, 200, align).is_err(), "past the end");
    // 5 f32 need 8 elements' room: whole vectors of four
    let w = buffer.window(0, 20, align).unwrap();
    assert!(matches!(
        Lazy::from_buffer(w, DType::F32, &[5]),
        Err(Error::Argument {
            op: "from_buffer",
            ..
        })
    ));
    let w = buffer.window(0, 32, align).unwrap();
    assert!(Lazy::from_buffer(w, DType::F32, &[5]).is_ok());
}
