#!/bin/sh
# Install h2emv from the build tree into a scratch prefix, then build and run
# a tiny program against the installed copy twice: with the CMake package
# (find_package) and with pkg-config.
set -eu
src=$1 build=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/h2emv.h"
libdir=$(ls -d "$prefix"/lib*/ | head -n1)
test -f "$libdir/pkgconfig/h2emv.pc"
test -f "$libdir/cmake/h2emv/h2emvConfig.cmake"

# 1. CMake package
cmake -S "$src/tests/install" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cm" >/dev/null
LD_LIBRARY_PATH="$libdir" "$work/cm/consumer" "$work/mem-cmake"

# 2. pkg-config
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -o "$work/consumer-pc" "$src/tests/install/consumer.c" \
	$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs h2emv)
LD_LIBRARY_PATH="$libdir" "$work/consumer-pc" "$work/mem-pc"

# 3. the installed command line: `h2emv sim` runs h2emv-eval, installed beside it
test -x "$prefix/bin/h2emv-eval"
LD_LIBRARY_PATH="$libdir" PATH=/usr/bin:/bin "$prefix/bin/h2emv" sim --episodes 1 --seed 1 \
	-o "$work/sim.jsonl" 2>/dev/null
test -s "$work/sim.jsonl"
echo "install test: ok"
