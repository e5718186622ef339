//! The train_digits demo's training step as one `#[kernel]` function: forward with
//! BatchNorm's batch statistics, the gradients of all ten parameters, Adam's moments and the
//! update of every parameter and of BatchNorm's running statistics, written in place. Its
//! first call records the kernels, every later call replays them with the new learning rate
//! and bias corrections bound (scalar operands of a kernel are runtime vars).
//!
//! A kernel body cannot call a function, a layer or an optimizer, so the network and each
//! parameter's Adam update are written out here; `tg::nn::DigitsCnn` and `tg::optim::Adam`
//! compute the same step (tg-bench-train runs both and prints their losses, equal), and the
//! demo's `--replay` mode trains with them. It is the library of the `train_digits` package,
//! which tg-bench depends on, so the benchmark times this very step.

use tg::nn::{DigitsCnn, Module};
use tg::prelude::*;

/// Training images per step: the kernel's shapes are static.
pub const BATCH: usize = 32;

/// The demo's CNN step (batch 32) as one `#[kernel]`: forward with BatchNorm's batch
/// statistics, the running statistics written in place, the gradients of all ten
/// parameters, and Adam's moments and update of each written in place. A kernel body cannot
/// call a function or a layer, so each parameter's update is written out.
#[allow(clippy::too_many_arguments)]
#[kernel]
pub fn cnn_adam_step(
    x: &Tensor<shape![32, 1, 8, 8]>,
    y: &Tensor<shape![32], i32>,
    c1w: &Tensor<shape![16, 1, 3, 3]>,
    c1b: &Tensor<shape![16]>,
    n1w: &Tensor<shape![16]>,
    n1b: &Tensor<shape![16]>,
    c2w: &Tensor<shape![32, 16, 3, 3]>,
    c2b: &Tensor<shape![32]>,
    n2w: &Tensor<shape![32]>,
    n2b: &Tensor<shape![32]>,
    fw: &Tensor<shape![10, 128]>,
    fb: &Tensor<shape![10]>,
    rm1: &Tensor<shape![16]>,
    rv1: &Tensor<shape![16]>,
    rm2: &Tensor<shape![32]>,
    rv2: &Tensor<shape![32]>,
    nb1: &Tensor<shape![1]>,
    nb2: &Tensor<shape![1]>,
    m_c1w: &Tensor<shape![16, 1, 3, 3]>,
    v_c1w: &Tensor<shape![16, 1, 3, 3]>,
    m_c1b: &Tensor<shape![16]>,
    v_c1b: &Tensor<shape![16]>,
    m_n1w: &Tensor<shape![16]>,
    v_n1w: &Tensor<shape![16]>,
    m_n1b: &Tensor<shape![16]>,
    v_n1b: &Tensor<shape![16]>,
    m_c2w: &Tensor<shape![32, 16, 3, 3]>,
    v_c2w: &Tensor<shape![32, 16, 3, 3]>,
    m_c2b: &Tensor<shape![32]>,
    v_c2b: &Tensor<shape![32]>,
    m_n2w: &Tensor<shape![32]>,
    v_n2w: &Tensor<shape![32]>,
    m_n2b: &Tensor<shape![32]>,
    v_n2b: &Tensor<shape![32]>,
    m_fw: &Tensor<shape![10, 128]>,
    v_fw: &Tensor<shape![10, 128]>,
    m_fb: &Tensor<shape![10]>,
    v_fb: &Tensor<shape![10]>,
    lr: f32,
    c1: f32,
    c2: f32,
) -> (
    Tensor<shape![]>,
    Tensor<shape![16, 1, 3, 3]>,
    Tensor<shape![16]>,
    Tensor<shape![16]>,
    Tensor<shape![16]>,
    Tensor<shape![32, 16, 3, 3]>,
    Tensor<shape![32]>,
    Tensor<shape![32]>,
    Tensor<shape![32]>,
    Tensor<shape![10, 128]>,
    Tensor<shape![10]>,
    Tensor<shape![16]>,
    Tensor<shape![16]>,
    Tensor<shape![32]>,
    Tensor<shape![32]>,
    Tensor<shape![1]>,
    Tensor<shape![1]>,
) {
    let a1 = x.conv2d(c1w, c1b, padding = 1);
    let mean1 = a1.mean((0, 2, 3));
    let var1 = (a1 - mean1.detach().reshape([1, 16, 1, 1]))
        .square()
        .mean((0, 2, 3));
    let h1 = a1
        .batchnorm(mean1, (var1 + 1e-5).rsqrt(), n1w, n1b)
        .relu()
        .max_pool2d(2);
    let a2 = h1.conv2d(c2w, c2b, padding = 1);
    let mean2 = a2.mean((0, 2, 3));
    let var2 = (a2 - mean2.detach().reshape([1, 32, 1, 1]))
        .square()
        .mean((0, 2, 3));
    let h2 = a2
        .batchnorm(mean2, (var2 + 1e-5).rsqrt(), n2w, n2b)
        .relu()
        .max_pool2d(2);
    let logits = h2.reshape([32, 128]).matmul(fw.transpose(0, 1)) + fb;
    let loss = logits.sparse_categorical_crossentropy(y);
    let (g_c1w, g_c1b, g_n1w, g_n1b, g_c2w, g_c2b, g_n2w, g_n2b, g_fw, g_fb) =
        loss.gradient(c1w, c1b, n1w, n1b, c2w, c2b, n2w, n2b, fw, fb);
    let nm_c1w = m_c1w.assign(m_c1w * 0.9 + g_c1w * 0.1);
    let nv_c1w = v_c1w.assign(v_c1w * 0.999 + g_c1w * g_c1w * 0.001);
    let nm_c1b = m_c1b.assign(m_c1b * 0.9 + g_c1b * 0.1);
    let nv_c1b = v_c1b.assign(v_c1b * 0.999 + g_c1b * g_c1b * 0.001);
    let nm_n1w = m_n1w.assign(m_n1w * 0.9 + g_n1w * 0.1);
    let nv_n1w = v_n1w.assign(v_n1w * 0.999 + g_n1w * g_n1w * 0.001);
    let nm_n1b = m_n1b.assign(m_n1b * 0.9 + g_n1b * 0.1);
    let nv_n1b = v_n1b.assign(v_n1b * 0.999 + g_n1b * g_n1b * 0.001);
    let nm_c2w = m_c2w.assign(m_c2w * 0.9 + g_c2w * 0.1);
    let nv_c2w = v_c2w.assign(v_c2w * 0.999 + g_c2w * g_c2w * 0.001);
    let nm_c2b = m_c2b.assign(m_c2b * 0.9 + g_c2b * 0.1);
    let nv_c2b = v_c2b.assign(v_c2b * 0.999 + g_c2b * g_c2b * 0.001);
    let nm_n2w = m_n2w.assign(m_n2w * 0.9 + g_n2w * 0.1);
    let nv_n2w = v_n2w.assign(v_n2w * 0.999 + g_n2w * g_n2w * 0.001);
    let nm_n2b = m_n2b.assign(m_n2b * 0.9 + g_n2b * 0.1);
    let nv_n2b = v_n2b.assign(v_n2b * 0.999 + g_n2b * g_n2b * 0.001);
    let nm_fw = m_fw.assign(m_fw * 0.9 + g_fw * 0.1);
    let nv_fw = v_fw.assign(v_fw * 0.999 + g_fw * g_fw * 0.001);
    let nm_fb = m_fb.assign(m_fb * 0.9 + g_fb * 0.1);
    let nv_fb = v_fb.assign(v_fb * 0.999 + g_fb * g_fb * 0.001);
    (
        loss,
        c1w.assign(c1w - nm_c1w * c1 / ((nv_c1w * c2).sqrt() + 1e-8) * lr),
        c1b.assign(c1b - nm_c1b * c1 / ((nv_c1b * c2).sqrt() + 1e-8) * lr),
        n1w.assign(n1w - nm_n1w * c1 / ((nv_n1w * c2).sqrt() + 1e-8) * lr),
        n1b.assign(n1b - nm_n1b * c1 / ((nv_n1b * c2).sqrt() + 1e-8) * lr),
        c2w.assign(c2w - nm_c2w * c1 / ((nv_c2w * c2).sqrt() + 1e-8) * lr),
        c2b.assign(c2b - nm_c2b * c1 / ((nv_c2b * c2).sqrt() + 1e-8) * lr),
        n2w.assign(n2w - nm_n2w * c1 / ((nv_n2w * c2).sqrt() + 1e-8) * lr),
        n2b.assign(n2b - nm_n2b * c1 / ((nv_n2b * c2).sqrt() + 1e-8) * lr),
        fw.assign(fw - nm_fw * c1 / ((nv_fw * c2).sqrt() + 1e-8) * lr),
        fb.assign(fb - nm_fb * c1 / ((nv_fb * c2).sqrt() + 1e-8) * lr),
        rm1.assign(rm1 * 0.9 + mean1.detach() * 0.1),
        // the unbiased variance: 0.1 * n / (n - 1), n = 32 * 8 * 8 and 32 * 4 * 4
        rv1.assign(rv1 * 0.9 + var1.detach() * 0.100_048_85),
        rm2.assign(rm2 * 0.9 + mean2.detach() * 0.1),
        rv2.assign(rv2 * 0.9 + var2.detach() * 0.100_195_7),
        nb1.assign(nb1 + 1.0),
        nb2.assign(nb2 + 1.0),
    )
}

