#!/usr/bin/env bash
# tg on ARM without shaderc: records a SPIR-V bundle of the smoke tests (tests/smoke, crate
# tg-smoke: the README's first examples, a tensor! expression, the README's #[kernel] recorded
# and replayed) here with the compiler, cross-builds those tests for aarch64-unknown-linux-gnu
# with the `compiler` feature off and the bundle embedded (include_bytes!, TG_SMOKE_BUNDLE),
# and runs them under qemu-aarch64-static on Debian's arm64 lavapipe.
# scripts/test.sh runs it last (a few minutes from cold: the arm64 packages, the cross build).
# The validation layer is off on the ARM side (its arm64 package is not installed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
          mesa-vulkan-drivers:arm64 libvulkan1:arm64)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "aarch64: installing ${missing[*]}"
  dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# idempotent; says nothing unless it fails
if ! out=$(rustup target add aarch64-unknown-linux-gnu 2>&1); then echo "$out" >&2; exit 1; fi

# 1. the bundle, recorded on this machine with the compiler (and the validation layer)
bundle="$PWD/target/aarch64/smoke.tgb"
mkdir -p "$(dirname "$bundle")"
rm -f "$bundle"
TG_VALIDATION=1 cargo run -q -p tg-bundle -- record "$bundle" -- cargo test -q -p tg-smoke >/dev/null
cargo run -q -p tg-bundle -- list "$bundle"

# 2. the smoke tests for aarch64, no shaderc, the bundle embedded; run under qemu
icd=/usr/share/vulkan/icd.d/lvp_icd.aarch64.json
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=qemu-aarch64-static
TG_SMOKE_BUNDLE="$bundle" VK_ICD_FILENAMES="$icd" TG_VALIDATION=0 TG_CACHE_DIR=off \
  cargo test -p tg-smoke --no-default-features --target aarch64-unknown-linux-gnu \
  -- --nocapture 2>&1 | grep -Ev '^\s*(Compiling|Running|Doc-tests|Finished)|^$|running 0 tests|0 passed; 0 failed'
