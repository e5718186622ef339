//! `OnnxModel`: a checked model with its weights on the device and its recordings.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use tg_onnx_format::{DType, Dim, Error, Model, Result, ValueInfo, ValueKind};
use tg_ops::DynTensor;
use tg_runtime::{Lazy, Recording};

use crate::exec::Exec;
use crate::value::{Value, upload};

/// A model input or output: a tensor, or a sequence or optional of them (ONNX's other
/// value kinds). [`OnnxModel::run`] takes and gives tensors; [`OnnxModel::run_values`] any.
#[derive(Clone, Debug)]
pub enum OnnxValue {
    /// A tensor.
    Tensor(DynTensor),
    /// A sequence.
    Sequence(Vec<OnnxValue>),
    /// A value, or none.
    Optional(Option<Box<OnnxValue>>),
}

impl OnnxValue {
    fn into_value(self, dynamic: bool, exotic: Option<tg_onnx_format::Exotic>) -> Value {
        match self {
            OnnxValue::Tensor(t) => Value::Dev { t, dynamic, exotic },
            OnnxValue::Sequence(v) => Value::Seq(
                v.into_iter()
                    .map(|x| x.into_value(dynamic, exotic))
                    .collect(),
            ),
            OnnxValue::Optional(v) => {
                Value::Opt(v.map(|x| Box::new(x.into_value(dynamic, exotic))))
            }
        }
    }

    fn from_value(v: Value) -> std::result::Result<OnnxValue, tg_runtime::Error> {
        Ok(match v {
            Value::Host(h) => OnnxValue::Tensor(crate::value::upload_buffer(&h)?),
            Value::Dev { t, .. } => OnnxValue::Tensor(t),
            Value::Seq(v) => OnnxValue::Sequence(
                v.into_iter()
                    .map(OnnxValue::from_value)
                    .collect::<std::result::Result<_, _>>()?,
            ),
            Value::Opt(v) => OnnxValue::Optional(match v {
                Some(b) => Some(Box::new(OnnxValue::from_value(*b)?)),
                None => None,
            }),
        })
    }

