//! A node's attributes, decoded once at load: tensors decoded, subgraphs checked.

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::Graph;
use crate::proto::AttributeProto;
use crate::proto::attribute_proto::AttributeType;
use crate::tensor::HostTensor;

/// One attribute's value.
#[derive(Clone, Debug)]
pub enum Attr {
    /// `f`.
    Float(f32),
    /// `i`.
    Int(i64),
    /// `s` (bytes; ONNX's strings are UTF-8 by convention).
    String(Vec<u8>),
    /// `t`.
    Tensor(HostTensor),
    /// `g`, a subgraph (the branches of `If`).
    Graph(Box<Graph>),
    /// `floats`.
    Floats(Vec<f32>),
    /// `ints`.
    Ints(Vec<i64>),
    /// `strings`.
    Strings(Vec<Vec<u8>>),
}

impl Attr {
    /// The kind, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Attr::Float(_) => "float",
            Attr::Int(_) => "int",
            Attr::String(_) => "string",
            Attr::Tensor(_) => "tensor",
            Attr::Graph(_) => "graph",
            Attr::Floats(_) => "floats",
            Attr::Ints(_) => "ints",
            Attr::Strings(_) => "strings",
        }
    }
}

/// A node's attributes by name.
#[derive(Clone, Debug, Default)]
pub struct Attrs(pub Vec<(String, Attr)>);

impl Attrs {
    /// The attribute `name`, if the node has it.
    pub fn get(&self, name: &str) -> Option<&Attr> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }
}

/// Context for decoding a node's attributes: where external data lives, the node for errors,
/// and how to check a subgraph (given the names the enclosing graph defines so far).
pub(crate) struct AttrCtx<'a> {
    pub folder: Option<&'a Path>,
    pub node: &'a str,
    pub op_type: &'a str,
}

impl AttrCtx<'_> {
    fn error(&self, attribute: &str, message: impl Into<String>) -> Error {
        Error::Attribute {
            node: self.node.to_string(),
            op_type: self.op_type.to_string(),
            attribute: attribute.to_string(),
            message: message.into(),
        }
    }

    /// Decodes one attribute; `graph` checks a subgraph attribute.
    pub fn decode(
        &self,
        a: &AttributeProto,
        graph: &mut dyn FnMut(&crate::proto::GraphProto) -> Result<Graph>,
    ) -> Result<(String, Attr)> {
        let name = a.name.clone().unwrap_or_default();
        if a.ref_attr_name.is_some() {
            return Err(self.error(&name, "refers to a function's attribute outside a function"));
        }
        let kind = a
            .r#type
            .and_then(|t| AttributeType::try_from(t).ok())
            .unwrap_or(AttributeType::Undefined);
        let value = match kind {
            AttributeType::Float => Attr::Float(a.f.unwrap_or(0.0)),
            AttributeType::Int => Attr::Int(a.i.unwrap_or(0)),
            AttributeType::String => Attr::String(a.s.clone().unwrap_or_default()),
            AttributeType::Tensor => {
                let t = a.t.as_ref().ok_or_else(|| self.error(&name, "no tensor"))?;
                Attr::Tensor(HostTensor::from_proto(t, self.folder, &name)?)
            }
            AttributeType::Graph => {
                let g = a.g.as_ref().ok_or_else(|| self.error(&name, "no graph"))?;
                Attr::Graph(Box::new(graph(g)?))
            }
            AttributeType::Floats => Attr::Floats(a.floats.clone()),
            AttributeType::Ints => Attr::Ints(a.ints.clone()),
            AttributeType::Strings => Attr::Strings(a.strings.clone()),
            other => {
                return Err(self.error(
                    &name,
                    format!(
                        "attributes of type {} are not supported",
                        other.as_str_name()
                    ),
                ));
            }
        };
        Ok((name, value))
    }
}
