# data.mk - the corpus pipeline behind `make data`, as make rules: a stage runs
# again only when one of its inputs, or the tool that makes it, is newer than
# its output. Every tool writes its output under a temporary name and renames
# it when complete, so an interrupted run leaves nothing that looks finished.
#   cleanup     fix_text, English only, drop short documents (per corpus)
#   dedup       minhash -> find_duplicates -> group_duplicates -> remove_duplicates
#   decont      (DECONTAMINATE=DIR) decontaminate: what overlaps the evaluation sets in DIR
#               (JSON lines; data/eval has HellaSwag, ARC-Easy, PIQA) cut out as GPT-3 and
#               lm-evaluation-harness's Janitor do; B/decont_report.jsonl names each match
#   substr      (SUBSTR=1) substr_dedup: repeated spans of 50+ GPT-2 tokens struck from their
#               later copies (exact-substring deduplication after MinHash, as RefinedWeb)
#   shuffle     all corpora together, seeded
#   vocabulary  (TOKENIZER=trained, the default) train_bpe on the shuffled corpus: a byte-level
#               BPE of BPE_VOCAB_SIZE tokens in B/bpe/ (encoder.json, vocab.bpe)
#   tokenize    that BPE (or GPT-2's, TOKENIZER=gpt2) into the Megatron dataset
#               B/corpus_text_document.bin/.idx; B/corpus_text_document.tokenizer holds the
#               flags that name it (train and generate take them)
#   download    (with URLS=...) the URL list through blacklist_urls, fetched into B/warc/
#   extract     (with WARC=... or URLS=...) web pages to documents, cleaned as the corpus "web"
# Variables: BIN (tools), CORPUS_DIR (inputs NAME.jsonl.zst), CORPORA (their names),
# WARC (WARC / WET / HTML files or directories to extract, optional), URLS (URL lists to
# download first, optional; DOWNLOAD_FLAGS for download, e.g. --wait 0.5 -j 128),
# B (outputs), QUALITY (none, fineweb, gopher, c4: quality filters in cleanup), SUBSTR (0 or 1),
# DECONTAMINATE (a directory or file of evaluation sets, optional; DECONT_FLAGS), TOKENIZER
# (trained or gpt2), BPE_VOCAB_SIZE (4096). Run from the project root: make -f scripts/make/data.mk
BIN ?= bin
CORPUS_DIR ?= data/corpus
CORPORA ?= enwiki_sample wikinews
B ?= data/build
# TOKENIZER: the vocabulary of the dataset.
#   trained  a byte-level BPE trained on the corpus by train_bpe (default): a few thousand
#            tokens, so that a small model's compute goes to its layers, not to a 50,257-word
#            embedding and output layer
#   gpt2     GPT-2's 50,257 tokens (data/gpt2), as Megatron's GPT2BPETokenizer
TOKENIZER ?= trained
BPE_VOCAB_SIZE ?= 4096
VOCAB_gpt2 := data/gpt2/encoder.json data/gpt2/vocab.bpe
VOCAB_trained := $(B)/bpe/encoder.json $(B)/bpe/vocab.bpe
ifeq ($(origin VOCAB_$(TOKENIZER)),undefined)
$(error TOKENIZER=$(TOKENIZER): trained or gpt2)
endif
VOCAB := $(VOCAB_$(TOKENIZER))
VOCAB_FLAGS := --vocab-file $(word 1,$(VOCAB)) --merge-file $(word 2,$(VOCAB))
CLEAN := $(CORPORA:%=$(B)/%.clean.jsonl.zst)
WARC ?=
URLS ?=
DOWNLOAD_FLAGS ?=
WEB_INPUTS := $(WARC) $(if $(strip $(URLS)),$(B)/warc)
WEB_DEPS := $(WARC) $(if $(strip $(URLS)),$(B)/warc/.complete)
ifneq ($(strip $(WEB_INPUTS)),)
CLEAN += $(B)/web.clean.jsonl.zst
endif

.DELETE_ON_ERROR:
# One stage at a time (each tool uses every core itself), so that each prints its summary whole.
.NOTPARALLEL:
.PHONY: all
all: $(B)/corpus_text_document.idx
	@echo "make data: $(B)/corpus.jsonl.zst and $(B)/corpus_text_document.bin/.idx ($(if $(filter trained,$(TOKENIZER)),a $(BPE_VOCAB_SIZE)-token BPE trained on the corpus: $(B)/bpe/,GPT-2's BPE)) are up to date"

$(B):
	mkdir -p $@

# QUALITY: datatrove's heuristic quality filters after the OpenWebText steps of cleanup.
#   none     the OpenWebText recipe only (default)
#   fineweb  FineWeb's chain: Gopher repetition, Gopher quality, C4 (keeping lines without
#            terminal punctuation, as FineWeb does), FineWeb quality
#   gopher   Gopher repetition and quality (MassiveText)
#   c4       C4's line and document rules
QUALITY ?= none
QUALITY_FLAGS_none :=
QUALITY_FLAGS_fineweb := --filters gopher_repetition,gopher_quality,c4_quality,fineweb_quality \
  --c4-filter-no-terminal-punct false
QUALITY_FLAGS_gopher := --filters gopher_repetition,gopher_quality
QUALITY_FLAGS_c4 := --filters c4_quality
ifeq ($(origin QUALITY_FLAGS_$(QUALITY)),undefined)
$(error QUALITY=$(QUALITY): none, fineweb, gopher or c4)
endif
# a change of QUALITY cleans again
$(B)/.quality-$(QUALITY): | $(B)
	@rm -f $(B)/.quality-*
	@touch $@

