#!/usr/bin/env bash
# Sets up what is missing, then runs every test of the workspace (unit, integration, doc and
# trybuild) on Vulkan with the Khronos validation layer on: a validation message fails the test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
export TG_VALIDATION=1
cargo test --workspace --no-fail-fast
# the scheduler and codegen need no device: prove it with no Vulkan driver to be found
VK_ICD_FILENAMES=/nonexistent TG_VALIDATION=0 cargo test -p tg-runtime --test device_free
