#!/usr/bin/env bash
# A crate outside tg's tree that depends on tg by path, with no .cargo/config.toml of its own,
# builds and runs the README's first example ("A taste"): nothing but `tg = { path = ... }` is
# asked of a dependent (tg-runtime's build script links shaderc by itself).
# It uses tg's target folder, so the dependencies tg already built are reused.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
dir="$(mktemp -d "${TMPDIR:-/tmp}/tg-dependent.XXXXXX")"
trap 'rm -rf "$dir"' EXIT

# the toolchain tg pins (outside the repository rust-toolchain.toml is not seen)
RUSTUP_TOOLCHAIN="$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)"
export RUSTUP_TOOLCHAIN
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "tg-dependent"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
tg = { path = "$repo", package = "tg-tensor" }

# tg's own setting for dependencies, so tg's target folder serves this build too
[profile.dev.package."*"]
opt-level = 1
TOML
cat > "$dir/src/main.rs" <<'RS'
use tg::prelude::*;

fn main() -> tg::Result<()> {
    // README, "A taste"
    let a = Tensor::<Rank2<2, 3>>::from_slice(&[1., 2., 3., 4., 5., 6.])?;
    let n: Vec<f32> = a.to_vec()?; // realizes: one kernel, on the default device
    assert_eq!(n, [1., 2., 3., 4., 5., 6.]);
    println!("dependent: {n:?}");
    Ok(())
}
RS
(cd "$dir" && cargo run -q)
