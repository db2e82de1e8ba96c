# bench_lib.sh - sourced by bench/bench_*.sh: the Python that runs the peer tools.
# It is the project's venv (build/venv), which `scripts/setup/install_deps.sh --bench`
# fills with the pinned peer tools (`make bench` runs it first).
# bench_python NAME MODULE...: set PY, or exit 1 naming what is missing.
bench_python() {
  local name=$1 m; shift
  PY=${PY:-build/venv/bin/python3}
  for m in "$@"; do
    "$PY" -c "import $m" 2>/dev/null ||
      { echo "$name: python module '$m' missing in $PY; run scripts/setup/install_deps.sh --bench" >&2; exit 1; }
  done
}
