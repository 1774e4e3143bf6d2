#!/bin/sh
# pip_install.sh PYTHON SRC_DIR LIBH2EMV WORK — `pip install ./api/python`
# works and gives a package that opens a memory: the README's line for
# Python, as a new user runs it (into a scratch --target, not the system).
# Offline (--no-build-isolation: Debian's python3-setuptools and
# python3-wheel build it). SKIP (77) without pip, setuptools or wheel.
set -eu
py=$1 src=$2 lib=$3 work=$4
for m in pip setuptools wheel; do
	"$py" -c "import $m" 2>/dev/null || { echo "SKIP: $py has no $m"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
# a copy, so the build leaves nothing (egg-info, build/) in the source tree
cp -r "$src/api/python" "$work/src"
"$py" -m pip install -q --no-build-isolation --no-deps --no-index --target "$work/site" \
	"$work/src" >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
test -f "$work/site/h2emv/__init__.py"
cd "$work"
H2EMV_LIB="$lib" PYTHONPATH="$work/site" PYTHONDONTWRITEBYTECODE=1 "$py" -c '
import h2emv
m = h2emv.open("mem", create=True)
ack = m.ingest({"id": "a", "t": "2024-09-23T08:32:00Z", "action": "Place(knife, drawer)"})
assert ack["stored"] == 1, ack
m.build()
a = m.ask("Where did you put the knife?")
assert "drawer" in a["answer"], a
print("pip install: ok,", a["answer"])
'
