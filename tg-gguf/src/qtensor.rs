//! A tensor of a GGUF file on the device, kept in its quantized form.

use tg_ops::DynTensor;
use tg_runtime::device::KernelClass;
use tg_runtime::kernel::LANES;
use tg_runtime::{BinaryOp, DType, Lazy};

use crate::decode::{Fields, decode};
use crate::layout::{Field, Layout, fields, low_nibble, nibble_field};
use crate::{Error, GgmlType, Result, TensorInfo};

/// A tensor of a GGUF file on the device: its packed bytes (in a [`Layout`]) and its type.
/// [`QTensor::values`] is its f32 values as a lazy expression over those bytes, which fuses
/// into whatever reads it; [`QTensor::dequantize`] computes them (for checks).
#[derive(Clone)]
pub struct QTensor {
    name: String,
    ty: GgmlType,
    shape: Vec<usize>,
    layout: Layout,
    /// The buffers on the device: the u8 block tensor (`Blocks`) or the planes (`Planes`).
    storage: Vec<Lazy>,
    /// Each field as the decoder reads it: views of `storage`.
    fields: Fields,
    device_bytes: usize,
}

impl std::fmt::Debug for QTensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "QTensor({:?}, {}, {:?}, {:?})",
            self.name, self.ty, self.shape, self.layout
        )
    }
}

fn rt(e: tg_runtime::Error) -> Error {
    Error::Runtime(e)
}

impl QTensor {
    /// Places the bytes of tensor `info` (its bytes from the file) on the current device
    /// (`Device::scope`, else the default) in `layout`; they upload at the first realize.
    pub fn new(info: &TensorInfo, bytes: &[u8], layout: Layout) -> Result<QTensor> {
        let ty = info.supported_type()?;
        let (per, size) = ty.block();
        let cols = info.row_len();
        let rows = info.rows();
        let nb = cols / per;
        if bytes.len() != rows * nb * size {
            return Err(Error::TensorShape {
                tensor: info.name.clone(),
                dims: info.shape.iter().rev().map(|&d| d as u64).collect(),
                message: format!("{} bytes given, {} expected", bytes.len(), rows * nb * size),
            });
        }
        let (storage, fields) = match layout {
            Layout::Blocks => {
                let all =
                    Lazy::from_bytes(DType::U8, &[rows, nb, size], bytes.to_vec()).map_err(rt)?;
                let fields = fields(ty)
                    .iter()
                    .map(|&f| field_of_bytes(&all, f, rows, nb))
                    .collect::<tg_runtime::Result<Vec<_>>>()
                    .map_err(rt)?;
                (vec![all], fields)
            }
            Layout::Planes => {
                let order = RowOrder::for_device(ty, rows).map_err(rt)?;
                let planes = fields(ty)
                    .iter()
                    .enumerate()
                    .map(|(i, &f)| match nibble_field(ty) {
                        Some(n) if n == i => nibble_plane(bytes, ty, rows, nb, order),
                        _ => plane(bytes, f, size, rows, nb, order),
                    })
                    .collect::<tg_runtime::Result<Vec<_>>>()
                    .map_err(rt)?;
                let views = planes
                    .iter()
                    .map(|p| order.view(p, rows, nb))
                    .collect::<tg_runtime::Result<Vec<_>>>()
                    .map_err(rt)?;
                (planes, views)
            }
        };
        Ok(QTensor {
            name: info.name.clone(),
            ty,
            shape: info.shape.clone(),
            layout,
            storage,
            fields,
            device_bytes: bytes.len(),
        })
    }

    /// The tensor's name in the file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its ggml type.
    pub fn ty(&self) -> GgmlType {
        self.ty
    }

    /// Its logical shape, outermost first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The buffers holding the packed bytes on the device (for a realize that uploads them).
    pub(crate) fn storage(&self) -> &[Lazy] {
        &self.storage
    }

    /// Its device layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The bytes its fields hold on the device (the file's bytes of the tensor).
    pub fn device_bytes(&self) -> usize {
        self.device_bytes
    }

    /// The f32 values, as a lazy expression over the packed bytes: nothing is computed until
    /// something reads it, and a kernel that reads it unpacks what it reads.
    pub fn values(&self) -> Result<DynTensor> {
        let per = self.ty.block_elems();
        let cols = *self.shape.last().unwrap_or(&1);
        let rows = self.shape.iter().product::<usize>() / cols.max(1);
        let in_order = self.layout == Layout::Planes;
        let v = decode(self.ty, &self.fields, rows, cols / per, in_order).map_err(rt)?;
        Ok(DynTensor::from_lazy(v.reshape(&self.shape).map_err(rt)?))
    }

