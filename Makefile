# Top-level build. `make` builds every tool into bin/; `make test` runs all
# tests that need no GPU; `make test SAN=1` does so under ASan+UBSan.
# Folder dependency order: common <- preprocess, dedup, tokenizer <- train.

.DEFAULT_GOAL := all
# Every core unless the command line says otherwise (make -j1: one job at a time): a first
# build from a fresh clone takes half the time on 2 cores.
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
SAN ?= 0
CC ?= cc
ifeq ($(SAN),1)
  BUILD := build/san
  BIN := build/san/bin
  SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  OPT := -O1
else
  BUILD := build/rel
  BIN := bin
  SANFLAGS :=
  OPT := -O2
endif

PKGS := libzstd libcjson libpcre2-8 libxxhash libpsl libutf8proc zlib openblas libbrotlidec libdeflate uchardet libcurl libcrypto \
  libdivsufsort
# Recursive (=) so pkg-config runs at recipe time, after deps are installed.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(PKGS))
CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Wshadow -Wno-unused-parameter
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(WARN) $(SANFLAGS) $(OMPFLAGS) -pthread -I. -isystem $(LEXBOR_DIR) $(PKG_CFLAGS) -MMD -MP
LDLIBS = $(PKG_LIBS) -lstdc++ -pthread -lm $(OMPFLAGS)
CXX ?= g++
# The one C++ file: the C face of CLD2 (language identification), which has no C API.
ALL_CXXFLAGS = -std=gnu++17 $(CFLAGS) -Wall -Wextra $(SANFLAGS) -I. -MMD -MP

# What this machine has (nvcc, NCCL, cuDNN, MPI, OpenMP, libFuzzer, help2man) is
# probed by scripts/setup/configure.sh into build/config.mk, right after
# scripts/setup/install_deps.sh has installed what is missing; make includes that file,
# remakes it first on every run (whatever the goal: make, make tools, make train,
# make test-bins, make bench, make fuzz, ...) and restarts when it changed, so no
# target is ever planned with probes taken before the install. Every object
# depends on it: a machine that gains or loses a part is rebuilt whole.
CONFIG := build/config.mk
NO_CONFIG_GOALS := clean distclean uninstall
ifneq ($(or $(MAKECMDGOALS),all),$(filter $(NO_CONFIG_GOALS),$(or $(MAKECMDGOALS),all)))
# The installer's mode follows the goals: the tests' and the benchmarks' tools too.
TEST_GOALS := test test-run test-bins test-gpu test-gpu-run fuzz fuzz-bins reliability
DEPS_MODE := $(if $(filter bench bench-gpu,$(MAKECMDGOALS)),--bench,$(if $(filter $(TEST_GOALS),$(MAKECMDGOALS)),--test))
include $(CONFIG)
# Once per make run: after the restart that reads a new config.mk, it stands.
ifeq ($(MAKE_RESTARTS),)
$(CONFIG): FORCE
	@mkdir -p $(dir $@)
	@scripts/setup/install_deps.sh $(DEPS_MODE)
	@scripts/setup/configure.sh $@ "$(CC)"
endif
endif
.PHONY: FORCE
FORCE:
HAVE_NVCC := $(or $(CONF_HAVE_NVCC),no)
HAVE_NCCL := $(or $(CONF_HAVE_NCCL),no)
HAVE_MPI := $(or $(CONF_HAVE_MPI),no)
HAVE_OPENMP := $(or $(CONF_HAVE_OPENMP),no)
OMPFLAGS := $(if $(filter yes,$(HAVE_OPENMP)),-fopenmp)
HAVE_FUZZ := $(or $(CONF_HAVE_FUZZ),no)

COMMON_SRC := $(wildcard common/*.c)
# preprocess/ by stage (web/, text/, filters/, shuffle/): every .c file but the programs.
PREPROCESS_LIB_SRC := $(filter-out %_main.c,$(sort $(wildcard preprocess/*/*.c preprocess/*/*/*.c)))
TOKENIZER_LIB_SRC := tokenizer/pretok.c tokenizer/bpe.c tokenizer/encode.c tokenizer/gpt2.c tokenizer/hfjson.c tokenizer/tiktoken.c tokenizer/hftok.c tokenizer/spm.c tokenizer/hfwrite.c tokenizer/mmidx.c tokenizer/docenc.c tokenizer/tokcli.c \
  $(wildcard tokenizer/bpetrain.c)
