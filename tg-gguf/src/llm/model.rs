//! A llama-family transformer over a GGUF file's tensors, built from `tg::nn` pieces
//! (`RMSNorm`, `Embedding`), the runtime's fused attention (with ends:
//! `Lazy::attention_ends`) and [`QTensor`] weights whose dequantization fuses into the
//! products that read them.
//!
//! A prompt runs as prefill steps of at most 32 rows (`PREFILL_ROWS`) and a decoded token as a
//! step of one: each step writes its rows' keys and values into the cache and attends the
//! cache. Each is a [`Replay`]: recorded on the first call of a shape and replayed after, the
//! step's position, the token id and the sampler's settings bound as runtime vars (push
//! constants), so a decoded token is one submission and compiles, schedules and uploads
//! nothing. The KV cache is one preallocated f32 buffer per layer for keys and one for
//! values, `[kv_heads, context, head_dim]`, written in place with `assign` (the step's rows
//! replaced, the rest kept).

use tg_nn::nn::{Embedding, RMSNorm};
use tg_nn::replay::Replay;
use tg_ops::DynTensor;
use tg_runtime::device::Device;
use tg_runtime::{DType, Lazy, Scalar};

use super::config::Config;
use super::sample::{Sampler, draw_key, sample};
use crate::{Error, GgufFile, Layout, QTensor, Result, TensorInfo, host};

/// Weights that multiply the same input, stacked along their rows into one tensor when they
/// share a type (q, k and v; gate and up): one matrix-vector kernel instead of two or three,
/// over more rows. Rows of a GGUF tensor are whole blocks, so stacking is concatenating bytes.
enum Stack {
    /// One tensor and each part's rows.
    Fused(QTensor, Vec<usize>),
    /// Parts of different types, each its own product.
    Separate(Vec<QTensor>),
}

impl Stack {
    fn load(
        file: &GgufFile,
        names: &[(String, usize)],
        cols: usize,
        layout: Layout,
    ) -> Result<Stack> {
        let infos = names
            .iter()
            .map(|(n, rows)| {
                let info = file.tensor(n)?;
                check_shape(info, &[*rows, cols])?;
                Ok(info)
            })
            .collect::<Result<Vec<_>>>()?;
        if infos.iter().all(|i| i.ty == infos[0].ty) {
            let mut bytes = Vec::with_capacity(infos.iter().map(|i| i.bytes).sum());
            for i in &infos {
                bytes.extend_from_slice(file.tensor_bytes(i));
            }
            let rows: Vec<usize> = names.iter().map(|(_, r)| *r).collect();
            let info = TensorInfo {
                name: names
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join("+"),
                ty: infos[0].ty,
                shape: vec![rows.iter().sum(), cols],
                offset: 0,
                bytes: bytes.len(),
            };
            return Ok(Stack::Fused(QTensor::new(&info, &bytes, layout)?, rows));
        }
        Ok(Stack::Separate(
            infos
                .iter()
                .map(|i| QTensor::new(i, file.tensor_bytes(i), layout))
                .collect::<Result<_>>()?,
        ))
    }

    /// Each part's `x @ partᵀ`.
    fn apply(&self, x: &DynTensor) -> Result<Vec<DynTensor>> {
        match self {
            Stack::Separate(parts) => parts.iter().map(|w| w.matmul_t(x)).collect(),
            Stack::Fused(w, rows) => {
                let y = w.matmul_t(x)?;
                let lead: Vec<(usize, usize)> =
                    y.shape()[..y.ndim() - 1].iter().map(|&d| (0, d)).collect();
                let mut start = 0;
                let mut out = Vec::with_capacity(rows.len());
                for &r in rows {
                    let mut ranges = lead.clone();
                    ranges.push((start, start + r));
                    out.push(y.shrink(&ranges).map_err(rt)?);
                    start += r;
                }
                Ok(out)
            }
        }
    }