    /// Every tensor inside, in order.
    fn tensors(&self, out: &mut Vec<DynTensor>) {
        match self {
            OnnxValue::Tensor(t) => out.push(t.clone()),
            OnnxValue::Sequence(v) => v.iter().for_each(|x| x.tensors(out)),
            OnnxValue::Optional(v) => {
                if let Some(x) = v {
                    x.tensors(out);
                }
            }
        }
    }
}

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
        let slots = slot_inputs(declared, inputs)?;
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

    /// Runs the model on named values of any kind (tensors, sequences, optionals). A model
    /// whose inputs and outputs are all tensors runs as [`OnnxModel::run`] does (recorded and
    /// replayed); one with sequences or optionals builds its graph on every call.
    pub fn run_values(&self, inputs: &[(&str, OnnxValue)]) -> Result<Vec<(String, OnnxValue)>> {
        let all_tensors = self
            .inputs()
            .iter()
            .chain(self.outputs())
            .all(|v| v.kind == ValueKind::Tensor)
            && inputs
                .iter()
                .all(|(_, v)| matches!(v, OnnxValue::Tensor(_)));
        if all_tensors {
            let named: Vec<(&str, DynTensor)> = inputs
                .iter()
                .filter_map(|(n, v)| match v {
                    OnnxValue::Tensor(t) => Some((*n, t.clone())),
                    _ => None,
                })
                .collect();
            return Ok(self
                .run(&named)?
                .into_iter()
                .map(|(n, t)| (n, OnnxValue::Tensor(t)))
                .collect());
        }
        let declared = self.inputs();
        let slots = slot_inputs(declared, inputs)?;
        let mut values = Vec::with_capacity(declared.len());
        let mut symbols = HashMap::new();
        for (info, slot) in declared.iter().zip(slots) {
            // an optional input may be left out: it is then empty
            let v = match (slot, &info.kind) {
                (Some(v), _) => v,
                (None, ValueKind::Optional(_)) => OnnxValue::Optional(None),
                (None, _) => {
                    return Err(Error::MissingInput {
                        name: info.name.clone(),
                    });
                }
            };
            check_value(info, &info.kind, &v, &mut symbols)?;
            values.push(v.into_value(true, info.exotic));
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.weights.is_none() {
            state.weights = Some(self.upload_weights()?);
        }
        let weights = state
            .weights
            .as_ref()
            .ok_or_else(|| Error::Internal("weights".into()))?;
        let (outs, _) = self.interpret_values(weights, values)?;
        let mut named = Vec::with_capacity(outs.len());
        for (o, v) in self.outputs().iter().zip(outs) {
            let v = OnnxValue::from_value(v).map_err(device_error)?;
            let mut ts = Vec::new();
            v.tensors(&mut ts);
            let lazies: Vec<&Lazy> = ts.iter().map(|t| t.lazy()).collect();
            tg_runtime::realize(&lazies).map_err(device_error)?;
            named.push((o.name.clone(), v));
        }
        Ok(named)
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
        let weights = weights
            .as_ref()
            .ok_or_else(|| Error::Internal("weights".into()))?;
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
        let recorded = tg_runtime::record(&lazies, || match self.interpret(weights, inputs) {
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
    /// Runs the graph on input values; returns the outputs and whether the run read
    /// input-dependent values on the host.
    fn interpret_values(
        &self,
        weights: &HashMap<String, DynTensor>,
        inputs: Vec<Value>,
    ) -> Result<(Vec<Value>, bool)> {
        let g = &self.model.graph;
        let mut exec = Exec {
            weights,
            env: HashMap::new(),
            data_dependent: false,
        };
        for (info, v) in g.inputs.iter().zip(inputs) {
            exec.env.insert(info.name.clone(), v);
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
            outs.push(v);
        }
        Ok((outs, exec.data_dependent))
    }

    fn interpret(
        &self,
        weights: &HashMap<String, DynTensor>,
        inputs: &[DynTensor],
    ) -> Result<(Vec<DynTensor>, bool)> {
        let values = self
            .model
            .graph
            .inputs
            .iter()
            .zip(inputs)
            .map(|(info, t)| Value::Dev {
                t: t.clone(),
                dynamic: true,
                exotic: info.exotic,
            })
            .collect();
        let (values, data_dependent) = self.interpret_values(weights, values)?;
        let mut outs = Vec::with_capacity(values.len());
        for (o, v) in self.outputs().iter().zip(values) {
            outs.push(match v {
                Value::Host(h) => upload(&h).map_err(device_error)?,
                Value::Dev { t, .. } => t,
                Value::Seq(_) | Value::Opt(_) => {
                    return Err(Error::UnsupportedValueKind {
                        name: o.name.clone(),
                        kind: "sequence or optional (use run_values)".to_string(),
                    });
                }
            });
        }
        let lazies: Vec<&Lazy> = outs.iter().map(|t| t.lazy()).collect();
        tg_runtime::realize(&lazies).map_err(device_error)?;
        Ok((outs, data_dependent))
    }
}

/// Checks a value of any kind against its declaration.
fn check_value(
    info: &ValueInfo,
    kind: &ValueKind,
    v: &OnnxValue,
    symbols: &mut HashMap<String, usize>,
) -> Result<()> {
    let wrong = |what: &str| Error::UnsupportedValueKind {
        name: info.name.clone(),
        kind: format!("{what} given where the model takes {kind:?}"),
    };
    match (kind, v) {
        (ValueKind::Tensor, OnnxValue::Tensor(t)) => check_input(info, t, symbols),
        (ValueKind::Sequence(inner), OnnxValue::Sequence(items)) => {
            // a sequence's tensors may differ in shape: only their dtype is checked
            let loose = ValueInfo {
                dims: None,
                ..info.clone()
            };
            items
                .iter()
                .try_for_each(|x| check_value(&loose, inner, x, &mut HashMap::new()))
        }
        (ValueKind::Optional(inner), OnnxValue::Optional(x)) => match x {
            Some(x) => check_value(info, inner, x, symbols),
            None => Ok(()),
        },
        (_, OnnxValue::Tensor(_)) => Err(wrong("a tensor")),
        (_, OnnxValue::Sequence(_)) => Err(wrong("a sequence")),
        (_, OnnxValue::Optional(_)) => Err(wrong("an optional")),
    }
}

/// Puts named inputs (tensors or values) in the slots of the model's `declared` inputs, in the
/// model's order; a slot no input named stays `None` for the caller to judge (an optional may
/// be left out, a tensor may not). An unknown or repeated name is an error.
fn slot_inputs<T: Clone>(declared: &[ValueInfo], inputs: &[(&str, T)]) -> Result<Vec<Option<T>>> {
    let names: Vec<String> = declared.iter().map(|v| v.name.clone()).collect();
    let mut slots: Vec<Option<T>> = vec![None; declared.len()];
    for (name, v) in inputs {
        let i = names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| Error::UnknownInput {
                name: name.to_string(),
                inputs: names.clone(),
            })?;
        if slots[i].is_some() {
            return Err(Error::RepeatedInput {
                name: name.to_string(),
            });
        }
        slots[i] = Some(v.clone());
    }
    Ok(slots)
}

/// Checks one input against its declaration; `symbols` binds symbolic dims across inputs.
fn check_input(
    info: &ValueInfo,
    t: &DynTensor,
    symbols: &mut HashMap<String, usize>,
) -> Result<()> {
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
