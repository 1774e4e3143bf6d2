#!/bin/sh
# tests/layering/calls.sh SRCDIR BUILDDIR — .ci/layering --check on the
# objects of this build (docs/layering.md): fails on a call loop, a round
# trip between folders or a call back up between the rooms of api/ that
# .ci/layering.known does not list, and on an api/ source outside the
# rooms. Needs Python 3 and binutils' nm; SKIP (77) without them.
set -u
src=${1:?usage: calls.sh SRCDIR BUILDDIR}
build=${2:?usage: calls.sh SRCDIR BUILDDIR}
if ! command -v python3 >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: needs python3 and nm"
	exit 77
fi
exec python3 "$src/.ci/layering" --build "$build" --check --known "$src/.ci/layering.known"
