#!/usr/bin/env bash
# Sets up what is missing, then runs tg's main demo on the default Vulkan device.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo run --release -p train_digits
