#!/usr/bin/env bash
# Sets up what is missing, then runs every test of the workspace (unit, integration, doc and
# trybuild) on Vulkan with the Khronos validation layer on: a validation message fails the test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
export TG_VALIDATION=1
cargo test --workspace --no-fail-fast
# an ash application that hands its own device and buffers to tg (README: "tg inside a Vulkan
# application"); it fails on a wrong value or any validation message
cargo run --example vulkan_app
# a GPU's kernels (tiles, a workgroup a row, one vector an invocation) executed on lavapipe:
# the op fixtures, the networks' gradients and the runtime's tests, planned as for a GPU
TG_DEVICE_CLASS=gpu cargo test -q --test ops --test nn
TG_DEVICE_CLASS=gpu cargo test -q -p tg-runtime --tests
# the scheduler and codegen need no device: prove it with no Vulkan driver to be found
VK_ICD_FILENAMES=/nonexistent TG_VALIDATION=0 cargo test -p tg-runtime --test device_free
# builds without shaderc (README: "Building without shaderc"): a SPIR-V bundle recorded from
# the smoke tests (tests/smoke), loaded by TG_BUNDLE with compiling refused, then embedded
# (include_bytes!) in a build with the compiler feature off; the facade without shaderc for
# the host and for Android; a crate outside the tree that depends on tg by path
bundle="$PWD/target/tg-test/smoke.tgb"
mkdir -p "$(dirname "$bundle")" && rm -f "$bundle"
cargo run -q -p tg-bundle -- record "$bundle" -- cargo test -q -p tg-smoke
TG_BUNDLE="$bundle" TG_BUNDLE_ONLY=1 cargo test -q -p tg-smoke
TG_SMOKE_BUNDLE="$bundle" cargo test -q -p tg-smoke --no-default-features
cargo build -q -p tg-tensor --no-default-features
# idempotent; says nothing unless it fails
if ! out=$(rustup target add aarch64-linux-android 2>&1); then echo "$out" >&2; exit 1; fi
cargo check -q --target aarch64-linux-android -p tg-tensor --no-default-features
bash scripts/dependent.sh
# the smoke tests cross-built for 64-bit ARM without shaderc, run under qemu on arm64 lavapipe
bash scripts/aarch64.sh
