//! GLSL functions that pin down what GLSL leaves undefined (NaN, division by zero, large
//! shifts, out-of-range casts, f16 rounding), so results are the same on every device, and
//! the reads of a texel buffer's words (`texel.rs`). A kernel includes only the ones it calls.

/// (name, source, helpers it calls, loop back-edges one call of its own code takes at
/// most). Emitted in this order. The loop counts feed [`Helpers::take_loops`]: a driver
/// with a loop budget (llvmpipe) counts every back-edge, these included.
const HELPERS: &[(&str, &str, &[&str], u64)] = &[
    // reads through a uniform texel buffer of 16-byte texels (`texel.rs`): word `i`, the
    // pair of words `j`, the four pairs `j` (two texels, as 64-bit words)
    (
        "tg_tx1",
        "uint tg_tx1(usamplerBuffer t, int i) { return texelFetch(t, i >> 2)[i & 3]; }",
        &[],
        0,
    ),
    (
        "tg_tx2",
        "uvec2 tg_tx2(usamplerBuffer t, int j) { uvec4 f = texelFetch(t, j >> 1); return (j & 1) == 0 ? f.xy : f.zw; }",
        &[],
        0,
    ),
    (
        "tg_tx8",
        "u64vec4 tg_tx8(usamplerBuffer t, int j) {
  uvec4 a = texelFetch(t, 2 * j);
  uvec4 b = texelFetch(t, 2 * j + 1);
  return u64vec4(packUint2x32(a.xy), packUint2x32(a.zw), packUint2x32(b.xy), packUint2x32(b.zw));
}",
        &[],
        0,
    ),
    (
        "tg_nan",
        "float tg_nan() { return uintBitsToFloat(0x7fc00000u); }",
        &[],
        0,
    ),
    (
        "tg_inf",
        "float tg_inf() { return uintBitsToFloat(0x7f800000u); }",
        &[],
        0,
    ),
    (
        "tg_fdiv",
        "int tg_fdiv(int a, int d) { return a >= 0 ? a / d : -((d - 1 - a) / d); }",
        &[],
        0,
    ),
    (
        "tg_fmod",
        "int tg_fmod(int a, int d) { return a - tg_fdiv(a, d) * d; }",
        &["tg_fdiv"],
        0,
    ),
    (
        "tg_f2h",
        // f32 -> f16 bits, round to nearest even, with subnormals, infinities and NaN
        "uint tg_f2h(float f) {
  uint x = floatBitsToUint(f);
  uint s = (x >> 16) & 0x8000u;
  uint a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) return s | (a > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (a >= 0x477ff000u) return s | 0x7c00u;
  if (a < 0x38800000u) return s | uint(roundEven(uintBitsToFloat(a) * 16777216.0));
  uint h = (((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3ffu);
  uint rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u) != 0u)) h += 1u;
  return s | h;
}",
        &[],
        0,
    ),
    (
        "tg_h2f",
        // selects, not branches: every lane computes each case (a subnormal as `m * 2^-24`,
        // exact; infinities and NaN keep their payload), which a CPU driver runs and LLVM
        // compiles faster than masked branches (a prefill tile decoding 16 scales a step:
        // 4-5% less compile time, 2% less run time)
        "float tg_h2f(uint h) {
  uint s = (h & 0x8000u) << 16;
  uint e = (h >> 10) & 0x1fu;
  uint m = h & 0x3ffu;
  uint sub = floatBitsToUint(float(m) * 5.9604644775390625e-8);
  uint big = e == 31u ? (0x7f800000u | (m << 13)) : (((e + 112u) << 23) | (m << 13));
  return uintBitsToFloat(s | (e == 0u ? sub : big));
}",
        &[],
        0,
    ),
    (
        "tg_rh",
        "float tg_rh(float f) { return tg_h2f(tg_f2h(f)); }",
        &["tg_f2h", "tg_h2f"],
        0,
    ),
    (
        "tg_d2h",
        // f64 -> f16 bits without double rounding: nudge a tie produced by the f32 step
        "uint tg_d2h(double d) {
  float f = float(d);
  uint b = floatBitsToUint(f);
  if ((b & 0x1fffu) == 0x1000u && double(f) != d && !isinf(f)) {
    b = (double(f) < d) == (f > 0.0) ? b + 1u : b - 1u;
    f = uintBitsToFloat(b);
  }
  return tg_f2h(f);
}",
        &["tg_f2h"],
        0,
    ),
    // the maximum with NaN propagating: `a > b ? a : b` is b where either is NaN (so b's
    // NaN) and is one instruction on x86 (llvmpipe's maxps), so only a's NaN takes a test
    // of its own (softmax (4096, 1024)'s kernel on lavapipe, in turn: 5.80-6.18 ms ->
    // 5.57-6.00 with `isnan(a) || isnan(b) ? a + b : max(a, b)`)
    (
        "tg_max_f",
        "float tg_max_f(float a, float b) { return isnan(a) ? a : (a > b ? a : b); }",
        &[],
        0,
    ),
    (
        "tg_max_d",
        "double tg_max_d(double a, double b) { return isnan(a) ? a : (a > b ? a : b); }",
        &[],
        0,
    ),
    (
        "tg_log2_f",
        "float tg_log2_f(float x) {
  if (isnan(x) || x == tg_inf()) return x;
  if (x == 0.0) return -tg_inf();
  return x < 0.0 ? tg_nan() : log2(x);
}",
        &["tg_inf", "tg_nan"],
        0,
    ),
    (
        "tg_exp2_f",
        "float tg_exp2_f(float x) {
  if (isnan(x)) return x;
  if (x >= 128.0) return tg_inf();
  if (x < -150.0) return 0.0;
  return exp2(x);
}",
        &["tg_inf"],
        0,
    ),
    (
        "tg_sqrt_f",
        "float tg_sqrt_f(float x) { return x < 0.0 ? tg_nan() : sqrt(x); }",
        &["tg_nan"],
        0,
    ),
    (
        "tg_sqrt_d",
        "double tg_sqrt_d(double x) { return x < 0.0lf ? double(tg_nan()) : sqrt(x); }",
        &["tg_nan"],
        0,
    ),
    (
        "tg_sin_f",
        "float tg_sin_f(float x) { return isinf(x) ? tg_nan() : sin(x); }",
        &["tg_nan", "tg_inf"],
        0,
    ),
    (
        "tg_pow_f",
        // C pow: special cases first, integral exponents up to 64 by squaring (exact for
        // small integers), the rest through exp2/log2 with the sign of odd integral powers
        "float tg_pow_f(float a, float b) {
  if (b == 0.0 || a == 1.0) return 1.0;
  if (isnan(a) || isnan(b)) return tg_nan();
  bool bint = trunc(b) == b;
  bool bodd = bint && abs(b) < 16777216.0 && (int(mod(abs(b), 2.0)) == 1);
  if (isinf(b)) {
    float m = abs(a);
    if (m == 1.0) return 1.0;
    return (m < 1.0) == (b > 0.0) ? 0.0 : tg_inf();
  }
  if (a == 0.0) return b > 0.0 ? (bodd ? a : 0.0) : (bodd ? (1.0 / a) : tg_inf());
  if (isinf(a)) {
    float r = b > 0.0 ? tg_inf() : 0.0;
    return (a < 0.0 && bodd) ? -r : r;
  }
  if (a < 0.0 && !bint) return tg_nan();
  float r;
  if (bint && abs(b) <= 64.0) {
    uint e = uint(abs(b));
    float base = abs(a);
    r = 1.0;
    while (e > 0u) { if ((e & 1u) != 0u) r *= base; base *= base; e >>= 1; }
    if (b < 0.0) r = 1.0 / r;
  } else {
    r = exp2(b * log2(abs(a)));
  }
  return (a < 0.0 && bodd) ? -r : r;
}",
        &["tg_nan", "tg_inf"],
        8,
    ),
    (
        "tg_exp2_d",
        // 2^x = 2^n * e^(f ln 2), |f| <= 1/2, Taylor to f^13: error below 1 ulp
        "double tg_exp2_d(double x) {
  if (isnan(x)) return x;
  if (x >= 1024.0lf) return double(tg_inf());
  if (x < -1075.0lf) return 0.0lf;
  double n = roundEven(x);
  double t = (x - n) * 0.6931471805599453094lf;
  double p = 1.0lf;
  for (int k = 13; k >= 1; k--) p = 1.0lf + p * t / double(k);
  int e = int(n);
  return ldexp(ldexp(p, e / 2), e - e / 2);
}",
        &["tg_inf"],
        14,
    ),
    (
        "tg_log2_d",
        // x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172
        "double tg_log2_d(double x) {
  if (isnan(x) || x == double(tg_inf())) return x;
  if (x == 0.0lf) return -double(tg_inf());
  if (x < 0.0lf) return double(tg_nan());
  int e;
  double m = frexp(x, e);
  if (m < 0.70710678118654752440lf) { m *= 2.0lf; e -= 1; }
  double s = (m - 1.0lf) / (m + 1.0lf);
  double s2 = s * s;
  double p = 0.0lf;
  for (int k = 23; k >= 3; k -= 2) p = (p + 1.0lf / double(k)) * s2;
  double ln = 2.0lf * s * (1.0lf + p);
  return double(e) + ln * 1.4426950408889634074lf;
}",
        &["tg_inf", "tg_nan"],
        12,
    ),
    (
        "tg_sin_d",
        // reduce by pi/2 in fdlibm's three parts (33 + 33 + 53 bits, so k * part is exact for
        // |k| < 2^20), then sin or cos polynomials on |r| <= pi/4
        "double tg_sin_d(double x) {
  if (isnan(x) || isinf(x)) return double(tg_nan());
  double k = roundEven(x * 0.63661977236758134308lf);
  double r = x - k * 1.5707963267341256458lf;
  r -= k * 6.07710050630396597660e-11lf;
  r -= k * 2.0222662487959506e-21lf;
  double r2 = r * r;
  double sinr = 1.0lf;
  for (int i = 19; i >= 3; i -= 2) sinr = 1.0lf - sinr * r2 / double(i * (i - 1));
  sinr *= r;
  double cosr = 1.0lf;
  for (int i = 20; i >= 2; i -= 2) cosr = 1.0lf - cosr * r2 / double(i * (i - 1));
  int q = int(k - 4.0lf * floor(k * 0.25lf));
  return q == 0 ? sinr : q == 1 ? cosr : q == 2 ? -sinr : -cosr;
}",
        &["tg_nan", "tg_inf"],
        21,
    ),
    (
        "tg_pow_d",
        "double tg_pow_d(double a, double b) {
  if (b == 0.0lf || a == 1.0lf) return 1.0lf;
  if (isnan(a) || isnan(b)) return double(tg_nan());
  bool bint = trunc(b) == b;
  bool bodd = bint && abs(b) < 9007199254740992.0lf && mod(abs(b), 2.0lf) == 1.0lf;
  if (isinf(b)) {
    double m = abs(a);
    if (m == 1.0lf) return 1.0lf;
    return (m < 1.0lf) == (b > 0.0lf) ? 0.0lf : double(tg_inf());
  }
  if (a == 0.0lf) return b > 0.0lf ? (bodd ? a : 0.0lf) : (bodd ? (1.0lf / a) : double(tg_inf()));
  if (isinf(a)) {
    double r = b > 0.0lf ? double(tg_inf()) : 0.0lf;
    return (a < 0.0lf && bodd) ? -r : r;
  }
  if (a < 0.0lf && !bint) return double(tg_nan());
  double r;
  if (bint && abs(b) <= 64.0lf) {
    uint e = uint(abs(b));
    double base = abs(a);
    r = 1.0lf;
    while (e > 0u) { if ((e & 1u) != 0u) r *= base; base *= base; e >>= 1; }
    if (b < 0.0lf) r = 1.0lf / r;
  } else {
    r = tg_exp2_d(b * tg_log2_d(abs(a)));
  }
  return (a < 0.0lf && bodd) ? -r : r;
}",
        &["tg_nan", "tg_inf", "tg_exp2_d", "tg_log2_d"],
        8,
    ),
];

