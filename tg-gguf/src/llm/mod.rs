//! Language models of the llama family from GGUF files: hyperparameters, the transformer with
//! its KV cache and recorded steps, on-device sampling, the tokenizer and text generation.

pub mod bench;
pub mod config;
pub mod generate;
pub mod model;
pub mod sample;
pub mod tokenizer;