    fn storage(&self) -> Vec<Lazy> {
        match self {
            Stack::Fused(w, _) => w.storage().to_vec(),
            Stack::Separate(parts) => parts.iter().flat_map(|w| w.storage().to_vec()).collect(),
        }
    }
}

/// One transformer block's weights.
struct Block {
    attn_norm: RMSNorm,
    /// q, k, v.
    qkv: Stack,
    q_bias: Option<DynTensor>,
    k_bias: Option<DynTensor>,
    v_bias: Option<DynTensor>,
    o: QTensor,
    ffn_norm: RMSNorm,
    /// gate, up.
    gate_up: Stack,
    down: QTensor,
}

/// Prompt rows one prefill step takes at most. A prompt runs as steps of this many rows, the
/// last of the power of two at or above the rows left (its padding rows are written to the
/// cache past the prompt, where a decode step overwrites each before attending it), each
/// step attending what the steps before wrote to the cache, as llama.cpp's batches do. So a
/// prompt of any length needs at most six recordings (1, 2, 4 .. 32 rows), and device memory
/// beyond the weights and the cache is that of 32 rows: under the 64 reads from which the
/// scheduler gives a value read by many rows a buffer of its own (`schedule/reuse.rs`), so
/// the weights are decoded inside the products' tiles, never stored in f32.
const PREFILL_ROWS: usize = 32;

/// What a prefill step returns besides its cache writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Output {
    /// Nothing (a step before the last, when sampling).
    Cache,
    /// The logits of its rows.
    Logits,
    /// The token sampled after its last prompt row.
    Sample,
}

/// A loaded model with its KV cache.
pub struct Model {
    device: Device,
    config: Config,
    context: usize,
    embed: QTensor,
    blocks: Vec<Block>,
    out_norm: RMSNorm,
    output: QTensor,
    inv_freq: DynTensor,
    cache: Vec<(DynTensor, DynTensor)>,
    /// Var ids: the position (of a prefill step's first row), the token id, the sampler's
    /// three constants, and a prefill step's last prompt row.
    vars: u64,
    /// One recording per prefill step's output and sampler kind (as `decode`); each keyed by
    /// its row count inside.
    prefill: std::collections::HashMap<(Output, usize, bool, bool), Replay>,
    /// One recording per kind of decode step: (sampled, top-k, greedy, top-p used).
    decode: std::collections::HashMap<(bool, usize, bool, bool), Replay>,
    weight_bytes: usize,
    /// Build and realize every step's graph anew instead of replaying a recording (for
    /// measuring kernels: `TG_DEBUG=2` times a realize's kernels, not a replay's).
    pub eager: bool,
}

fn rt(e: tg_runtime::Error) -> Error {
    Error::Runtime(e)
}

/// A 1-D f32 tensor of the file (norm weights, biases), decoded on the host.
fn vector(file: &GgufFile, name: &str, len: usize) -> Result<DynTensor> {
    let info = file.tensor(name)?;
    check_shape(info, &[len])?;
    let v = host::dequantize_tensor(info, file.tensor_bytes(info))?;
    DynTensor::from_slice(&[len], &v).map_err(rt)
}

fn check_shape(info: &TensorInfo, expected: &[usize]) -> Result<()> {
    if info.shape != expected {
        return Err(Error::WrongShape {
            tensor: info.name.clone(),
            found: info.shape.clone(),
            expected: expected.to_vec(),
        });
    }
    Ok(())
}

fn matrix(
    file: &GgufFile,
    name: &str,
    rows: usize,
    cols: usize,
    layout: Layout,
) -> Result<QTensor> {
    let info = file.tensor(name)?;
    check_shape(info, &[rows, cols])?;
    QTensor::new(info, file.tensor_bytes(info), layout)
}

fn optional_vector(file: &GgufFile, name: &str, len: usize) -> Result<Option<DynTensor>> {
    if file.tensors().iter().any(|t| t.name == name) {
        Ok(Some(vector(file, name, len)?))
    } else {
        Ok(None)
    }
}

