#!/usr/bin/env bash
# install_deps.sh - make sure the libraries the build needs are present.
#
# Checks each library with pkg-config. If any is missing and we are root, runs
# `apt-get update` and installs the Debian -dev packages; otherwise prints the
# apt-get line to run and fails. Optional parts (clang's libFuzzer runtime,
# GNU time for benchmarks) are installed when possible but never fail the build.
#   scripts/install_deps.sh          libraries for `make`
#   scripts/install_deps.sh --bench  also what `make bench` uses (GNU time, bc)
set -u
# pkg-config name -> Debian package
pairs="libzstd:libzstd-dev libcjson:libcjson-dev libpcre2-8:libpcre2-dev libxxhash:libxxhash-dev
libpsl:libpsl-dev libutf8proc:libutf8proc-dev zlib:zlib1g-dev openblas:libopenblas-openmp-dev"
missing=""
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
for p in $pairs; do
  pc=${p%%:*}; deb=${p#*:}
  if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$pc"; then
    missing="$missing $deb"
  fi
done
# The public suffix list data for blacklist_urls (libpsl's compiled-in copy is the fallback).
[ -e /usr/share/publicsuffix/public_suffix_list.dat ] || missing="$missing publicsuffix"
# CLD2 (language identification for cleanup) has no pkg-config file.
[ -e /usr/include/cld2/public/compact_lang_det.h ] || missing="$missing libcld2-dev"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
command -v make >/dev/null 2>&1 || missing="$missing make"
optional=""
if command -v clang >/dev/null 2>&1; then
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || optional="$optional libclang-rt-dev"
fi
if [ "${1:-}" = "--bench" ]; then
  [ -x /usr/bin/time ] || optional="$optional time"
  command -v bc >/dev/null 2>&1 || optional="$optional bc"
fi
missing=$(echo $missing)
optional=$(echo $optional)
[ -z "$missing$optional" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "install_deps: installing:${missing:+ $missing}${optional:+ $optional (optional)}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || { echo "install_deps: apt-get update failed" >&2; [ -z "$missing" ] && exit 0; exit 1; }
  if [ -n "$missing" ]; then
    apt-get install -y -qq --no-install-recommends $missing >&2 || { echo "install_deps: apt-get install failed" >&2; exit 1; }
  fi
  if [ -n "$optional" ]; then
    apt-get install -y -qq --no-install-recommends $optional >&2 || echo "install_deps: optional packages not installed: $optional" >&2
  fi
  exit 0
fi
if [ -n "$missing" ]; then
  echo "install_deps: missing build dependencies. Run as root:" >&2
  echo "  apt-get update && apt-get install -y $missing" >&2
  exit 1
fi
exit 0
