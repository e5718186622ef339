//! Helpers shared by the device tests: kernels, buffers of f32, temp folders, child processes.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use tg_runtime::compile::{compile_glsl, stable_hash};
use tg_runtime::device::{Binding, Buffer, Device, Dispatch, KernelLayout, Pipeline};
use tg_runtime::{BinaryOp, Lazy, ReduceOp, Result, UnaryOp};

/// c[i] = a[i] + b[i] for i < n.
pub const ADD: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) c[i] = a[i] + b[i];
}
"#;

/// y[i] = x[i] * k + d for i < n.
pub const AXPB: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; float k; float d; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = x[i] * k + d;
}
"#;

pub fn kernel(source: &str, bindings: u32, push_constant_bytes: u32) -> Result<Arc<Pipeline>> {
    let spirv = compile_glsl(source)?;
    Device::get()?.pipeline(
        stable_hash(source),
        &spirv,
        KernelLayout {
            bindings,
            texels: 0,
            push_constant_bytes,
        },
    )
}

pub fn upload(values: &[f32]) -> Result<Arc<Buffer>> {
    let device = Device::get()?;
    let buf = device.alloc(4 * values.len() as u64)?;
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    device.write(&buf, 0, &bytes)?;
    Ok(buf)
}

pub fn download(buf: &Buffer) -> Result<Vec<f32>> {
    let mut bytes = vec![0u8; buf.size() as usize];
    Device::get()?.read(buf, 0, &mut bytes)?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

pub fn bind(buffer: &Arc<Buffer>, writes: bool) -> Binding {
    Binding {
        buffer: Arc::clone(buffer),
        writes,
        by_address: false,
    }
}

pub fn groups(n: usize) -> [u32; 3] {
    [n.div_ceil(64) as u32, 1, 1]
}

/// A dispatch of AXPB: y = x * k + d.
pub fn axpb(
    p: &Arc<Pipeline>,
    x: &Arc<Buffer>,
    y: &Arc<Buffer>,
    n: usize,
    k: f32,
    d: f32,
) -> Dispatch {
    let mut push = (n as u32).to_le_bytes().to_vec();
    push.extend(k.to_le_bytes());
    push.extend(d.to_le_bytes());
    Dispatch {
        pipeline: Arc::clone(p),
        bindings: vec![bind(x, false), bind(y, true)],
        push_constants: push,
        groups: groups(n),
    }
}

/// A fresh, empty folder under the system temp folder, private to this user (mode 0700 on
/// Unix, whatever the umask), so tg accepts it as a cache folder.
pub fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("tg-test-{tag}-{}-{nanos}", std::process::id()));
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&dir).expect("temp dir");
    dir
}

/// Runs one `#[ignore]`d test of this test binary in a child process with `env` set, and
/// returns its stdout. The device is a per-process singleton, so settings that apply at its
/// creation (TG_STAGING, TG_VALIDATION, TG_CACHE_DIR) need a process of their own.
pub fn run_child(test: &str, env: &[(&str, &str)]) -> String {
    run_child_output(test, env).0
}

/// The full name (`module::test`) of the one test of this binary named `test`.
fn test_path(test: &str) -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let out = Command::new(exe)
        .args(["--list", "--ignored"])
        .output()
        .expect("list the tests");
    let list = String::from_utf8_lossy(&out.stdout);
    let found: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_suffix(": test"))
        .filter(|name| *name == test || name.ends_with(&format!("::{test}")))
        .collect();
    match found[..] {
        [one] => one.to_string(),
        _ => panic!("{} tests named {test}: {found:?}", found.len()),
    }
}

/// [`run_child`], returning the child's stdout and stderr.
pub fn run_child_output(test: &str, env: &[(&str, &str)]) -> (String, String) {
    let exe = std::env::current_exe().expect("test binary path");
    let out = Command::new(exe)
        .args([
            test_path(test).as_str(),
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .envs(env.iter().copied())
        .output()
        .expect("spawn child test");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "child {test} failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("1 passed"),
        "child {test} did not run:\n{stdout}"
    );
    (stdout, stderr)
}

/// `KEY=value` printed by a child.
pub fn child_value(stdout: &str, key: &str) -> String {
    let prefix = format!("{key}=");
    stdout
        .split_whitespace()
        .find_map(|w| w.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("child printed no {key}:\n{stdout}"))
        .trim()
        .to_string()
}

/// Each element of a `[rows, cols]` tensor divided by its row's sum (the sum broadcast back
/// over the row): a row kernel whose rows each sum to 1.
pub fn row_shares(x: &Lazy) -> Lazy {
    let total = x.reduce(ReduceOp::Add, &[1]).unwrap();
    let shape = x.shape().to_vec();
    x.binary(
        BinaryOp::Mul,
        &total.unary(UnaryOp::Recip).unwrap().expand(&shape).unwrap(),
    )
    .unwrap()
}
