//! Loading and checking a model: every node resolved to an operator tg implements at the
//! model's opset, every value defined before it is read, every initializer and attribute
//! decoded, graph inputs and outputs typed. A [`Model`] that exists passed all of it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use prost::Message;
use tg_core::DType;

use crate::attr::{Attr, AttrCtx, Attrs};
use crate::dtype;
use crate::error::{Error, Result};
use crate::op::{OpType, since_version};
use crate::proto::{GraphProto, ModelProto, NodeProto, ValueInfoProto, type_proto};
use crate::schema::MAX_OPSET;
use crate::tensor::HostTensor;

/// The oldest opset of the default domain tg implements.
pub const MIN_OPSET: u32 = 7;

/// One dimension of a declared shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// A size fixed by the model.
    Fixed(usize),
    /// A named size (`batch`), the same wherever the name appears in one call.
    Symbol(String),
    /// A size the model leaves open.
    Unknown,
}

impl std::fmt::Display for Dim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dim::Fixed(n) => write!(f, "{n}"),
            Dim::Symbol(s) => write!(f, "{s}"),
            Dim::Unknown => write!(f, "?"),
        }
    }
}

/// What kind of value a graph input or output is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A tensor.
    Tensor,
    /// A sequence of values of the inner kind.
    Sequence(Box<ValueKind>),
    /// A value of the inner kind, or none.
    Optional(Box<ValueKind>),
}

/// A graph input or output as the model declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueInfo {
    /// The name.
    pub name: String,
    /// A tensor, or a sequence or optional of tensors (then `dtype`, `exotic` and `dims`
    /// describe the tensors inside).
    pub kind: ValueKind,
    /// The element type (`None` where an output leaves it open); for an exotic type, the
    /// dtype that stores it.
    pub dtype: Option<DType>,
    /// The exotic type (bfloat16, 8- and 4-bit floats, 4- and 2-bit integers), if it is one.
    pub exotic: Option<crate::exotic::Exotic>,
    /// The dimensions (`None` where the rank is open too).
    pub dims: Option<Vec<Dim>>,
}

/// One node, resolved.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its name, or `OpType#index` when the model gives none.
    pub name: String,
    /// The operator.
    pub op: OpType,
    /// The opset version whose definition of the operator applies (see
    /// [`crate::op::since_version`]).
    pub since: u32,
    /// Input value names; an empty name is an omitted optional input.
    pub inputs: Vec<String>,
    /// Output value names; an empty name is an output nobody reads.
    pub outputs: Vec<String>,
    /// Attributes.
    pub attrs: Attrs,
}

/// A checked graph.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// The graph's name.
    pub name: String,
    /// Inputs a caller gives (initializers listed as inputs are left out: they are weights).
    pub inputs: Vec<ValueInfo>,
    /// Outputs.
    pub outputs: Vec<ValueInfo>,
    /// Initializers and values folded at load, by name.
    pub constants: HashMap<String, HostTensor>,
    /// Names of the constants that are initializers (weights), in file order.
    pub initializers: Vec<String>,
    /// The nodes left to run, in order (folded nodes are gone).
    pub nodes: Vec<Node>,
}

/// A loaded, checked model.
#[derive(Clone, Debug)]
pub struct Model {
    /// The default domain's opset the model imports.
    pub opset: u32,
    /// The producer named in the file (`pytorch`, `onnx-example`).
    pub producer: String,
    /// The main graph.
    pub graph: Graph,
}