/// Bytes the model needs on the device: its tensors' bytes and the KV cache.
pub fn device_bytes_needed(file: &GgufFile, config: &Config, context: usize) -> usize {
    file.tensor_bytes_total() + config.kv_bytes(context)
}

impl Model {
    /// Loads `file`'s weights onto the current device (`Device::scope`, else the default) in
    /// `layout`, with a KV cache of `context` positions (at most the model's). The memory it
    /// needs is checked against the device's budget (`TG_MEMORY_LIMIT`) first: too little is
    /// `Error::OutOfMemory` before anything is uploaded.
    pub fn load(file: &GgufFile, context: Option<usize>, layout: Layout) -> Result<Model> {
        let config = Config::from_file(file)?;
        let context = context.unwrap_or(config.context).min(config.context);
        if context == 0 {
            return Err(Error::Argument {
                op: "Model::load",
                message: "a context of 0 positions".into(),
            });
        }
        let device = tg_runtime::device::current_device().map_err(rt)?;
        let needed = device_bytes_needed(file, &config, context) as u64;
        let budget = device.info().memory_budget;
        let in_use = device.memory_stats().live_bytes;
        if needed > budget.saturating_sub(in_use) {
            return Err(Error::Runtime(tg_runtime::Error::OutOfMemory {
                bytes: needed,
                heap: budget,
                in_use,
                reason: format!(
                    "the model needs {needed} bytes ({} of tensors, {} of KV cache for {context} positions)",
                    file.tensor_bytes_total(),
                    config.kv_bytes(context)
                ),
            }));
        }
        let c = &config;
        let kvd = c.kv_heads * c.head_dim;
        let norm = |name: &str| -> Result<RMSNorm> {
            Ok(RMSNorm {
                weight: vector(file, name, c.dim)?,
                eps: f64::from(c.eps),
            })
        };
        let mut blocks = Vec::with_capacity(c.layers);
        for i in 0..c.layers {
            let p = |s: &str| format!("blk.{i}.{s}");
            blocks.push(Block {
                attn_norm: norm(&p("attn_norm.weight"))?,
                qkv: Stack::load(
                    file,
                    &[
                        (p("attn_q.weight"), c.dim),
                        (p("attn_k.weight"), kvd),
                        (p("attn_v.weight"), kvd),
                    ],
                    c.dim,
                    layout,
                )?,
                q_bias: optional_vector(file, &p("attn_q.bias"), c.dim)?,
                k_bias: optional_vector(file, &p("attn_k.bias"), kvd)?,
                v_bias: optional_vector(file, &p("attn_v.bias"), kvd)?,
                o: matrix(file, &p("attn_output.weight"), c.dim, c.dim, layout)?,
                ffn_norm: norm(&p("ffn_norm.weight"))?,
                gate_up: Stack::load(
                    file,
                    &[(p("ffn_gate.weight"), c.ffn), (p("ffn_up.weight"), c.ffn)],
                    c.dim,
                    layout,
                )?,
                down: matrix(file, &p("ffn_down.weight"), c.dim, c.ffn, layout)?,
            });
        }
        let embed = matrix(file, "token_embd.weight", c.vocab, c.dim, layout)?;
        let output = if file.tensors().iter().any(|t| t.name == "output.weight") {
            matrix(file, "output.weight", c.vocab, c.dim, layout)?
        } else {
            embed.clone()
        };
        let half = c.head_dim / 2;
        let inv: Vec<f32> = (0..half)
            .map(|i| (f64::from(c.rope_base).powf(-2.0 * i as f64 / c.head_dim as f64)) as f32)
            .collect();
        let inv_freq = DynTensor::from_slice(&[half], &inv).map_err(rt)?;
        let mut cache = Vec::with_capacity(c.layers);
        for _ in 0..c.layers {
            let zeros =
                DynTensor::zeros(&[c.kv_heads, context, c.head_dim], DType::F32).map_err(rt)?;
            cache.push((
                DynTensor::state(&zeros).map_err(rt)?,
                DynTensor::state(&zeros).map_err(rt)?,
            ));
        }
        let out_norm = norm("output_norm.weight")?;
        let model = Model {
            device: device.clone(),
            config,
            context,
            embed,
            blocks,
            out_norm,
            output,
            inv_freq,
            cache,
            vars: tg_ops::kernel_cache::fresh_vars(6),
            prefill: std::collections::HashMap::new(),
            decode: std::collections::HashMap::new(),
            weight_bytes: file.tensor_bytes_total(),
            eager: false,
        };
        model.upload()?;
        Ok(model)
    }

