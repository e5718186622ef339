//! The two operators of the classical machine-learning domain (`ai.onnx.ml`) that are plain
//! tensor ops: Binarizer and ArrayFeatureExtractor.

use tg_onnx_format::{DType, OpType, Result};
use tg_ops::untyped::indexing::Index;

use crate::value::{At, NodeCtx, Value};

pub(crate) fn ml(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let y = match c.node.op {
        OpType::Binarizer => {
            let th = c.node.float_or("threshold", 0.0)? as f64;
            x.gt(th).at(c)?.cast(x.dtype())
        }
        _ => {
            let idx = c.t(1)?.cast(DType::I64).reshape(&[-1]).at(c)?;
            let k = idx.numel() as isize;
            let picked = x.index(&[Index::Ellipsis, Index::Tensor(idx)]).at(c)?;
            let mut shape: Vec<isize> = if x.ndim() == 1 {
                vec![1]
            } else {
                x.shape()[..x.ndim() - 1]
                    .iter()
                    .map(|&d| d as isize)
                    .collect()
            };
            shape.push(k);
            picked.reshape(&shape).at(c)?
        }
    };
    Ok(vec![c.out(y)])
}