impl Model {
    /// Reads and checks a model file; external data is read from the file's folder.
    pub fn load(path: &Path) -> Result<Model> {
        let bytes = std::fs::read(path).map_err(|e| Error::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let folder = path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    p.to_path_buf()
                }
            })
            .unwrap_or_else(|| PathBuf::from("."));
        Model::from_bytes_in(&bytes, Some(&folder))
    }

    /// Checks a model held in memory; external data is refused (there is no folder).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model> {
        Model::from_bytes_in(bytes, None)
    }

    /// Checks a model held in memory whose external data lives in `folder`.
    pub fn from_bytes_in(bytes: &[u8], folder: Option<&Path>) -> Result<Model> {
        let proto = ModelProto::decode(bytes).map_err(|e| Error::Malformed {
            what: "model".to_string(),
            message: e.to_string(),
        })?;
        Model::from_proto(&proto, folder)
    }

    /// Checks a decoded model.
    pub fn from_proto(proto: &ModelProto, folder: Option<&Path>) -> Result<Model> {
        let (opset, domains) = opset_imports(proto);
        // a model that imports no default-domain opset fails at its first default-domain
        // node (or at its first node of another domain, which tg does not implement)
        let version = opset.unwrap_or(0);
        if opset.is_some() && !(1..=MAX_OPSET as i64).contains(&version) {
            return Err(Error::UnsupportedOpset {
                domain: String::new(),
                version,
                min: MIN_OPSET,
                max: MAX_OPSET,
            });
        }
        let graph = proto.graph.as_ref().ok_or(Error::NoGraph)?;
        let ck = Checker {
            opset: version as u32,
            domains: &domains,
            folder,
        };
        let mut graph = ck.graph(graph, &HashSet::new(), true)?;
        crate::fold::fold_graph(&mut graph)?;
        Ok(Model {
            opset: version as u32,
            producer: proto.producer_name.clone().unwrap_or_default(),
            graph,
        })
    }

    /// Every node of a model file (subgraphs included) whose op tg does not implement at the
    /// model's opset, as the `UnsupportedOp` (or `UnsupportedOpset`) error each would be:
    /// what `tg-onnx info` lists, where loading stops at the first.
    pub fn unsupported_ops(bytes: &[u8]) -> Result<Vec<Error>> {
        let proto = ModelProto::decode(bytes).map_err(|e| Error::Malformed {
            what: "model".to_string(),
            message: e.to_string(),
        })?;
        let (opset, domains) = opset_imports(&proto);
        let opset = opset.map_or(0, |v| v.clamp(0, MAX_OPSET as i64) as u32);
        let ck = Checker {
            opset,
            domains: &domains,
            folder: None,
        };
        let mut found = Vec::new();
        if let Some(g) = &proto.graph {
            ck.scan(g, &mut found);
        }
        Ok(found)
    }

    /// The inputs a caller gives.
    pub fn inputs(&self) -> &[ValueInfo] {
        &self.graph.inputs
    }

    /// The outputs.
    pub fn outputs(&self) -> &[ValueInfo] {
        &self.graph.outputs
    }
}

struct Checker<'a> {
    opset: u32,
    domains: &'a HashMap<String, i64>,
    folder: Option<&'a Path>,
}

fn value_info(v: &ValueInfoProto, need_type: bool) -> Result<ValueInfo> {
    let name = v.name.clone().unwrap_or_default();
    let mut info = ValueInfo {
        name: name.clone(),
        kind: ValueKind::Tensor,
        dtype: None,
        exotic: None,
        dims: None,
    };
    match v.r#type.as_ref() {
        Some(t) => type_info(t, &mut info, need_type)?,
        None if need_type => {
            return Err(Error::UnsupportedValueKind {
                name,
                kind: "untyped".to_string(),
            });
        }
        None => {}
    }
    Ok(info)
}

