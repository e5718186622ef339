//! Losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss with class weights,
//! `ignore_index` and the three reductions (the mean divides by the total weight of the
//! targets not ignored).

use tg_onnx_format::{DType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::indexing::Index;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

fn nll_of(
    input: &DynTensor,
    target: &DynTensor,
    weight: Option<&DynTensor>,
    ignore: Option<i64>,
    reduction: &str,
) -> R<DynTensor> {
    let t = target.cast(DType::I64);
    let valid = match ignore {
        Some(i) => t.ne(i)?,
        None => t.full_like(true).cast(DType::Bool),
    };
    let safe = valid.where_(&t, t.zeros_like())?;
    let picked = input.gather(1, &safe.unsqueeze(1)?)?.squeeze(Some(1))?;
    let w = match weight {
        Some(w) => w.index(&[Index::Tensor(safe.clone())])?,
        None => picked.ones_like(),
    };
    let w = valid.where_(&w, w.zeros_like())?.cast(input.dtype());
    let loss = picked.neg()?.mul(&w)?;
    match reduction {
        "none" => Ok(loss),
        "sum" => loss.sum(None, false),
        _ => loss.sum(None, false)?.div(&w.sum(None, false)?),
    }
}

fn reduction(c: &NodeCtx) -> Result<String> {
    let r = c.node.string_or("reduction", "mean")?;
    if !matches!(r.as_str(), "none" | "sum" | "mean") {
        return Err(c
            .node
            .bad_attr("reduction", format!("{r:?} is not none, sum or mean")));
    }
    Ok(r)
}

pub(crate) fn nll(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, t) = (c.t(0)?, c.t(1)?);
    let w = c.opt_t(2)?;
    let ignore = c.node.int("ignore_index")?;
    let red = reduction(c)?;
    if x.ndim() < 2 {
        return Err(c.bad("the input must be (N, C, ...)"));
    }
    let y = nll_of(&x, &t, w.as_ref(), ignore, &red)
        .at(c)?
        .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn softmax_cross_entropy(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, t) = (c.t(0)?, c.t(1)?);
    let w = c.opt_t(2)?;
    let ignore = c.node.int("ignore_index")?;
    let red = reduction(c)?;
    if x.ndim() < 2 {
        return Err(c.bad("the scores must be (N, C, ...)"));
    }
    let (loss, logp) = (|| -> R<(DynTensor, DynTensor)> {
        let logp = x.log_softmax(1, None)?;
        Ok((nll_of(&logp, &t, w.as_ref(), ignore, &red)?, logp))
    })()
    .at(c)?;
    Ok(vec![c.out(loss.cast(x.dtype())), c.out(logp)])
}
