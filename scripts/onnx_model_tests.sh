#!/usr/bin/env bash
# Whole ONNX models against onnxruntime (scripts/gen_onnx_models.py writes them into
# target/onnx-models with onnxruntime's outputs): the light model-zoo graphs with seeded random
# weights and as shipped, a transformer encoder, a MobileNetV2-style stack, a GPT-style decoder
# and an int8 QDQ model, each through `tg-onnx test` (rtol 1e-3, atol 1e-4) on the CPU class
# and on the GPU class (TG_DEVICE_CLASS=gpu). TG_LONG_TESTS=1 adds the heavy light models.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import onnx, onnxruntime, sys; sys.exit(onnx.__version__ != "1.23.2" or onnxruntime.__version__ != "1.32.0")' 2>/dev/null; then
  python3 -m pip install --quiet "onnx==1.23.2" "onnxruntime==1.32.0"
fi
out=target/onnx-models
rm -rf "$out"
if [ "${TG_LONG_TESTS:-0}" = "1" ]; then
  python3 scripts/gen_onnx_models.py "$out" --long > /dev/null 2>&1
else
  python3 scripts/gen_onnx_models.py "$out" > /dev/null 2>&1
fi
cargo build -q -p tg-onnx --bin tg-onnx
status=0
for class in cpu gpu; do
  log="target/onnx-models-$class.txt"
  if TG_DEVICE_CLASS=$class target/debug/tg-onnx test "$out" > "$log" 2>&1; then
    echo "ONNX models ($class class): $(grep -c ': ok (' "$log") cases match onnxruntime"
  else
    echo "FAIL: ONNX models ($class class):" >&2
    grep ': FAIL' "$log" >&2 || tail -20 "$log" >&2
    status=1
  fi
done
exit $status
