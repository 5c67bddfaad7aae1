#!/usr/bin/env bash
# Builds qpdf (the command line, as a WebAssembly module) with native WebAssembly exceptions
# (-fwasm-exceptions) from Debian bookworm's source packages, with Debian's Emscripten.
#
#   scripts/build-qpdf-wasm.sh [OUTPUT_DIR]     (default: vendor/qpdf-wasm)
#
# Needs: a Debian bookworm machine with `apt-get install emscripten cmake make` (emscripten 3.1.6,
# clang/lld 14, binaryen) and deb-src lines for bookworm/bookworm-security in the apt sources
# (`apt-get source` fetches the pinned versions below and checks them against their .dsc).
# Writes OUTPUT_DIR/qpdf.mjs (ES module factory) and OUTPUT_DIR/qpdf.wasm. The work tree (sources,
# objects, Emscripten's cache of system libraries built with wasm exceptions) is QPDF_WASM_WORK
# (default /tmp/qpdf-wasm-build); a second run reuses what is there.
#
# Random numbers (encryption keys, /ID) come from Emscripten's /dev/urandom: crypto.getRandomValues.
# Flags: every C and C++ unit -O3; every C++ unit and the link -fwasm-exceptions (libc++/libc++abi
# are rebuilt by Emscripten in that mode). Link: MODULARIZE + EXPORT_ES6 (a factory), no run on load
# (callMain runs it), FS exported, memory 16 MB growing to 2 GB, environments web and worker: this
# Emscripten's Node code is CommonJS only (__dirname, require) and breaks in an ES module; Node runs
# the web build as it is, given the module (instantiateWasm) and print/printErr, as qpdf.ts does.
set -euo pipefail

QPDF_VERSION=11.3.0-1+deb12u1
ZLIB_VERSION=1:1.2.13.dfsg-1
LIBJPEG_TURBO_VERSION=1:2.1.5-2

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${1:-$ROOT/vendor/qpdf-wasm}")
WORK=${QPDF_WASM_WORK:-/tmp/qpdf-wasm-build}
JOBS=${JOBS:-$(nproc)}
PREFIX=$WORK/prefix
mkdir -p "$WORK/src" "$PREFIX" "$OUT"

# Debian's Emscripten ships a frozen, read-only cache of system libraries built without wasm
# exceptions: use a writable cache of our own so that it builds libc++ and friends in that mode.
export EM_CACHE=$WORK/emcache
export EM_CONFIG=$WORK/emscripten.config
sed 's/^FROZEN_CACHE = True/FROZEN_CACHE = False/' /usr/share/emscripten/.emscripten >"$EM_CONFIG"
# Emscripten's JavaScript optimizer needs acorn (Debian's node-acorn, under /usr/share/nodejs).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# emcmake runs CMake's test programs with `node --experimental-wasm-threads`, an option Node 20
# rejects (exit 9, which CMake then took for sizeof(size_t)). And Emscripten 3.1.6's glue loads its
# .wasm with fetch() when fetch exists, which Node 20's fetch refuses for a file path: without
# --no-experimental-fetch it reads the file with fs instead.
EMULATOR="-DCMAKE_CROSSCOMPILING_EMULATOR=$(command -v node);--no-experimental-fetch"

CFLAGS="-O3"
CXXFLAGS="-O3 -fwasm-exceptions"
export CFLAGS CXXFLAGS

echo "== emcc: $(emcc --version | head -1)"

fetch() { # package version directory
  cd "$WORK/src"
  if [ ! -d "$3" ]; then
    apt-get source --download-only "$1=$2"
    dpkg-source -x "$1_${2#*:}.dsc" "$3"
  fi
}
fetch zlib "$ZLIB_VERSION" zlib
fetch libjpeg-turbo "$LIBJPEG_TURBO_VERSION" libjpeg-turbo
fetch qpdf "$QPDF_VERSION" qpdf
# Pl_DCT.cc calls setjmp in a function that also catches C++ exceptions, which clang refuses with
# native WebAssembly exceptions: the setjmp moves to a helper of its own (same behaviour).
if [ ! -f "$WORK/src/qpdf/.wasm-patched" ]; then
  patch -d "$WORK/src/qpdf" -p1 <"$ROOT/scripts/qpdf-wasm-pl-dct-setjmp.patch"
  touch "$WORK/src/qpdf/.wasm-patched"
fi

echo "== zlib $ZLIB_VERSION"
if [ ! -f "$PREFIX/lib/libz.a" ]; then
  cd "$WORK/src/zlib"
  emconfigure ./configure --static --prefix="$PREFIX"
  emmake make -j"$JOBS" libz.a
  emmake make install