    /// Uploads every weight and the cache in one realize (so recordings read their buffers).
    fn upload(&self) -> Result<()> {
        let mut all: Vec<Lazy> = vec![
            self.inv_freq.lazy().clone(),
            self.out_norm.weight.lazy().clone(),
        ];
        for b in &self.blocks {
            all.push(b.attn_norm.weight.lazy().clone());
            all.push(b.ffn_norm.weight.lazy().clone());
            for bias in [&b.q_bias, &b.k_bias, &b.v_bias].into_iter().flatten() {
                all.push(bias.lazy().clone());
            }
            all.extend(b.qkv.storage());
            all.extend(b.gate_up.storage());
            for w in [&b.o, &b.down] {
                all.extend(w.storage().iter().cloned());
            }
        }
        all.extend(self.embed.storage().iter().cloned());
        all.extend(self.output.storage().iter().cloned());
        for (k, v) in &self.cache {
            all.push(k.lazy().clone());
            all.push(v.lazy().clone());
        }
        let refs: Vec<&Lazy> = all.iter().collect();
        tg_runtime::realize(&refs).map_err(rt)
    }

    /// The hyperparameters.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The device the model lives on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Positions the KV cache holds.
    pub fn context(&self) -> usize {
        self.context
    }

    /// Bytes of the weights on the device.
    pub fn weight_bytes(&self) -> usize {
        self.weight_bytes
    }

    /// RoPE of `x` `[heads, T, head_dim]` at positions `pos` (f32 `[T]`).
    fn rope(&self, x: &DynTensor, pos: &DynTensor) -> tg_runtime::Result<DynTensor> {
        let (h, t, d) = (x.shape()[0], x.shape()[1], x.shape()[2]);
        let half = d / 2;
        let pos = if self.config.rope_scale != 1.0 {
            pos.div(f64::from(self.config.rope_scale))?
        } else {
            pos.clone()
        };
        let angle = pos
            .reshape(&[t as isize, 1])?
            .mul(&self.inv_freq.reshape(&[1, half as isize])?)?;
        let (cos, sin) = (angle.cos()?, angle.sin()?);
        let (hi, ti, hf) = (h as isize, t as isize, half as isize);
        if self.config.arch.rope_halves() {
            let xs = x.reshape(&[hi, ti, 2, hf])?;
            let x0 = xs.shrink(&[(0, h), (0, t), (0, 1), (0, half)])?;
            let x1 = xs.shrink(&[(0, h), (0, t), (1, 2), (0, half)])?;
            let (c, s) = (cos.reshape(&[1, ti, 1, hf])?, sin.reshape(&[1, ti, 1, hf])?);
            let a = x0.mul(&c)?.sub(&x1.mul(&s)?)?;
            let b = x0.mul(&s)?.add(&x1.mul(&c)?)?;
            DynTensor::cat(&[a, b], 2)?.reshape(&[hi, ti, d as isize])
        } else {
            let xs = x.reshape(&[hi, ti, hf, 2])?;
            let x0 = xs.shrink(&[(0, h), (0, t), (0, half), (0, 1)])?;
            let x1 = xs.shrink(&[(0, h), (0, t), (0, half), (1, 2)])?;
            let (c, s) = (cos.reshape(&[1, ti, hf, 1])?, sin.reshape(&[1, ti, hf, 1])?);
            let a = x0.mul(&c)?.sub(&x1.mul(&s)?)?;
            let b = x0.mul(&s)?.add(&x1.mul(&c)?)?;
            DynTensor::cat(&[a, b], 3)?.reshape(&[hi, ti, d as isize])
        }
    }

