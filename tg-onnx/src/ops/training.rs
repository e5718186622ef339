//! The training domain's optimizer steps (`ai.onnx.preview.training`: Adagrad, Adam,
//! Momentum), each over any number of tensors, and Dropout in training mode, whose mask
//! comes from numpy's legacy generator (MT19937) seeded with the node's `seed`, as ONNX's
//! reference draws it, so a seeded model gives the reference's numbers.

use tg_onnx_format::{DType, HostTensor, OpType, Result};
use tg_ops::DynTensor;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

pub(crate) fn optimizer(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let n = c.node;
    let r = c.scalar_f64(0)?;
    let t = c.scalar_i64(1)?;
    let per = match n.op {
        OpType::Adam => 4,
        _ => 3,
    };
    let rest = c.ins.len().saturating_sub(2);
    if rest == 0 || !rest.is_multiple_of(per) {
        return Err(n.arity(format!("{rest} tensors do not come in groups of {per}")));
    }
    let k = rest / per;
    let norm = n.float_or("norm_coefficient", 0.0)? as f64;
    let ins: Vec<DynTensor> = (2..c.ins.len()).map(|i| c.t(i)).collect::<Result<_>>()?;
    let mut firsts = Vec::new();
    let mut seconds = Vec::new();
    let mut thirds = Vec::new();
    for i in 0..k {
        let (x, g) = (&ins[i], &ins[k + i]);
        let outs = (|| -> R<Vec<DynTensor>> {
            let greg = x.mul(norm)?.add(g)?;
            match n.op {
                OpType::Adagrad => {
                    let h = &ins[2 * k + i];
                    let decay = n.float_or("decay_factor", 0.0).unwrap_or(0.0) as f64;
                    let eps = n.float_or("epsilon", 1e-6).unwrap_or(1e-6) as f64;
                    let rr = r / (1.0 + t as f64 * decay);
                    let h_new = h.add(&greg.mul(&greg)?)?;
                    let x_new = x.sub(&greg.mul(rr)?.div(&h_new.sqrt()?.add(eps)?)?)?;
                    Ok(vec![x_new, h_new])
                }
                OpType::Momentum => {
                    let v = &ins[2 * k + i];
                    let alpha = n.float_or("alpha", 0.0).unwrap_or(0.0) as f64;
                    let beta = n.float_or("beta", 0.0).unwrap_or(0.0) as f64;
                    let nesterov =
                        n.string_or("mode", "standard").unwrap_or_default() == "nesterov";
                    let b = if t > 0 { beta } else { 1.0 };
                    let v_new = v.mul(alpha)?.add(&greg.mul(b)?)?;
                    let x_new = if nesterov {
                        x.sub(&greg.add(&v_new.mul(alpha)?)?.mul(r)?)?
                    } else {
                        x.sub(&v_new.mul(r)?)?
                    };
                    Ok(vec![x_new, v_new])
                }
                _ => {
                    let (v, h) = (&ins[2 * k + i], &ins[3 * k + i]);
                    let alpha = n.float_or("alpha", 0.9).unwrap_or(0.9) as f64;
                    let beta = n.float_or("beta", 0.999).unwrap_or(0.999) as f64;
                    let eps = n.float_or("epsilon", 1e-6).unwrap_or(1e-6) as f64;
                    let post = n.float_or("norm_coefficient_post", 0.0).unwrap_or(0.0) as f64;
                    let v_new = v.mul(alpha)?.add(&greg.mul(1.0 - alpha)?)?;
                    let h_new = h.mul(beta)?.add(&greg.mul(&greg)?.mul(1.0 - beta)?)?;
                    let ra = if t > 0 {
                        r * (1.0 - beta.powi(t as i32)).sqrt() / (1.0 - alpha.powi(t as i32))
                    } else {
                        r
                    };
                    let x_new = x.sub(&v_new.div(&h_new.sqrt()?.add(eps)?)?.mul(ra)?)?;
                    Ok(vec![x_new.mul(1.0 - post)?, v_new, h_new])
                }
            }
        })()
        .at(c)?;
        let dt = x.dtype();
        let mut it = outs.into_iter().map(|o| o.cast(dt));
        firsts.extend(it.next());
        seconds.extend(it.next());
        thirds.extend(it.next());
    }
    Ok(firsts
        .into_iter()
        .chain(seconds)
        .chain(thirds)
        .map(|t| c.out(t))
        .collect())
}

/// numpy's legacy `RandomState(seed)`: MT19937 seeded by `init_genrand`, doubles from two
/// words (`random_sample`).
struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] = 1_812_433_253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for k in 0..624 {
                let y = (self.state[k] & 0x8000_0000) | (self.state[(k + 1) % 624] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.state[k] = self.state[(k + 397) % 624] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    fn next_f64(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }
}

/// `Dropout`: the identity at inference (or ratio 0); in training mode the input where a
/// uniform draw is at least the ratio, scaled by `1 / (1 - ratio)`, and the mask.
pub(crate) fn dropout(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.value(0)?.clone();
    let (ratio, training) = if c.node.since >= 12 {
        (
            c.opt_scalar_f64(1)?.unwrap_or(0.5),
            c.opt_scalar_i64(2)?.is_some_and(|t| t != 0),
        )
    } else {
        (c.node.float_or("ratio", 0.5)? as f64, false)
    };
    let shape = x.shape().to_vec();
    let want_mask = c.node.outputs.len() > 1 && !c.node.outputs[1].is_empty();
    if !training || ratio == 0.0 {
        let mut outs = vec![x];
        if want_mask {
            outs.push(Value::dev(
                DynTensor::full(&shape, true, DType::Bool).at(c)?,
                false,
            ));
        }
        return Ok(outs);
    }
    let n: usize = shape.iter().product();
    let keep: Vec<i64> = match c.node.int("seed")? {
        Some(seed) => {
            let mut g = Mt19937::new(seed as u32);
            (0..n).map(|_| (g.next_f64() >= ratio) as i64).collect()
        }
        None => {
            // no seed: tg's own stream
            let u = DynTensor::rand(&shape, DType::F64).at(c)?;
            crate::value::download(&u.ge(ratio).at(c)?.cast(DType::I64))
                .at(c)?
                .to_i64s()
        }
    };
    let mask = crate::value::upload(&HostTensor::from_i64s(DType::Bool, &shape, &keep)).at(c)?;
    let t = c.t(0)?;
    let y = (|| mask.where_(t.mul(1.0 / (1.0 - ratio))?, t.zeros_like()))()
        .at(c)?
        .cast(t.dtype());
    Ok(vec![c.out(y), c.out(mask)])
}