    /// The f32 values, computed on the device.
    pub fn dequantize(&self) -> Result<DynTensor> {
        let v = self.values()?.contiguous();
        v.realize().map_err(rt)?;
        Ok(v)
    }

    /// Uploads the packed bytes, so a recording that captures this tensor reads its buffers
    /// instead of repeating the upload. (The fields of the `Blocks` layout stay views of the
    /// byte tensor: realizing them would store a second, word-aligned copy.)
    pub fn realize(&self) -> Result<()> {
        let refs: Vec<&Lazy> = self.storage.iter().collect();
        tg_runtime::realize(&refs).map_err(rt)
    }

    /// `x @ selfᵀ` for a 2-D weight `[out, in]` and `x` `[..., in]` (a linear layer without
    /// bias in ggml's orientation): the dequantization fuses into the product's kernel.
    pub fn matmul_t(&self, x: &DynTensor) -> Result<DynTensor> {
        let w = self.values()?;
        let wt = w.lazy().permute(&[1, 0]).map_err(rt)?;
        x.matmul(&DynTensor::from_lazy(wt)).map_err(rt)
    }
}

/// One field of every block, read from the u8 block tensor `[rows, nb, size]`.
fn field_of_bytes(all: &Lazy, f: Field, rows: usize, nb: usize) -> tg_runtime::Result<Lazy> {
    let o = f.offset();
    let byte = |i: usize, stride: usize, n: usize| -> tg_runtime::Result<Lazy> {
        // bytes o + i, o + i + stride, ... (n of them) of every block, as u32
        let s = all.shrink(&[(0, rows), (0, nb), (o, o + stride * n)])?;
        let s =
            s.reshape(&[rows, nb, n, stride])?
                .shrink(&[(0, rows), (0, nb), (0, n), (i, i + 1)])?;
        Ok(s.reshape(&[rows, nb, n])?.cast(DType::U32))
    };
    match f {
        Field::Half(_) => {
            let lo = byte(0, 2, 1)?;
            let hi = byte(1, 2, 1)?;
            let hi = hi.binary(
                BinaryOp::Shl,
                &Lazy::constant(8u32, DType::U32, hi.shape())?,
            )?;
            Ok(lo
                .binary(BinaryOp::Or, &hi)?
                .reshape(&[rows, nb])?
                .cast(DType::U16))
        }
        Field::Words(_, n) => {
            let mut w = byte(0, 4, n)?;
            for i in 1..4 {
                let b = byte(i, 4, n)?;
                let b = b.binary(
                    BinaryOp::Shl,
                    &Lazy::constant(8 * i as u32, DType::U32, b.shape())?,
                )?;
                w = w.binary(BinaryOp::Or, &b)?;
            }
            Ok(w)
        }
    }
}

/// The order of a plane's rows in device memory (`Layout::Planes`).
///
/// A CPU device's product kernels give each invocation [`LANES`] consecutive rows (outputs)
/// and run side-by-side invocations as the lanes of one SIMD vector, so a matrix-vector
/// product's lanes read rows `LANES` apart, each at the same block. Stored row by row, those
/// reads lie `LANES` rows' bytes apart (3 KB for Q8_0 rows of 768), and lavapipe pays for
/// each such load; stored block by block with the rows grouped by their remainder mod
/// `LANES` (`[blocks, LANES, rows / LANES, ...]`), the lanes' reads are adjacent, one run
/// of memory the renderer reads through a texel buffer (see `FAR_LANES` in tg-runtime's
/// GLSL renderer). On lavapipe, the decode step's Q8_0 gate and up product from memory took
/// 0.41 ms against 0.48-0.51 row by row, and a decode step's kernels 21.0-21.6 against
/// 24.7-27.4 ms. A GPU's kernels share a row among a subgroup's lanes instead, which rows
/// stored whole serve, so other devices keep the file's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RowOrder {
    /// Row by row, as the file stores them.
    Rows,
    /// Block by block, each block's rows grouped by their remainder mod `LANES`.
    Lanes,
}

