//! The embedded UCI digits: counts, the label histogram, pixel values known from
//! scikit-learn's copy, the fixed train/test split, and batching them.

use tg_nn::data::{DataLoader, Digits, TRAIN_LEN, digits};

fn histogram(labels: &[i32]) -> [usize; 10] {
    let mut h = [0; 10];
    for &l in labels {
        h[l as usize] += 1;
    }
    h
}

/// Pixels as the file stores them (0..16).
fn raw(pixels: &[f32]) -> Vec<u32> {
    pixels
        .iter()
        .map(|&p| {
            let v = p * 16.0;
            assert_eq!(v, v.round(), "pixel {p} is not a multiple of 1/16");
            v as u32
        })
        .collect()
}

#[test]
fn counts_labels_and_known_pixels() {
    let d = digits().unwrap();
    assert_eq!((d.len(), d.images().len()), (1797, 1797 * 64));
    assert!(d.images().iter().all(|&p| (0.0..=1.0).contains(&p)));
    // scikit-learn's load_digits: bincount(target)
    assert_eq!(
        histogram(d.labels()),
        [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
    );
    assert_eq!(d.labels()[..10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(d.labels()[1792..], [9, 0, 8, 9, 8]);
    // images[0] and images[-1] of load_digits(), first rows
    assert_eq!(
        raw(&d.image(0)[..16]),
        [0, 0, 5, 13, 9, 1, 0, 0, 0, 0, 13, 15, 10, 15, 5, 0]
    );
    assert_eq!(raw(&d.image(1796)[56..]), [0, 1, 8, 12, 14, 12, 1, 0]);
    let total: u32 = raw(d.images()).iter().sum();
    assert_eq!(total, 561_718);
}

#[test]
fn the_split_is_fixed_and_partitions_the_images() {
    let d = digits().unwrap();
    let (train, test) = d.train_test_split();
    assert_eq!((train.len(), test.len()), (TRAIN_LEN, 360));
    let (train2, test2) = d.train_test_split();
    assert_eq!(
        (train2.labels(), test2.labels()),
        (train.labels(), test.labels())
    );
    assert_eq!(train2.images(), train.images());
    // together the two parts hold each image once: compare as sorted (label, pixels) keys
    let key = |s: &Digits, i: usize| (s.labels()[i], raw(s.image(i)));
    let mut parts: Vec<_> = (0..train.len()).map(|i| key(&train, i)).collect();
    parts.extend((0..test.len()).map(|i| key(&test, i)));
    let mut all: Vec<_> = (0..d.len()).map(|i| key(&d, i)).collect();
    parts.sort();
    all.sort();
    assert_eq!(parts, all);
    // shuffled: the test part is not just the file's tail, and holds every class
    assert_ne!(test.labels(), &d.labels()[TRAIN_LEN..]);
    assert!(histogram(test.labels()).iter().all(|&c| c > 20));
}

#[test]
fn the_training_part_batches_for_a_cnn() {
    let (train, _) = digits().unwrap().train_test_split();
    let loader = DataLoader::new(train.inputs().unwrap(), train.targets().unwrap(), 32)
        .unwrap()
        .shuffle(true)
        .seed(3);
    assert_eq!(loader.num_batches(), 45);
    let batches: Vec<_> = loader.epoch(0).map(Result::unwrap).collect();
    let (x, y) = &batches[0];
    assert_eq!(
        (x.shape(), y.shape()),
        (&[32usize, 1, 8, 8][..], &[32usize][..])
    );
    let (x_last, _) = &batches[44];
    assert_eq!(x_last.shape()[0], TRAIN_LEN - 44 * 32);
    let labels: Vec<i32> = batches
        .iter()
        .flat_map(|(_, y)| y.to_vec::<i32>().unwrap())
        .collect();
    assert_eq!(histogram(&labels), histogram(train.labels()));
}