/// Adam over a [`DigitsCnn`] through [`cnn_adam_step`]: typed handles on the model's own
/// tensors (the same buffers: the model sees every update, and saves it) and the moments.
pub struct KernelStep {
    c1w: Tensor<Rank4<16, 1, 3, 3>>,
    c1b: Tensor<Rank1<16>>,
    n1w: Tensor<Rank1<16>>,
    n1b: Tensor<Rank1<16>>,
    c2w: Tensor<Rank4<32, 16, 3, 3>>,
    c2b: Tensor<Rank1<32>>,
    n2w: Tensor<Rank1<32>>,
    n2b: Tensor<Rank1<32>>,
    fw: Tensor<Rank2<10, 128>>,
    fb: Tensor<Rank1<10>>,
    rm1: Tensor<Rank1<16>>,
    rv1: Tensor<Rank1<16>>,
    rm2: Tensor<Rank1<32>>,
    rv2: Tensor<Rank1<32>>,
    nb1: Tensor<Rank1<1>>,
    nb2: Tensor<Rank1<1>>,
    m_c1w: Tensor<Rank4<16, 1, 3, 3>>,
    v_c1w: Tensor<Rank4<16, 1, 3, 3>>,
    m_c1b: Tensor<Rank1<16>>,
    v_c1b: Tensor<Rank1<16>>,
    m_n1w: Tensor<Rank1<16>>,
    v_n1w: Tensor<Rank1<16>>,
    m_n1b: Tensor<Rank1<16>>,
    v_n1b: Tensor<Rank1<16>>,
    m_c2w: Tensor<Rank4<32, 16, 3, 3>>,
    v_c2w: Tensor<Rank4<32, 16, 3, 3>>,
    m_c2b: Tensor<Rank1<32>>,
    v_c2b: Tensor<Rank1<32>>,
    m_n2w: Tensor<Rank1<32>>,
    v_n2w: Tensor<Rank1<32>>,
    m_n2b: Tensor<Rank1<32>>,
    v_n2b: Tensor<Rank1<32>>,
    m_fw: Tensor<Rank2<10, 128>>,
    v_fw: Tensor<Rank2<10, 128>>,
    m_fb: Tensor<Rank1<10>>,
    v_fb: Tensor<Rank1<10>>,
    /// Steps taken (Adam's `t`).
    steps: i32,
}

