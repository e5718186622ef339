#!/usr/bin/env bash
# ONNX's node conformance tests through `tg-onnx test`: onnx's Python package (pinned) writes
# its 1,884 node test cases into target/onnx-node (scripts/gen_onnx_node_tests.py), tg-onnx
# runs them all with each case's tolerances, and this script fails unless
#   - at least 90% of the cases pass,
#   - every case tinygrad 0.14's ONNX runner passes passes (fixtures/onnx/tinygrad_passes.txt,
#     made by scripts/onnx_tinygrad_cases.py outside the test command), and
#   - every case tg passed when fixtures/onnx/node_passes.txt was written still passes.
# The per-case lines and tg-onnx's summary go to target/onnx-node-results.txt; this script
# prints its own summary. `--bless` rewrites node_passes.txt from the run.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import onnx, sys; sys.exit(onnx.__version__ != "1.23.2")' 2>/dev/null; then
  python3 -m pip install --quiet "onnx==1.23.2"
fi
cases=target/onnx-node
python3 scripts/gen_onnx_node_tests.py "$cases" 2>/dev/null
cargo build -q -p tg-onnx --bin tg-onnx
results=target/onnx-node-results.txt
started=$(date +%s)
target/debug/tg-onnx test "$cases" > "$results" || true
elapsed=$(( $(date +%s) - started ))
grep ': ok (' "$results" | sed 's/: ok (.*//' | sort > target/onnx-node-passes.txt
total=$(ls -d "$cases"/test_* | wc -l)
passed=$(wc -l < target/onnx-node-passes.txt)
echo "ONNX node tests: $passed of $total cases pass on tg ($elapsed s; per-case lines in $results)"
if [ "${1:-}" = "--bless" ]; then
  cp target/onnx-node-passes.txt fixtures/onnx/node_passes.txt
fi
status=0
if [ $(( passed * 10 )) -lt $(( total * 9 )) ]; then
  echo "FAIL: fewer than 90% of the cases pass" >&2
  status=1
fi
for list in fixtures/onnx/tinygrad_passes.txt fixtures/onnx/node_passes.txt; do
  missing=$(comm -23 <(sort "$list") target/onnx-node-passes.txt)
  if [ -n "$missing" ]; then
    echo "FAIL: cases on $list no longer pass:" >&2
    echo "$missing" | while read -r c; do grep "^$c: " "$results" >&2 || echo "$c" >&2; done
    status=1
  fi
done
exit $status
