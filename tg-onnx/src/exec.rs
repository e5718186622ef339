//! Runs a graph's nodes in order: each node's inputs looked up (values of earlier nodes,
//! uploaded weights, host constants), evaluated on the host when all of them are known there
//! and the op is one the host computes exactly (`tg_onnx_format::fold`), else built as tg ops.

use std::collections::HashMap;

use tg_onnx_format::{DType, Error, Graph, HostTensor, Node, OpType, Result, fold};
use tg_ops::DynTensor;

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
            let outs = if node.op == OpType::If {
                self.run_if(node, ins, &stack)?
            } else {
                self.run_node(node, ins)?
            };
            if outs.len() < node.outputs.iter().filter(|o| !o.is_empty()).count() {
                return Err(node.arity(format!(
                    "tg computes {} outputs, the node names {}",
                    outs.len(),
                    node.outputs.len()
                )));
            }
            for (name, v) in node.outputs.iter().zip(outs) {
                if !name.is_empty() {
                    self.env.insert(name.clone(), v);
                }
            }
        }
        Ok(())
    }

    fn run_node(&mut self, node: &Node, ins: Vec<Option<Value>>) -> Result<Vec<Value>> {
        let all_host = ins.iter().all(|v| !matches!(v, Some(Value::Dev { .. })));
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
            OpType::Cast | OpType::CastLike | OpType::QuantizeLinear | OpType::DequantizeLinear => None,
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
    fn run_if(&mut self, node: &Node, ins: Vec<Option<Value>>, stack: &[&Graph]) -> Result<Vec<Value>> {
        let cond = match ins.first() {
            Some(Some(Value::Host(h))) => h.clone(),
            Some(Some(Value::Dev { t, dynamic, .. })) => {
                // a condition computed from the inputs' values is read back: such a model
                // runs eagerly (each call may take the other branch)
                if *dynamic {
                    self.data_dependent = true;
                }
                crate::value::download(t).map_err(|e| Error::Device { source: Box::new(e) })?
            }
            _ => return Err(node.arity("the condition is required")),
        };
        if cond.numel() != 1 {
            return Err(Error::NodeInput {
                node: node.name.clone(),
                op_type: "If".to_string(),
                message: "the condition must hold one value".to_string(),
                shapes: vec![cond.shape.clone()],
                dtypes: vec![cond.dtype],
            });
        }
        let branch = node.graph(if cond.get_i64(0) != 0 {
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
                    Error::Internal(format!("If {}: branch output {:?} missing", node.name, o.name))
                })
            })
            .collect()
    }
}
