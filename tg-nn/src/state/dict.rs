//! `StateDict`: named tensors in a fixed order.

use std::path::Path;

use tg_ops::DynTensor;
use tg_runtime::Result;

/// Named tensors in order: a file's order when loaded, insertion order when built. Lookups
/// by name scan the list (models have tens to hundreds of tensors, and the order is what
/// matters when saving and reporting).
#[derive(Clone, Debug, Default)]
pub struct StateDict {
    entries: Vec<(String, DynTensor)>,
}

impl StateDict {
    /// An empty dict.
    pub fn new() -> StateDict {
        StateDict::default()
    }

    /// Adds `tensor` under `name`, or replaces the tensor of that name in its place, returning
    /// the old one.
    pub fn insert(&mut self, name: impl Into<String>, tensor: DynTensor) -> Option<DynTensor> {
        let name = name.into();
        match self.entries.iter_mut().find(|(n, _)| *n == name) {
            Some((_, old)) => Some(std::mem::replace(old, tensor)),
            None => {
                self.entries.push((name, tensor));
                None
            }
        }
    }

    /// The tensor named `name`.
    pub fn get(&self, name: &str) -> Option<&DynTensor> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// Takes the tensor named `name` out, keeping the others' order.
    pub fn remove(&mut self, name: &str) -> Option<DynTensor> {
        let i = self.entries.iter().position(|(n, _)| n == name)?;
        Some(self.entries.remove(i).1)
    }

    /// How many tensors.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    /// `(name, tensor)` pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &DynTensor)> {
        self.entries.iter().map(|(n, t)| (n.as_str(), t))
    }

    /// Saves the tensors to a safetensors file (see [`super::save`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let pairs: Vec<(&str, &DynTensor)> = self.iter().collect();
        super::save(path, &pairs)
    }
}

impl IntoIterator for StateDict {
    type Item = (String, DynTensor);
    type IntoIter = std::vec::IntoIter<(String, DynTensor)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl FromIterator<(String, DynTensor)> for StateDict {
    /// Collects pairs in order; a repeated name replaces the earlier tensor in its place.
    fn from_iter<I: IntoIterator<Item = (String, DynTensor)>>(iter: I) -> StateDict {
        let mut dict = StateDict::new();
        for (name, t) in iter {
            dict.insert(name, t);
        }
        dict
    }
}