    /// The transformer over `x` `[T, dim]`, the rows at positions `start..start + T` (`start`
    /// an I32 scalar, a var in a recorded step): each layer writes the rows' keys and values
    /// into its cache and attends the cache as written, row `t` masked to the positions up to
    /// `start + t`. A prompt runs as such steps ([`PREFILL_ROWS`]), a decoded token as one
    /// of one row. Returns the final hidden states and the caches written.
    fn forward(&self, x: DynTensor, start: &DynTensor) -> Result<(DynTensor, Vec<DynTensor>)> {
        let c = &self.config;
        let t = x.shape()[0];
        let (h, kvh, hd, g) = (
            c.heads as isize,
            c.kv_heads as isize,
            c.head_dim as isize,
            (c.heads / c.kv_heads) as isize,
        );
        let ti = t as isize;
        let mut x = x;
        let mut written = Vec::with_capacity(2 * c.layers);
        let positions = DynTensor::arange(0, t as i32, 1, Some(DType::I32))
            .and_then(|p| p.add(&start.reshape(&[1])?))
            .map_err(rt)?;
        let pos = positions.cast(DType::F32);
        // query row (head `j` of a key head's `g`, step row `t`) attends the keys up to
        // `start + t`: the loop stops there, where a mask would hide the rest of the cache
        let ends = pos
            .reshape(&[1, ti])
            .and_then(|e| e.expand(&[g, ti]))
            .and_then(|e| e.reshape(&[1, g * ti]))
            .map_err(rt)?;
        // the step's rows land at cache rows `start..start + T` (a padding row past the
        // context is dropped); the write's kernel covers those rows alone
        let place = |cache: &DynTensor, new: &DynTensor| -> tg_runtime::Result<DynTensor> {
            let mut target = cache.clone();
            target.assign_window(1, start, new)?;
            Ok(target)
        };
        for (b, (kc, vc)) in self.blocks.iter().zip(&self.cache) {
            let hdn = b.attn_norm.forward(&x).map_err(rt)?;
            let with_bias = |y: &DynTensor, bias: &Option<DynTensor>| -> Result<DynTensor> {
                Ok(match bias {
                    Some(bias) => y.add(bias).map_err(rt)?,
                    None => y.clone(),
                })
            };
            let qkv = b.qkv.apply(&hdn)?;
            let q = with_bias(&qkv[0], &b.q_bias)?;
            let k = with_bias(&qkv[1], &b.k_bias)?;
            let v = with_bias(&qkv[2], &b.v_bias)?;
            let heads = |y: &DynTensor, n: isize| -> tg_runtime::Result<DynTensor> {
                y.reshape(&[ti, n, hd])?.permute(&[1, 0, 2])
            };
            let q = self.rope(&heads(&q, h).map_err(rt)?, &pos).map_err(rt)?;
            let k = self.rope(&heads(&k, kvh).map_err(rt)?, &pos).map_err(rt)?;
            let v = heads(&v, kvh).map_err(rt)?;
            let kw = place(kc, &k).map_err(rt)?;
            let vw = place(vc, &v).map_err(rt)?;
            // a key head's `g` query heads as `g * T` query rows, so the cache is read as it
            // is stored
            let rows_of = q.reshape(&[kvh, g * ti, hd]).map_err(rt)?;
            let attn = rows_of
                .lazy()
                .attention_ends(kw.lazy(), vw.lazy(), ends.lazy())
                .and_then(|a| a.narrow(2, 0, c.head_dim))
                .map(DynTensor::from_lazy)
                .map_err(rt)?;
            written.push(kw);
            written.push(vw);
            let attn = attn
                .reshape(&[h, ti, hd])
                .map_err(rt)?
                .permute(&[1, 0, 2])
                .map_err(rt)?
                .reshape(&[ti, c.dim as isize])
                .map_err(rt)?;
            // the residual stream gets a buffer at each block's two sums: every later reduction
            // reads it, and a graph fused across blocks nests reductions without end
            x = x.add(&b.o.matmul_t(&attn)?).map_err(rt)?.contiguous();
            let hdn = b.ffn_norm.forward(&x).map_err(rt)?;
            let gate_up = b.gate_up.apply(&hdn)?;
            let gate = gate_up[0].silu().map_err(rt)?;
            let up = &gate_up[1];
            x = x
                .add(&b.down.matmul_t(&gate.mul(up).map_err(rt)?)?)
                .map_err(rt)?
                .contiguous();
        }
        Ok((self.out_norm.forward(&x).map_err(rt)?, written))
    }

