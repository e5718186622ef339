#!/usr/bin/env bash
# Builds llama.cpp (the peer tg's language models are checked against) from the source that the
# llama-cpp-python source archive vendors, into target/llama.cpp/{cpu,vulkan}, with llama-bench
# and tg's llama-logits. Not part of the test command: the committed reference logits
# (scripts/gen_gguf_reference.py) and tg-bench-llm's comparison come from it.
#   bash scripts/build_llama_cpp.sh [cpu|vulkan|both]   (default: both, CPU first)
# It takes tens of minutes on 2 cores; it runs under `nice -n 19`.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-both}"
version=0.3.36
root="$PWD/target/llama.cpp"
mkdir -p "$root"
if ! command -v cmake >/dev/null || ! command -v glslc >/dev/null; then
    apt-get install -y cmake glslc libvulkan-dev spirv-headers >/dev/null
fi
src="$root/src"
if [ ! -f "$src/CMakeLists.txt" ]; then
    # the source archive's metadata step needs its build backend; without build isolation pip
    # takes the installed one (with it, `--no-binary` would build cmake itself from source)
    python3 -m pip install -q "scikit-build-core" "cmake"
    dl="$root/download"
    mkdir -p "$dl"
    python3 -m pip download -q --no-deps --no-build-isolation --no-binary llama-cpp-python \
        -d "$dl" "llama-cpp-python==$version"
    tar -xzf "$dl/llama_cpp_python-$version.tar.gz" -C "$dl"
    rm -rf "$src"
    cp -r "$dl/llama_cpp_python-$version/vendor/llama.cpp" "$src"
    # Debian 12's Vulkan headers (1.3.239) lack VK_EXT_layer_settings, which ggml-vulkan uses
    # only to configure its validation layer: compile that block only where the header has it
    python3 - "$src/ggml/src/ggml-vulkan/ggml-vulkan.cpp" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
first = "    VkBool32 enable_best_practice = layer_settings;"
last = "&layer_setting_info);\n"
if text.count(first) != 1 or "#ifdef VK_EXT_layer_settings" in text:
    sys.exit("ggml-vulkan.cpp: the layer-settings block was not found once; patch by hand")
a = text.index(first)
b = text.index(last, a) + len(last)
plain = "    vk::InstanceCreateInfo instance_create_info(vk::InstanceCreateFlags{}, &app_info, layers, extensions);\n"
text = text[:a] + "#ifdef VK_EXT_layer_settings\n" + text[a:b] + "#else\n" + plain + "#endif\n" + text[b:]
open(path, "w").write(text)
PY
fi
build() {
    local kind="$1"; shift
    local dir="$root/$kind"
    cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF \
        -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=OFF "$@" >/dev/null
    nice -n 19 cmake --build "$dir" -j 2 --target llama-bench llama-quantize llama 2>&1 | tail -3
    # tg's logits dumper (scripts/llama_logits.cpp) against the library just built
    nice -n 19 g++ -O2 -std=c++17 -I"$src/include" -I"$src/ggml/include" scripts/llama_logits.cpp \
        -L"$dir/bin" -lllama -lggml -lggml-base -Wl,-rpath,'$ORIGIN' -o "$dir/bin/llama-logits"
    ls "$dir/bin"
}
case "$which" in
    cpu) build cpu -DGGML_VULKAN=OFF ;;
    vulkan) build vulkan -DGGML_VULKAN=ON ;;
    both) build cpu -DGGML_VULKAN=OFF; build vulkan -DGGML_VULKAN=ON ;;
esac
