//! `OnnxModel`: a checked model with its weights on the device and its recordings.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use tg_onnx_format::{DType, Dim, Error, Model, Result, ValueInfo};
use tg_ops::DynTensor;
use tg_runtime::{Lazy, Recording};

use crate::exec::Exec;
use crate::value::{Value, upload};

/// How the calls with one set of input shapes run.
enum Plan {
    /// Replay the kernels the first call recorded.
    Replay(Recording),
    /// Run the graph every time: a value that depends on the inputs' values decides a shape
    /// (NonZero, a data-dependent Reshape), so the kernels are not the same every call.
    Eager,
}

struct Entry {
    key: Vec<(DType, Vec<usize>)>,
    plan: Plan,
}

/// An ONNX model ready to run on tg.
///
/// The graph becomes tg ops, so its elementwise chains fuse into the kernels around them as
/// any tg graph does. The first [`OnnxModel::run`] with a given set of input shapes and
/// dtypes records the kernels it dispatches; later runs with the same shapes replay them on
/// the new inputs, building no graph and compiling nothing. Initializers are uploaded once,
/// on the first run.
pub struct OnnxModel {
    model: Model,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    weights: Option<HashMap<String, DynTensor>>,
    entries: Vec<Entry>,
}

impl std::fmt::Debug for OnnxModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxModel")
            .field("opset", &self.model.opset)
            .field("inputs", &self.model.inputs())
            .field("outputs", &self.model.outputs())
            .field("nodes", &self.model.graph.nodes.len())
            .finish()
    }
}

fn device_error(e: tg_runtime::Error) -> Error {
    Error::Device {
        source: Box::new(e),
    }
}

impl OnnxModel {
    /// Loads and checks a model file (external data from its folder). Nothing runs on a
    /// device until [`OnnxModel::run`].
    pub fn load(path: impl AsRef<Path>) -> Result<OnnxModel> {
        Ok(OnnxModel::from_model(Model::load(path.as_ref())?))
    }

    /// Checks a model held in memory (external data is refused: there is no folder).
    pub fn from_bytes(bytes: &[u8]) -> Result<OnnxModel> {
        Ok(OnnxModel::from_model(Model::from_bytes(bytes)?))
    }

    /// Wraps a checked model.
    pub fn from_model(model: Model) -> OnnxModel {
        OnnxModel {
            model,
            state: Mutex::new(State::default()),
        }
    }

    /// The checked model (graph, opset, constants).
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The inputs a caller gives: names, dtypes, dimensions (symbolic ones by name).
    pub fn inputs(&self) -> &[ValueInfo] {
        self.model.inputs()
    }

    /// The outputs, as declared.
    pub fn outputs(&self) -> &[ValueInfo] {
        self.model.outputs()
    }