    /// The rows of `ids`, in a buffer of their own: fused into the first layer, the table's
    /// decode made its norm and output projection shaders of their own (two more compiles
    /// on a cold start, where the layers after share theirs).
    fn embed(&self, ids: &DynTensor) -> Result<DynTensor> {
        let table = Embedding {
            weight: self.embed.values()?,
        };
        Ok(table.forward(ids).map_err(rt)?.contiguous())
    }

    fn var(&self, slot: u64, value: impl Into<Scalar>, dtype: DType) -> Result<DynTensor> {
        Ok(DynTensor::from_lazy(
            Lazy::var(self.vars + slot, value, dtype, &[]).map_err(rt)?,
        ))
    }

    fn check_tokens(&self, op: &'static str, tokens: &[u32]) -> Result<()> {
        if let Some(&bad) = tokens.iter().find(|&&t| t as usize >= self.config.vocab) {
            return Err(Error::Argument {
                op,
                message: format!(
                    "token id {bad} is past the vocabulary ({})",
                    self.config.vocab
                ),
            });
        }
        Ok(())
    }

    /// Runs `tokens` from position 0 (the cache's earlier contents are replaced) and returns
    /// the logits of every position, `[T, vocab]` f32.
    pub fn prefill_logits(&mut self, tokens: &[u32]) -> Result<DynTensor> {
        let device = self.device.clone();
        device.scope(|| self.prefill_impl(tokens, None))
    }

    /// Runs `tokens` from position 0 and returns the token sampled after the last one (only
    /// its id is read back).
    pub fn prefill(&mut self, tokens: &[u32], sampler: &Sampler) -> Result<u32> {
        let device = self.device.clone();
        let id = device
            .scope(|| self.prefill_impl(tokens, Some(sampler)))?
            .to_vec::<i32>()
            .map_err(rt)?;
        Ok(id[0] as u32)
    }

    /// The prompt in steps of at most [`PREFILL_ROWS`] rows: the logits of every position
    /// (`sampler` `None`), or the token sampled after the last.
    fn prefill_impl(&mut self, tokens: &[u32], sampler: Option<&Sampler>) -> Result<DynTensor> {
        self.check_tokens("prefill", tokens)?;
        if tokens.is_empty() || tokens.len() > self.context {
            return Err(Error::Argument {
                op: "prefill",
                message: format!("{} tokens for a context of {}", tokens.len(), self.context),
            });
        }
        let s = sampler.cloned().unwrap_or_default();
        let mut logits = Vec::new();
        let mut start = 0;
        loop {
            let left = tokens.len() - start;
            let rows = left.min(PREFILL_ROWS).next_power_of_two();
            let real = left.min(rows);
            let last = real == left;
            let output = match (sampler, last) {
                (None, _) => Output::Logits,
                (Some(_), true) => Output::Sample,
                (Some(_), false) => Output::Cache,
            };
            let mut ids: Vec<i32> = tokens[start..start + real]
                .iter()
                .map(|&t| t as i32)
                .collect();
            ids.resize(rows, 0);
            let out = self.prefill_step(&ids, start, real, output, &s)?;
            if output == Output::Logits {
                logits.push(out.shrink(&[(0, real), (0, self.config.vocab)])?);
            }
            start += real;
            if last {
                return match output {
                    Output::Logits => Ok(DynTensor::cat(&logits, 0)?),
                    _ => Ok(out),
                };
            }
        }
    }