/// Fills `info` from a type: its kind (tensor, sequence, optional, nested), and the element
/// type and dimensions of the tensors inside.
fn type_info(t: &crate::proto::TypeProto, info: &mut ValueInfo, need_type: bool) -> Result<()> {
    let name = info.name.clone();
    let unsupported = |kind: &str| Error::UnsupportedValueKind {
        name: name.clone(),
        kind: kind.to_string(),
    };
    match t.value.as_ref() {
        None if need_type => Err(unsupported("untyped")),
        None => Ok(()),
        Some(type_proto::Value::SequenceType(s)) => {
            let mut inner = info.clone();
            inner.kind = ValueKind::Tensor;
            if let Some(e) = &s.elem_type {
                type_info(e, &mut inner, need_type)?;
            }
            *info = ValueInfo {
                kind: ValueKind::Sequence(Box::new(inner.kind.clone())),
                ..inner
            };
            Ok(())
        }
        Some(type_proto::Value::OptionalType(o)) => {
            let mut inner = info.clone();
            inner.kind = ValueKind::Tensor;
            if let Some(e) = &o.elem_type {
                type_info(e, &mut inner, need_type)?;
            }
            *info = ValueInfo {
                kind: ValueKind::Optional(Box::new(inner.kind.clone())),
                ..inner
            };
            Ok(())
        }
        Some(type_proto::Value::MapType(_)) => Err(unsupported("map")),
        Some(type_proto::Value::SparseTensorType(_)) => Err(unsupported("sparse tensor")),
        Some(type_proto::Value::TensorType(t)) => {
            match t.elem_type {
                Some(code) if code != 0 => {
                    let (d, x) = dtype::elem_from_onnx(code, &name)?;
                    info.dtype = Some(d);
                    info.exotic = x;
                }
                _ if need_type => return Err(unsupported("untyped tensor")),
                _ => {}
            }
            if let Some(s) = &t.shape {
                info.dims = Some(
                    s.dim
                        .iter()
                        .map(|d| {
                            use crate::proto::tensor_shape_proto::dimension::Value;
                            Ok(match &d.value {
                                Some(Value::DimValue(n)) => {
                                    Dim::Fixed(usize::try_from(*n).map_err(|_| {
                                        Error::DimOverflow {
                                            tensor: name.clone(),
                                            dims: vec![*n],
                                        }
                                    })?)
                                }
                                Some(Value::DimParam(p)) if !p.is_empty() => Dim::Symbol(p.clone()),
                                _ => Dim::Unknown,
                            })
                        })
                        .collect::<Result<Vec<_>>>()?,
                );
            }
            Ok(())
        }
        Some(_) => Err(unsupported("opaque")),
    }
}

/// The opsets a model imports: the default domain's version (the last import of it), and
/// every domain's (by the name the model gives it).
fn opset_imports(proto: &ModelProto) -> (Option<i64>, HashMap<String, i64>) {
    let mut opset = None;
    let mut domains = HashMap::new();
    for o in &proto.opset_import {
        let domain = o.domain.clone().unwrap_or_default();
        let version = o.version.unwrap_or(0);
        if is_default_domain(&domain) {
            opset = Some(version);
        }
        domains.insert(domain, version);
    }
    (opset, domains)
}

/// Whether `domain` is ONNX's default domain, which a model may name `""` or `ai.onnx`.
fn is_default_domain(domain: &str) -> bool {
    domain.is_empty() || domain == "ai.onnx"
}

/// Node `n`'s op type, name (`op_type#index` where it has none, so that errors can name it)
/// and domain, as the model writes them.
fn node_names(n: &NodeProto, index: usize) -> (String, String, String) {
    let op_type = n.op_type.clone().unwrap_or_default();
    let name = n
        .name
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("{op_type}#{index}"));
    (op_type, name, n.domain.clone().unwrap_or_default())
}

/// The `UnsupportedOp` error of a node: its domain is empty for the default domain, else
/// written `domain.` to stand before the op type.
fn unsupported_op(
    name: &str,
    op_type: &str,
    domain: &str,
    reason: Option<String>,
    opset: i64,
) -> Error {
    Error::UnsupportedOp {
        node: name.to_string(),
        op_type: op_type.to_string(),
        domain: if is_default_domain(domain) {
            String::new()
        } else {
            format!("{domain}.")
        },
        opset,
        reason,
    }
}

