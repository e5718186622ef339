//! The recurrent layers RNN, GRU and LSTM, unrolled over the sequence (its length is known
//! when the graph is built): forward, reverse and bidirectional, both layouts, initial
//! states, biases, LSTM's peepholes and `input_forget`, GRU's `linear_before_reset`,
//! `clip`, the activation functions by name with their alpha and beta, and
//! `sequence_lens` (steps past a sequence's length keep its state and output zeros).

use tg_onnx_format::{DType, OpType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::elementwise::Operand;
use tg_ops::untyped::indexing::Index;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// An activation function named by ONNX, with its alpha and beta.
#[derive(Clone)]
struct Act {
    name: String,
    alpha: Option<f64>,
    beta: Option<f64>,
}

impl Act {
    fn apply(&self, x: &DynTensor) -> R<DynTensor> {
        let a = |d: f64| self.alpha.unwrap_or(d);
        let b = |d: f64| self.beta.unwrap_or(d);
        match self.name.to_ascii_lowercase().as_str() {
            "sigmoid" => x.sigmoid(),
            "tanh" => x.tanh(),
            "relu" => x.relu(),
            "affine" => x.mul(a(1.0))?.add(b(0.0)),
            "leakyrelu" => x.leaky_relu(a(0.01)),
            "thresholdedrelu" => x.gt(a(1.0))?.where_(x, x.zeros_like()),
            "scaledtanh" => x.mul(b(1.0))?.tanh()?.mul(a(1.0)),
            "hardsigmoid" => x.mul(a(0.2))?.add(b(0.5))?.clamp(
                Some(Operand::from(tg_runtime::Scalar::Float(0.0))),
                Some(Operand::from(tg_runtime::Scalar::Float(1.0))),
            ),
            "elu" => x.gt(0)?.where_(x, x.exp()?.sub(1)?.mul(a(1.0))?),
            "softsign" => x.softsign(),
            "softplus" => x.softplus(1.0),
            other => Err(tg_runtime::Error::Argument {
                op: "recurrent",
                message: format!("activation {other:?} is not one ONNX defines"),
            }),
        }
    }
}

pub(crate) fn recurrent(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let n = c.node;
    let op = n.op;
    let gates = match op {
        OpType::RNN => 1,
        OpType::GRU => 3,
        _ => 4,
    };
    let (x, w, r) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let bias = c.opt_t(3)?;
    let lens = c.opt_t(4)?;
    let h0 = c.opt_t(5)?;
    let c0 = if op == OpType::LSTM {
        c.opt_t(6)?
    } else {
        None
    };
    let peep = if op == OpType::LSTM {
        c.opt_t(7)?
    } else {
        None
    };
    let hidden = n
        .int("hidden_size")?
        .ok_or_else(|| n.bad_attr("hidden_size", "missing"))? as usize;
    let dirs_name = n.string_or("direction", "forward")?;
    let dirs: Vec<bool> = match dirs_name.as_str() {
        "forward" => vec![false],
        "reverse" => vec![true],
        "bidirectional" => vec![false, true],
        other => return Err(n.bad_attr("direction", format!("{other:?} is not a direction"))),
    };
    let layout = n.int_or("layout", 0)?;
    let clip = n
        .attrs
        .get("clip")
        .map(|_| n.float_or("clip", 0.0))
        .transpose()?;
    let lbr = n.int_or("linear_before_reset", 0)? != 0;
    let input_forget = n.int_or("input_forget", 0)? != 0;
    let per_dir = match op {
        OpType::RNN => 1,
        OpType::GRU => 2,
        _ => 3,
    };
    let names: Vec<String> = match n.attrs.get("activations") {
        Some(tg_onnx_format::Attr::Strings(v)) => v
            .iter()
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect(),
        _ => {
            let one: &[&str] = match op {
                OpType::RNN => &["Tanh"],
                OpType::GRU => &["Sigmoid", "Tanh"],
                _ => &["Sigmoid", "Tanh", "Tanh"],
            };
            (0..dirs.len())
                .flat_map(|_| one.iter().map(|s| s.to_string()))
                .collect()
        }
    };
    if names.len() < per_dir * dirs.len() {
        return Err(n.bad_attr(
            "activations",
            format!("{} given, {} needed", names.len(), per_dir * dirs.len()),
        ));
    }
    let alphas = n.floats("activation_alpha")?.unwrap_or_default();
    let betas = n.floats("activation_beta")?.unwrap_or_default();
    let acts: Vec<Act> = names
        .iter()
        .enumerate()
        .map(|(i, name)| Act {
            name: name.clone(),
            alpha: alphas.get(i).map(|&v| v as f64),
            beta: betas.get(i).map(|&v| v as f64),
        })
        .collect();
    if x.ndim() != 3 {
        return Err(c.bad("X must be 3-D"));
    }
    let outs = (|| -> R<Vec<DynTensor>> {
        // (seq, batch, input)
        let xs = if layout == 1 {
            x.permute(&[1, 0, 2])?
        } else {
            x.clone()
        };
        let (seq, batch) = (xs.shape()[0], xs.shape()[1]);
        let dt = x.dtype();
        let lens_col = match &lens {
            Some(l) => Some(l.cast(DType::I64).reshape(&[-1, 1])?),
            None => None,
        };
        let mut ys = Vec::new();
        let mut hs = Vec::new();
        let mut cs = Vec::new();
        for (d, &reverse) in dirs.iter().enumerate() {
            let pick = |t: &DynTensor| t.index(&[Index::Int(d as isize)]);
            let wd = pick(&w)?; // (gates * hidden, input)
            let rd = pick(&r)?; // (gates * hidden, hidden)
            let g = |m: &DynTensor, k: usize| {
                m.index(&[Index::slice(
                    (k * hidden) as isize..((k + 1) * hidden) as isize,
                    1,
                )])
            };
            let (wb, rb) = match &bias {
                Some(b) => {
                    let bd = pick(b)?;
                    (
                        Some(bd.index(&[Index::slice(..(gates * hidden) as isize, 1)])?),
                        Some(bd.index(&[Index::slice((gates * hidden) as isize.., 1)])?),
                    )
                }
                None => (None, None),
            };
            let mut h = match &h0 {
                Some(h) => pick(h)?,
                None => DynTensor::zeros(&[batch, hidden], dt)?,
            };
            let mut cell = match &c0 {
                Some(c0) => pick(c0)?,
                None => DynTensor::zeros(&[batch, hidden], dt)?,
            };
            let act = |k: usize| &acts[d * per_dir + k];
            let clipped = |t: DynTensor| -> R<DynTensor> {
                match clip {
                    Some(cl) => t.clamp(
                        Some(Operand::from(tg_runtime::Scalar::Float(-(cl as f64)))),
                        Some(Operand::from(tg_runtime::Scalar::Float(cl as f64))),
                    ),
                    None => Ok(t),
                }
            };
            // the input's contribution to every gate at every step, one matmul: (seq, batch, gates * hidden)
            let mut xw = xs.matmul(&wd.t()?)?;
            if let Some(wb) = &wb {
                xw = xw.add(wb)?;
            }
            let gate_of = |t: &DynTensor, k: usize| {
                t.index(&[
                    Index::Ellipsis,
                    Index::slice((k * hidden) as isize..((k + 1) * hidden) as isize, 1),
                ])
            };
            let mut out_steps: Vec<DynTensor> = vec![DynTensor::zeros(&[1], dt)?; seq];
            for step in 0..seq {
                let t = if reverse { seq - 1 - step } else { step };
                let xt = xw.index(&[Index::Int(t as isize)])?; // (batch, gates * hidden)
                let mut hr = h.matmul(&rd.t()?)?;
                if let Some(rb) = &rb {
                    hr = hr.add(rb)?;
                }
                let (new_h, new_c) = match op {
                    OpType::RNN => (act(0).apply(&clipped(xt.add(&hr)?)?)?, cell.clone()),
                    OpType::GRU => {
                        let z =
                            act(0).apply(&clipped(gate_of(&xt, 0)?.add(&gate_of(&hr, 0)?)?)?)?;
                        let rg =
                            act(0).apply(&clipped(gate_of(&xt, 1)?.add(&gate_of(&hr, 1)?)?)?)?;
                        let hh = if lbr {
                            gate_of(&xt, 2)?.add(&rg.mul(&gate_of(&hr, 2)?)?)?
                        } else {
                            let mut rh = rg.mul(&h)?.matmul(&g(&rd, 2)?.t()?)?;
                            if let Some(rb) = &rb {
                                rh = rh.add(&g(rb, 2)?)?;
                            }
                            gate_of(&xt, 2)?.add(&rh)?
                        };
                        let hh = act(1).apply(&clipped(hh)?)?;
                        (z.neg()?.add(1.0)?.mul(&hh)?.add(&z.mul(&h)?)?, cell.clone())
                    }
                    _ => {
                        let pre = xt.add(&hr)?;
                        let p = |k: usize| -> R<Option<DynTensor>> {
                            match &peep {
                                Some(pp) => Ok(Some(g(&pick(pp)?, k)?)),
                                None => Ok(None),
                            }
                        };
                        let with_peep = |t: DynTensor, k: usize, cc: &DynTensor| -> R<DynTensor> {
                            match p(k)? {
                                Some(pk) => t.add(&pk.mul(cc)?),
                                None => Ok(t),
                            }
                        };
                        let i = act(0).apply(&clipped(with_peep(gate_of(&pre, 0)?, 0, &cell)?)?)?;
                        let f = if input_forget {
                            i.neg()?.add(1.0)?
                        } else {
                            act(0).apply(&clipped(with_peep(gate_of(&pre, 2)?, 2, &cell)?)?)?
                        };
                        let cc = act(1).apply(&clipped(gate_of(&pre, 3)?)?)?;
                        let new_c = f.mul(&cell)?.add(&i.mul(&cc)?)?;
                        let o =
                            act(0).apply(&clipped(with_peep(gate_of(&pre, 1)?, 1, &new_c)?)?)?;
                        (o.mul(&act(2).apply(&new_c)?)?, new_c)
                    }
                };
                let (new_h, new_c, y) = match &lens_col {
                    Some(l) => {
                        let live = l.gt(t as i64)?;
                        (
                            live.where_(&new_h, &h)?,
                            live.where_(&new_c, &cell)?,
                            live.where_(&new_h, new_h.zeros_like())?,
                        )
                    }
                    None => (new_h.clone(), new_c, new_h),
                };
                h = new_h;
                cell = new_c;
                out_steps[t] = y;
            }
            ys.push(DynTensor::stack(&out_steps, 0)?); // (seq, batch, hidden)
            hs.push(h);
            cs.push(cell);
        }
        let mut y = DynTensor::stack(&ys, 1)?; // (seq, dirs, batch, hidden)
        let mut yh = DynTensor::stack(&hs, 0)?; // (dirs, batch, hidden)
        let mut yc = DynTensor::stack(&cs, 0)?;
        if layout == 1 {
            y = y.permute(&[2, 0, 1, 3])?;
            yh = yh.permute(&[1, 0, 2])?;
            yc = yc.permute(&[1, 0, 2])?;
        }
        Ok(vec![y, yh, yc])
    })()
    .at(c)?;
    let k = if op == OpType::LSTM { 3 } else { 2 };
    Ok(outs.into_iter().take(k).map(|t| c.out(t)).collect())
}