    /// One prefill step: `ids` (`real` prompt tokens, then padding) at positions from `start`.
    /// Recorded once per row count and output, the start and the last prompt row bound as
    /// vars. Returns the logits of its rows, the sampled token, or (`Output::Cache`) the last
    /// cache written.
    fn prefill_step(
        &mut self,
        ids: &[i32],
        start: usize,
        real: usize,
        output: Output,
        s: &Sampler,
    ) -> Result<DynTensor> {
        let ids = DynTensor::from_slice(&[ids.len()], ids).map_err(rt)?;
        let [b2, b3, b4] = self.sampler_binds(s, start + real);
        let binds = [
            (self.vars, Scalar::Int(start as i64)),
            (self.vars + 5, Scalar::Int(real as i64 - 1)),
            b2,
            b3,
            b4,
        ];
        // only a sampling step's graph depends on the sampler
        let key = match output {
            Output::Sample => (output, s.top_k.unwrap_or(0), s.is_greedy(), s.top_p < 1.0),
            Output::Cache | Output::Logits => (output, 0, false, false),
        };
        let mut prefill = self.prefill.remove(&key).unwrap_or_default();
        let out = run_step(
            &self.device,
            &mut prefill,
            self.eager,
            &[&ids],
            &binds,
            || {
                let x = self.embed(&ids).map_err(tg_err)?;
                let first = self.var(0, start as i32, DType::I32).map_err(tg_err)?;
                let (hdn, mut written) = self.forward(x, &first).map_err(tg_err)?;
                // the cache writes first: a realize schedules its targets in order, so each
                // layer's writes run right after its key and value product, which then need
                // not live until the step's end
                match output {
                    Output::Cache => {}
                    Output::Logits => written.push(self.output.matmul_t(&hdn).map_err(tg_err)?),
                    Output::Sample => {
                        let dim = self.config.dim as isize;
                        let row = self
                            .var(5, real as i32 - 1, DType::I32)
                            .map_err(tg_err)?
                            .reshape(&[1, 1])?
                            .expand(&[1, dim])?;
                        let logits = self
                            .output
                            .matmul_t(&hdn.gather(0, &row)?)
                            .map_err(tg_err)?
                            .reshape(&[self.config.vocab as isize])?;
                        written.push(self.sampled(&logits, s, start + real)?);
                    }
                }
                Ok(written)
            },
        );
        self.prefill.insert(key, prefill);
        out.map_err(rt)?.pop().ok_or_else(|| Error::Argument {
            op: "prefill",
            message: "the recorded step returned nothing".into(),
        })
    }

    /// The sampler's runtime scalars for a step at `position`.
    fn sampler_binds(&self, s: &Sampler, position: usize) -> [(u64, Scalar); 3] {
        [
            (
                self.vars + 2,
                Scalar::Float(f64::from(s.temperature.max(1e-6))),
            ),
            (self.vars + 3, Scalar::Float(f64::from(s.top_p))),
            (
                self.vars + 4,
                Scalar::UInt(u64::from(draw_key(s.seed, position))),
            ),
        ]
    }

    fn sampled(
        &self,
        logits: &DynTensor,
        s: &Sampler,
        position: usize,
    ) -> tg_runtime::Result<DynTensor> {
        let temp = self
            .var(2, s.temperature.max(1e-6), DType::F32)
            .map_err(tg_err)?;
        let top_p = self.var(3, s.top_p, DType::F32).map_err(tg_err)?;
        let key = self
            .var(4, draw_key(s.seed, position), DType::U32)
            .map_err(tg_err)?;
        sample(logits, s, &temp, &top_p, &key)
    }

