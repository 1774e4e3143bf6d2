#!/bin/sh
# pip_install.sh PYTHON SRC_DIR LIBH2EMV WORK — `pip install ./api/python`
# works and gives a package that opens a memory: the README's lines for
# Python, as a new user runs them (a venv with the system's site packages,
# pip offline with --no-build-isolation: Debian's python3-setuptools and
# python3-wheel build it). SKIP (77) without venv, pip, setuptools or wheel.
set -eu
py=$1 src=$2 lib=$3 work=$4
for m in venv pip setuptools wheel; do
	"$py" -c "import $m" 2>/dev/null || { echo "SKIP: $py has no $m"; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
# a copy, so the build leaves nothing (egg-info, build/) in the source tree
cp -r "$src/api/python" "$work/src"
# without its own pip (ensurepip takes long): the system's pip, run by the
# venv's python, installs into the venv
"$py" -m venv --without-pip --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install -q --no-build-isolation --no-deps --no-index "$work/src" \
	>"$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }
cd "$work"
# the package is the venv's, not the source tree's
unset PYTHONPATH
H2EMV_LIB="$lib" PYTHONDONTWRITEBYTECODE=1 "$work/venv/bin/python" -c '
import h2emv
assert "/venv/" in h2emv.__file__, h2emv.__file__
m = h2emv.open("mem", create=True)
ack = m.ingest({"id": "a", "t": "2024-09-23T08:32:00Z", "action": "Place(knife, drawer)"})
assert ack["stored"] == 1, ack
m.build()
a = m.ask("Where did you put the knife?")
assert "drawer" in a["answer"], a
print("pip install: ok,", a["answer"])
'