# Programs are named *_main.c (a thin main over the library modules beside it).
TOOLS := blacklist_urls shuffle tokenize preprocess_data merge_datasets inspect_dataset train_bpe
DEDUP_LIB_SRC := dedup/mhsig.c dedup/idmap.c dedup/lsh.c dedup/dupgroups.c dedup/substr.c dedup/substr_corpus.c \
  dedup/substr_spans.c dedup/substr_shard.c dedup/mhcol.c dedup/mhdoc.c dedup/lshjob.c
TOOLS += minhash find_duplicates group_duplicates remove_duplicates substr_dedup
TOOLS += cleanup extract download decontaminate
TOOL_SRC_cleanup := preprocess/filters/cleanup_main.c
TOOL_SRC_decontaminate := preprocess/decont/decontaminate_main.c
TOOL_SRC_extract := preprocess/web/extract_main.c
TOOL_SRC_download := preprocess/web/download_main.c
# lexbor (third_party/lexbor: the HTML5 parser of resiliparse and selectolax, Apache-2.0; its
# core, dom, html, ns and tag modules, not in Debian) is built with the library, its warnings
# kept out of ours (-w; its headers are a system include).
LEXBOR_DIR := third_party/lexbor/source
LEXBOR_SRC := $(shell find $(LEXBOR_DIR)/lexbor -name '*.c' | sort)
LEXBOR_CFLAGS = -std=gnu11 $(CFLAGS) -w $(SANFLAGS) -DLEXBOR_STATIC -I$(LEXBOR_DIR) -MMD -MP
$(BUILD)/third_party/%.o: third_party/%.c $(CONFIG)
	@mkdir -p $(dir $@)
	@$(CC) $(LEXBOR_CFLAGS) -c $< -o $@
# CLD2 (third_party/cld2: Debian's libcld2 source with two changes that keep its answers, see
# its VERSION.md) is built into the library at -O3 and without the sanitizers, as the system
# library it replaces was; its warnings are not ours (-w).
CLD2_DIR := third_party/cld2
CLD2_SRC := $(addprefix $(CLD2_DIR)/internal/,cldutil.cc cldutil_shared.cc compact_lang_det.cc \
  compact_lang_det_hint_code.cc compact_lang_det_impl.cc debug.cc fixunicodevalue.cc generated_entities.cc \
  generated_language.cc generated_ulscript.cc getonescriptspan.cc lang_script.cc offsetmap.cc \
  scoreonescriptspan.cc tote.cc utf8statetable.cc cld_generated_cjk_uni_prop_80.cc \
  cld2_generated_cjk_compatible.cc cld_generated_cjk_delta_bi_4.cc generated_distinct_bi_0.cc \
  cld2_generated_quadchrome_2.cc cld2_generated_deltaoctachrome.cc cld2_generated_distinctoctachrome.cc \
  cld_generated_score_quad_octa_2.cc)
CLD2_CXXFLAGS = -std=gnu++11 -O3 -g0 -w -MMD -MP
$(BUILD)/third_party/cld2/%.o: third_party/cld2/%.cc $(CONFIG)
	@mkdir -p $(dir $@)
	@$(CXX) $(CLD2_CXXFLAGS) -c $< -o $@
# Its scoring loop calls small functions across its files for every quadgram, word and
# hit (the hashes, Tote::Add): those files also carry GCC's link-time IR (fat objects:
# a link without -flto takes their machine code as before), and the release build's
# links inline across them (LTO_LINK; 2 % fewer instructions for the cleanup chain).
CLD2_LTO_SRC := cldutil cldutil_shared tote scoreonescriptspan getonescriptspan compact_lang_det_impl
$(CLD2_LTO_SRC:%=$(BUILD)/third_party/cld2/internal/%.o): CLD2_CXXFLAGS += -flto -ffat-lto-objects
LTO_LINK := $(if $(filter 1,$(SAN)),,-flto=auto -O3)
TOOL_SRC_minhash := dedup/minhash_main.c
TOOL_SRC_find_duplicates := dedup/find_duplicates_main.c
TOOL_SRC_group_duplicates := dedup/group_duplicates_main.c
TOOL_SRC_remove_duplicates := dedup/remove_duplicates_main.c
TOOL_SRC_substr_dedup := dedup/substr_dedup_main.c
# libsais (third_party/libsais: Ilya Grebnov's suffix array construction, Apache-2.0, not in
# Debian; see its VERSION.md): the 8- and 16-bit builders, at -O3 with OpenMP where the build
# has it, its warnings not ours (-w).
LIBSAIS_SRC := third_party/libsais/src/libsais.c third_party/libsais/src/libsais16.c
LIBSAIS_CFLAGS = -std=gnu11 -O3 -g0 -w $(SANFLAGS) $(OMPFLAGS) $(if $(OMPFLAGS),-DLIBSAIS_OPENMP) -Ithird_party/libsais/include -MMD -MP
$(BUILD)/third_party/libsais/%.o: third_party/libsais/%.c $(CONFIG)
	@mkdir -p $(dir $@)
	@$(CC) $(LIBSAIS_CFLAGS) -c $< -o $@
