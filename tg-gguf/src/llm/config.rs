//! The hyperparameters of a llama-architecture model, from a GGUF file's metadata.

use crate::{Error, GgufFile, Result};

/// The architectures of the llama family tg runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arch {
    /// `llama`: RoPE on adjacent pairs.
    Llama,
    /// `mistral`: llama's layout.
    Mistral,
    /// `qwen2`: biases on q, k, v; RoPE on the two halves of a head (NeoX).
    Qwen2,
}

impl Arch {
    /// The architecture `general.architecture` names.
    pub fn from_name(name: &str) -> Result<Arch> {
        match name {
            "llama" => Ok(Arch::Llama),
            "mistral" => Ok(Arch::Mistral),
            "qwen2" => Ok(Arch::Qwen2),
            other => Err(Error::Unsupported {
                what: format!("architecture {other:?} (llama, mistral and qwen2 are supported)"),
            }),
        }
    }

    /// The name GGUF keys start with.
    pub fn name(self) -> &'static str {
        match self {
            Arch::Llama => "llama",
            Arch::Mistral => "mistral",
            Arch::Qwen2 => "qwen2",
        }
    }

    /// Whether RoPE rotates the two halves of a head (NeoX) rather than adjacent pairs.
    pub fn rope_halves(self) -> bool {
        matches!(self, Arch::Qwen2)
    }
}

/// A model's sizes and constants.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The architecture.
    pub arch: Arch,
    /// Embedding width.
    pub dim: usize,
    /// Transformer blocks.
    pub layers: usize,
    /// Query heads.
    pub heads: usize,
    /// Key/value heads (grouped-query attention when fewer than `heads`).
    pub kv_heads: usize,
    /// Width of a head.
    pub head_dim: usize,
    /// Hidden width of the feed-forward block.
    pub ffn: usize,
    /// Vocabulary size.
    pub vocab: usize,
    /// Training context length (the KV cache's default length).
    pub context: usize,
    /// RMSNorm's epsilon.
    pub eps: f32,
    /// RoPE's frequency base.
    pub rope_base: f32,
    /// Linear RoPE scaling: positions are divided by this (1 without scaling).
    pub rope_scale: f32,
    /// Dimensions of a head RoPE rotates (all of them: partial rotation is not supported).
    pub rope_dims: usize,
}

impl Config {
    /// Reads the hyperparameters; a missing key or a value of the wrong type is an error
    /// naming the key, and an unsupported RoPE scaling is [`Error::Unsupported`].
    pub fn from_file(file: &GgufFile) -> Result<Config> {
        let m = file.metadata();
        let arch = Arch::from_name(m.str("general.architecture")?)?;
        let key = |k: &str| format!("{}.{k}", arch.name());
        let dim = m.usize(&key("embedding_length"))?;
        let heads = m.usize(&key("attention.head_count"))?;
        let kv_heads = m.usize_or(&key("attention.head_count_kv"), heads)?;
        let positive = |k: String, v: usize| -> Result<usize> {
            if v == 0 {
                return Err(Error::BadValue {
                    key: k,
                    message: "must be positive".into(),
                });
            }
            Ok(v)
        };
        let heads = positive(key("attention.head_count"), heads)?;
        let kv_heads = positive(key("attention.head_count_kv"), kv_heads)?;
        if dim % heads != 0 || heads % kv_heads != 0 {
            return Err(Error::BadValue {
                key: key("attention.head_count_kv"),
                message: format!(
                    "{dim} wide, {heads} heads, {kv_heads} key/value heads do not divide"
                ),
            });
        }
        let head_dim = dim / heads;
        let vocab = match m.get(&key("vocab_size")) {
            Some(_) => m.usize(&key("vocab_size"))?,
            None => m.array("tokenizer.ggml.tokens")?.len(),
        };
        let rope_dims = m.usize_or(&key("rope.dimension_count"), head_dim)?;
        if rope_dims != head_dim {
            return Err(Error::Unsupported {
                what: format!("RoPE over {rope_dims} of a head's {head_dim} dimensions"),
            });
        }
        let scaling = match m.get(&key("rope.scaling.type")) {
            Some(_) => m.str(&key("rope.scaling.type"))?.to_string(),
            None => "none".into(),
        };
        let rope_scale = match scaling.as_str() {
            "none" => 1.0,
            "linear" => {
                let f = m.f64_or(&key("rope.scaling.factor"), 1.0)?;
                if f.is_nan() || f <= 0.0 {
                    return Err(Error::BadValue {
                        key: key("rope.scaling.factor"),
                        message: format!("{f}"),
                    });
                }
                f as f32
            }
            other => {
                return Err(Error::Unsupported {
                    what: format!("RoPE scaling {other:?} (none and linear are supported)"),
                });
            }
        };
        Ok(Config {
            arch,
            dim: positive(key("embedding_length"), dim)?,
            layers: m.usize(&key("block_count"))?,
            heads,
            kv_heads,
            head_dim,
            ffn: positive(
                key("feed_forward_length"),
                m.usize(&key("feed_forward_length"))?,
            )?,
            vocab: positive(key("vocab_size"), vocab)?,
            context: positive(key("context_length"), m.usize(&key("context_length"))?)?,
            eps: m.f64_or(&key("attention.layer_norm_rms_epsilon"), 1e-5)? as f32,
            rope_base: m.f64_or(&key("rope.freq_base"), 10000.0)? as f32,
            rope_scale,
            rope_dims,
        })
    }

    /// Bytes of the KV cache for `context` positions (f32 keys and values of every layer).
    pub fn kv_bytes(&self, context: usize) -> usize {
        2 * self.layers * self.kv_heads * context * self.head_dim * 4
    }
}
