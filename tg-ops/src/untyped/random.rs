//! Random tensors from a counter-based generator, computed on the device as tinygrad's
//! `Tensor.rand` computes them: threefry2x32 over a counter, so a value depends only on the
//! key and its position, and no state lives on the device.
//!
//! # The stream
//!
//! This is tinygrad's stream, so a seed gives the values tinygrad gives on one device:
//!
//! - The key is `(k0, k1) = (KEY0, seed)`, where [`KEY0`] is the low 32 bits of
//!   `sha256(0u32.to_be_bytes())` read as a big-endian integer (tinygrad's key of the first
//!   device).
//! - A generator holds a 64-bit counter `c`, 0 after seeding. A call that needs `num` 32-bit
//!   words takes `c` and advances it by `num`.
//! - The call's subkey is `(s0, s1) = threefry2x32((k0, k1), (c as u32, (c >> 32) as u32))`.
//! - With `h = ceil(num / 2)`, word `j < h` is `threefry2x32((s0, s1), (j, j + h)).0` and
//!   word `h + j` is its `.1`; the call uses words `0..num`.
//! - `rand` of a float type of `b` bytes takes `num = ceil(numel * b / 4)` words, reads them
//!   as little-endian `b`-byte integers (two f16 per word, low half first; one f64 from two
//!   words, the first the low half), keeps the top mantissa bits (`x >> (8b - mantissa
//!   bits)`), ORs in the bits of 1.0 and subtracts 1: uniform on `[0, 1)` in steps of
//!   `2^-mantissa`.
//! - `randn` draws `rand` of shape `[2, ...shape]` in f32 and applies Box-Muller:
//!   `cos(2 pi u0) * sqrt(-2 ln(1 - u1))`, then casts.
//!
//! Only the subkey (one threefry of the counter) is computed on the host; every element's
//! words are computed on the device from u32 primitives and fuse with what consumes them.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use super::DynTensor;
use tg_runtime::{BinaryOp, DType, Error, Lazy, Result, Scalar, UnaryOp};

/// The first key word: the low 32 bits of `sha256([0, 0, 0, 0])` (tinygrad's device-0 key).
pub const KEY0: u32 = 0x14b8_1119;

const ROTATIONS: [[u32; 4]; 2] = [[13, 15, 26, 6], [17, 29, 16, 24]];
const PARITY: u32 = 0x1BD1_1BDA;

/// threefry2x32 with 20 rounds on the host: the reference of the device computation, and how
/// subkeys are made. Returns the two output words (low, high).
///
/// ```
/// use tg_ops::untyped::random::threefry2x32;
/// // the Random123 known-answer test for threefry2x32_20 with a zero key and counter
/// assert_eq!(threefry2x32([0, 0], [0, 0]), [0x6b200159, 0x99ba4efe]);
/// ```
pub fn threefry2x32(key: [u32; 2], x: [u32; 2]) -> [u32; 2] {
    let ks = [key[1], key[0] ^ key[1] ^ PARITY, key[0]];
    let (mut a, mut b) = (x[0].wrapping_add(ks[2]), x[1].wrapping_add(ks[0]));
    for i in 0..5 {
        for r in ROTATIONS[i % 2] {
            a = a.wrapping_add(b);
            b = a ^ b.rotate_left(r);
        }
        a = a.wrapping_add(ks[i % 3]);
        b = b.wrapping_add(ks[(i + 1) % 3]).wrapping_add(i as u32 + 1);
    }
    [a, b]
}

/// A random stream: a seed and a counter. Calls on one generator never repeat values; the
/// same seed and sequence of calls give the same values, on any device.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_ops::untyped::random::Generator;
/// let mut g = Generator::new(42);
/// let a = g.rand(&[3], DType::F32).unwrap().to_vec::<f32>().unwrap();
/// let b = Generator::new(42).rand(&[3], DType::F32).unwrap().to_vec::<f32>().unwrap();
/// assert_eq!(a, b);
/// assert!(a.iter().all(|&x| (0.0..1.0).contains(&x)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generator {
    seed: u32,
    counter: u64,
}

impl Generator {
    /// A stream with `seed`, at counter 0.
    pub fn new(seed: u32) -> Generator {
        Generator { seed, counter: 0 }
    }

