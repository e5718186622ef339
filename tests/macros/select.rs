//! `select` in a kernel body with its position a scalar argument: a var of the recording, so
//! every position, negative and out of range ones included, replays the one recording.

use tg::prelude::*;

#[kernel]
fn column(x: &Tensor<shape![3, 5]>, at: i32) -> Tensor<shape![3]> {
    x.select(1, at) * 2.0
}

#[test]
fn a_position_argument_is_a_var_of_the_recording() {
    let v: Vec<f32> = (0..15).map(|i| i as f32).collect();
    let x = Tensor::<Rank2<3, 5>>::from_slice(&v).unwrap();
    x.realize().unwrap();
    assert_eq!(column(&x, 0).to_vec().unwrap(), vec![0.0, 10.0, 20.0]);
    let before = tg::runtime::thread_stats();
    for at in -5..8 {
        // numpy's position for -5..0, zeros past the end
        let col = if at < 0 { at + 5 } else { at };
        let want: Vec<f32> = (0..3)
            .map(|r| {
                if col < 5 {
                    2.0 * (r * 5 + col) as f32
                } else {
                    0.0
                }
            })
            .collect();
        assert_eq!(column(&x, at).to_vec().unwrap(), want, "position {at}");
    }
    let after = tg::runtime::thread_stats();
    assert_eq!(after.schedules, before.schedules, "every call replayed");
    assert_eq!(after.compiles, before.compiles);
}
