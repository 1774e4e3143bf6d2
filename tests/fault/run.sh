#!/bin/sh
# Run every fault test: power loss (the fault_powercut tests and their
# negative control), I/O errors injected with libfiu (fault_iofail) and
# damaged copies through every command (test_damage).
#   tests/fault/run.sh          the bounded share CI runs (about a minute)
#   tests/fault/run.sh --long   the full counts: 1,200 power cuts per test, 400 fault runs
# BUILD_DIR (default ./build) is configured and built if needed.
# H2EMV_FAULT_SEED=N repeats a run's random choices (each run prints its seed).
set -eu
cd "$(dirname "$0")/../.."
long=0
build=build
for a in "$@"; do
	case "$a" in
	--long) long=1 ;;
	-h | --help)
		sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*)
		echo "usage: tests/fault/run.sh [--long] [BUILD_DIR]" >&2
		exit 64
		;;
	*) build=$a ;;
	esac
done
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target fault_tool h2emv_iolog h2emv_cli test_damage
cd "$build"
export H2EMV_FAULT_LONG=$long
rc=0
ctest -L fault -V || rc=$?
ctest -R '^test_damage$' -V || rc=$?
exit $rc