    /// A generator that has already used `counter` words: `Generator::new(seed)` after calls
    /// that took `counter` words in all.
    pub fn with_counter(seed: u32, counter: u64) -> Generator {
        Generator { seed, counter }
    }

    /// The stream's seed.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// Words used so far.
    pub fn counter(&self) -> u64 {
        self.counter
    }

    /// The next `num` random u32 words of the stream, as a rank-1 tensor.
    pub fn random_bits(&mut self, num: usize) -> Result<DynTensor> {
        let words = Words::take(self, "random_bits", num)?;
        Ok(DynTensor::wrap(words.at(&Lazy::arange_u32(num)?)?))
    }

    /// Uniform values on `[0, 1)` of a float `dtype`, from the bits of as many words as the
    /// values' bytes need (tinygrad's `Tensor.rand`). An empty shape uses no words.
    pub fn rand(&mut self, shape: &[usize], dtype: DType) -> Result<DynTensor> {
        Ok(DynTensor::wrap(
            self.rand_values(shape, dtype)?.contiguous(),
        ))
    }

    /// [`Generator::rand`]'s values as an expression, not stored: what consumes them (a
    /// fused attention's kept bits) computes each where it reads it.
    pub(crate) fn rand_values(&mut self, shape: &[usize], dtype: DType) -> Result<Lazy> {
        if !dtype.is_float() {
            return Err(Error::DType {
                op: "rand",
                dtype,
                message: "rand makes floats; use randint for integers".into(),
            });
        }
        let numel: usize = shape.iter().product();
        if numel == 0 {
            return Lazy::constant(0.0, dtype, shape);
        }
        if numel as u64 >= u32::MAX as u64 {
            return Err(Error::Argument {
                op: "rand",
                message: format!(
                    "shape {shape:?} has {numel} elements; one call makes fewer than 2^32 - 1"
                ),
            });
        }
        let num = (numel * dtype.size()).div_ceil(4);
        let words = Words::take(self, "rand", num)?;
        let e = Lazy::arange_u32(numel)?;
        let k = |v: u64| e.constant_like(v, DType::U32);
        let flat = match dtype {
            DType::F32 => {
                let m = words.at(&e)?.binary(BinaryOp::Shr, &k(9))?;
                m.binary(BinaryOp::Or, &k(0x3f80_0000))?
                    .bitcast(DType::F32)?
            }
            DType::F16 => {
                // two halves per word, the low half first
                let w = words.at(&e.binary(BinaryOp::Shr, &k(1))?)?;
                let shift = e
                    .binary(BinaryOp::And, &k(1))?
                    .binary(BinaryOp::Shl, &k(4))?;
                let half = w
                    .binary(BinaryOp::Shr, &shift)?
                    .binary(BinaryOp::And, &k(0xffff))?;
                let m = half
                    .binary(BinaryOp::Shr, &k(6))?
                    .binary(BinaryOp::Or, &k(0x3c00))?;
                m.cast(DType::U16).bitcast(DType::F16)?
            }
            _ => {
                // one value from two words, the first the low half; shift the 64-bit value
                // right by 12 in two u32 halves, then join them
                let e2 = e.binary(BinaryOp::Shl, &k(1))?;
                let lo = words.at(&e2)?;
                let hi = words.at(&e2.binary(BinaryOp::Add, &k(1))?)?;
                let new_hi = hi
                    .binary(BinaryOp::Shr, &k(12))?
                    .binary(BinaryOp::Or, &k(0x3ff0_0000))?;
                let new_lo = lo
                    .binary(BinaryOp::Shr, &k(12))?
                    .binary(BinaryOp::Or, &hi.binary(BinaryOp::Shl, &k(20))?)?;
                let k64 = Lazy::constant(32u64, DType::U64, &[numel])?;
                let joined = new_hi
                    .cast(DType::U64)
                    .binary(BinaryOp::Shl, &k64)?
                    .binary(BinaryOp::Or, &new_lo.cast(DType::U64))?;
                joined.bitcast(DType::F64)?
            }
        };
        let one = Lazy::constant(-1.0, dtype, &[numel])?;
        flat.binary(BinaryOp::Add, &one)?.reshape(shape)
    }