    /// Kernels a replay of the recording for inputs of these dtypes and shapes dispatches
    /// (`None` before one is recorded, or for a data-dependent model).
    pub fn kernels(&self, shapes: &[(DType, Vec<usize>)]) -> Option<usize> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state
            .entries
            .iter()
            .find(|e| e.key == shapes)
            .and_then(|e| match &e.plan {
                Plan::Replay(r) => Some(r.kernels()),
                Plan::Eager => None,
            })
    }

    /// Checks named inputs against the declared ones and puts them in the model's order.
    fn order_inputs(&self, inputs: &[(&str, DynTensor)]) -> Result<Vec<DynTensor>> {
        let declared = self.inputs();
        let names: Vec<String> = declared.iter().map(|v| v.name.clone()).collect();
        let mut slots: Vec<Option<DynTensor>> = vec![None; declared.len()];
        for (name, t) in inputs {
            let i = names.iter().position(|n| n == name).ok_or_else(|| Error::UnknownInput {
                name: name.to_string(),
                inputs: names.clone(),
            })?;
            if slots[i].is_some() {
                return Err(Error::RepeatedInput {
                    name: name.to_string(),
                });
            }
            slots[i] = Some(t.clone());
        }
        let mut symbols: HashMap<String, usize> = HashMap::new();
        let mut out = Vec::with_capacity(declared.len());
        for (info, slot) in declared.iter().zip(slots) {
            let t = slot.ok_or_else(|| Error::MissingInput {
                name: info.name.clone(),
            })?;
            check_input(info, &t, &mut symbols)?;
            out.push(t);
        }
        Ok(out)
    }

    /// Runs the model on named inputs; returns every graph output by name, in the model's
    /// order. Inputs are checked (names, dtypes, ranks, fixed and symbolic sizes) before
    /// anything is computed.
    pub fn run(&self, inputs: &[(&str, DynTensor)]) -> Result<Vec<(String, DynTensor)>> {
        let ordered = self.order_inputs(inputs)?;
        let outs = self.run_ordered(&ordered)?;
        Ok(self
            .outputs()
            .iter()
            .map(|o| o.name.clone())
            .zip(outs)
            .collect())
    }

    /// Runs the model on its inputs in the model's order (as [`OnnxModel::inputs`] lists
    /// them); returns the outputs in order.
    pub fn run_positional(&self, inputs: &[DynTensor]) -> Result<Vec<DynTensor>> {
        let declared = self.inputs();
        if inputs.len() != declared.len() {
            return Err(match declared.get(inputs.len()) {
                Some(missing) => Error::MissingInput {
                    name: missing.name.clone(),
                },
                None => Error::UnknownInput {
                    name: format!("#{}", declared.len()),
                    inputs: declared.iter().map(|v| v.name.clone()).collect(),
                },
            });
        }
        let mut symbols = HashMap::new();
        for (info, t) in declared.iter().zip(inputs) {
            check_input(info, t, &mut symbols)?;
        }
        self.run_ordered(inputs)
    }

    fn run_ordered(&self, inputs: &[DynTensor]) -> Result<Vec<DynTensor>> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.weights.is_none() {
            state.weights = Some(self.upload_weights()?);
        }
        let key: Vec<(DType, Vec<usize>)> = inputs
            .iter()
            .map(|t| (t.dtype(), t.shape().to_vec()))
            .collect();
        let lazies: Vec<&Lazy> = inputs.iter().map(|t| t.lazy()).collect();
        let State { weights, entries } = &mut *state;
        let weights = weights.as_ref().ok_or_else(|| Error::Internal("weights".into()))?;
        if let Some(e) = entries.iter().find(|e| e.key == key) {
            return match &e.plan {
                Plan::Replay(rec) => Ok(rec
                    .replay(&lazies)
                    .map_err(device_error)?
                    .into_iter()
                    .map(DynTensor::from_lazy)
                    .collect()),
                Plan::Eager => self.interpret(weights, inputs).map(|(o, _)| o),
            };
        }
        if inputs.is_empty() {
            // nothing to replay on: the graph is all constants
            return self.interpret(weights, inputs).map(|(o, _)| o);
        }
        let mut failure = None;
        let mut data_dependent = false;
        let recorded = tg_runtime::record(&lazies, || {
            match self.interpret(weights, inputs) {
                Ok((outs, dd)) => {
                    data_dependent = dd;
                    Ok(outs.into_iter().map(DynTensor::into_lazy).collect())
                }
                Err(e) => {
                    failure = Some(e);
                    Err(tg_runtime::Error::Argument {
                        op: "onnx",
                        message: "the graph failed".into(),
                    })
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let (outs, recording) = recorded.map_err(device_error)?;
        entries.push(Entry {
            key,
            plan: if data_dependent {
                Plan::Eager
            } else {
                Plan::Replay(recording)
            },
        });
        Ok(outs.into_iter().map(DynTensor::from_lazy).collect())
    }

    fn upload_weights(&self) -> Result<HashMap<String, DynTensor>> {
        let g = &self.model.graph;
        let mut weights = HashMap::new();
        for name in &g.initializers {
            // initializers that folding consumed entirely are not needed on the device,
            // but cheap to keep: upload what a node or an output reads
            if let Some(h) = g.constants.get(name) {
                weights.insert(name.clone(), upload(h).map_err(device_error)?);
            }
        }
        let lazies: Vec<&Lazy> = weights.values().map(|t| t.lazy()).collect();
        tg_runtime::realize(&lazies).map_err(device_error)?;
        Ok(weights)
    }

    /// Builds the graph for these inputs and realizes the outputs; returns them and whether
    /// the run read input-dependent values on the host.
    fn interpret(
        &self,
        weights: &HashMap<String, DynTensor>,
        inputs: &[DynTensor],
    ) -> Result<(Vec<DynTensor>, bool)> {
        let g = &self.model.graph;
        let mut exec = Exec {
            weights,
            env: HashMap::new(),
            data_dependent: false,
        };
        for (info, t) in g.inputs.iter().zip(inputs) {
            exec.env.insert(
                info.name.clone(),
                Value::Dev {
                    t: t.clone(),
                    dynamic: true,
                    exotic: info.exotic,
                },
            );
        }
        exec.run_graph(g, &[])?;
        let mut outs = Vec::with_capacity(g.outputs.len());
        for o in &g.outputs {
            let v = exec
                .env
                .get(&o.name)
                .cloned()
                .or_else(|| weights.get(&o.name).map(|t| Value::dev(t.clone(), false)))
                .or_else(|| g.constants.get(&o.name).map(|h| Value::Host(h.clone())))
                .ok_or_else(|| Error::Internal(format!("output {:?} was not computed", o.name)))?;
            outs.push(match v {
                Value::Host(h) => upload(&h).map_err(device_error)?,
                Value::Dev { t, .. } => t,
            });
        }
        let lazies: Vec<&Lazy> = outs.iter().map(|t| t.lazy()).collect();
        tg_runtime::realize(&lazies).map_err(device_error)?;
        Ok((outs, exec.data_dependent))
    }
}

/// Checks one input against its declaration; `symbols` binds symbolic dims across inputs.
fn check_input(info: &ValueInfo, t: &DynTensor, symbols: &mut HashMap<String, usize>) -> Result<()> {
    if let Some(expected) = info.dtype
        && expected != t.dtype()
    {
        return Err(Error::InputDType {
            name: info.name.clone(),
            expected,
            found: t.dtype(),
        });
    }
    let Some(dims) = &info.dims else {
        return Ok(());
    };
    let wrong = |symbol| Error::InputShape {
        name: info.name.clone(),
        expected: dims.clone(),
        found: t.shape().to_vec(),
        symbol,
    };
    if dims.len() != t.ndim() {
        return Err(wrong(None));
    }
    for (d, &n) in dims.iter().zip(t.shape()) {
        match d {
            Dim::Fixed(f) if *f != n => return Err(wrong(None)),
            Dim::Symbol(s) => match symbols.get(s) {
                Some(&bound) if bound != n => return Err(wrong(Some((s.clone(), bound)))),
                Some(_) => {}
                None => {
                    symbols.insert(s.clone(), n);
                }
            },
            _ => {}
        }
    }
    Ok(())
}