$(B)/%.clean.jsonl.zst: $(CORPUS_DIR)/%.jsonl.zst $(BIN)/cleanup $(B)/.quality-$(QUALITY) | $(B)
	$(BIN)/cleanup $< $@ --removed $(B)/$*.removed.jsonl.zst $(QUALITY_FLAGS_$(QUALITY))

# A URL list (URLS=...): OpenWebText's URL rules, then every kept URL fetched into WARC
# files (download resumes where an interrupted run stopped; the stamp says it ended).
$(B)/urls.kept.txt: $(URLS) $(BIN)/blacklist_urls | $(B)
	$(BIN)/blacklist_urls $(URLS) -o $@

$(B)/warc/.complete: $(B)/urls.kept.txt $(BIN)/download
	$(BIN)/download $< -o $(B)/warc $(DOWNLOAD_FLAGS)
	touch $@

# Web pages (WARC=... and the downloaded ones): extract's documents, then cleanup as any corpus
$(B)/web.jsonl.zst: $(WEB_DEPS) $(BIN)/extract | $(B)
	$(BIN)/extract $(WEB_INPUTS) -o $@ --rejected $(B)/web.rejected.tsv

$(B)/web.clean.jsonl.zst: $(B)/web.jsonl.zst $(BIN)/cleanup $(B)/.quality-$(QUALITY) | $(B)
	$(BIN)/cleanup $< $@ --removed $(B)/web.removed.jsonl.zst $(QUALITY_FLAGS_$(QUALITY))

$(B)/corpus.mh: $(CLEAN) $(BIN)/minhash
	$(BIN)/minhash --id-field url $(CLEAN) -o $@

$(B)/pairs.jsonl: $(B)/corpus.mh $(BIN)/find_duplicates
	$(BIN)/find_duplicates $< --threshold 0.8 -o $@

$(B)/groups.jsonl: $(B)/pairs.jsonl $(BIN)/group_duplicates
	$(BIN)/group_duplicates --threshold 0.9 $< -o $@

$(B)/dedup.jsonl.zst: $(B)/groups.jsonl $(CLEAN) $(BIN)/remove_duplicates
	$(BIN)/remove_duplicates --id-field url --groups $< $(CLEAN) -o $@ --removed $(B)/dups_removed.jsonl

# SUBSTR=1: exact-substring deduplication after MinHash (a change of SUBSTR shuffles again)
SUBSTR ?= 0
ifeq ($(filter 0 1,$(SUBSTR)),)
$(error SUBSTR=$(SUBSTR): 0 or 1)
endif
$(B)/.substr-$(SUBSTR): | $(B)
	@rm -f $(B)/.substr-*
	@touch $@

# DECONTAMINATE=DIR: decontamination against the evaluation sets in DIR, after MinHash (a
# change of DECONTAMINATE or DECONT_FLAGS runs it, and what follows, again)
DECONTAMINATE ?=
DECONT_FLAGS ?=
DECONT_KEY := $(shell printf '%s' '$(DECONTAMINATE) $(DECONT_FLAGS)' | cksum | cut -d' ' -f1)
$(B)/.decont-$(DECONT_KEY): | $(B)
	@rm -f $(B)/.decont-*
	@touch $@
ifneq ($(strip $(DECONTAMINATE)),)
DEDUP_OUT := $(B)/decont.jsonl.zst
$(B)/decont.jsonl.zst: $(B)/dedup.jsonl.zst $(BIN)/decontaminate $(B)/.decont-$(DECONT_KEY)
	$(BIN)/decontaminate --eval $(DECONTAMINATE) $(DECONT_FLAGS) --id-field url $< -o $@ --report $(B)/decont_report.jsonl
else
DEDUP_OUT := $(B)/dedup.jsonl.zst
endif

$(B)/substr.jsonl.zst: $(DEDUP_OUT) $(BIN)/substr_dedup $(B)/.decont-$(DECONT_KEY)
	$(BIN)/substr_dedup --id-field url $< -o $@ --spans $(B)/substr_spans.jsonl

SHUFFLE_IN_0 := $(DEDUP_OUT)
SHUFFLE_IN_1 := $(B)/substr.jsonl.zst
$(B)/corpus.jsonl.zst: $(SHUFFLE_IN_$(SUBSTR)) $(BIN)/shuffle $(B)/.substr-$(SUBSTR) $(B)/.decont-$(DECONT_KEY)
	$(BIN)/shuffle --seed 1234 $< -o $@

# a change of TOKENIZER or BPE_VOCAB_SIZE tokenizes again
$(B)/.tokenizer-$(TOKENIZER)-$(BPE_VOCAB_SIZE): | $(B)
	@rm -f $(B)/.tokenizer-*
	@touch $@

$(B)/bpe/encoder.json $(B)/bpe/vocab.bpe &: $(B)/corpus.jsonl.zst $(BIN)/train_bpe $(B)/.tokenizer-$(TOKENIZER)-$(BPE_VOCAB_SIZE)
	$(BIN)/train_bpe --input $< --vocab-size $(BPE_VOCAB_SIZE) --output-dir $(B)/bpe

$(B)/corpus_text_document.bin $(B)/corpus_text_document.idx &: $(B)/corpus.jsonl.zst $(BIN)/preprocess_data $(VOCAB) \
    $(B)/.tokenizer-$(TOKENIZER)-$(BPE_VOCAB_SIZE)
	$(BIN)/preprocess_data --input $< --output-prefix $(B)/corpus --append-eod --workers $(shell nproc) $(VOCAB_FLAGS)
	@echo "$(VOCAB_FLAGS)" > $(B)/corpus_text_document.tokenizer.tmp && mv $(B)/corpus_text_document.tokenizer.tmp $(B)/corpus_text_document.tokenizer
	$(BIN)/inspect_dataset $(B)/corpus_text_document