    /// Standard normal values (mean 0, std 1): `rand` of shape `[2, ...shape]` in f32 through
    /// Box-Muller, `cos(2 pi u0) * sqrt(-2 ln(1 - u1))`, cast to the float `dtype`. (tinygrad
    /// also casts to integer dtypes; tg refuses them as a likely mistake.)
    pub fn randn(&mut self, shape: &[usize], dtype: DType) -> Result<DynTensor> {
        float_only("randn", dtype)?;
        let mut both = vec![2];
        both.extend_from_slice(shape);
        let src = self.rand(&both, DType::F32)?.into_lazy();
        let half = |i: usize| -> Result<Lazy> {
            let mut r: Vec<(usize, usize)> = both.iter().map(|&d| (0, d)).collect();
            r[0] = (i, i + 1);
            src.shrink(&r)?.reshape(shape)
        };
        let (u0, u1) = (half(0)?, half(1)?);
        let f = |v: f64| u0.constant_like(v, DType::F32);
        // cos(x) = sin(pi/2 - x), ln(x) = log2(x) * ln 2, as tinygrad composes them
        let angle = u0.binary(BinaryOp::Mul, &f(2.0 * std::f64::consts::PI))?;
        let cos = f(std::f64::consts::FRAC_PI_2)
            .binary(BinaryOp::Add, &angle.unary(UnaryOp::Neg)?)?
            .unary(UnaryOp::Sin)?;
        let one_minus = f(1.0).binary(BinaryOp::Add, &u1.unary(UnaryOp::Neg)?)?;
        let ln = one_minus
            .unary(UnaryOp::Log2)?
            .binary(BinaryOp::Mul, &f(std::f64::consts::LN_2))?;
        let radius = ln.binary(BinaryOp::Mul, &f(-2.0))?.unary(UnaryOp::Sqrt)?;
        Ok(DynTensor::wrap(
            cos.binary(BinaryOp::Mul, &radius)?.cast(dtype),
        ))
    }

    /// Uniform values on `[low, high)`: `((high - low) * rand_f32).cast(dtype) + low`, as
    /// tinygrad; integer dtypes truncate (that is `randint`). Needs `low < high`. As in
    /// tinygrad, rounding to a narrow dtype (f16) can give `high` itself.
    pub fn uniform(
        &mut self,
        shape: &[usize],
        low: f64,
        high: f64,
        dtype: DType,
    ) -> Result<DynTensor> {
        Self::check_range("uniform", low, high)?;
        self.scaled(shape, high - low, Scalar::Float(low), dtype, "uniform")
    }

    /// Uniform integers on `[low, high)` of an integer `dtype` (tinygrad's `randint`: uniform
    /// floats truncated, so the bias is that of f32's 23 random bits).
    pub fn randint(
        &mut self,
        shape: &[usize],
        low: i64,
        high: i64,
        dtype: DType,
    ) -> Result<DynTensor> {
        if !dtype.is_int() {
            return Err(Error::DType {
                op: "randint",
                dtype,
                message: "randint makes integers; use uniform for floats".into(),
            });
        }
        if low >= high {
            return Err(Error::Argument {
                op: "randint",
                message: format!("needs low < high, got low={low}, high={high}"),
            });
        }
        self.scaled(
            shape,
            (high as i128 - low as i128) as f64,
            Scalar::Int(low),
            dtype,
            "randint",
        )
    }

    /// Normal values of mean `mean` and standard deviation `std >= 0`: `std * randn + mean`.
    pub fn normal(
        &mut self,
        shape: &[usize],
        mean: f64,
        std: f64,
        dtype: DType,
    ) -> Result<DynTensor> {
        float_only("normal", dtype)?;
        if std.is_nan() || std < 0.0 {
            return Err(Error::Argument {
                op: "normal",
                message: format!("needs std >= 0, got std={std}"),
            });
        }
        let z = self.randn(shape, dtype)?.into_lazy();
        let out = z.binary(BinaryOp::Mul, &Lazy::constant(std, dtype, shape)?)?;
        Ok(DynTensor::wrap(out.binary(
            BinaryOp::Add,
            &Lazy::constant(mean, dtype, shape)?,
        )?))
    }

