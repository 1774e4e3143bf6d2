#!/bin/sh
# tests/layering/check.sh SRCDIR — the include rules of shared/STYLE.md
# that a build does not enforce by itself, checked on the sources:
#  - the evaluation (bench/eval) sees the library through include/h2emv.h
#    only: no api/ or engine/ header;
#  - it does not reach into the command line either: no tools/ header but
#    tools/import/import.h (the importers, product code on h2emv.h only,
#    which `eval --source teach|armar` reads real histories with) and
#    tools/common/cli_helpers.h (the command-line helpers both programs
#    use);
#  - tools/common/ is built on h2emv.h alone: no api/, engine/, bench/ or
#    other tools/ header;
#  - engine/ includes nothing from api/;
#  - only engine/ includes lmdb.h; only api/policy/llm/ includes curl.h;
#  - api/ holds its sources in rooms (api/ROOM/, docs/architecture.md):
#    no .c or .h file directly in api/.
# Prints each offending line and exits 1, or prints "layering: ok".
set -u
src=${1:?usage: check.sh SRCDIR}
cd "$src" || exit 2
bad=0
show() {
	if [ -n "$1" ]; then
		printf '%s\n%s\n' "$2" "$1"
		bad=1
	fi
}
show "$(grep -rn '#include "\(api\|engine\)/' bench/eval)" \
	"bench/eval includes a library-internal header (use include/h2emv.h):"
show "$(grep -rn '#include "tools/' bench/eval | grep -v '#include "tools/\(import/import\|common/cli_helpers\)\.h"')" \
	"bench/eval includes a header of tools/ (only tools/import/import.h and tools/common/cli_helpers.h are allowed; shared helpers go to tools/common/):"
show "$(grep -rn '#include "\(api\|engine\|tools\|bench\)/' tools/common | grep -v '#include "tools/common/')" \
	"tools/common/ includes a header beyond include/h2emv.h:"
show "$(grep -rn '#include "api/' engine)" "engine/ includes a header of api/:"
show "$(grep -rln --include='*.[ch]' '#include <lmdb.h>' api tools bench tests fuzz)" "lmdb.h outside engine/:"
show "$(grep -rln --include='*.[ch]' '#include <curl/curl.h>' engine tools bench tests fuzz api | grep -v '^api/policy/llm/')" \
	"curl.h outside api/policy/llm/:"
show "$(ls api/*.c api/*.h 2>/dev/null)" \
	"api/ sources outside the rooms (move each into the folder of its concept, .ci/layering's ROOMS):"
[ "$bad" -eq 0 ] && echo "layering: ok"
exit "$bad"