/// The model's tensor `name`, typed (the same node and buffer).
fn view<S: tg::Shape>(model: &mut DigitsCnn, name: &str) -> tg::Result<Tensor<S>> {
    let t = model
        .tensors()?
        .into_iter()
        .find(|(n, _)| n == name)
        .ok_or_else(|| tg::Error::Argument {
            op: "KernelStep::new",
            message: format!("the CNN has no tensor `{name}`"),
        })?;
    Tensor::try_from_dyn(t.1)
}

/// A moment: zeros in a buffer of their own, realized before the first (recorded) step.
fn zeros<S: tg::Shape>(shape: &[usize]) -> tg::Result<Tensor<S>> {
    let t = DynTensor::state(&DynTensor::zeros(shape, DType::F32)?)?;
    t.realize()?;
    Tensor::try_from_dyn(t)
}

impl KernelStep {
    /// Adam (b1 0.9, b2 0.999, eps 1e-8) over `model`'s parameters, moments at zero.
    pub fn new(model: &mut DigitsCnn) -> tg::Result<KernelStep> {
        Ok(KernelStep {
            c1w: view(model, "c1.weight")?,
            c1b: view(model, "c1.bias")?,
            n1w: view(model, "bn1.weight")?,
            n1b: view(model, "bn1.bias")?,
            c2w: view(model, "c2.weight")?,
            c2b: view(model, "c2.bias")?,
            n2w: view(model, "bn2.weight")?,
            n2b: view(model, "bn2.bias")?,
            fw: view(model, "fc.weight")?,
            fb: view(model, "fc.bias")?,
            rm1: view(model, "bn1.running_mean")?,
            rv1: view(model, "bn1.running_var")?,
            rm2: view(model, "bn2.running_mean")?,
            rv2: view(model, "bn2.running_var")?,
            nb1: view(model, "bn1.num_batches_tracked")?,
            nb2: view(model, "bn2.num_batches_tracked")?,
            m_c1w: zeros(&[16, 1, 3, 3])?,
            v_c1w: zeros(&[16, 1, 3, 3])?,
            m_c1b: zeros(&[16])?,
            v_c1b: zeros(&[16])?,
            m_n1w: zeros(&[16])?,
            v_n1w: zeros(&[16])?,
            m_n1b: zeros(&[16])?,
            v_n1b: zeros(&[16])?,
            m_c2w: zeros(&[32, 16, 3, 3])?,
            v_c2w: zeros(&[32, 16, 3, 3])?,
            m_c2b: zeros(&[32])?,
            v_c2b: zeros(&[32])?,
            m_n2w: zeros(&[32])?,
            v_n2w: zeros(&[32])?,
            m_n2b: zeros(&[32])?,
            v_n2b: zeros(&[32])?,
            m_fw: zeros(&[10, 128])?,
            v_fw: zeros(&[10, 128])?,
            m_fb: zeros(&[10])?,
            v_fb: zeros(&[10])?,
            steps: 0,
        })
    }