    /// Uniform on `[-b, b)` with `b = sqrt(6 / (1 + a^2) / fan_in)`, `fan_in` the product of the
    /// dims after the first (He et al.; tinygrad's and torch's `kaiming_uniform`).
    pub fn kaiming_uniform(&mut self, shape: &[usize], a: f64, dtype: DType) -> Result<DynTensor> {
        let bound = (6.0 / (1.0 + a * a) / fan_in(shape) as f64).sqrt();
        self.symmetric("kaiming_uniform", shape, bound, dtype)
    }

    /// Normal of std `sqrt(2 / (1 + a^2) / fan_in)` (tinygrad's `kaiming_normal`).
    pub fn kaiming_normal(&mut self, shape: &[usize], a: f64, dtype: DType) -> Result<DynTensor> {
        if shape.iter().product::<usize>() == 0 {
            float_only("kaiming_normal", dtype)?;
            return DynTensor::zeros(shape, dtype);
        }
        let std = (2.0 / (1.0 + a * a) / fan_in(shape) as f64).sqrt();
        self.normal(shape, 0.0, std, dtype)
    }

    /// Uniform on `[-b, b)` with `b = sqrt(6 / (shape[0] + fan_in))` (Glorot and Bengio).
    pub fn glorot_uniform(&mut self, shape: &[usize], dtype: DType) -> Result<DynTensor> {
        // fan-out is the first dimension
        tg_core::shape::movement::require_rank("glorot_uniform", shape, 1)?;
        let first = shape[0];
        let bound = (6.0 / (first + fan_in(shape)) as f64).sqrt();
        self.symmetric("glorot_uniform", shape, bound, dtype)
    }

    /// Uniform on `[-1, 1)` times `numel^-0.5` (tinygrad's `scaled_uniform`).
    pub fn scaled_uniform(&mut self, shape: &[usize], dtype: DType) -> Result<DynTensor> {
        float_only("scaled_uniform", dtype)?;
        let numel: usize = shape.iter().product();
        let u = self.uniform(shape, -1.0, 1.0, dtype)?.into_lazy();
        let scale = Lazy::constant((numel as f64).powf(-0.5), dtype, shape)?;
        Ok(DynTensor::wrap(u.binary(BinaryOp::Mul, &scale)?))
    }

    fn symmetric(
        &mut self,
        op: &'static str,
        shape: &[usize],
        bound: f64,
        dtype: DType,
    ) -> Result<DynTensor> {
        float_only(op, dtype)?;
        if shape.iter().product::<usize>() == 0 {
            return DynTensor::zeros(shape, dtype);
        }
        Self::check_range(op, -bound, bound)?;
        self.scaled(shape, 2.0 * bound, Scalar::Float(-bound), dtype, op)
    }

    fn check_range(op: &'static str, low: f64, high: f64) -> Result<()> {
        if low < high {
            return Ok(());
        }
        Err(Error::Argument {
            op,
            message: format!("needs low < high, got low={low}, high={high}"),
        })
    }

    /// `(width * rand_f32).cast(dtype) + low`.
    fn scaled(
        &mut self,
        shape: &[usize],
        width: f64,
        low: Scalar,
        dtype: DType,
        op: &'static str,
    ) -> Result<DynTensor> {
        if dtype.is_bool() {
            return Err(Error::DType {
                op,
                dtype,
                message: "needs a number type".into(),
            });
        }
        let r = self.rand(shape, DType::F32)?.into_lazy();
        let scaled = r
            .binary(BinaryOp::Mul, &Lazy::constant(width, DType::F32, shape)?)?
            .cast(dtype);
        Ok(DynTensor::wrap(scaled.binary(
            BinaryOp::Add,
            &Lazy::constant(low, dtype, shape)?,
        )?))
    }
}

fn float_only(op: &'static str, dtype: DType) -> Result<()> {
    if dtype.is_float() {
        return Ok(());
    }
    Err(Error::DType {
        op,
        dtype,
        message: "this op makes floats".into(),
    })
}

/// The product of the dims after the first (1 for rank 0 and 1).
fn fan_in(shape: &[usize]) -> usize {
    shape.iter().skip(1).product()
}