/// Integer helpers exist once per register type; `T` is replaced by the type, `W` by its
/// width in bits and `Z`/`O` by its zero/one literal.
const INT_HELPERS: &[(&str, &str)] = &[
    (
        "idiv",
        "T tg_idiv_T(T a, T b) { return b == Z ? Z : (SIGNED && b == -O) ? -a : a / b; }",
    ),
    (
        "imod",
        "T tg_imod_T(T a, T b) { return (b == Z || (SIGNED && b == -O)) ? Z : a - (a / b) * b; }",
    ),
    (
        "shl",
        "T tg_shl_T(T a, T b) { return (b < Z || b >= T(W)) ? Z : (a << b); }",
    ),
    (
        "shr",
        "T tg_shr_T(T a, T b) { return (b < Z || b >= T(W)) ? ((SIGNED && a < Z) ? -O : Z) : (a >> b); }",
    ),
    (
        "pow",
        "T tg_pow_T(T a, T b) {
  if (b < Z) return a == O ? O : ((SIGNED && a == -O) ? (((b & O) != Z) ? -O : O) : Z);
  T r = O;
  while (b > Z) { if ((b & O) != Z) r *= a; a *= a; b >>= O; }
  return r;
}",
    ),
];

/// The set of helpers a kernel uses.
#[derive(Default)]
pub struct Helpers {
    named: Vec<&'static str>,
    int: Vec<(&'static str, &'static str)>,
    /// Loop back-edges of the helper calls made since the last [`Helpers::take_loops`].
    loops: u64,
}