    /// One training step on a batch (`x` `(32, 1, 8, 8)` f32, `y` `(32,)` i32) with learning
    /// rate `lr`; returns the batch's loss (before the update).
    pub fn step(&mut self, x: &DynTensor, y: &DynTensor, lr: f32) -> tg::Result<DynTensor> {
        let x: Tensor<Rank4<32, 1, 8, 8>> = Tensor::try_from_dyn(x.clone())?;
        let y: Tensor<Rank1<32>, i32> = Tensor::try_from_dyn(y.clone())?;
        self.steps += 1;
        let (c1, c2) = (
            1.0 / (1.0 - 0.9f32.powi(self.steps)),
            1.0 / (1.0 - 0.999f32.powi(self.steps)),
        );
        let (loss, ..) = cnn_adam_step(
            &x,
            &y,
            &self.c1w,
            &self.c1b,
            &self.n1w,
            &self.n1b,
            &self.c2w,
            &self.c2b,
            &self.n2w,
            &self.n2b,
            &self.fw,
            &self.fb,
            &self.rm1,
            &self.rv1,
            &self.rm2,
            &self.rv2,
            &self.nb1,
            &self.nb2,
            &self.m_c1w,
            &self.v_c1w,
            &self.m_c1b,
            &self.v_c1b,
            &self.m_n1w,
            &self.v_n1w,
            &self.m_n1b,
            &self.v_n1b,
            &self.m_c2w,
            &self.v_c2w,
            &self.m_c2b,
            &self.v_c2b,
            &self.m_n2w,
            &self.v_n2w,
            &self.m_n2b,
            &self.v_n2b,
            &self.m_fw,
            &self.v_fw,
            &self.m_fb,
            &self.v_fb,
            lr,
            c1,
            c2,
        );
        Ok(loss.into_dyn())
    }
}