impl Checker<'_> {
    /// Collects the unsupported nodes of `g` and its subgraphs.
    fn scan(&self, g: &GraphProto, found: &mut Vec<Error>) {
        for (index, n) in g.node.iter().enumerate() {
            let (op_type, name, domain) = node_names(n, index);
            let unsupported = |reason: Option<String>, opset: i64| {
                unsupported_op(&name, &op_type, &domain, reason, opset)
            };
            if is_default_domain(&domain) {
                if let Err(e) = self.default_op(&op_type, &name, &unsupported) {
                    found.push(e);
                }
            } else {
                let v = self.domains.get(&domain).copied().unwrap_or(0);
                if OpType::parse_in(&domain, &op_type).is_none() || v < 1 {
                    found.push(unsupported(
                        Some("tg does not implement this domain's op".into()),
                        v,
                    ));
                }
            }
            for a in &n.attribute {
                for sub in a.g.iter().chain(&a.graphs) {
                    self.scan(sub, found);
                }
            }
        }
    }

    /// Resolves a default-domain node: its operator and the definition its opset selects.
    fn default_op(
        &self,
        op_type: &str,
        name: &str,
        unsupported: &dyn Fn(Option<String>, i64) -> Error,
    ) -> Result<(OpType, u32)> {
        let _ = name;
        if self.opset == 0 {
            return Err(Error::UnsupportedOpset {
                domain: String::new(),
                version: 0,
                min: MIN_OPSET,
                max: MAX_OPSET,
            });
        }
        let Some(since) = since_version(op_type, self.opset) else {
            return Err(unsupported(
                Some(format!("ONNX defines no {op_type} at this opset")),
                self.opset as i64,
            ));
        };
        let Some(op) = OpType::parse(op_type) else {
            return Err(unsupported(
                crate::op::left_out_reason(op_type).map(str::to_string),
                self.opset as i64,
            ));
        };
        if self.opset < MIN_OPSET && !op.same_before_opset_7() {
            return Err(Error::UnsupportedOpset {
                domain: String::new(),
                version: self.opset as i64,
                min: MIN_OPSET,
                max: MAX_OPSET,
            });
        }
        Ok((op, since))
    }

    /// Checks a graph; `outer` holds the names an enclosing graph defines (a subgraph may
    /// read them).
    fn graph(&self, g: &GraphProto, outer: &HashSet<String>, main: bool) -> Result<Graph> {
        let mut defined: HashSet<String> = outer.clone();
        let mut mine: HashSet<String> = HashSet::new();
        let mut define = |name: &str, defined: &mut HashSet<String>| -> Result<()> {
            if name.is_empty() {
                return Ok(());
            }
            if !mine.insert(name.to_string()) {
                return Err(Error::DuplicateValue {
                    name: name.to_string(),
                });
            }
            defined.insert(name.to_string());
            Ok(())
        };
        let mut constants = HashMap::new();
        let mut initializers = Vec::new();
        for (i, t) in g.initializer.iter().enumerate() {
            let t = HostTensor::from_proto(t, self.folder, &format!("initializer#{i}"))?;
            let name = g.initializer[i].name.clone().unwrap_or_default();
            define(&name, &mut defined)?;
            initializers.push(name.clone());
            constants.insert(name, t);
        }
        if !g.sparse_initializer.is_empty() {
            return Err(Error::UnsupportedValueKind {
                name: "sparse_initializer".to_string(),
                kind: "sparse tensor".to_string(),
            });
        }
        let mut inputs = Vec::new();
        for v in &g.input {
            let name = v.name.clone().unwrap_or_default();
            if constants.contains_key(&name) {
                continue;
            }
            // a subgraph's inputs (a Loop's) need no types; If's branches have none
            inputs.push(value_info(v, main)?);
            define(&name, &mut defined)?;
        }
        let mut nodes = Vec::new();
        for (index, n) in g.node.iter().enumerate() {
            let (op_type, name, domain) = node_names(n, index);
            let unsupported = |reason: Option<String>, opset: i64| {
                unsupported_op(&name, &op_type, &domain, reason, opset)
            };
            let (op, since) = if !is_default_domain(&domain) {
                let v = self.domains.get(&domain).copied().unwrap_or(0);
                match OpType::parse_in(&domain, &op_type) {
                    Some(op) if v >= 1 => (op, v as u32),
                    _ => {
                        return Err(unsupported(
                            Some(format!(
                                "tg implements the default domain and {} of {} and {}",
                                "Binarizer, ArrayFeatureExtractor",
                                crate::op::ML_DOMAIN,
                                "Adagrad, Adam, Momentum of ai.onnx.preview.training"
                            )),
                            v,
                        ));
                    }
                }
            } else {
                self.default_op(&op_type, &name, &unsupported)?
            };
            for input in &n.input {
                if !input.is_empty() && !defined.contains(input) {
                    return Err(Error::UndefinedValue {
                        node: name.clone(),
                        op_type: op_type.clone(),
                        input: input.clone(),
                    });
                }
            }
            let ctx = AttrCtx {
                folder: self.folder,
                node: &name,
                op_type: &op_type,
            };
            let mut attrs = Vec::new();
            for a in &n.attribute {
                let defined_now = defined.clone();
                attrs.push(ctx.decode(a, &mut |sub| self.graph(sub, &defined_now, false))?);
            }
            for out in &n.output {
                define(out, &mut defined)?;
            }
            nodes.push(Node {
                name,
                op,
                since,
                inputs: n.input.clone(),
                outputs: n.output.clone(),
                attrs: Attrs(attrs),
            });
        }
        let mut outputs = Vec::new();
        for v in &g.output {
            let info = value_info(v, false)?;
            if !defined.contains(&info.name) {
                return Err(Error::UndefinedOutput { name: info.name });
            }
            outputs.push(info);
        }
        Ok(Graph {
            name: g.name.clone().unwrap_or_default(),
            inputs,
            outputs,
            constants,
            initializers,
            nodes,
        })
    }
}

