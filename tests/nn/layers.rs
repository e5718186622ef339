//! tg::nn's layers against numpy (fixtures/nn.json, scripts/gen_nn.py): each layer is made
//! with its constructor, its parameters loaded from the fixture through `load_state_dict`,
//! and its forward pass compared; BatchNorm2d also compares its running statistics after a
//! training step, then its evaluation output.

use tg::nn::{
    BatchNorm2d, Conv2d, ConvOptions, ConvTranspose2d, Embedding, GroupNorm, LayerNorm, Linear,
    Module, RMSNorm, SelfAttention, clip_grad_norm, clip_grad_value, scaled_dot_product_attention,
};
use tg::prelude::*;
use tg::runtime::Lazy;
use tg_test_support::fixture::{self, Case, arg};
use tg_test_support::inputs;

fn n(c: &Case, key: &str) -> usize {
    arg(c, key)
        .as_u64()
        .unwrap_or_else(|| panic!("{}: {key}", c.name)) as usize
}

/// Loads the case's parameters (inputs after the first, named by args.params) into `m`.
fn load(c: &Case, m: &mut dyn Module, t: &[DynTensor]) -> Result<(), String> {
    let mut dict = m.state_dict().map_err(|e| e.to_string())?;
    let names = arg(c, "params").as_array().expect("params");
    for (name, value) in names.iter().zip(&t[1..]) {
        dict.insert(name.as_str().expect("name"), value.clone());
    }
    m.load_state_dict(&dict).map_err(|e| e.to_string())
}