TOOL_SRC_blacklist_urls := preprocess/filters/blacklist_urls_main.c
TOOL_SRC_shuffle := preprocess/shuffle/shuffle_main.c
TOOL_SRC_tokenize := tokenizer/tokenize_main.c
TOOL_SRC_preprocess_data := tokenizer/preprocess_data_main.c
TOOL_SRC_merge_datasets := tokenizer/merge_datasets_main.c
TOOL_SRC_inspect_dataset := tokenizer/inspect_dataset_main.c
TOOL_SRC_train_bpe := tokenizer/train_bpe_main.c

# The trainer: train/ depends on common/ and tokenizer/ only.
TRAIN_LIB_SRC := $(filter-out train/train_main.c train/generate_main.c train/evaluate_main.c train/convert_checkpoint_main.c,$(wildcard train/*.c train/*/*.c))
# The communicator (train/parallel) uses MPI when mpicc is found; the trainer and the tests
# that reach it link libmpi. The stamp rebuilds dist.o when MPI appears or goes.
MPI_CFLAGS := $(if $(filter yes,$(HAVE_MPI)),-DWEBTEXT_MPI $(CONF_MPI_CFLAGS))
MPI_LIBS := $(if $(filter yes,$(HAVE_MPI)),$(CONF_MPI_LIBS))
$(BUILD)/train/parallel/dist.o: ALL_CFLAGS += $(MPI_CFLAGS)
$(BUILD)/train/parallel/dist.o: $(BUILD)/.mpi-$(HAVE_MPI)
$(BUILD)/.mpi-%:
	@mkdir -p $(dir $@)
	@rm -f $(BUILD)/.mpi-*
	@touch $@
TOOLS += train generate evaluate convert_checkpoint
# The trainer's numerical kernels are compiled for this machine's vector units
# (AVX2/AVX-512); `make TRAIN_ARCH=` builds a portable trainer.
TRAIN_ARCH ?= -march=native
# Fuzz targets are built without OpenMP; they reach only these trainer files.
FUZZ_TRAIN_SRC := train/model/safetensors.c train/model/hfconv.c train/model/ckpt.c train/model/gpt.c train/model/gpt_parts.c train/model/tensor_parallel.c train/model/zero_units.c train/cpu/kernels.c train/cpu/ops.c train/cpu/blas.c train/parallel/dist.c train/parallel/comm.c \
                  train/data/gptdata.c train/data/mt19937.c
$(BUILD)/train/%.o: ALL_CFLAGS += $(if $(filter 1,$(SAN)),,-O3) $(TRAIN_ARCH)
# Megatron's index arithmetic must round like its (FMA-free) C++ and numpy.
$(BUILD)/train/data/gptdata.o: ALL_CFLAGS += -ffp-contract=off
TOOL_SRC_train := train/train_main.c
TOOL_SRC_generate := train/generate_main.c
TOOL_SRC_evaluate := train/evaluate_main.c
TOOL_SRC_convert_checkpoint := train/convert_checkpoint_main.c

# The CUDA backend (train/cuda/*.cu), when nvcc is found: the trainer gets
# --device cuda. ASan builds are CPU-only (the sanitizers and the CUDA driver do
# not mix). CUDA_ARCH: the GPU generations to build for (bf16 needs 80+).
BUILD_CUDA := $(if $(filter 1,$(SAN)),no,$(HAVE_NVCC))
CUDA_HOME ?= $(CONF_CUDA_HOME)
CUDA_ARCH ?= 80 90
NVCCFLAGS = -std=c++17 -O3 -g $(foreach a,$(CUDA_ARCH),-gencode arch=compute_$(a),code=sm_$(a)) -I. \
  -Xcompiler -Wall,-Wextra,-Wno-unused-parameter $(if $(OMPFLAGS),-Xcompiler -fopenmp) -MMD -MP
