#!/usr/bin/env bash
# Installs what tg needs on Debian/Ubuntu, only what is missing: the Vulkan loader, Mesa's
# lavapipe (Vulkan on the CPU), the Khronos validation layer, the static shaderc/glslang/
# SPIRV-Tools archives tg links, a C toolchain, and Rust (by rustup) if cargo is absent.
set -euo pipefail

packages=(build-essential pkg-config libshaderc-dev glslang-dev spirv-tools
          libvulkan1 libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
          fonts-dejavu-core)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: installing Rust with rustup"
  command -v curl >/dev/null 2>&1 || { ${sudo:-} apt-get install -y -qq curl ca-certificates; }
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --default-toolchain none
  export PATH="$HOME/.cargo/bin:$PATH"
fi
