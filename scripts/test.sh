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
# the scheduler and codegen need no device: prove it with no Vulkan driver to be found
VK_ICD_FILENAMES=/nonexistent TG_VALIDATION=0 cargo test -p tg-runtime --test device_free
