# lib.sh - helpers for end-to-end tool tests. Each check prints "PASS name",
# "FAIL name: why" or "SKIP name: why"; tests/run_tests.sh counts them.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FIX=$ROOT/tests/fixtures
WORK=$(mktemp -d /tmp/e2e.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export NO_PROGRESS=1
# mpirun's ranks give up the core while they wait (OpenMPI busy-polls by default): the tests
# start more ranks than the CI machine's 2 cores, where polling made a 4-rank run 3.7x and an
# 8-rank run 5.6x slower. The results are the same bits either way.
export OMPI_MCA_mpi_yield_when_idle=1
# Python for golden checks: the project's venv (scripts/setup/install_deps.sh --test).
PY=$ROOT/build/venv/bin/python3
[ -x "$PY" ] || PY=python3

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1${2:+: $2}"; }
skip() { echo "SKIP $1${2:+: $2}"; }
# has_py MODULE...: the test Python imports every module
has_py() { local m; for m in "$@"; do "$PY" -c "import $m" 2>/dev/null || return 1; done; }
# check NAME COMMAND...: pass when the command succeeds
check() { local n=$1; shift; if "$@" >/dev/null 2>&1; then pass "$n"; else fail "$n" "command failed: $*"; fi; }
# expect_exit NAME CODE COMMAND...: pass when the command exits with CODE
expect_exit() {
  local n=$1 want=$2; shift 2
  "$@" >"$WORK/.out" 2>"$WORK/.err"; local got=$?
  if [ "$got" = "$want" ]; then pass "$n"; else fail "$n" "exit $got, wanted $want; stderr: $(head -c 300 "$WORK/.err")"; fi
}
# stderr_has NAME TEXT: the last expect_exit's stderr contains TEXT
stderr_has() { if grep -qF -- "$2" "$WORK/.err"; then pass "$1"; else fail "$1" "stderr lacks '$2': $(head -c 300 "$WORK/.err")"; fi; }
no_tmp_left() { if ls -A "$1" | grep -q 'tmp-'; then fail "$2" "temporary files left in $1"; else pass "$2"; fi; }