impl Node {
    fn attr_error(&self, attribute: &str, message: impl Into<String>) -> Error {
        Error::Attribute {
            node: self.name.clone(),
            op_type: self.op.name().to_string(),
            attribute: attribute.to_string(),
            message: message.into(),
        }
    }

    fn typed<T>(
        &self,
        name: &str,
        want: &str,
        f: impl FnOnce(&Attr) -> Option<T>,
    ) -> Result<Option<T>> {
        match self.attrs.get(name) {
            None => Ok(None),
            Some(a) => f(a).map(Some).ok_or_else(|| {
                self.attr_error(name, format!("expected {want}, found {}", a.kind()))
            }),
        }
    }

    /// An int attribute, if present.
    pub fn int(&self, name: &str) -> Result<Option<i64>> {
        self.typed(name, "an int", |a| match a {
            Attr::Int(i) => Some(*i),
            _ => None,
        })
    }

    /// An int attribute or its default.
    pub fn int_or(&self, name: &str, default: i64) -> Result<i64> {
        Ok(self.int(name)?.unwrap_or(default))
    }

    /// A float attribute or its default.
    pub fn float_or(&self, name: &str, default: f32) -> Result<f32> {
        Ok(self
            .typed(name, "a float", |a| match a {
                Attr::Float(f) => Some(*f),
                _ => None,
            })?
            .unwrap_or(default))
    }

    /// An ints attribute, if present.
    pub fn ints(&self, name: &str) -> Result<Option<Vec<i64>>> {
        self.typed(name, "ints", |a| match a {
            Attr::Ints(v) => Some(v.clone()),
            _ => None,
        })
    }

    /// A floats attribute, if present.
    pub fn floats(&self, name: &str) -> Result<Option<Vec<f32>>> {
        self.typed(name, "floats", |a| match a {
            Attr::Floats(v) => Some(v.clone()),
            _ => None,
        })
    }

    /// A string attribute or its default.
    pub fn string_or(&self, name: &str, default: &str) -> Result<String> {
        Ok(self
            .typed(name, "a string", |a| match a {
                Attr::String(s) => Some(String::from_utf8_lossy(s).into_owned()),
                _ => None,
            })?
            .unwrap_or_else(|| default.to_string()))
    }

    /// A tensor attribute, if present.
    pub fn tensor(&self, name: &str) -> Result<Option<&HostTensor>> {
        match self.attrs.get(name) {
            None => Ok(None),
            Some(Attr::Tensor(t)) => Ok(Some(t)),
            Some(a) => Err(self.attr_error(name, format!("expected a tensor, found {}", a.kind()))),
        }
    }

    /// A graph attribute (required).
    pub fn graph(&self, name: &str) -> Result<&Graph> {
        match self.attrs.get(name) {
            Some(Attr::Graph(g)) => Ok(g),
            Some(a) => Err(self.attr_error(name, format!("expected a graph, found {}", a.kind()))),
            None => Err(self.attr_error(name, "missing")),
        }
    }