fn run(c: &Case) -> Result<Vec<Lazy>, String> {
    let t = inputs(c);
    let e = |e: tg::Error| e.to_string();
    let one = |r: tg::Result<DynTensor>| r.map(|y| vec![y.into_lazy()]).map_err(e);
    let conv_options = || ConvOptions {
        stride: n(c, "stride"),
        padding: n(c, "padding"),
        dilation: arg(c, "dilation").as_u64().unwrap_or(1) as usize,
        groups: arg(c, "groups").as_u64().unwrap_or(1) as usize,
        bias: arg(c, "bias").as_bool().unwrap_or(true),
        output_padding: arg(c, "output_padding").as_u64().unwrap_or(0) as usize,
    };
    match c.json["op"].as_str().expect("op") {
        "linear" => {
            let mut l = Linear::new(n(c, "in"), n(c, "out"), true).map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "conv2d" => {
            let mut l = Conv2d::new(n(c, "cin"), n(c, "cout"), n(c, "kernel"), conv_options())
                .map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "conv_transpose2d" => {
            let mut l =
                ConvTranspose2d::new(n(c, "cin"), n(c, "cout"), n(c, "kernel"), conv_options())
                    .map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "batchnorm2d" => {
            let mut l = BatchNorm2d::new(n(c, "channels")).map_err(e)?;
            load(c, &mut l, &t[..5])?;
            let y = l.forward(&t[0]).map_err(e)?;
            let (rm, rv) = (l.running_mean.clone(), l.running_var.clone());
            tg::runtime::realize(&[y.lazy(), rm.lazy(), rv.lazy()]).map_err(e)?;
            l.set_training(false);
            let y_eval = l.forward(&t[5]).map_err(e)?;
            Ok(vec![
                y.into_lazy(),
                rm.into_lazy(),
                rv.into_lazy(),
                y_eval.into_lazy(),
            ])
        }
        "layernorm" => {
            let mut l = LayerNorm::new(n(c, "dim")).map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "rmsnorm" => {
            let mut l = RMSNorm::new(n(c, "dim")).map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "groupnorm" => {
            let mut l = GroupNorm::new(n(c, "groups"), n(c, "channels")).map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "embedding" => {
            let mut l = Embedding::new(n(c, "vocab"), n(c, "dim")).map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "self_attention" => {
            let mut l = SelfAttention::new(n(c, "dim"), n(c, "heads")).map_err(e)?;
            load(c, &mut l, &t)?;
            one(l.forward(&t[0]))
        }
        "sdpa" => {
            let causal = arg(c, "causal").as_bool().expect("causal");
            one(scaled_dot_product_attention(
                &t[0],
                &t[1],
                &t[2],
                t.get(3),
                0.0,
                causal,
            ))
        }
        "clip_grad_norm" => {
            let max = arg(c, "max_norm").as_f64().expect("max_norm");
            let (g, norm) = clip_grad_norm(&t, max).map_err(e)?;
            Ok(g.into_iter()
                .chain([norm])
                .map(DynTensor::into_lazy)
                .collect())
        }
        "clip_grad_value" => {
            let v = arg(c, "value").as_f64().expect("value");
            Ok(clip_grad_value(&t, v)
                .map_err(e)?
                .into_iter()
                .map(DynTensor::into_lazy)
                .collect())
        }
        _ => Err("not a layer case".into()),
    }
}

#[test]
fn layers_match_numpy() {
    let cases = fixture::load("nn.json");
    let mut failures = Vec::new();
    let mut ran = 0;
    for c in &cases {
        let result = match run(c) {
            Err(m) if m == "not a layer case" => continue,
            r => r,
        };
        ran += 1;
        let checked = result.and_then(|got| fixture::compare_outs(&got, c));
        if let Err(e) = checked {
            failures.push(format!("{}: {e}", c.name));
        }
    }
    assert!(ran >= 13, "only {ran} layer cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn initialisers_follow_tinygrad() {
    DynTensor::manual_seed(11);
    let l = Linear::new(50, 40, true).unwrap();
    let w = l.weight.to_vec::<f32>().unwrap();
    let b = l.bias.as_ref().unwrap().to_vec::<f32>().unwrap();
    // kaiming_uniform(a = sqrt(5)): bound 1 / sqrt(fan_in); bias the same bound
    let bound = 1.0 / (50f32).sqrt();
    assert!(w.iter().all(|v| v.abs() <= bound) && b.iter().all(|v| v.abs() <= bound));
    let spread = w.iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(
        spread > 0.9 * bound,
        "the weights fill their range: {spread} of {bound}"
    );
    let mean = w.iter().sum::<f32>() / w.len() as f32;
    assert!(mean.abs() < 0.01, "centred: {mean}");
    let c = Conv2d::new(4, 8, 3, ConvOptions::default()).unwrap();
    let bound = 1.0 / (4.0f32 * 9.0).sqrt();
    assert!(
        c.weight
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .all(|v| v.abs() <= bound)
    );
    assert_eq!(c.weight.shape(), &[8, 4, 3, 3]);
    let bn = BatchNorm2d::new(3).unwrap();
    assert_eq!(bn.weight.to_vec::<f32>().unwrap(), vec![1.0; 3]);
    assert_eq!(bn.running_var.to_vec::<f32>().unwrap(), vec![1.0; 3]);
}

#[test]
fn dropout_drops_in_training_only() {
    DynTensor::manual_seed(5);
    let x = DynTensor::ones(&[4000], DType::F32).unwrap();
    let mut d = tg::nn::Dropout::new(0.25).unwrap();
    let y = d.forward(&x).unwrap().to_vec::<f32>().unwrap();
    let kept = y.iter().filter(|&&v| v != 0.0).count() as f64 / 4000.0;
    assert!((kept - 0.75).abs() < 0.03, "kept {kept}");
    assert!(y.iter().all(|&v| v == 0.0 || (v - 1.0 / 0.75).abs() < 1e-6));
    d.set_training(false);
    assert_eq!(
        d.forward(&x).unwrap().to_vec::<f32>().unwrap(),
        vec![1.0; 4000]
    );
    assert!(tg::nn::Dropout::new(1.0).is_err());
}

#[test]
fn typed_linear_checks_its_sizes() {
    let mut fc = tg::nn::TypedLinear::<3, 2>::new().unwrap();
    let x = Tensor::<Rank2<4, 3>>::from_slice(&[1.0; 12]).unwrap();
    let y: Tensor<Rank2<4, 2>> = fc.forward(&x);
    let w = fc.weight.to_vec().unwrap();
    let b = fc.bias.to_vec().unwrap();
    let want: Vec<f32> = (0..4)
        .flat_map(|_| (0..2).map(|o| w[o * 3] + w[o * 3 + 1] + w[o * 3 + 2] + b[o]))
        .collect();
    for (g, w) in y.to_vec().unwrap().iter().zip(&want) {
        assert!((g - w).abs() < 1e-5);
    }
    // a replacement of the wrong shape is refused, naming the tensor
    let err = fc
        .visit(&mut |name, _, t| {
            if name == "weight" {
                *t = DynTensor::zeros(&[3, 3], DType::F32)?;
            }
            Ok(())
        })
        .unwrap_err();
    assert!(err.to_string().contains("`weight`"), "{err}");
}
