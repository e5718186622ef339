//! The UCI handwritten digits (1,797 images of 8x8 pixels, labels 0..9), embedded in the
//! crate for the training demo and tests: tg-nn/data/digits.bin, made by
//! scripts/export_digits.py from scikit-learn's copy; source and licence (CC BY 4.0) in
//! tg-nn/data/DIGITS_LICENSE.md.

use tg_runtime::{Error, Result};

use super::host::HostArray;
use super::rng::{SplitMix64, permutation};

/// The file, as scripts/export_digits.py writes it (layout in its docstring).
static FILE: &[u8] = include_bytes!("../../data/digits.bin");

const MAGIC: &[u8; 8] = b"TGDIGITS";
const HEADER_LEN: usize = 24;

/// Samples in the training part of [`Digits::train_test_split`]; the other 360 are the test
/// part (an 80/20 split).
pub const TRAIN_LEN: usize = 1437;

/// The seed of the split's shuffle; fixed, so every run trains and tests on the same images.
pub const SPLIT_SEED: u64 = 0x005E_EDD1_6175;

/// Images and labels of handwritten digits.
#[derive(Clone, Debug)]
pub struct Digits {
    /// `len * 64` pixels in `[0, 1]` (the file's 0..16 divided by 16), image after image, each
    /// row-major.
    images: Vec<f32>,
    labels: Vec<i32>,
}

/// The 1,797 digits in the order scikit-learn gives them.
///
/// ```
/// let d = tg_nn::data::digits().unwrap();
/// assert_eq!(d.len(), 1797);
/// assert_eq!(d.labels()[..3], [0, 1, 2]);
/// ```
pub fn digits() -> Result<Digits> {
    parse(FILE).map_err(|message| Error::internal("tg-nn data/digits.bin", message))
}

/// FNV-1a, 32 bits: the file's check of its payload.
fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Reads the file's bytes, checking every field, the size and the hash.
fn parse(bytes: &[u8]) -> std::result::Result<Digits, String> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err("not a digits file (no TGDIGITS header)".into());
    }
    let (version, n) = (u32_at(bytes, 8), u32_at(bytes, 12) as usize);
    let (rows, cols, max, classes) = (bytes[16], bytes[17], bytes[18], bytes[19]);
    if version != 1 || (rows, cols, max, classes) != (8, 8, 16, 10) {
        return Err(format!(
            "unexpected header: version {version}, {rows}x{cols} pixels up to {max}, {classes} classes"
        ));
    }
    let payload = &bytes[HEADER_LEN..];
    let pixels = n * Digits::PIXELS;
    if payload.len() != pixels + n {
        return Err(format!(
            "{} bytes after the header, {} expected for {n} samples",
            payload.len(),
            pixels + n
        ));
    }
    if fnv1a32(payload) != u32_at(bytes, 20) {
        return Err("the payload's hash does not match the header's".into());
    }
    let (pixel_bytes, label_bytes) = payload.split_at(pixels);
    if let Some(p) = pixel_bytes.iter().find(|&&p| p > max) {
        return Err(format!("a pixel value {p} above {max}"));
    }
    if let Some(l) = label_bytes.iter().find(|&&l| l >= classes) {
        return Err(format!("a label {l} outside 0..{classes}"));
    }
    Ok(Digits {
        images: pixel_bytes
            .iter()
            .map(|&p| f32::from(p) / f32::from(max))
            .collect(),
        labels: label_bytes.iter().map(|&l| i32::from(l)).collect(),
    })
}

impl Digits {
    /// Pixel rows per image.
    pub const ROWS: usize = 8;
    /// Pixel columns per image.
    pub const COLS: usize = 8;
    /// Pixels per image.
    pub const PIXELS: usize = Digits::ROWS * Digits::COLS;
    /// The number of classes (digits 0..9).
    pub const CLASSES: usize = 10;

    /// The number of images.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// All pixels, in `[0, 1]`, image after image (each 8 rows of 8).
    pub fn images(&self) -> &[f32] {
        &self.images
    }

    /// Image `i`'s 64 pixels, row-major.
    pub fn image(&self, i: usize) -> &[f32] {
        &self.images[i * Digits::PIXELS..(i + 1) * Digits::PIXELS]
    }

    /// The labels, 0..9.
    pub fn labels(&self) -> &[i32] {
        &self.labels
    }

    /// The images as `[len, 1, 8, 8]` f32 samples (one channel, for convolutions).
    pub fn inputs(&self) -> Result<HostArray> {
        HostArray::new(&[self.len(), 1, Digits::ROWS, Digits::COLS], &self.images)
    }

    /// The labels as `[len]` i32 samples.
    pub fn targets(&self) -> Result<HostArray> {
        HostArray::new(&[self.len()], &self.labels)
    }

    /// The images at `indices`, in that order.
    pub fn select(&self, indices: &[usize]) -> Digits {
        Digits {
            images: indices
                .iter()
                .flat_map(|&i| self.image(i).iter().copied())
                .collect(),
            labels: indices.iter().map(|&i| self.labels[i]).collect(),
        }
    }

    /// A fixed split into training and test parts: the images shuffled by a permutation from
    /// [`SPLIT_SEED`], then the first [`TRAIN_LEN`] for training and the rest for testing.
    /// The same on every run and machine; for the full 1,797 images, 1,437 and 360.
    pub fn train_test_split(&self) -> (Digits, Digits) {
        let order = permutation(self.len(), &mut SplitMix64::new(SPLIT_SEED));
        let cut = TRAIN_LEN.min(self.len());
        (self.select(&order[..cut]), self.select(&order[cut..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with(edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        let mut bytes = FILE.to_vec();
        edit(&mut bytes);
        bytes
    }

    /// Rewrites the header's hash so that only the edited field is wrong.
    fn rehash(bytes: &mut [u8]) {
        let h = fnv1a32(&bytes[HEADER_LEN..]);
        bytes[20..24].copy_from_slice(&h.to_le_bytes());
    }

    #[test]
    fn the_embedded_file_parses() {
        assert_eq!(parse(FILE).unwrap().len(), 1797);
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"NOTDIGITS".to_vec(), "no TGDIGITS header"),
            (FILE[..100].to_vec(), "after the header"),
            (file_with(|b| b[30] ^= 1), "hash"),
            (file_with(|b| b[8] = 2), "version 2"),
            (
                file_with(|b| {
                    b[HEADER_LEN] = 17;
                    rehash(b);
                }),
                "pixel value 17",
            ),
            (
                file_with(|b| {
                    *b.last_mut().unwrap() = 10;
                    rehash(b);
                }),
                "label 10",
            ),
        ];
        for (bytes, want) in cases {
            let err = parse(&bytes).unwrap_err();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
    }
}
