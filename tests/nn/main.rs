//! tg::nn and tg::optim: composed ops' gradients against central differences, layers against
//! numpy (fixtures/nn.json, made by scripts/gen_nn.py), optimizer steps against the
//! published formulas, and state round trips. One binary, one module per part.

mod eager;
mod gradients;
mod layers;
mod optim;
mod readme;
mod sequential;
mod state;
mod tinygpt;
mod typed_layers;

use tg::nn::Module;

/// The names of `m`'s parameters, in its order.
fn parameter_names(m: &dyn Module) -> Vec<String> {
    m.parameters()
        .unwrap()
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}