/// One call's share of the stream: the subkey schedule and the number of words.
struct Words {
    ks: [Lazy; 3],
    num: usize,
}

/// A draw from the process-wide stream while a `#[kernel]` recording watches: the vars that
/// hold its key schedule, and how many words it took. A replay takes as many words again and
/// rebinds the vars, so it draws fresh numbers.
#[derive(Clone, Debug)]
pub struct Draw {
    /// The vars of the key schedule's three words.
    pub vars: [u64; 3],
    /// Words the draw took from the stream.
    pub num: usize,
}

thread_local! {
    /// The draws from the process-wide stream while a recording watches (`Some`).
    static DRAWS: std::cell::RefCell<Option<Vec<Draw>>> = const { std::cell::RefCell::new(None) };
    /// The generator being drawn from is the process-wide one.
    static GLOBAL_DRAW: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Ids of the vars of key schedules, from the top quarter of the id space (kernel scalar
/// arguments take theirs below).
static DRAW_VARS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(3 << 62);

/// Starts noting the draws from the process-wide stream made on this thread.
pub fn watch_draws() {
    DRAWS.with(|d| *d.borrow_mut() = Some(Vec::new()));
}

/// Stops noting draws and returns those made since [`watch_draws`].
pub fn take_draws() -> Vec<Draw> {
    DRAWS.with(|d| d.borrow_mut().take()).unwrap_or_default()
}

/// The values the vars of `draws` take for a new call: each draw takes its words from the
/// process-wide stream again, in order.
pub fn redraw(draws: &[Draw]) -> Vec<(u64, Scalar)> {
    with_global(|g| {
        draws
            .iter()
            .flat_map(|d| {
                let ks = g.key_schedule(d.num);
                d.vars
                    .into_iter()
                    .zip(ks)
                    .map(|(id, v)| (id, Scalar::UInt(u64::from(v))))
            })
            .collect()
    })
}

impl Generator {
    /// The key schedule of the next `num` words, and the counter advanced past them: the
    /// subkey is one threefry of the counter, computed on the host.
    fn key_schedule(&mut self, num: usize) -> [u32; 3] {
        let c = self.counter;
        self.counter = c.wrapping_add(num as u64);
        let s = threefry2x32([KEY0, self.seed], [c as u32, (c >> 32) as u32]);
        [s[1], s[0] ^ s[1] ^ PARITY, s[0]]
    }
}

impl Words {
    fn take(g: &mut Generator, op: &'static str, num: usize) -> Result<Words> {
        if num as u64 >= u32::MAX as u64 {
            return Err(Error::Argument {
                op,
                message: format!(
                    "{num} random words asked for; one call makes fewer than 2^32 - 1"
                ),
            });
        }
        let ks = g.key_schedule(num);
        // the key schedule is push-constant data, so one kernel serves every seed and call;
        // while a recording watches the process-wide stream, it is made of vars a replay
        // rebinds
        let watched = GLOBAL_DRAW.with(|g| g.get()) && DRAWS.with(|d| d.borrow().is_some());
        let ks: [Lazy; 3] = if watched {
            let base = DRAW_VARS.fetch_add(3, std::sync::atomic::Ordering::Relaxed);
            let vars = [base, base + 1, base + 2];
            DRAWS.with(|d| {
                if let Some(log) = d.borrow_mut().as_mut() {
                    log.push(Draw { vars, num });
                }
            });
            [
                Lazy::var(vars[0], ks[0], DType::U32, &[1])?,
                Lazy::var(vars[1], ks[1], DType::U32, &[1])?,
                Lazy::var(vars[2], ks[2], DType::U32, &[1])?,
            ]
        } else {
            [
                Lazy::constant(ks[0], DType::U32, &[1])?,
                Lazy::constant(ks[1], DType::U32, &[1])?,
                Lazy::constant(ks[2], DType::U32, &[1])?,
            ]
        };
        Ok(Words { ks, num })
    }

    /// The words at the u32 positions `pos` (rank 1, each `< num`).
    fn at(&self, pos: &Lazy) -> Result<Lazy> {
        let n = pos.shape().to_vec();
        let k = |v: u64| pos.constant_like(v, DType::U32);
        let ks: Vec<Lazy> = self
            .ks
            .iter()
            .map(|k| k.expand(&n))
            .collect::<Result<_>>()?;
        let h = self.num.div_ceil(2) as u64;
        let j = pos.binary(BinaryOp::Mod, &k(h))?;
        let mut a = j.binary(BinaryOp::Add, &ks[2])?;
        let mut b = j
            .binary(BinaryOp::Add, &k(h))?
            .binary(BinaryOp::Add, &ks[0])?;
        for i in 0..5 {
            for r in ROTATIONS[i % 2] {
                a = a.binary(BinaryOp::Add, &b)?;
                let rot = b
                    .binary(BinaryOp::Shl, &k(r as u64))?
                    .binary(BinaryOp::Or, &b.binary(BinaryOp::Shr, &k(32 - r as u64))?)?;
                b = a.binary(BinaryOp::Xor, &rot)?;
            }
            a = a.binary(BinaryOp::Add, &ks[i % 3])?;
            b = b
                .binary(BinaryOp::Add, &ks[(i + 1) % 3])?
                .binary(BinaryOp::Add, &k(i as u64 + 1))?;
        }
        pos.binary(BinaryOp::CmpLt, &k(h))?.where_(&a, &b)
    }
}

/// The process-wide generator; seeded from the clock until `manual_seed` is called.
static GLOBAL: Mutex<Option<Generator>> = Mutex::new(None);

/// Runs `f` on the process-wide generator (thread-safe; calls from several threads interleave
/// in lock order).
pub fn with_global<R>(f: impl FnOnce(&mut Generator) -> R) -> R {
    let mut guard = GLOBAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let g = guard.get_or_insert_with(|| {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Generator::new(secs as u32)
    });
    let was = GLOBAL_DRAW.with(|d| d.replace(true));
    let r = f(g);
    GLOBAL_DRAW.with(|d| d.set(was));
    r
}

/// Restarts the process-wide stream at `seed` with the counter at 0.
pub fn manual_seed(seed: u32) {
    let mut guard = GLOBAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *guard = Some(Generator::new(seed));
}

impl DynTensor {
    /// Restarts the process-wide random stream: the same seed gives the same values.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// DynTensor::manual_seed(7);
    /// let a = DynTensor::rand(&[2], DType::F32).unwrap().to_vec::<f32>().unwrap();
    /// DynTensor::manual_seed(7);
    /// let b = DynTensor::rand(&[2], DType::F32).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(a, b);
    /// ```
    pub fn manual_seed(seed: u32) {
        manual_seed(seed)
    }

    /// Uniform on `[0, 1)` from the process-wide stream (see [`Generator::rand`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::rand(&[2, 2], DType::F16).unwrap();
    /// assert!(t.to_vec::<f32>().unwrap().iter().all(|&x| (0.0..1.0).contains(&x)));
    /// ```
    pub fn rand(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.rand(shape, dtype))
    }

    /// [`DynTensor::rand`]'s values from the process-wide stream, not stored
    /// ([`Generator::rand_values`]).
    pub(crate) fn rand_values(shape: &[usize], dtype: DType) -> Result<Lazy> {
        with_global(|g| g.rand_values(shape, dtype))
    }

    /// Standard normal values (see [`Generator::randn`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::randn(&[3], DType::F32).unwrap();
    /// assert_eq!(t.shape(), &[3]);
    /// ```
    pub fn randn(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.randn(shape, dtype))
    }

    /// Integers on `[low, high)` (see [`Generator::randint`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::randint(&[4], -2, 3, DType::I8).unwrap();
    /// assert!(t.to_vec::<i8>().unwrap().iter().all(|&x| (-2..3).contains(&x)));
    /// ```
    pub fn randint(shape: &[usize], low: i64, high: i64, dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.randint(shape, low, high, dtype))
    }

    /// Uniform on `[low, high)` (see [`Generator::uniform`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::uniform(&[4], 2.0, 3.0, DType::F32).unwrap();
    /// assert!(t.to_vec::<f32>().unwrap().iter().all(|&x| (2.0..3.0).contains(&x)));
    /// ```
    pub fn uniform(shape: &[usize], low: f64, high: f64, dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.uniform(shape, low, high, dtype))
    }

    /// Normal values of mean `mean`, standard deviation `std` (see [`Generator::normal`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::normal(&[2], 10.0, 0.0, DType::F32).unwrap();
    /// assert_eq!(t.to_vec::<f32>().unwrap(), vec![10.0, 10.0]);
    /// ```
    pub fn normal(shape: &[usize], mean: f64, std: f64, dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.normal(shape, mean, std, dtype))
    }

    /// He initialisation (see [`Generator::kaiming_uniform`]); tinygrad's default `a` is 0.01.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let w = DynTensor::kaiming_uniform(&[4, 6], 0.01, DType::F32).unwrap();
    /// let b = (6.0f32 / 1.0001 / 6.0).sqrt();
    /// assert!(w.to_vec::<f32>().unwrap().iter().all(|&x| -b <= x && x < b));
    /// ```
    pub fn kaiming_uniform(shape: &[usize], a: f64, dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.kaiming_uniform(shape, a, dtype))
    }

    /// He normal initialisation (see [`Generator::kaiming_normal`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(DynTensor::kaiming_normal(&[2, 3], 0.01, DType::F32).unwrap().shape(), &[2, 3]);
    /// ```
    pub fn kaiming_normal(shape: &[usize], a: f64, dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.kaiming_normal(shape, a, dtype))
    }

    /// Glorot (Xavier) initialisation (see [`Generator::glorot_uniform`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let w = DynTensor::glorot_uniform(&[2, 4], DType::F32).unwrap();
    /// assert!(w.to_vec::<f32>().unwrap().iter().all(|&x| x.abs() <= 1.0));
    /// ```
    pub fn glorot_uniform(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.glorot_uniform(shape, dtype))
    }

    /// Uniform on `[-1, 1)` scaled by `numel^-0.5` (see [`Generator::scaled_uniform`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let w = DynTensor::scaled_uniform(&[4], DType::F32).unwrap();
    /// assert!(w.to_vec::<f32>().unwrap().iter().all(|&x| x.abs() <= 0.5));
    /// ```
    pub fn scaled_uniform(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        with_global(|g| g.scaled_uniform(shape, dtype))
    }

    /// Uniform on `[0, 1)` of this tensor's shape and (float) dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3], DType::F16).unwrap();
    /// let r = t.rand_like().unwrap();
    /// assert_eq!((r.shape(), r.dtype()), (&[2usize, 3][..], DType::F16));
    /// ```
    pub fn rand_like(&self) -> Result<DynTensor> {
        DynTensor::rand(self.shape(), self.dtype())
    }

    /// Standard normal values of this tensor's shape and (float) dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let r = DynTensor::ones(&[4], DType::F32).unwrap().randn_like().unwrap();
    /// assert_eq!(r.shape(), &[4]);
    /// ```
    pub fn randn_like(&self) -> Result<DynTensor> {
        DynTensor::randn(self.shape(), self.dtype())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threefry_known_answers() {
        // Random123 known-answer vectors for threefry2x32 with 20 rounds
        assert_eq!(threefry2x32([0, 0], [0, 0]), [0x6b200159, 0x99ba4efe]);
        assert_eq!(
            threefry2x32([u32::MAX, u32::MAX], [u32::MAX, u32::MAX]),
            [0x1cb996fc, 0xbb002be7]
        );
        assert_eq!(
            threefry2x32([0x13198a2e, 0x03707344], [0x243f6a88, 0x85a308d3]),
            [0xc4923a9c, 0x483df7a0]
        );
    }

    #[test]
    fn counter_advances_by_words() {
        let mut g = Generator::new(1);
        g.rand(&[3], DType::F16).unwrap();
        assert_eq!(g.counter(), 2);
        g.rand(&[0, 4], DType::F32).unwrap();
        assert_eq!(g.counter(), 2);
        g.randn(&[5], DType::F64).unwrap();
        assert_eq!(g.counter(), 12);
    }

    #[test]
    fn index_shapes() {
        for n in [1usize, 2, 3, 8, 1000] {
            assert_eq!(Lazy::arange_u32(n).unwrap().shape(), &[n]);
        }
    }
}
