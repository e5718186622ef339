//! The typed layers (`TypedEmbedding`, `TypedLayerNorm`, `TypedRMSNorm`,
//! `TypedSelfAttention`) against their untyped twins: the untyped twin loads the typed
//! layer's state dict (so the tensor names match, and the typed fields hold what those names
//! say) and both forward passes give the same values; the layers inside a
//! `#[kernel]` body, through a derived model, against the same calls run eagerly; a
//! replacement of the wrong shape refused. The untyped layers' values against numpy are
//! `layers.rs`'s (fixtures/nn.json).

use tg::nn::{
    Embedding, LayerNorm, Module, RMSNorm, SelfAttention, TypedEmbedding, TypedLayerNorm,
    TypedRMSNorm, TypedSelfAttention,
};
use tg::prelude::*;
use tg_test_support::assert_close;

/// `n` values in `[-2, 2)`, varied by `k`.
fn values(n: usize, k: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7 + k * 5) % 17) as f32 * 0.25 - 2.0)
        .collect()
}

/// `twin` loaded with `typed`'s tensors, by name: a name or shape that differs fails here.
fn load_twin(typed: &dyn Module, twin: &mut dyn Module) {
    twin.load_state_dict(&typed.state_dict().unwrap()).unwrap();
}

#[test]
fn typed_embedding_equals_embedding() {
    let emb = TypedEmbedding::<7, 5>::new().unwrap();
    let mut twin = Embedding::new(7, 5).unwrap();
    load_twin(&emb, &mut twin);
    // [B, T] -> [B, T, DIM], an id outside the table included (a zero row)
    let ids = Tensor::<Rank2<2, 3>, i32>::from_slice(&[0, 3, 6, 2, 2, 9]).unwrap();
    let y: Tensor<Rank3<2, 3, 5>> = emb.forward(&ids);
    let want = twin.forward(ids.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(y.to_vec().unwrap(), want);
    // any shape of ids: rank 1, and a dynamic length
    let ids = Tensor::<shape![_], i64>::from_slice_shape((4,), &[1, 0, 6, 1]).unwrap();
    let y: Tensor<shape![_, 5]> = emb.forward(&ids);
    let want = twin.forward(ids.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(y.dims(), vec![4, 5]);
    assert_eq!(y.to_vec().unwrap(), want);
    let table: &Tensor<Rank2<7, 5>> = &emb.weight;
    assert_eq!(
        table.to_vec().unwrap(),
        twin.weight.to_vec::<f32>().unwrap()
    );
}

#[test]
fn typed_layernorm_equals_layernorm() {
    let mut ln = TypedLayerNorm::<6>::new().unwrap();
    // parameters other than the initial ones, written through `visit` as a loader would
    ln.visit(&mut |name, _, t| {
        let v: Vec<f32> = values(6, name.len()).iter().map(|v| v * 0.5).collect();
        *t = DynTensor::from_slice(&[6], &v)?;
        Ok(())
    })
    .unwrap();
    let mut twin = LayerNorm::new(6).unwrap();
    load_twin(&ln, &mut twin);
    // any shape ending in D
    let x = Tensor::<Rank3<2, 3, 6>>::from_slice(&values(36, 1)).unwrap();
    let y: Tensor<Rank3<2, 3, 6>> = ln.forward(&x);
    let want = twin.forward(x.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(y.to_vec().unwrap(), want);
    let x = Tensor::<shape![_, 6]>::from_slice_shape((4, Const), &values(24, 2)).unwrap();
    let y: Tensor<shape![_, 6]> = ln.forward(&x);
    let want = twin.forward(x.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(y.to_vec().unwrap(), want);
    // the typed fields are the tensors their names say
    assert_eq!(
        ln.bias.to_vec().unwrap(),
        twin.bias.to_vec::<f32>().unwrap()
    );
    assert_eq!(ln.eps, twin.eps);
}

#[test]
fn typed_rms_norm_equals_rms_norm() {
    let mut norm = TypedRMSNorm::<6>::new().unwrap();
    norm.weight = Tensor::from_slice(&values(6, 4)).unwrap();
    let mut twin = RMSNorm::new(6).unwrap();
    load_twin(&norm, &mut twin);
    assert_eq!(crate::parameter_names(&norm), ["weight"]);
    assert_eq!(norm.eps, twin.eps);
    let x = Tensor::<Rank3<2, 3, 6>>::from_slice(&values(36, 5)).unwrap();
    let y: Tensor<Rank3<2, 3, 6>> = norm.forward(&x);
    let want = twin.forward(x.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(y.to_vec().unwrap(), want);
    // and against the host: weight * x / sqrt(mean(x^2) + eps), row by row
    let (xs, ws) = (values(36, 5), values(6, 4));
    for (row, got) in xs.chunks(6).zip(y.to_vec().unwrap().chunks(6)) {
        let ms = row.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / 6.0;
        let want: Vec<f32> = row
            .iter()
            .zip(&ws)
            .map(|(v, w)| (f64::from(*v) / (ms + 1e-6).sqrt() * f64::from(*w)) as f32)
            .collect();
        assert_close(got, &want, 1e-5);
    }
}

#[test]
fn typed_self_attention_equals_self_attention() {
    let attn = TypedSelfAttention::<8, 2>::new().unwrap();
    let names = crate::parameter_names(&attn);
    assert_eq!(
        names,
        [
            "q.weight",
            "k.weight",
            "v.weight",
            "proj.weight",
            "proj.bias"
        ]
    );
    let mut twin = SelfAttention::new(8, 2).unwrap();
    load_twin(&attn, &mut twin);
    let x = Tensor::<Rank3<2, 5, 8>>::from_slice(&values(80, 3)).unwrap();
    let y: Tensor<Rank3<2, 5, 8>> = attn.forward(&x);
    let want = twin.forward(x.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(y.to_vec().unwrap(), want);
    // the typed fields are the tensors their names say
    for (typed, untyped) in [
        (attn.q.as_dyn(), &twin.q.weight),
        (attn.k.as_dyn(), &twin.k.weight),
        (attn.v.as_dyn(), &twin.v.weight),
        (attn.proj.weight.as_dyn(), &twin.proj.weight),
    ] {
        assert_eq!(
            typed.to_vec::<f32>().unwrap(),
            untyped.to_vec::<f32>().unwrap()
        );
    }
}

#[test]
fn self_attention_refuses_heads_that_do_not_divide_the_width() {
    for (dim, heads) in [(6, 4), (8, 0)] {
        match SelfAttention::new(dim, heads) {
            Err(tg::Error::Argument { op, message }) => {
                assert_eq!(op, "SelfAttention");
                assert!(message.contains(&format!("{dim}")), "{message}");
            }
            other => panic!("{dim}/{heads}: {:?}", other.map(|_| ())),
        }
    }
    let x = DynTensor::zeros(&[2, 3, 6], DType::F32).unwrap();
    let l = SelfAttention::new(8, 2).unwrap();
    assert!(matches!(l.forward(&x), Err(tg::Error::Shape { .. })));
}

#[test]
fn a_typed_layer_refuses_a_replacement_of_another_shape_and_keeps_its_tensor() {
    let mut attn = TypedSelfAttention::<8, 2>::new().unwrap();
    let before = attn.k.to_vec().unwrap();
    let err = attn
        .visit(&mut |name, _, t| {
            if name == "k.weight" {
                *t = DynTensor::zeros(&[8, 4], DType::F32)?;
            }
            Ok(())
        })
        .unwrap_err();
    assert!(
        matches!(&err, tg::Error::Argument { message, .. } if message.contains("`k.weight`")),
        "{err}"
    );
    assert_eq!(attn.k.to_vec().unwrap(), before);
    let mut emb = TypedEmbedding::<4, 3>::new().unwrap();
    assert!(
        emb.visit(&mut |_, _, t| {
            *t = t.cast(DType::F16);
            Ok(())
        })
        .is_err(),
        "another dtype is refused too"
    );
}

/// A model of typed layers; its tensors are named by field (`emb.weight`, `attn.q.weight`).
#[derive(Module)]
struct Tiny {
    emb: TypedEmbedding<11, 8>,
    ln: TypedLayerNorm<8>,
    attn: TypedSelfAttention<8, 2>,
    rms: TypedRMSNorm<8>,
}

/// The typed layers in a kernel body: rustc checks each call's shapes.
#[kernel]
fn tiny_block<const B: usize, const T: usize>(
    m: &Tiny,
    ids: &Tensor<shape![B, T], i32>,
) -> Tensor<shape![B, T, 8]> {
    let x: Tensor<shape![B, T, 8]> = m.emb.forward(ids);
    let n: Tensor<shape![B, T, 8]> = m.ln.forward(&x);
    let a: Tensor<shape![B, T, 8]> = m.attn.forward(&n);
    m.rms.forward(&(x + a))
}

#[test]
fn typed_layers_in_a_kernel_body_match_eager() {
    let m = Tiny {
        emb: TypedEmbedding::new().unwrap(),
        ln: TypedLayerNorm::new().unwrap(),
        attn: TypedSelfAttention::new().unwrap(),
        rms: TypedRMSNorm::new().unwrap(),
    };
    let names = crate::parameter_names(&m);
    assert_eq!(names[..3], ["emb.weight", "ln.weight", "ln.bias"]);
    assert_eq!(names[3], "attn.q.weight");
    assert_eq!(names.last().unwrap(), "rms.weight");
    for k in 0..2 {
        let ids: Vec<i32> = (0..12).map(|i| (i * 5 + k * 3) % 11).collect();
        let ids = Tensor::<Rank2<3, 4>, i32>::from_slice(&ids).unwrap();
        let got = tiny_block(&m, &ids).to_vec().unwrap();
        let x = m.emb.forward(&ids);
        let want = m
            .rms
            .forward(&(m.attn.forward(&m.ln.forward(&x)) + x))
            .to_vec()
            .unwrap();
        assert_close(&got, &want, 1e-5);
    }
}