/// Back-edges one call of helper `name` takes at most, the helpers it calls included (each
/// is called at most once per call).
fn call_loops(name: &str) -> u64 {
    HELPERS
        .iter()
        .find(|h| h.0 == name)
        .map_or(0, |(_, _, deps, own)| {
            own + deps.iter().map(|d| call_loops(d)).sum::<u64>()
        })
}

impl Helpers {
    /// Marks helper `name` (and what it calls) as used and counts one call; returns `name`
    /// for inline use.
    pub fn use_fn(&mut self, name: &str) -> &'static str {
        let (name, _, deps, _) = HELPERS.iter().find(|h| h.0 == name).expect("known helper");
        self.loops += call_loops(name);
        if !self.named.contains(name) {
            for d in *deps {
                self.mark(d);
            }
            self.named.push(name);
        }
        name
    }

    /// Marks a helper (and what it calls) as used without counting a call.
    fn mark(&mut self, name: &'static str) {
        if self.named.contains(&name) {
            return;
        }
        if let Some((_, _, deps, _)) = HELPERS.iter().find(|h| h.0 == name) {
            for d in *deps {
                self.mark(d);
            }
        }
        self.named.push(name);
    }

    /// Marks integer helper `kind` for register type `ty` and counts one call; returns its
    /// call name.
    pub fn use_int(&mut self, kind: &'static str, ty: &'static str) -> String {
        if !self.int.contains(&(kind, ty)) {
            self.int.push((kind, ty));
        }
        if kind == "pow" {
            // squaring loop: one iteration per bit of the exponent, and the exit
            let bits = if ty.contains("64") { 64 } else { 32 };
            self.loops += bits + 1;
        }
        format!("tg_{kind}_{ty}")
    }

    /// Loop back-edges of the helper calls counted since the last call, and resets the count.
    pub fn take_loops(&mut self) -> u64 {
        std::mem::take(&mut self.loops)
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, src, _, _) in HELPERS {
            if self.named.contains(name) {
                out.push_str(src);
                out.push('\n');
            }
        }
        for (kind, ty) in &self.int {
            let (_, tmpl) = INT_HELPERS
                .iter()
                .find(|(k, _)| k == kind)
                .expect("known int helper");
            let (w, signed, suffix) = match *ty {
                "int" => ("32", "true", ""),
                "uint" => ("32", "false", "u"),
                "int64_t" => ("64", "true", "l"),
                _ => ("64", "false", "ul"),
            };
            let src = tmpl
                .replace("tg_idiv_T", &format!("tg_idiv_{ty}"))
                .replace("tg_imod_T", &format!("tg_imod_{ty}"))
                .replace("tg_shl_T", &format!("tg_shl_{ty}"))
                .replace("tg_shr_T", &format!("tg_shr_{ty}"))
                .replace("tg_pow_T", &format!("tg_pow_{ty}"))
                .replace("T(W)", &format!("{ty}({w})"))
                .replace("T ", &format!("{ty} "))
                .replace("T a", &format!("{ty} a"))
                .replace("SIGNED", signed)
                .replace("-O", &format!("-1{suffix}"))
                .replace('Z', &format!("0{suffix}"))
                .replace('O', &format!("1{suffix}"));
            out.push_str(&src);
            out.push('\n');
        }
        out
    }
}
