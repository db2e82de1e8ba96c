/* hfconv.h - our GPT-2 model <-> a Hugging Face GPT-2 checkpoint directory
 * (FORMATS.md section 7): config.json, model.safetensors (F32; HF's Conv1D
 * weights stored [in, out], the transpose of ours; wte without our vocabulary
 * padding; lm_head tied to wte, not stored) and the tokenizer files
 * (vocab.json, merges.txt, tokenizer_config.json, special_tokens_map.json). */
#ifndef TRAIN_HFCONV_H
#define TRAIN_HFCONV_H

#include "train/model/gpt.h"

struct bpe;
/* Write m (a whole model) into the new directory dir (refused if it exists and
 * is not empty), built under a temporary name and renamed when complete.
 * tok: the tokenizer the model was trained with; GPT-2's ships as its
 * vocab.json/merges.txt (vocab/merges, the files it was read from), other
 * byte-level BPEs as a tokenizer.json, a SentencePiece model as its
 * tokenizer.model; NULL or a NullTokenizer: no tokenizer files. */
int hf_export(const gpt_model *m, const char *dir, const struct bpe *tok, const char *vocab, const char *merges);
/* Read dir's config.json and model.safetensors into *m (allocated here). */
int hf_import(gpt_model *m, const char *dir);

#endif
