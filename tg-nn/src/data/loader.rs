//! `DataLoader`: (inputs, targets) batches per epoch, in order or in a seeded shuffle.

use tg_ops::DynTensor;
use tg_runtime::{Error, Result};

use super::host::HostArray;
use super::rng::{SplitMix64, permutation};

/// Batches of (inputs, targets) over samples held on the host.
///
/// Each epoch visits every sample once: in order, or (with [`shuffle`](Self::shuffle)) in a
/// permutation drawn from the seed and the epoch number, so equal seeds give equal batches
/// on every machine and each epoch is ordered differently. The last batch holds the
/// remainder unless [`drop_last`](Self::drop_last) is set.
///
/// ```
/// use tg_nn::data::{DataLoader, HostArray};
/// let x = HostArray::new(&[5, 2], &[0f32, 0., 1., 1., 2., 2., 3., 3., 4., 4.]).unwrap();
/// let y = HostArray::new(&[5], &[0i32, 1, 2, 3, 4]).unwrap();
/// let loader = DataLoader::new(x, y, 2).unwrap().shuffle(true).seed(7);
/// let mut seen = Vec::new();
/// for batch in loader.epoch(0) {
///     let (xb, yb) = batch.unwrap();
///     assert_eq!(xb.shape()[1], 2);
///     seen.extend(yb.to_vec::<i32>().unwrap());
/// }
/// seen.sort();
/// assert_eq!(seen, vec![0, 1, 2, 3, 4]);
/// ```
#[derive(Clone, Debug)]
pub struct DataLoader {
    inputs: HostArray,
    targets: HostArray,
    batch_size: usize,
    shuffle: bool,
    seed: u64,
    drop_last: bool,
}

impl DataLoader {
    /// Batches of `batch_size` samples of `inputs` and `targets`, which must have the same
    /// number of samples; in order, last partial batch kept, until changed by the builder
    /// methods. A zero batch size is `Error::Argument`, differing sample counts `Error::Shape`.
    pub fn new(inputs: HostArray, targets: HostArray, batch_size: usize) -> Result<DataLoader> {
        if batch_size == 0 {
            return Err(Error::Argument {
                op: "DataLoader",
                message: "batch_size must be at least 1".into(),
            });
        }
        if inputs.len() != targets.len() {
            return Err(Error::Shape {
                op: "DataLoader",
                message: format!(
                    "inputs {:?} and targets {:?} have different sample counts (first axes)",
                    inputs.shape(),
                    targets.shape()
                ),
            });
        }
        Ok(DataLoader {
            inputs,
            targets,
            batch_size,
            shuffle: false,
            seed: 0,
            drop_last: false,
        })
    }

    /// Whether each epoch visits the samples in a seeded random order (default: in order).
    pub fn shuffle(mut self, on: bool) -> DataLoader {
        self.shuffle = on;
        self
    }

    /// The seed of the shuffles (default 0).
    pub fn seed(mut self, seed: u64) -> DataLoader {
        self.seed = seed;
        self
    }

    /// Whether a last batch smaller than `batch_size` is left out (default: kept).
    pub fn drop_last(mut self, on: bool) -> DataLoader {
        self.drop_last = on;
        self
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The samples per full batch.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// Batches per epoch.
    pub fn num_batches(&self) -> usize {
        if self.drop_last {
            self.len() / self.batch_size
        } else {
            self.len().div_ceil(self.batch_size)
        }
    }

    /// The order in which epoch `epoch` visits the samples (all of them, also those a
    /// `drop_last` leaves out at the end).
    pub fn order(&self, epoch: u64) -> Vec<usize> {
        if self.shuffle {
            permutation(self.len(), &mut SplitMix64::stream(self.seed, epoch))
        } else {
            (0..self.len()).collect()
        }
    }

    /// The batches of epoch `epoch` (numbered from 0), each `(inputs, targets)` with the batch
    /// as the first axis; uploaded one batch at a time as the iterator is advanced.
    pub fn epoch(&self, epoch: u64) -> Batches<'_> {
        Batches {
            loader: self,
            order: self.order(epoch),
            next: 0,
            count: self.num_batches(),
        }
    }
}

/// The batches of one epoch of a [`DataLoader`].
#[derive(Debug)]
pub struct Batches<'a> {
    loader: &'a DataLoader,
    order: Vec<usize>,
    /// The index of the next batch.
    next: usize,
    count: usize,
}

impl Iterator for Batches<'_> {
    type Item = Result<(DynTensor, DynTensor)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.count {
            return None;
        }
        let b = self.loader.batch_size;
        let start = self.next * b;
        let rows = &self.order[start..(start + b).min(self.order.len())];
        self.next += 1;
        Some(
            self.loader
                .inputs
                .gather(rows)
                .and_then(|x| Ok((x, self.loader.targets.gather(rows)?))),
        )
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.count - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Batches<'_> {}
