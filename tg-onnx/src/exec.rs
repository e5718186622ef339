//! Runs a graph's nodes in order: each node's inputs looked up (values of earlier nodes,
//! uploaded weights, host constants), evaluated on the host when all of them are known there
//! and the op is one the host computes exactly (`tg_onnx_format::fold`), else built as tg ops.

use std::collections::HashMap;

use tg_onnx_format::{DType, Error, Graph, HostTensor, Node, OpType, Result, fold};
use tg_ops::DynTensor;
use tg_ops::untyped::indexing::Index;

use crate::ops;
use crate::value::{NodeCtx, Value};

/// The values of one run.
pub(crate) struct Exec<'m> {
    /// Initializers, uploaded once per model.
    pub weights: &'m HashMap<String, DynTensor>,
    /// Values computed so far (and the inputs).
    pub env: HashMap<String, Value>,
    /// Set when a value that depends on the inputs' values was read on the host.
    pub data_dependent: bool,
}

impl Exec<'_> {
    fn lookup(&self, graph_stack: &[&Graph], name: &str) -> Option<Value> {
        if let Some(v) = self.env.get(name) {
            return Some(v.clone());
        }
        if let Some(w) = self.weights.get(name) {
            let exotic = graph_stack
                .iter()
                .rev()
                .find_map(|g| g.constants.get(name))
                .and_then(|h| h.exotic);
            return Some(Value::Dev {
                t: w.clone(),
                dynamic: false,
                exotic,
            });
        }
        graph_stack
            .iter()
            .rev()
            .find_map(|g| g.constants.get(name))
            .map(|h| Value::Host(h.clone()))
    }

    /// Runs `graph`'s nodes; `outer` are the enclosing graphs (a branch reads their values).
    pub fn run_graph(&mut self, graph: &Graph, outer: &[&Graph]) -> Result<()> {
        let mut stack: Vec<&Graph> = outer.to_vec();
        stack.push(graph);
        // values that a window or row reduction reads end in a buffer, shared by all their
        // consumers (see `ops::reads_buffers`)
        let buffered: std::collections::HashSet<&str> = graph
            .nodes
            .iter()
            .filter(|n| ops::reads_buffers(n.op))
            .flat_map(|n| n.inputs.iter().map(String::as_str))
            .collect();
        for node in &graph.nodes {
            let ins: Vec<Option<Value>> = node
                .inputs
                .iter()
                .map(|name| {
                    if name.is_empty() {
                        Ok(None)
                    } else {
                        self.lookup(&stack, name).map(Some).ok_or_else(|| {
                            Error::Internal(format!(
                                "node {}: value {name:?} was checked but is missing",
                                node.name
                            ))
                        })
                    }
                })
                .collect::<Result<_>>()?;
            let outs = match node.op {
                OpType::If => self.run_if(node, ins, &stack)?,
                OpType::Loop => self.run_loop(node, ins, &stack)?,
                OpType::Scan => self.run_scan(node, ins, &stack)?,
                OpType::SequenceMap => self.run_sequence_map(node, ins, &stack)?,
                _ => self.run_node(node, ins)?,
            };
            if outs.len() < node.outputs.iter().filter(|o| !o.is_empty()).count() {
                return Err(node.arity(format!(
                    "tg computes {} outputs, the node names {}",
                    outs.len(),
                    node.outputs.len()
                )));
            }
            for (name, v) in node.outputs.iter().zip(outs) {
                if name.is_empty() {
                    continue;
                }
                let v = match v {
                    Value::Dev { t, dynamic, exotic }
                        if buffered.contains(name.as_str()) && !t.lazy().is_realized() =>
                    {
                        Value::Dev {
                            t: t.contiguous(),
                            dynamic,
                            exotic,
                        }
                    }
                    other => other,
                };
                self.env.insert(name.clone(), v);
            }
        }
        Ok(())
    }

    fn run_node(&mut self, node: &Node, ins: Vec<Option<Value>>) -> Result<Vec<Value>> {
        let all_host = ins.iter().all(|v| matches!(v, None | Some(Value::Host(_))));
        if all_host {
            let host: Vec<Option<&HostTensor>> = ins
                .iter()
                .map(|v| match v {
                    Some(Value::Host(h)) => Some(h),
                    _ => None,
                })
                .collect();
            if let Some(outs) = fold::eval(node, &host) {
                return Ok(outs?.into_iter().map(Value::Host).collect());
            }
        }
        // an op on values of an exotic float type (bfloat16, ...) computes in their f32
        // storage and rounds its float results to the type, as ml_dtypes does per op
        let tag = match node.op {
            OpType::Cast | OpType::CastLike | OpType::QuantizeLinear | OpType::DequantizeLinear => {
                None
            }
            _ => ins
                .iter()
                .flatten()
                .filter_map(Value::exotic)
                .find(|e| e.int_range().is_none()),
        };
        let mut ctx = NodeCtx {
            node,
            ins,
            data_dependent: &mut self.data_dependent,
        };
        let outs = ops::run(&mut ctx)?;
        let Some(tag) = tag else {
            return Ok(outs);
        };
        outs.into_iter()
            .map(|v| match v {
                Value::Dev {
                    t,
                    dynamic,
                    exotic: None,
                } if t.dtype() == DType::F32 => Ok(Value::Dev {
                    t: ops::exotic::round_result(&t, tag).map_err(|e| ctx.op_error(e))?,
                    dynamic,
                    exotic: Some(tag),
                }),
                other => Ok(other),
            })
            .collect()
    }

    /// `If`: the condition must be known without the inputs' values; the branch it picks
    /// runs inline.
    fn run_if(
        &mut self,
        node: &Node,
        ins: Vec<Option<Value>>,
        stack: &[&Graph],
    ) -> Result<Vec<Value>> {
        let cond = match ins.first() {
            Some(Some(Value::Host(h))) => h.clone(),
            Some(Some(Value::Dev { t, dynamic, .. })) => {
                // a condition computed from the inputs' values is read back: such a model
                // runs eagerly (each call may take the other branch)
                if *dynamic {
                    self.data_dependent = true;
                }
                crate::value::download(t).map_err(|e| Error::Device {
                    source: Box::new(e),
                })?
            }
            _ => return Err(node.arity("the condition is required")),
        };
        let branch = node.graph(if node.scalar_i64(0, &cond)? != 0 {
            "then_branch"
        } else {
            "else_branch"
        })?;
        self.run_graph(branch, stack)?;
        let mut stack = stack.to_vec();
        stack.push(branch);
        branch
            .outputs
            .iter()
            .map(|o| {
                self.lookup(&stack, &o.name).ok_or_else(|| {
                    Error::Internal(format!(
                        "If {}: branch output {:?} missing",
                        node.name, o.name
                    ))
                })
            })
            .collect()
    }

    /// Runs a subgraph with its inputs bound to `args`; returns its outputs.
    fn run_body(
        &mut self,
        node: &Node,
        body: &Graph,
        args: Vec<Value>,
        stack: &[&Graph],
    ) -> Result<Vec<Value>> {
        if args.len() != body.inputs.len() {
            return Err(node.arity(format!(
                "the body takes {} inputs, {} are given",
                body.inputs.len(),
                args.len()
            )));
        }
        for (info, v) in body.inputs.iter().zip(args) {
            self.env.insert(info.name.clone(), v);
        }
        self.run_graph(body, stack)?;
        let mut inner = stack.to_vec();
        inner.push(body);
        body.outputs
            .iter()
            .map(|o| {
                self.lookup(&inner, &o.name).ok_or_else(|| {
                    Error::Internal(format!("{}: body output {:?} missing", node.name, o.name))
                })
            })
            .collect()
    }

    /// A scalar read on the host (a loop's trip count or condition); reading one that depends
    /// on the inputs' values makes the run eager.
    fn scalar(&mut self, v: &Value) -> Result<HostTensor> {
        match v {
            Value::Host(h) => Ok(h.clone()),
            Value::Dev { t, dynamic, .. } => {
                if *dynamic {
                    self.data_dependent = true;
                }
                crate::value::download(t).map_err(|e| Error::Device {
                    source: Box::new(e),
                })
            }
            _ => Err(Error::Internal("a scalar was expected".into())),
        }
    }

    /// One iteration of a `Loop` or `Scan` body: its outputs (past a `Loop`'s condition) are
    /// the `n_state` carried values, returned, then one value of each scan output, added to
    /// `scans`.
    fn carry(outs: &[Value], n_state: usize, scans: &mut [Vec<Value>]) -> Vec<Value> {
        for (k, v) in outs[n_state..].iter().enumerate() {
            scans[k].push(v.clone());
        }
        outs[..n_state].to_vec()
    }

    /// The outputs of a `Loop` or `Scan`: the final carried `state`, then each scan output's
    /// per-iteration values stacked, scan output `k` along `layout(k)`'s axis (reversed when
    /// its flag is set).
    fn finish_scans(
        node: &Node,
        mut state: Vec<Value>,
        scans: Vec<Vec<Value>>,
        layout: impl Fn(usize) -> (i64, bool),
    ) -> Result<Vec<Value>> {
        for (k, s) in scans.into_iter().enumerate() {
            let (axis, reverse) = layout(k);
            state.push(Self::stack(node, s, axis, reverse)?);
        }
        Ok(state)
    }

    /// Stacks the per-iteration values of a scan output along `axis` (reversed first when
    /// `reverse`).
    fn stack(node: &Node, mut items: Vec<Value>, axis: i64, reverse: bool) -> Result<Value> {
        if reverse {
            items.reverse();
        }
        let err = |e: tg_runtime::Error| Error::Op {
            node: node.name.clone(),
            op_type: node.op.name().to_string(),
            shapes: vec![],
            dtypes: vec![],
            source: Box::new(e),
        };
        let ts: Vec<DynTensor> = items
            .iter()
            .map(|v| match v {
                Value::Host(h) => crate::value::upload(h).map_err(err),
                Value::Dev { t, .. } => Ok(t.clone()),
                _ => Err(Error::Internal("scan outputs must be tensors".into())),
            })
            .collect::<Result<_>>()?;
        if ts.is_empty() {
            return Ok(Value::Seq(Vec::new()));
        }
        let rank = ts[0].ndim() as i64 + 1;
        let a = if axis < 0 { axis + rank } else { axis };
        let dynamic = items.iter().any(Value::dynamic);
        Ok(Value::dev(
            DynTensor::stack(&ts, a as isize).map_err(err)?,
            dynamic,
        ))
    }

    /// `Loop`: the body runs while the trip count and the condition allow, each iteration
    /// built into the graph (so a loop with a known trip count is unrolled and fuses).
    fn run_loop(
        &mut self,
        node: &Node,
        ins: Vec<Option<Value>>,
        stack: &[&Graph],
    ) -> Result<Vec<Value>> {
        let body = node.graph("body")?;
        let trips = match ins.first().cloned().flatten() {
            Some(v) => Some(node.scalar_i64(0, &self.scalar(&v)?)?),
            None => None,
        };
        let mut cond = match ins.get(1).cloned().flatten() {
            Some(v) => node.scalar_i64(1, &self.scalar(&v)?)? != 0,
            None => true,
        };
        let mut carried: Vec<Value> = ins
            .iter()
            .skip(2)
            .map(|v| v.clone().unwrap_or(Value::Opt(None)))
            .collect();
        let n_carried = carried.len();
        let n_scan = body.outputs.len().saturating_sub(1 + n_carried);
        let mut scans: Vec<Vec<Value>> = vec![Vec::new(); n_scan];
        let mut i: i64 = 0;
        const MAX_ITERATIONS: i64 = 1 << 20;
        while cond && trips.is_none_or(|m| i < m) {
            if i >= MAX_ITERATIONS {
                return Err(Error::NodeInput {
                    node: node.name.clone(),
                    op_type: "Loop".to_string(),
                    message: format!("more than {MAX_ITERATIONS} iterations"),
                    shapes: vec![],
                    dtypes: vec![],
                });
            }
            let mut args = vec![
                Value::Host(HostTensor::from_i64s(DType::I64, &[], &[i])),
                Value::Host(HostTensor::from_i64s(DType::Bool, &[], &[cond as i64])),
            ];
            args.extend(carried.iter().cloned());
            let outs = self.run_body(node, body, args, stack)?;
            if outs.len() < 1 + n_carried {
                return Err(
                    node.arity("the body must output the condition and every carried value")
                );
            }
            let body_cond = body.outputs.first().map(|o| o.name.as_str());
            let body_cond = body_cond.unwrap_or("body output 0");
            cond = node.one_i64(body_cond, &self.scalar(&outs[0])?)? != 0;
            carried = Self::carry(&outs[1..], n_carried, &mut scans);
            i += 1;
        }
        Self::finish_scans(node, carried, scans, |_| (0, false))
    }

    /// `Scan` (opset 9 and later): the body runs once per slice of the scan inputs.
    fn run_scan(
        &mut self,
        node: &Node,
        ins: Vec<Option<Value>>,
        stack: &[&Graph],
    ) -> Result<Vec<Value>> {
        if node.since < 9 {
            return Err(Error::UnsupportedOp {
                node: node.name.clone(),
                op_type: "Scan".to_string(),
                domain: String::new(),
                opset: node.since as i64,
                reason: Some("Scan before opset 9 (with a batch axis) is not supported".into()),
            });
        }
        let body = node.graph("body")?;
        let m = node
            .int("num_scan_inputs")?
            .ok_or_else(|| node.bad_attr("num_scan_inputs", "missing"))? as usize;
        let ins: Vec<Value> = ins.into_iter().flatten().collect();
        if m > ins.len() {
            return Err(node.arity("fewer inputs than num_scan_inputs"));
        }
        let n_state = ins.len() - m;
        let in_axes = node.ints("scan_input_axes")?.unwrap_or_else(|| vec![0; m]);
        let in_dirs = node
            .ints("scan_input_directions")?
            .unwrap_or_else(|| vec![0; m]);
        let n_out = body.outputs.len().saturating_sub(n_state);
        let out_axes = node
            .ints("scan_output_axes")?
            .unwrap_or_else(|| vec![0; n_out]);
        let out_dirs = node
            .ints("scan_output_directions")?
            .unwrap_or_else(|| vec![0; n_out]);
        let err = |e: tg_runtime::Error| Error::Op {
            node: node.name.clone(),
            op_type: "Scan".to_string(),
            shapes: vec![],
            dtypes: vec![],
            source: Box::new(e),
        };
        let scan_ins: Vec<(DynTensor, usize, bool)> = (0..m)
            .map(|k| {
                let v = &ins[n_state + k];
                let t = match v {
                    Value::Host(h) => crate::value::upload(h).map_err(err)?,
                    Value::Dev { t, .. } => t.clone(),
                    _ => return Err(Error::Internal("scan inputs must be tensors".into())),
                };
                let r = t.ndim() as i64;
                let a = in_axes.get(k).copied().unwrap_or(0);
                let a = (if a < 0 { a + r } else { a }).clamp(0, (r - 1).max(0)) as usize;
                Ok((t, a, in_dirs.get(k).copied().unwrap_or(0) != 0))
            })
            .collect::<Result<_>>()?;
        let steps = scan_ins.first().map(|(t, a, _)| t.shape()[*a]).unwrap_or(0);
        let mut state: Vec<Value> = ins[..n_state].to_vec();
        let mut scans: Vec<Vec<Value>> = vec![Vec::new(); n_out];
        let dynamic = ins.iter().any(Value::dynamic);
        for step in 0..steps {
            let mut args = state.clone();
            for (t, a, rev) in &scan_ins {
                let at = if *rev { steps - 1 - step } else { step };
                let mut idx: Vec<Index> = (0..t.ndim()).map(|_| Index::full()).collect();
                idx[*a] = Index::Int(at as isize);
                args.push(Value::dev(t.index(&idx).map_err(err)?, dynamic));
            }
            let outs = self.run_body(node, body, args, stack)?;
            if outs.len() < n_state {
                return Err(node.arity("the body must output every state value"));
            }
            state = Self::carry(&outs, n_state, &mut scans);
        }
        Self::finish_scans(node, state, scans, |k| {
            (
                out_axes.get(k).copied().unwrap_or(0),
                out_dirs.get(k).copied().unwrap_or(0) != 0,
            )
        })
    }

    /// `SequenceMap`: the body runs once per element of the input sequence (other sequence
    /// inputs give their element at the same position, tensors are passed whole).
    fn run_sequence_map(
        &mut self,
        node: &Node,
        ins: Vec<Option<Value>>,
        stack: &[&Graph],
    ) -> Result<Vec<Value>> {
        let body = node.graph("body")?;
        let ins: Vec<Value> = ins.into_iter().flatten().collect();
        let Some(Value::Seq(first)) = ins.first() else {
            return Err(node.arity("the first input must be a sequence"));
        };
        let n = first.len();
        let mut outs: Vec<Vec<Value>> = vec![Vec::new(); body.outputs.len()];
        for i in 0..n {
            let args: Vec<Value> = ins
                .iter()
                .map(|v| match v {
                    Value::Seq(s) => s
                        .get(i)
                        .cloned()
                        .ok_or_else(|| node.arity("sequences of different lengths")),
                    other => Ok(other.clone()),
                })
                .collect::<Result<_>>()?;
            for (k, v) in self
                .run_body(node, body, args, stack)?
                .into_iter()
                .enumerate()
            {
                outs[k].push(v);
            }
        }
        Ok(outs.into_iter().map(Value::Seq).collect())
    }
}