# cuDNN (fused attention, train/cuda/cudnn_attention.cpp): built when cuDNN 9 and the
# cuDNN frontend headers (fetched by scripts/setup/install_deps.sh into build/third_party) are found.
CUDNN_FE_INC := $(CONF_CUDNN_FE_INC)
CUDNN_LIBDIR := $(CONF_CUDNN_LIBDIR)
HAVE_CUDNN := $(if $(and $(filter yes,$(BUILD_CUDA)),$(CUDNN_FE_INC),$(CUDNN_LIBDIR)),yes,no)
# NCCL (train/parallel/nccl.cu: data parallelism on the CUDA backend) when nccl.h is found.
BUILD_NCCL := $(if $(and $(filter yes,$(BUILD_CUDA)),$(filter yes,$(HAVE_NCCL))),yes,no)
CUDA_SRC := $(if $(filter yes,$(BUILD_CUDA)),$(wildcard train/cuda/*.cu)) $(if $(filter yes,$(BUILD_NCCL)),train/parallel/nccl.cu)
CUDA_OBJ := $(CUDA_SRC:%.cu=$(BUILD)/%.o) $(if $(filter yes,$(HAVE_CUDNN)),$(BUILD)/train/cuda/cudnn_attention.o)
NVCCFLAGS += $(if $(filter yes,$(HAVE_CUDNN)),-DWEBTEXT_CUDNN) $(if $(filter yes,$(BUILD_NCCL)),-DWEBTEXT_NCCL)
CUDNN_LIBS_yes = -L$(CUDNN_LIBDIR) -Wl,-rpath,$(CUDNN_LIBDIR) -lcudnn -lnvrtc
CUDA_LIBS_yes = -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 $(CUDNN_LIBS_$(HAVE_CUDNN)) $(if $(filter yes,$(BUILD_NCCL)),-lnccl) -lcublasLt -lcublas \
  -lcudart_static -ldl -lrt -lstdc++
CUDA_LIBS = $(CUDA_LIBS_$(BUILD_CUDA))
$(CUDA_SRC:%.cu=$(BUILD)/%.o): $(BUILD)/.cudnn-$(HAVE_CUDNN)-nccl-$(BUILD_NCCL)
$(BUILD)/.cudnn-%:
	@mkdir -p $(dir $@)
	@rm -f $(BUILD)/.cudnn-*
	@touch $@
# Host C++ only: the large frontend headers are compiled once, not per GPU architecture.
$(BUILD)/train/cuda/cudnn_attention.o: train/cuda/cudnn_attention.cpp $(CONFIG)
	@mkdir -p $(dir $@)
	$(CXX) -std=gnu++17 -O1 -g0 -Wall -Wextra -I. -isystem $(CUDNN_FE_INC) -isystem $(CUDA_HOME)/include -MMD -MP -c $< -o $@
GPU_TEST_SRC := $(wildcard tests/gpu/test_*.cu)
GPU_TEST_BINS := $(if $(filter yes,$(BUILD_CUDA)),$(GPU_TEST_SRC:tests/gpu/%.cu=$(BUILD)/tests/gpu/%))
$(BUILD)/train/trainer.o $(BUILD)/train/trainer_setup.o $(BUILD)/train/backend.o $(BUILD)/train/parallel/comm.o $(BUILD)/train/build_info.o: ALL_CFLAGS += $(if $(filter yes,$(BUILD_CUDA)),-DWEBTEXT_CUDA) \
  $(if $(filter yes,$(BUILD_NCCL)),-DWEBTEXT_NCCL)
$(BUILD)/train/trainer.o $(BUILD)/train/trainer_setup.o $(BUILD)/train/backend.o $(BUILD)/train/parallel/comm.o $(BUILD)/train/build_info.o: $(BUILD)/.cuda-$(BUILD_CUDA)-nccl-$(BUILD_NCCL)
$(BUILD)/.cuda-%:
	@mkdir -p $(dir $@)
	@rm -f $(BUILD)/.cuda-*
	@touch $@

LIB_SRC := $(COMMON_SRC) $(PREPROCESS_LIB_SRC) $(TOKENIZER_LIB_SRC) $(DEDUP_LIB_SRC) $(TRAIN_LIB_SRC)
LIB_CXX_SRC := preprocess/text/langid_cld2.cc
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(LIB_CXX_SRC:%.cc=$(BUILD)/%.o) $(CUDA_OBJ) $(LEXBOR_SRC:%.c=$(BUILD)/%.o) $(CLD2_SRC:%.cc=$(BUILD)/%.o) \
  $(LIBSAIS_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libwebtext.a
TOOL_BINS := $(TOOLS:%=$(BIN)/%)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)

# Profile-guided optimisation of the cleanup chain's own files (release builds; `make PGO=0`
# builds without it). Those files are first compiled with GCC's instrumentation into
# $(BUILD)/pgo-gen/ and linked, with the rest of the library, into a cleanup that runs the
# chain with and without the four quality filters on data/corpus/wikinews.jsonl.zst (not the
# benchmarks' enwiki text); the counts it writes ($(BUILD)/pgo-data/) then steer the real
# compile of the same files (branch layout, inlining, unrolling where the run was hot; what
# it never reached is compiled as without a profile). Same code, same results: about 5 %
# fewer instructions and 3-5 % less time for the chain with the filters, fix_text alone 1.6-1.9
# times as fast (docs/benchmarks.md).
# Only files no other tool runs are trained, so no other tool's code is laid out for
# cleanup's use of it. CLD2's scoring files (CLD2_LTO_SRC; only cleanup identifies languages)
# are trained in the same run and compiled as before plus the profile: 7 % fewer
# instructions in CLD2, its answers unchanged (test_cld2_vendored compares them with Debian's).
PGO ?= $(if $(filter 1,$(SAN)),0,$(if $(filter yes,$(CONF_HAVE_PGO)),1,0))
PGO_SRC := preprocess/filters/cleanup.c preprocess/filters/cleanup_main.c preprocess/text/fixtext.c preprocess/text/spacy_tok.c \
  preprocess/filters/quality.c preprocess/filters/quality_gopher_repetition.c preprocess/filters/quality_gopher_quality.c \
  preprocess/filters/quality_c4.c preprocess/filters/quality_fineweb.c
PGO_GEN := $(BUILD)/pgo-gen
PGO_DATA := $(BUILD)/pgo-data
PGO_TRAIN := data/corpus/wikinews.jsonl.zst
PGO_OBJ := $(PGO_SRC:%.c=$(BUILD)/%.o)
PGO_CXX_SRC := $(CLD2_LTO_SRC:%=$(CLD2_DIR)/internal/%.cc)
PGO_CXX_OBJ := $(PGO_CXX_SRC:%.cc=$(BUILD)/%.o)
# (switching PGO on or off rebuilds those files)
$(PGO_OBJ) $(PGO_CXX_OBJ): $(BUILD)/.pgo-$(PGO)
$(BUILD)/.pgo-%:
	@mkdir -p $(dir $@)
	@rm -f $(BUILD)/.pgo-*
	@touch $@
ifeq ($(PGO),1)
# (-dumpbase: the counts file is named after the source, and GCC's ids of static functions,
# which include that name, are the same in both compiles whatever the object's path)
PGO_NAME = -fprofile-prefix-path=$(CURDIR) -dumpbase $<
$(PGO_OBJ): private ALL_CFLAGS += -fprofile-use=$(abspath $(PGO_DATA)) $(PGO_NAME) -fprofile-partial-training
$(PGO_CXX_OBJ): private CLD2_CXXFLAGS += -fprofile-use=$(abspath $(PGO_DATA)) $(PGO_NAME) -fprofile-partial-training
$(PGO_OBJ) $(PGO_CXX_OBJ): $(PGO_DATA)/trained
$(PGO_GEN)/%.o: %.c $(CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fprofile-generate=$(abspath $(PGO_DATA)) $(PGO_NAME) -c $< -o $@
$(PGO_GEN)/%.o: %.cc $(CONFIG)
	@mkdir -p $(dir $@)
	@$(CXX) $(CLD2_CXXFLAGS) -flto -ffat-lto-objects -fprofile-generate=$(abspath $(PGO_DATA)) $(PGO_NAME) -c $< -o $@
$(PGO_GEN)/librest.a: $(filter-out $(PGO_OBJ) $(PGO_CXX_OBJ),$(LIB_OBJ))
	@rm -f $@
	@ar rcs $@ $^
$(PGO_GEN)/cleanup: $(PGO_SRC:%.c=$(PGO_GEN)/%.o) $(PGO_CXX_SRC:%.cc=$(PGO_GEN)/%.o) $(PGO_GEN)/librest.a
	$(CC) $(ALL_CFLAGS) -fprofile-generate $^ -o $@ $(LDLIBS)
$(PGO_DATA)/trained: $(PGO_GEN)/cleanup $(PGO_TRAIN)
	@rm -rf $(PGO_DATA) && mkdir -p $(PGO_DATA)
	@echo "pgo: training cleanup on $(PGO_TRAIN)"
	@$(PGO_GEN)/cleanup -q -j 1 --filters gopher_repetition,gopher_quality,c4_quality,fineweb_quality $(PGO_TRAIN) /dev/null
	@$(PGO_GEN)/cleanup -q -j 1 $(PGO_TRAIN) /dev/null
	@n=$$(ls $(PGO_DATA)/*.gcda | wc -l); [ "$$n" -eq $(words $(PGO_SRC) $(PGO_CXX_SRC)) ] || \
	  { echo "pgo: $$n counts files in $(PGO_DATA), $(words $(PGO_SRC) $(PGO_CXX_SRC)) expected" >&2; exit 1; }
	@touch $@
-include $(PGO_SRC:%.c=$(PGO_GEN)/%.d) $(PGO_CXX_SRC:%.cc=$(PGO_GEN)/%.d)
endif

.PHONY: install install-files uninstall all tools deps probe test test-run test-bins test-gpu test-gpu-run bench-gpu fuzz fuzz-bins reliability bench data train clean distclean
.DELETE_ON_ERROR:

# What is missing was installed and probed before any rule is planned (build/config.mk above).
all: tools

# Manual pages, made from each tool's --help by help2man (scripts/setup/gen_man.sh) when it is
# installed (scripts/setup/install_deps.sh installs it); `make install` puts them in man1.
HAVE_HELP2MAN := $(or $(CONF_HAVE_HELP2MAN),no)
MAN_PAGES := $(if $(filter yes,$(HAVE_HELP2MAN)),$(TOOLS:%=$(BUILD)/man/%.1))
$(BUILD)/man/%.1: $(BIN)/% scripts/setup/gen_man.sh
	@scripts/setup/gen_man.sh $< $@

tools: probe $(TOOL_BINS) $(MAN_PAGES)


probe:
	@echo "build: $(if $(filter 1,$(SAN)),ASan+UBSan,release) into $(BIN)/ | nvcc: $(HAVE_NVCC) (CUDA backend: $(BUILD_CUDA), cuDNN attention: $(HAVE_CUDNN)), NCCL: $(HAVE_NCCL), OpenMPI: $(HAVE_MPI), OpenMP: $(HAVE_OPENMP), libFuzzer: $(HAVE_FUZZ), PGO: $(if $(filter 1,$(PGO)),yes,no)"

# Installing what is missing is the config.mk rule's first step: `make deps` does only that.
deps: $(CONFIG)

$(BUILD)/%.o: %.c $(CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.cu $(CONFIG)
	@mkdir -p $(dir $@)
	nvcc $(NVCCFLAGS) -c $< -o $@

$(BUILD)/tests/gpu/%: tests/gpu/%.cu $(LIB)
	@mkdir -p $(dir $@)
	nvcc $(NVCCFLAGS) -c $< -o $@.o
	$(CC) $(ALL_CFLAGS) $@.o $(LIB) -o $@ $(LDLIBS) $(MPI_LIBS) $(CUDA_LIBS)

$(BUILD)/%.o: %.cc $(CONFIG)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_CXXFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

define TOOL_RULE
$(BIN)/$(1): $(TOOL_SRC_$(1):%.c=$(BUILD)/%.o) $(LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) $$(LTO_LINK) $$^ -o $$@ $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call TOOL_RULE,$(t))))

$(BIN)/train $(BIN)/generate $(BIN)/evaluate $(BIN)/convert_checkpoint $(UNIT_BINS): LDLIBS += $(MPI_LIBS) $(CUDA_LIBS)
$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LTO_LINK) $^ -o $@ $(LDLIBS)

# test_launch links the communicator compiled without MPI (the refusal of a launch
# of several copies by a trainer built without it), whatever this build has.
$(BUILD)/tests/dist_nompi.o: train/parallel/dist.c $(CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@
$(BUILD)/tests/test_launch: $(BUILD)/tests/unit/test_launch.o $(BUILD)/tests/dist_nompi.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)

# The unit tests' and benchmark drivers' objects are kept (not removed as intermediate
# files: make's "rm ..." would print after the test runner's summary line).
.SECONDARY: $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.o) $(patsubst %.c,$(BUILD)/%.o,$(wildcard bench/*.c))

# Benchmark drivers (bench/*.c), built by `make bench` only.
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LTO_LINK) $^ -o $@ $(LDLIBS)

# Fuzz targets: clang + libFuzzer + ASan/UBSan. The library sources are compiled
# once (coverage-instrumented objects in build/fuzz/obj/), each target links them.
# preprocess/filters/cleanup.c (the cleanup stage) and preprocess/web/extract.c (extract's
# records and batches, with --language) need CLD2, C++ that only fuzz_langid links; no other
# target reaches them.
FUZZ_LIB_SRC := $(filter-out $(TRAIN_LIB_SRC) preprocess/filters/cleanup.c preprocess/web/extract.c,$(LIB_SRC)) $(FUZZ_TRAIN_SRC) $(LEXBOR_SRC) \
  $(LIBSAIS_SRC)
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=build/fuzz/obj/%.o)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -I. -isystem $(LEXBOR_DIR) $(PKG_CFLAGS) -MMD -MP
# BPE's merge loop compares ranks and hash slots, not input bytes: libFuzzer's
# comparison tracing there guides nothing and halved fuzz_bpe's rate (about 500
# against 1,050 executions a second). Edge coverage stays.
build/fuzz/obj/tokenizer/encode.o: FUZZ_OBJ_FLAGS := -fno-sanitize-coverage=trace-cmp
build/fuzz/obj/%.o: %.c $(CONFIG)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined $(FUZZ_OBJ_FLAGS) -c $< -o $@
build/fuzz/obj/third_party/libsais/%.o: third_party/libsais/%.c $(CONFIG)
	@mkdir -p $(dir $@)
	@clang -std=gnu11 -g -O1 -w -Ithird_party/libsais/include -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
build/fuzz/obj/third_party/%.o: third_party/%.c $(CONFIG)
	@mkdir -p $(dir $@)
	@clang -std=gnu11 -g -O1 -w -DLEXBOR_STATIC -I$(LEXBOR_DIR) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB_OBJ) $(CONFIG)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined $< $(FUZZ_LIB_OBJ) $(FUZZ_EXTRA_OBJ) -o $@ $(filter-out -fopenmp,$(LDLIBS))
# fuzz_langid: language identification, C++ (langid_cld2.cc with ASan and UBSan; CLD2's own
# code with ASan only: its state machines shift negative offsets, as the compilers define)
FUZZ_CLD2_OBJ := $(CLD2_SRC:%.cc=build/fuzz/obj/%.o) build/fuzz/obj/preprocess/text/langid_cld2.o
build/fuzz/obj/third_party/cld2/%.o: third_party/cld2/%.cc $(CONFIG)
	@mkdir -p $(dir $@)
	@clang++ -std=gnu++11 -g -O1 -w -fsanitize=fuzzer-no-link,address -c $< -o $@
build/fuzz/obj/preprocess/text/langid_cld2.o: preprocess/text/langid_cld2.cc $(CONFIG)
	@mkdir -p $(dir $@)
	clang++ -std=gnu++17 -g -O1 -Wall -Wextra -I. -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@
build/fuzz/fuzz_langid: $(FUZZ_CLD2_OBJ)
build/fuzz/fuzz_langid: FUZZ_EXTRA_OBJ = $(FUZZ_CLD2_OBJ) -lstdc++
.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_CLD2_OBJ)
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_CLD2_OBJ:.o=.d) $(FUZZ_BINS:%=%.d)

# Test and benchmark helpers (tests/tools/*.c): the synthetic corpora of the MinHash scaling
# simulation and tests.
TEST_TOOLS := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(wildcard tests/tools/*.c))
$(BUILD)/tests/%: $(BUILD)/tests/tools/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDLIBS)
.SECONDARY: $(patsubst %.c,$(BUILD)/%.o,$(wildcard tests/tools/*.c))

test-bins: tools $(UNIT_BINS) $(GPU_TEST_BINS) $(TEST_TOOLS)
fuzz-bins: $(if $(filter yes,$(HAVE_FUZZ)),$(FUZZ_BINS))

FUZZ_RUNS ?= 10000000
FUZZ_SECONDS ?= 0
TEST_FUZZ_SECONDS ?= 5

# `make test`: what the tests need was installed (install_deps.sh --test) before planning.
test: test-run

test-run: test-bins $(if $(filter 1,$(SAN)),,fuzz-bins)
	+@BIN=$(BIN) BUILD=$(BUILD) TEST_TIER=$(if $(filter 1,$(SAN)),san,rel) HAVE_FUZZ=$(if $(filter 1,$(SAN)),san,$(HAVE_FUZZ)) FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) tests/run_tests.sh

# The GPU tests alone (they are also part of `make test`, which skips them
# without a GPU): every CUDA kernel against its CPU reference, then training
# runs against the CPU backend.
test-gpu: test-gpu-run

test-gpu-run: tools $(GPU_TEST_BINS)
	@if [ "$(BUILD_CUDA)" != yes ]; then echo "test-gpu: nvcc not found: this build has no CUDA backend"; exit 1; fi
	@BIN=$(BIN) BUILD=$(BUILD) tests/run_tests.sh --gpu-only

bench-gpu: all
	@BIN=$(BIN) bash bench/bench_gpu.sh

# The full crash / fault / memory / pathological-input campaign (about an hour).
reliability: tools
	+@bash scripts/check/reliability.sh

fuzz: fuzz-bins
	@if [ "$(HAVE_FUZZ)" != yes ]; then echo "fuzz: clang with libFuzzer not found (apt-get install clang libclang-rt-dev)"; exit 1; fi
	@FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/check/fuzz_campaign.sh

bench: all $(TEST_TOOLS)
	+@for b in bench/bench_*.sh; do [ "$$b" = bench/bench_gpu.sh ] && { echo "== $$b: skipped (make bench-gpu runs it on a GPU machine)"; continue; }; echo "== $$b"; BIN=$(BIN) bash $$b || exit 1; done

# Install the tools, the GPT-2 vocabulary they default to and their --help texts.
# Nothing refers back to the source tree: the tools find PREFIX/share/webtext-gpt
# from their own location, so the installed tree can be moved.
PREFIX ?= /usr/local
SHAREDIR = $(DESTDIR)$(PREFIX)/share/webtext-gpt
DOCDIR = $(DESTDIR)$(PREFIX)/share/doc/webtext-gpt
install: all
	@$(MAKE) --no-print-directory install-files PREFIX=$(PREFIX) SAN=$(SAN)

MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
install-files: $(MAN_PAGES)
	@for t in $(TOOLS); do [ -x $(BIN)/$$t ] || { echo "install: $(BIN)/$$t is missing; run make first" >&2; exit 2; }; done
	install -d $(DESTDIR)$(PREFIX)/bin $(SHAREDIR)/gpt2 $(SHAREDIR)/eval $(DOCDIR)/docs
	install -m 755 $(TOOLS:%=$(BIN)/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 data/gpt2/encoder.json data/gpt2/vocab.bpe $(SHAREDIR)/gpt2/
	install -m 644 data/eval/*.jsonl data/eval/ATTRIBUTION.md $(SHAREDIR)/eval/
	install -m 644 README.md $(DOCDIR)/
	install -m 644 docs/*.md $(DOCDIR)/docs/
	@for t in $(TOOLS); do $(BIN)/$$t --help > $(DOCDIR)/$$t.txt 2>&1 || true; done
	$(if $(MAN_PAGES),install -d $(MAN1DIR) && install -m 644 $(MAN_PAGES) $(MAN1DIR)/,@echo "install: help2man not found: no manual pages (scripts/setup/install_deps.sh installs it)" >&2)
	@echo "installed $(words $(TOOLS)) tools into $(DESTDIR)$(PREFIX)/bin, the GPT-2 vocabulary into $(SHAREDIR)/gpt2, help texts and docs into $(DOCDIR)$(if $(MAN_PAGES),, no) manual pages$(if $(MAN_PAGES), into $(MAN1DIR))"

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(PREFIX)/bin/%) $(TOOLS:%=$(MAN1DIR)/%.1)
	rm -rf $(SHAREDIR) $(DOCDIR)

# The corpus pipeline on data/corpus : see docs/pipeline.md. QUALITY=fineweb (or gopher, c4)
# adds datatrove's heuristic quality filters to the cleanup stage.
QUALITY ?= none
# WARC=FILES adds web pages (WARC / WET / HTML, through extract) as the corpus "web";
# URLS=LIST first downloads a URL list (blacklist_urls, download) into data/build/warc.
data: all
	+@BIN=$(BIN) scripts/make/make_data.sh QUALITY=$(QUALITY) $(if $(SUBSTR),SUBSTR=$(SUBSTR)) $(if $(WARC),WARC="$(WARC)") $(if $(URLS),URLS="$(URLS)") \
	  $(if $(DECONTAMINATE),DECONTAMINATE="$(DECONTAMINATE)") $(if $(DECONT_FLAGS),DECONT_FLAGS="$(DECONT_FLAGS)") \
	  $(if $(DOWNLOAD_FLAGS),DOWNLOAD_FLAGS="$(DOWNLOAD_FLAGS)") $(if $(TOKENIZER),TOKENIZER=$(TOKENIZER)) \
	  $(if $(BPE_VOCAB_SIZE),BPE_VOCAB_SIZE=$(BPE_VOCAB_SIZE))

# Train a small GPT-2 on what `make data` built, then sample from it: see docs/pipeline.md.
train: all
	+@BIN=$(BIN) scripts/make/make_train.sh

clean:
	rm -rf build bin

-include $(LIB_OBJ:.o=.d) $(GPU_TEST_BINS:%=%.d) $(foreach t,$(TOOLS),$(TOOL_SRC_$(t):%.c=$(BUILD)/%.d)) $(UNIT_SRC:%.c=$(BUILD)/%.d)
