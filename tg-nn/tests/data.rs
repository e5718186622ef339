//! tg_nn::data's loader: every sample exactly once per epoch, inputs and targets kept
//! together, seeded orders that repeat for equal seeds and change between epochs, the last
//! partial batch and drop_last, and its argument errors.

use tg_nn::data::{DataLoader, HostArray};
use tg_ops::DynTensor;
use tg_runtime::{DType, Error};

/// `n` samples: inputs `[n, 2, 3]` f32 whose every value in sample `i` is `i` plus its
/// position / 10, targets `[n]` i64 holding `i`.
fn numbered(n: usize) -> (HostArray, HostArray) {
    let x: Vec<f32> = (0..n)
        .flat_map(|i| (0..6).map(move |j| i as f32 + j as f32 / 10.0))
        .collect();
    let y: Vec<i64> = (0..n as i64).collect();
    (
        HostArray::new(&[n, 2, 3], &x).unwrap(),
        HostArray::new(&[n], &y).unwrap(),
    )
}

/// The target indices of each batch of `epoch`, checking that every batch's inputs belong
/// to its targets and have the right shapes.
fn epoch_batches(loader: &DataLoader, epoch: u64) -> Vec<Vec<usize>> {
    let batches = loader.epoch(epoch);
    assert_eq!(batches.len(), loader.num_batches());
    batches
        .map(|b| {
            let (x, y) = b.unwrap();
            let n = y.shape()[0];
            assert_eq!(
                (x.shape(), x.dtype(), y.dtype()),
                (&[n, 2, 3][..], DType::F32, DType::I64)
            );
            let ids: Vec<usize> = y
                .to_vec::<i64>()
                .unwrap()
                .iter()
                .map(|&i| i as usize)
                .collect();
            let xs = x.to_vec::<f32>().unwrap();
            for (k, &i) in ids.iter().enumerate() {
                let want: Vec<f32> = (0..6).map(|j| i as f32 + j as f32 / 10.0).collect();
                assert_eq!(
                    xs[k * 6..(k + 1) * 6],
                    want[..],
                    "sample {i} lost its inputs"
                );
            }
            ids
        })
        .collect()
}

#[test]
fn every_sample_once_per_epoch() {
    for (n, batch) in [(10, 3), (12, 4), (7, 7), (5, 8), (1, 1)] {
        let (x, y) = numbered(n);
        let loader = DataLoader::new(x, y, batch).unwrap().shuffle(true).seed(99);
        for epoch in 0..4 {
            let mut seen: Vec<usize> = epoch_batches(&loader, epoch).concat();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..n).collect::<Vec<_>>(),
                "n {n}, batch {batch}, epoch {epoch}"
            );
        }
    }
}

#[test]
fn without_shuffle_the_order_is_the_samples_order() {
    let (x, y) = numbered(7);
    let loader = DataLoader::new(x, y, 3).unwrap();
    assert_eq!(
        epoch_batches(&loader, 0),
        vec![vec![0, 1, 2], vec![3, 4, 5], vec![6]]
    );
    assert_eq!(epoch_batches(&loader, 5), epoch_batches(&loader, 0));
}

#[test]
fn shuffles_repeat_for_equal_seeds_and_differ_between_epochs_and_seeds() {
    let make = |seed| {
        let (x, y) = numbered(50);
        DataLoader::new(x, y, 8).unwrap().shuffle(true).seed(seed)
    };
    let (a, b, c) = (make(1), make(1), make(2));
    let epochs: Vec<Vec<Vec<usize>>> = (0..3).map(|e| epoch_batches(&a, e)).collect();
    for (e, batches) in epochs.iter().enumerate() {
        assert_eq!(
            batches,
            &epoch_batches(&b, e as u64),
            "equal seeds, epoch {e}"
        );
        assert_eq!(batches.concat(), a.order(e as u64));
        assert_ne!(
            batches,
            &epoch_batches(&c, e as u64),
            "seeds 1 and 2, epoch {e}"
        );
        assert_ne!(
            batches.concat(),
            (0..50).collect::<Vec<_>>(),
            "epoch {e} is shuffled"
        );
    }
    assert_ne!(epochs[0], epochs[1]);
    assert_ne!(epochs[1], epochs[2]);
}

#[test]
fn the_last_partial_batch_is_kept_or_dropped() {
    let sizes = |loader: &DataLoader, epoch| -> Vec<usize> {
        epoch_batches(loader, epoch).iter().map(Vec::len).collect()
    };
    let (x, y) = numbered(10);
    let keep = DataLoader::new(x.clone(), y.clone(), 4)
        .unwrap()
        .shuffle(true);
    assert_eq!(keep.num_batches(), 3);
    assert_eq!(sizes(&keep, 0), vec![4, 4, 2]);
    let drop = DataLoader::new(x, y, 4)
        .unwrap()
        .shuffle(true)
        .drop_last(true);
    assert_eq!(drop.num_batches(), 2);
    assert_eq!(sizes(&drop, 0), vec![4, 4]);
    // the dropped samples are the last two of the epoch's order, which changes per epoch
    for epoch in 0..3 {
        let kept: Vec<usize> = epoch_batches(&drop, epoch).concat();
        assert_eq!(kept, drop.order(epoch)[..8]);
    }
    // fewer samples than one batch: one short batch, or none
    let (x, y) = numbered(3);
    let short = DataLoader::new(x, y, 4).unwrap();
    assert_eq!(sizes(&short, 0), vec![3]);
    assert_eq!(short.clone().drop_last(true).epoch(0).count(), 0);
}

#[test]
fn arrays_come_from_slices_bytes_or_tensors() {
    let t = DynTensor::from_slice(&[3, 2], &[1u8, 2, 3, 4, 5, 6]).unwrap();
    let a = HostArray::from_tensor(&t).unwrap();
    assert_eq!(
        (a.dtype(), a.shape(), a.len()),
        (DType::U8, &[3usize, 2][..], 3)
    );
    let rows = a.gather(&[2, 0]).unwrap();
    assert_eq!(rows.to_vec::<u8>().unwrap(), vec![5, 6, 1, 2]);
    let b = HostArray::from_bytes(DType::I16, &[2], vec![1, 0, 0xff, 0xff]).unwrap();
    assert_eq!(
        b.gather(&[1, 0]).unwrap().to_vec::<i16>().unwrap(),
        vec![-1, 1]
    );
    assert!(matches!(
        a.gather(&[3]).unwrap_err(),
        Error::Argument { .. }
    ));
}

#[test]
fn bad_arguments_are_errors() {
    let (x, y) = numbered(4);
    assert!(matches!(
        DataLoader::new(x.clone(), y, 0).unwrap_err(),
        Error::Argument {
            op: "DataLoader",
            ..
        }
    ));
    let (_, y5) = numbered(5);
    assert!(matches!(
        DataLoader::new(x, y5, 2).unwrap_err(),
        Error::Shape {
            op: "DataLoader",
            ..
        }
    ));
    assert!(matches!(
        HostArray::new(&[], &[1.0f32]).unwrap_err(),
        Error::Shape {
            op: "HostArray",
            ..
        }
    ));
    assert!(matches!(
        HostArray::new(&[2, 2], &[1.0f32; 3]).unwrap_err(),
        Error::NumelMismatch {
            op: "HostArray",
            ..
        }
    ));
}
