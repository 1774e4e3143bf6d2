#!/bin/sh
# Install h2emv from the build tree into a scratch prefix, then build and run
# a tiny program against the installed copy twice: with the CMake package
# (find_package) and with pkg-config. Everything installed runs without
# LD_LIBRARY_PATH (an rpath); the man pages, the bash completion, the Python
# bindings and the ROS bridge's commands are there.
set -eu
src=$1 build=$2 work=$3
unset LD_LIBRARY_PATH H2EMV_LIB
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
"$work/cm/consumer" "$work/mem-cmake"

# 2. pkg-config
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -o "$work/consumer-pc" "$src/tests/install/consumer.c" \
	$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs h2emv)
"$work/consumer-pc" "$work/mem-pc"

# 3. the installed command line: `h2emv sim` runs h2emv-eval, installed beside it
test -x "$prefix/bin/h2emv-eval"
PATH=/usr/bin:/bin "$prefix/bin/h2emv" sim --episodes 1 --seed 1 \
	-o "$work/sim.jsonl" 2>/dev/null
test -s "$work/sim.jsonl"

# 4. for developers: man pages (h2emv and one per command), bash completion,
# the Python bindings finding the installed library by themselves, and the
# ROS bridge's commands
test -f "$prefix/share/man/man1/h2emv.1"
test -f "$prefix/share/man/man1/h2emv-ask.1"
test -f "$prefix/share/bash-completion/completions/h2emv"
test -x "$prefix/bin/h2emv-rosbag" && test -x "$prefix/bin/h2emv-ros-bridge"
pydir=$(ls -d "$libdir"h2emv/python)
(cd "$work" && PYTHONPATH="$pydir" PYTHONDONTWRITEBYTECODE=1 python3 -c '
import h2emv
m = h2emv.open("mem-py", create=True)
m.ingest({"t": "2024-09-23T08:32:00Z", "action": "Place(knife, drawer)"})
m.build()
assert "drawer" in m.ask("Where did you put the knife?")["answer"]
')
PATH=/usr/bin:/bin "$prefix/bin/h2emv" import rosbag --help >/dev/null 2>&1 || {
	# without ROS the command still starts and says what it is
	! /usr/bin/python3 -c 'import rosbag' 2>/dev/null
}
echo "install test: ok"