fi

echo "== libjpeg-turbo $LIBJPEG_TURBO_VERSION"
if [ ! -f "$PREFIX/lib/libjpeg.a" ]; then
  rm -rf "$WORK/build-jpeg" && mkdir -p "$WORK/build-jpeg" && cd "$WORK/build-jpeg"
  emcmake cmake "$WORK/src/libjpeg-turbo" "$EMULATOR" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="$CFLAGS" \
    -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib -DENABLE_SHARED=OFF -DENABLE_STATIC=ON \
    -DWITH_SIMD=OFF -DWITH_TURBOJPEG=OFF -DWITH_JAVA=OFF
  emmake make -j"$JOBS" jpeg-static
  # install only the library and headers (the tools are not built)
  cp libjpeg.a "$PREFIX/lib/"
  cp jconfig.h "$WORK/src/libjpeg-turbo/jerror.h" "$WORK/src/libjpeg-turbo/jmorecfg.h" \
    "$WORK/src/libjpeg-turbo/jpeglib.h" "$PREFIX/include/"
fi

echo "== qpdf $QPDF_VERSION"
# qpdf asks pkg-config first: it must not find the build machine's own zlib or libjpeg.
export PKG_CONFIG_LIBDIR=$WORK/no-pkgconfig PKG_CONFIG_PATH=
mkdir -p "$WORK/build-qpdf" && cd "$WORK/build-qpdf"
emcmake cmake "$WORK/src/qpdf" "$EMULATOR" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="$CFLAGS" -DCMAKE_CXX_FLAGS_RELEASE="$CXXFLAGS" \
  -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON -DBUILD_DOC=OFF \
  -DUSE_IMPLICIT_CRYPTO=OFF -DREQUIRE_CRYPTO_NATIVE=ON \
  -DRANDOM_DEVICE=/dev/urandom \
  -DZLIB_H_PATH="$PREFIX/include" -DZLIB_LIB_PATH="$PREFIX/lib/libz.a" \
  -DLIBJPEG_H_PATH="$PREFIX/include" -DLIBJPEG_LIB_PATH="$PREFIX/lib/libjpeg.a"
emmake make -j"$JOBS" libqpdf
# The command line's own unit, compiled with the same flags, then linked here with the glue's settings.
em++ $CXXFLAGS -DPOINTERHOLDER_TRANSITION=4 -I"$WORK/src/qpdf/include" -I"$WORK/build-qpdf/libqpdf" \
  -c "$WORK/src/qpdf/qpdf/qpdf.cc" -o "$WORK/build-qpdf/qpdf-main.o"

echo "== link"
em++ $CXXFLAGS "$WORK/build-qpdf/qpdf-main.o" "$WORK/build-qpdf/libqpdf/libqpdf.a" \
  "$PREFIX/lib/libjpeg.a" "$PREFIX/lib/libz.a" \
  -s MODULARIZE=1 -s EXPORT_ES6=1 -s EXPORT_NAME=createQpdf \
  -s INVOKE_RUN=0 -s EXIT_RUNTIME=0 -s FORCE_FILESYSTEM=1 \
  -s EXPORTED_RUNTIME_METHODS=FS,callMain -s ALLOW_MEMORY_GROWTH=1 \
  -s INITIAL_MEMORY=16MB -s MAXIMUM_MEMORY=2GB -s ENVIRONMENT=web,worker \
  -o "$OUT/qpdf.mjs"

echo "== licences"
mkdir -p "$OUT/licenses"
cp "$WORK/src/qpdf/LICENSE.txt" "$OUT/licenses/qpdf-LICENSE.txt"
cp "$WORK/src/zlib/LICENSE" "$OUT/licenses/zlib-LICENSE.txt"
cp "$WORK/src/libjpeg-turbo/LICENSE.md" "$OUT/licenses/libjpeg-turbo-LICENSE.md"
cp "$WORK/src/libjpeg-turbo/README.ijg" "$OUT/licenses/libjpeg-turbo-README.ijg"
cp /usr/share/emscripten/system/lib/libc/musl/COPYRIGHT "$OUT/licenses/musl-COPYRIGHT.txt"
# Emscripten's runtime and libc++/libc++abi: Debian's copyright file lists every part and its licence.
cp /usr/share/doc/emscripten/copyright "$OUT/licenses/emscripten-debian-copyright.txt"

cd "$OUT"
sha256sum qpdf.mjs qpdf.wasm