    /// An error about attribute `name` of this node.
    pub fn bad_attr(&self, name: &str, message: impl Into<String>) -> Error {
        self.attr_error(name, message)
    }

    /// An error about the node's inputs or outputs count.
    pub fn arity(&self, message: impl Into<String>) -> Error {
        Error::Arity {
            node: self.name.clone(),
            op_type: self.op.name().to_string(),
            message: message.into(),
        }
    }

    /// Input `i`'s name, when present and not empty.
    pub fn input(&self, i: usize) -> Option<&str> {
        self.inputs
            .get(i)
            .map(String::as_str)
            .filter(|s| !s.is_empty())
    }

    /// Input `j`'s name for errors (`input j` when it has none).
    pub fn input_label(&self, j: usize) -> String {
        self.input(j)
            .map(str::to_string)
            .unwrap_or_else(|| format!("input {j}"))
    }

    /// [`Error::ElementCount`]: `value`, read by this node, holds `found` elements where the op
    /// takes `expected`.
    pub fn element_count(&self, value: &str, expected: usize, found: usize) -> Error {
        Error::ElementCount {
            node: self.name.clone(),
            op_type: self.op.name().to_string(),
            value: value.to_string(),
            expected,
            found,
        }
    }

    /// [`Error::InputValue`]: input `j` holds `found`, which the op cannot take.
    pub fn input_value(&self, j: usize, found: f64, message: impl Into<String>) -> Error {
        Error::InputValue {
            node: self.name.clone(),
            op_type: self.op.name().to_string(),
            value: self.input_label(j),
            found,
            message: message.into(),
        }
    }

    /// [`Error::Axis`]: `axis` does not fit `rank`.
    pub fn axis_error(&self, axis: i64, rank: usize) -> Error {
        Error::Axis {
            node: self.name.clone(),
            op_type: self.op.name().to_string(),
            axis,
            rank,
        }
    }

    /// `axis` normalized against `rank` (`-rank..rank`), or [`Error::Axis`].
    pub fn axis(&self, axis: i64, rank: usize) -> Result<usize> {
        let r = rank as i64;
        let n = if axis < 0 { axis + r } else { axis };
        if (0..r).contains(&n) {
            Ok(n as usize)
        } else {
            Err(self.axis_error(axis, rank))
        }
    }

    /// The one element of `t`, the value `value` this node reads as a scalar (ONNX takes a
    /// scalar or a one-element tensor), as i64; any other count is [`Error::ElementCount`].
    pub fn one_i64(&self, value: &str, t: &HostTensor) -> Result<i64> {
        match (t.numel(), t.get_i64(0)) {
            (1, Some(v)) => Ok(v),
            (n, _) => Err(self.element_count(value, 1, n)),
        }
    }

    /// The one element of `t` as f64 (see [`Node::one_i64`]).
    pub fn one_f64(&self, value: &str, t: &HostTensor) -> Result<f64> {
        match (t.numel(), t.get_f64(0)) {
            (1, Some(v)) => Ok(v),
            (n, _) => Err(self.element_count(value, 1, n)),
        }
    }

    /// Input `j`'s one element as i64, `t` being its value.
    pub fn scalar_i64(&self, j: usize, t: &HostTensor) -> Result<i64> {
        self.one_i64(&self.input_label(j), t)
    }

    /// Input `j`'s one element as f64, `t` being its value.
    pub fn scalar_f64(&self, j: usize, t: &HostTensor) -> Result<f64> {
        self.one_f64(&self.input_label(j), t)
    }

    /// Checks that list input `j` (`found` elements) holds `expected`.
    pub fn expect_count(&self, j: usize, expected: usize, found: usize) -> Result<()> {
        if expected == found {
            Ok(())
        } else {
            Err(self.element_count(&self.input_label(j), expected, found))
        }
    }

    /// A shape this node computes from a model's numbers (a target shape, a range's length,
    /// sizes times repeats), checked as initializer dims are: a negative size, or an element
    /// count or byte size that overflows, is [`Error::DimOverflow`] naming the node.
    pub fn checked_shape(&self, dims: &[i64], dtype: DType) -> Result<Vec<usize>> {
        crate::tensor::checked_shape(&self.name, dims, dtype)
    }
}
