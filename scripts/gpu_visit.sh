#!/usr/bin/env bash
# One short, prepared visit to a GPU machine that cannot install anything (no registry
# reachable there): build and pack here, run there, read the logs back.
#
#   bash scripts/gpu_visit.sh pack   # here: release builds of tg-bench and of the op-fixture
#                                    # tests, stripped, with the Vulkan loader and the Khronos
#                                    # validation layer, under target/visit
#   bash scripts/gpu_visit.sh run    # there, from the repository root, with target/visit
#                                    # carried: logs under $OUT (or target/visit/out)
#
# `run` finds the GPU's Vulkan driver (the NVIDIA container layout too), prints what tg sees,
# then runs, each under its own time limit: the op fixtures with validation on, the size tests
# past the device's limits (TG_LONG_TESTS), and tg-bench (a machine may carry 64 MiB in all,
# the working tree included, so the network tests stay here: they run with a GPU's kernels
# on lavapipe in the test command). The test binaries look for fixtures/ above the folder
# they were built in; where the repository lies elsewhere there, `run` links that folder to
# this one.
set -euo pipefail
cd "$(dirname "$0")/.."
visit=target/visit

pack() {
  source scripts/setup.sh
  rm -rf "$visit" && mkdir -p "$visit/bin" "$visit/lib" "$visit/layers"
  cargo build -q --release -p tg-bench --bin tg-bench
  cp target/release/tg-bench "$visit/bin/"
  # the test binaries cargo built, by name
  cargo test -q --release --test ops --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' |
    while read -r exe; do
      name=$(basename "$exe")
      cp "$exe" "$visit/bin/${name%-*}"
    done
  strip "$visit"/bin/*
  loader=$(ldconfig -p | sed -n 's/.*libvulkan\.so\.1 .*=> //p' | head -n1)
  cp -L "$loader" "$visit/lib/libvulkan.so.1"
  cp /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json "$visit/layers/"
  layer_lib=$(ldconfig -p | sed -n 's/.*libVkLayer_khronos_validation\.so .*=> //p' | head -n1)
  cp -L "${layer_lib:-/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so}" "$visit/layers/"
  # where the test binaries were built, so `run` can put fixtures/ where they look
  pwd >"$visit/built_in"
  ls -la "$visit/bin"
  du -sh "$visit"
  # what travels: the tracked tree and the carried folder, 64 MiB at most
  tree=$(git ls-files -z | xargs -0 du -cb | tail -n1 | cut -f1)
  size=$(($(du -sb "$visit" | cut -f1) + tree))
  if ((size > 62 * 1024 * 1024)); then
    echo "gpu_visit: the tree and $visit come to $size bytes, over what a visit carries" >&2
    exit 1
  fi
}

run() {
  [ -d "$visit/bin" ] || { echo "gpu_visit: no $visit/bin: run 'pack' here and carry $visit" >&2; exit 1; }
  out=${OUT:-$visit/out}
  mkdir -p "$out"
  export LD_LIBRARY_PATH="$PWD/$visit/lib:$PWD/$visit/layers${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export VK_LAYER_PATH="$PWD/$visit/layers"
  # the NVIDIA driver's ICD where the system folders have none (containers mount it here)
  if ! ls /usr/share/vulkan/icd.d/nvidia* /etc/vulkan/icd.d/nvidia* >/dev/null 2>&1; then
    for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.x86_64.json; do
      if [ -f "$f" ]; then export VK_DRIVER_FILES="$f" VK_ICD_FILENAMES="$f"; break; fi
    done
  fi
  built_in=$(cat "$visit/built_in")
  if [ "$built_in" != "$PWD" ] && [ ! -e "$built_in" ]; then
    mkdir -p "$(dirname "$built_in")" && ln -s "$PWD" "$built_in"
  fi
  {
    echo "== machine"; uname -a; nproc
    echo "== GPUs"; nvidia-smi -L 2>&1 || true
    echo "== Vulkan drivers"; ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>&1 || true
    echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
    ldconfig -p | grep -i -e nvidia -e vulkan || true
  } >"$out/env.txt" 2>&1
  step() { # name, seconds, command...
    local name=$1 secs=$2
    shift 2
    echo "== $name (at most $secs s)"
    local t0=$SECONDS rc=0
    timeout "$secs" "$@" >"$out/$name.txt" 2>&1 || rc=$?
    echo "$name: rc=$rc in $((SECONDS - t0)) s" | tee -a "$out/summary.txt"
    tail -n 3 "$out/$name.txt"
  }
  step ops 150 env TG_VALIDATION=1 "$visit/bin/ops"
  step sizes 90 env TG_LONG_TESTS=1 "$visit/bin/ops" sizes
  step bench 220 env TG_BENCH_RUNS=5 "$visit/bin/tg-bench"
}

case "${1:-}" in
  pack) pack ;;
  run) run ;;
  *) echo "usage: bash scripts/gpu_visit.sh pack|run" >&2; exit 2 ;;
esac