    /// Runs one token at `position` (the cache holds the positions before it) and returns the
    /// sampled next token (only its id is read back). Recorded on the first call, replayed
    /// after with the token, position and sampler settings bound as vars.
    pub fn decode_step(&mut self, token: u32, position: usize, sampler: &Sampler) -> Result<u32> {
        let device = self.device.clone();
        let logits =
            device.scope(|| self.decode_logits_or_sample(token, position, Some(sampler)))?;
        let id = logits.to_vec::<i32>().map_err(rt)?;
        Ok(id[0] as u32)
    }

    /// The logits `[vocab]` after one token at `position` (for checks; the sampling path
    /// reads back only the token).
    pub fn decode_logits(&mut self, token: u32, position: usize) -> Result<DynTensor> {
        let device = self.device.clone();
        device.scope(|| self.decode_logits_or_sample(token, position, None))
    }

    fn decode_logits_or_sample(
        &mut self,
        token: u32,
        position: usize,
        sampler: Option<&Sampler>,
    ) -> Result<DynTensor> {
        self.check_tokens("decode", &[token])?;
        if position >= self.context {
            return Err(Error::Argument {
                op: "decode",
                message: format!("position {position} is past the context ({})", self.context),
            });
        }
        let s = sampler.cloned().unwrap_or_default();
        let [b2, b3, b4] = self.sampler_binds(&s, position);
        let binds = [
            (self.vars, Scalar::Int(position as i64)),
            (self.vars + 1, Scalar::Int(i64::from(token))),
            b2,
            b3,
            b4,
        ];
        let key = (
            sampler.is_some(),
            s.top_k.unwrap_or(0),
            s.is_greedy(),
            s.top_p < 1.0,
        );
        let mut decode = self.decode.remove(&key).unwrap_or_default();
        let out = run_step(&self.device, &mut decode, self.eager, &[], &binds, || {
            let pos = self.var(0, position as i32, DType::I32).map_err(tg_err)?;
            let tok = self.var(1, token as i32, DType::I32).map_err(tg_err)?;
            let x = self.embed(&tok.reshape(&[1])?).map_err(tg_err)?;
            let (hdn, mut written) = self.forward(x, &pos).map_err(tg_err)?;
            let logits = self
                .output
                .matmul_t(&hdn)
                .map_err(tg_err)?
                .reshape(&[self.config.vocab as isize])?;
            let result = match sampler {
                None => logits,
                Some(_) => self.sampled(&logits, &s, position)?,
            };
            written.insert(0, result);
            Ok(written)
        });
        self.decode.insert(key, decode);
        Ok(out.map_err(rt)?.swap_remove(0))
    }
}

/// A crate error inside a replay body, which speaks tg_runtime's errors.
fn tg_err(e: Error) -> tg_runtime::Error {
    match e {
        Error::Runtime(e) => e,
        other => tg_runtime::Error::Argument {
            op: "model",
            message: other.to_string(),
        },
    }
}

/// A step through its recording, or built and realized eagerly. Once a step is recorded,
/// the buffers its recording run freed go back to the driver (`Device::trim`): replays
/// write the recording's arena, so the pool would only hold them.
fn run_step(
    device: &Device,
    replay: &mut Replay,
    eager: bool,
    inputs: &[&DynTensor],
    vars: &[(u64, Scalar)],
    body: impl FnOnce() -> tg_runtime::Result<Vec<DynTensor>>,
) -> tg_runtime::Result<Vec<DynTensor>> {
    if !eager {
        let recording = replay.kernels(inputs).is_none();
        let outs = replay.run(inputs, vars, body)?;
        if recording {
            device.synchronize()?;
            device.trim();
        }
        return Ok(outs);
    }
    let outs = body()?;
    let lazies: Vec<&Lazy> = outs.iter().map(DynTensor::lazy).collect();
    tg_runtime::realize(&lazies)?;
    Ok(outs)
}
