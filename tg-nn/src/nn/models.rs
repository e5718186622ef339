//! Two small networks that the training demo, the training benchmark and the tests share,
//! so each measures and checks the same model.

use tg_ops::{DynTensor, Pool};
use tg_runtime::Result;

use super::conv::{Conv2d, ConvOptions};
use super::linear::Linear;
use super::module::{Inspector, Module, Visitor, child, child_ref};
use super::norm::BatchNorm2d;

/// The demo's CNN for 8x8 digits: conv 3x3 (1 -> 16) BatchNorm ReLU maxpool 2, conv 3x3
/// (16 -> 32) BatchNorm ReLU maxpool 2, linear (128 -> 10). About 10k parameters.
pub struct DigitsCnn {
    /// First convolution, padding 1.
    pub c1: Conv2d,
    /// Its normalization.
    pub bn1: BatchNorm2d,
    /// Second convolution, padding 1.
    pub c2: Conv2d,
    /// Its normalization.
    pub bn2: BatchNorm2d,
    /// The classifier.
    pub fc: Linear,
}

impl DigitsCnn {
    /// A freshly initialised network (from the process-wide random stream).
    pub fn new() -> Result<DigitsCnn> {
        let same = || ConvOptions {
            padding: 1,
            ..ConvOptions::default()
        };
        Ok(DigitsCnn {
            c1: Conv2d::new(1, 16, 3, same())?,
            bn1: BatchNorm2d::new(16)?,
            c2: Conv2d::new(16, 32, 3, same())?,
            bn2: BatchNorm2d::new(32)?,
            fc: Linear::new(32 * 2 * 2, 10, true)?,
        })
    }

    /// Logits `(batch, 10)` of images `(batch, 1, 8, 8)`; in training mode BatchNorm also
    /// updates its running statistics.
    pub fn forward(&mut self, x: &DynTensor) -> Result<DynTensor> {
        let pool = Pool::new([2, 2]);
        let h = self.bn1.forward(&self.c1.forward(x)?)?;
        let h = h.relu()?.max_pool2d(&pool)?;
        let h = self.bn2.forward(&self.c2.forward(&h)?)?;
        let h = h.relu()?.max_pool2d(&pool)?;
        self.fc.forward(&h.flatten(1, -1)?)
    }
}

impl Module for DigitsCnn {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        child("c1", &mut self.c1, f)?;
        child("bn1", &mut self.bn1, f)?;
        child("c2", &mut self.c2, f)?;
        child("bn2", &mut self.bn2, f)?;
        child("fc", &mut self.fc, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        child_ref("c1", &self.c1, f)?;
        child_ref("bn1", &self.bn1, f)?;
        child_ref("c2", &self.c2, f)?;
        child_ref("bn2", &self.bn2, f)?;
        child_ref("fc", &self.fc, f)
    }

    fn set_training(&mut self, training: bool) {
        self.bn1.set_training(training);
        self.bn2.set_training(training);
    }

    fn modes(&self, out: &mut Vec<u64>) {
        self.bn1.modes(out);
        self.bn2.modes(out);
    }
}

/// A two-layer perceptron: linear, ReLU, linear (784-128-10 for MNIST-sized inputs).
pub struct Mlp {
    /// The hidden layer.
    pub l1: Linear,
    /// The output layer.
    pub l2: Linear,
}

impl Mlp {
    /// `inputs -> hidden -> outputs`, freshly initialised.
    pub fn new(inputs: usize, hidden: usize, outputs: usize) -> Result<Mlp> {
        Ok(Mlp {
            l1: Linear::new(inputs, hidden, true)?,
            l2: Linear::new(hidden, outputs, true)?,
        })
    }

    /// Logits of rows `(batch, inputs)`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        self.l2.forward(&self.l1.forward(x)?.relu()?)
    }
}

impl Module for Mlp {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        child("l1", &mut self.l1, f)?;
        child("l2", &mut self.l2, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        child_ref("l1", &self.l1, f)?;
        child_ref("l2", &self.l2, f)
    }
}
