#!/usr/bin/env bash
# Installs every Debian package Warpscope needs. Idempotent: does nothing
# when all are present, so any user may run it then. When some are missing
# it installs them with apt-get as root, through sudo for another user who
# has it; a user without sudo is told the one command to run as root, and
# the script fails (README.md).
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config         # host build
  ninja-build                              # build tool for the test script (faster than make here)
  clang lld libclang-rt-14-dev             # kernel compiler + linker; host compiler of the sanitizer build; libFuzzer/sanitizer runtimes
  llvm                                     # llvm-symbolizer (reference for the line-map test), llvm-dwarfdump (rewriter round trip), llvm-ar, llvm-objcopy (libgcc without lines: kernel/libwsgcc.a)
  picolibc-riscv64-unknown-elf             # device C library and libm (pulls gcc-riscv64-unknown-elf for libgcc)
  binutils-riscv64-unknown-elf             # riscv addr2line (line-map test reference), objdump/ar for inspecting kernels
  libelf-dev libdw-dev                     # elfutils: read module ELF and DWARF
  libpng-dev                               # write and read PNG images (ws_gfx_write_png, replay dumps, warpscope show)
  libzstd-dev                              # compressed capture/trace files; watch --stats' peer
  libjansson-dev                           # reading profile JSON (warpscope profile --baseline)
  libosmesa6-dev                           # Mesa's software OpenGL (llvmpipe): reference renderer for the graphics tests and the bench peer
  qemu-user                                # qemu-riscv32: ISA reference for differential tests
  gdb-multiarch                            # gdb front end for the debug server
  openocd                                  # JTAG probe software: drives the device over remote_bitbang (tests/jtag)
  python3                                  # tests: parse profile/trace/watch JSON output; drive a few tests
  chromium                                 # headless browser: renders the frame report in its test (tests/replay)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
install=(apt-get install -y -qq --no-install-recommends "${missing[@]}")
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "bootstrap: these Debian packages are missing: ${missing[*]}" >&2
  echo "bootstrap: you are not root and sudo is not installed; as root, run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  echo "bootstrap: then run this command again" >&2
  exit 1
fi
echo "bootstrap: installing ${missing[*]}${SUDO:+ (through sudo)}"
export DEBIAN_FRONTEND=noninteractive
if ! { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive "${install[@]}"; }; then
  echo "bootstrap: installing failed; as root, run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