impl RowOrder {
    /// The order for `rows` rows of `ty` on the current device: `Lanes` for a CPU's kernels
    /// where the rows divide into `LANES` and the type has blocks (a float type's rows
    /// stay whole: its product reads runs of a row's elements as vectors).
    fn for_device(ty: crate::GgmlType, rows: usize) -> tg_runtime::Result<RowOrder> {
        let cpu = tg_runtime::device::current_device()?.info().kernel_class() == KernelClass::Cpu;
        let blocks = ty.block_elems() > 1;
        Ok(
            if cpu && blocks && rows.is_multiple_of(LANES) && rows > LANES {
                RowOrder::Lanes
            } else {
                RowOrder::Rows
            },
        )
    }

    /// The position, in units of a block's field, of row `r`'s block `b` of `nb`.
    fn position(self, r: usize, b: usize, rows: usize, nb: usize) -> usize {
        match self {
            RowOrder::Rows => r * nb + b,
            RowOrder::Lanes => (b * LANES + r % LANES) * (rows / LANES) + r / LANES,
        }
    }

    /// The device shape of a plane of `rows` x `nb` fields of `inner` elements each.
    fn shape(self, rows: usize, nb: usize, inner: &[usize]) -> Vec<usize> {
        let outer = match self {
            RowOrder::Rows => vec![rows, nb],
            RowOrder::Lanes => vec![nb, LANES, rows / LANES],
        };
        outer.into_iter().chain(inner.iter().copied()).collect()
    }

    /// Plane `p` (stored in this order) viewed as `[rows, nb, ...]`, what the decoder reads.
    fn view(self, p: &Lazy, rows: usize, nb: usize) -> tg_runtime::Result<Lazy> {
        match self {
            RowOrder::Rows => Ok(p.clone()),
            RowOrder::Lanes => {
                let inner = &p.shape()[3..];
                let perm: Vec<usize> = [2, 1, 0].into_iter().chain(3..3 + inner.len()).collect();
                let to: Vec<usize> = [rows, nb].iter().chain(inner).copied().collect();
                p.permute(&perm)?.reshape(&to)
            }
        }
    }

    /// `fields` (one `len`-byte field of each block, row by row) in this order.
    fn arrange(self, fields: Vec<u8>, len: usize, rows: usize, nb: usize) -> Vec<u8> {
        if self == RowOrder::Rows {
            return fields;
        }
        let mut out = vec![0u8; fields.len()];
        for (i, field) in fields.chunks_exact(len).enumerate() {
            let at = self.position(i / nb, i % nb, rows, nb) * len;
            out[at..at + len].copy_from_slice(field);
        }
        out
    }
}

/// One field of every block gathered into a tensor of its own, its rows in `order`.
fn plane(
    bytes: &[u8],
    f: Field,
    size: usize,
    rows: usize,
    nb: usize,
    order: RowOrder,
) -> tg_runtime::Result<Lazy> {
    let (o, len) = (f.offset(), f.bytes());
    let mut out = Vec::with_capacity(rows * nb * len);
    for block in bytes.chunks_exact(size) {
        out.extend_from_slice(&block[o..o + len]);
    }
    let out = order.arrange(out, len, rows, nb);
    match f {
        Field::Half(_) => Lazy::from_bytes(DType::U16, &order.shape(rows, nb, &[]), out),
        Field::Words(_, n) => Lazy::from_bytes(DType::U32, &order.shape(rows, nb, &[n]), out),
    }
}

/// The low 4 bits of every element in element order: element `e` of a block is nibble
/// `e % 8` of its word `e / 8` (see [`Layout::Planes`]).
fn nibble_plane(
    bytes: &[u8],
    ty: crate::GgmlType,
    rows: usize,
    nb: usize,
    order: RowOrder,
) -> tg_runtime::Result<Lazy> {
    let (per, size) = ty.block();
    let mut out = Vec::with_capacity(rows * nb * per / 2);
    for block in bytes.chunks_exact(size) {
        for w in 0..per / 8 {
            let mut word = 0u32;
            for i in 0..8 {
                word |= u32::from(low_nibble(ty, block, 8 * w + i)) << (4 * i);
            }
            out.extend(word.to_le_bytes());
        }
    }
    let out = order.arrange(out, per / 2, rows, nb);
    Lazy::from_bytes(DType::U32, &order.shape(rows, nb, &[per / 8]), out)
}
