#!/usr/bin/env bash
# Long runs: repeats tg's long tests (TG_LONG_TESTS=1: sizes past every device limit, deep
# graphs) and the soak test (random reduction sizes from several threads, exact results,
# device memory back where it started) until MINUTES (default 60) have passed, on the
# default Vulkan device with the validation layer on. Any failure stops the run.
#   bash scripts/soak.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
minutes="${1:-60}"
end=$(( $(date +%s) + minutes * 60 ))
export TG_VALIDATION=1 TG_LONG_TESTS=1
cargo build --release --tests -p tg-tensor -p tg-runtime
pass=0
while [ "$(date +%s)" -lt "$end" ]; do
  pass=$((pass + 1))
  echo "soak: pass $pass"
  cargo test --release -q -p tg-tensor --test ops sizes::
  cargo test --release -q -p tg-runtime --test runtime -- deep_graphs:: size_limits:: loop_budget::
  left=$(( end - $(date +%s) ))
  if [ "$left" -gt 0 ]; then
    TG_SOAK_SECONDS=$(( left < 600 ? left : 600 )) \
      cargo test --release -q -p tg-runtime --test runtime -- soak:: --nocapture
  fi
done
echo "soak: $pass pass(es) in $minutes minute(s), no failure"
