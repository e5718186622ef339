//! numpy's `.npy` format for float32 arrays: the `logits` command writes it, tests read it.

use crate::{Error, Result};

/// The bytes of a little-endian float32 `.npy` file of `shape` holding `data`.
pub fn to_npy(shape: &[usize], data: &[f32]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let dims = if dims.len() == 1 {
        format!("{},", dims[0])
    } else {
        dims.join(", ")
    };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({dims}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    for v in data {
        out.extend(v.to_le_bytes());
    }
    out
}

/// The shape and values of a little-endian float32 `.npy` file (version 1 or 2, C order).
pub fn from_npy(bytes: &[u8]) -> Result<(Vec<usize>, Vec<f32>)> {
    let bad = |m: &str| Error::Argument {
        op: "from_npy",
        message: m.into(),
    };
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("not an .npy file"));
    }
    let (len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        _ if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad("truncated header")),
    };
    let header = std::str::from_utf8(
        bytes
            .get(start..start + len)
            .ok_or_else(|| bad("truncated header"))?,
    )
    .map_err(|_| bad("header is not text"))?;
    if !header.contains("'<f4'") || header.contains("'fortran_order': True") {
        return Err(bad("only C-order little-endian float32 is read"));
    }
    let open = header.find("'shape': (").ok_or_else(|| bad("no shape"))? + 10;
    let close = open + header[open..].find(')').ok_or_else(|| bad("no shape"))?;
    let shape = header[open..close]
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| bad("bad shape")))
        .collect::<Result<Vec<_>>>()?;
    let body = &bytes[start + len..];
    let n: usize = shape.iter().product();
    if body.len() != 4 * n {
        return Err(bad("the data does not match the shape"));
    }
    Ok((
        shape,
        body.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    ))
}
