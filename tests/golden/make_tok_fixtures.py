#!/usr/bin/env python3
"""Write tests/fixtures/tokenizers/multilingual.jsonl: texts in many scripts and
the inputs that trip tokenizers (CJK, Arabic, Cyrillic, Devanagari, Thai,
emoji with joiners, code, long whitespace runs, digits, contractions, the
tokenizers' own special-token strings, combining marks for NFC, and raw
invalid UTF-8). Deterministic; rerun only to change the fixture."""
import json
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fixtures", "tokenizers", "multilingual.jsonl")

TEXTS = [
    "Hello world! This is a test sentence.",
    "This is a test sentence.",
    "I'm sure you've seen it; they'll say we'd done it, isn't it? DON'T SHOUT'S",
    "机器学习是人工智能的一个分支。東京は日本の首都です。ひらがなとカタカナ。한국어 텍스트도 있습니다.",
    "مرحبا بالعالم، هذه جملة اختبار باللغة العربية ١٢٣٤٥٦.",
    "Привет, мир! Это тестовое предложение на русском языке. Ёжик в тумане.",
    "नमस्ते दुनिया, यह हिंदी में एक परीक्षण वाक्य है।",
    "สวัสดีชาวโลก นี่คือประโยคทดสอบภาษาไทย",
    "Emoji: 🎉👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 ❤️ 🇫🇷 ✨✨✨",
    "def f(x):\n    return [i**2 for i in range(x) if i % 2 == 0]  # squares\n\n\tif (a != b) { c->d[0] = 0x1F; }\n",
    "#include <stdio.h>\nint main(void) {\n    printf(\"%d\\n\", 42);\n    return 0;\n}\n",
    "   leading spaces and trailing spaces   ",
    "tabs\t\tand\nnewlines\r\n\r\nand\u00a0nbsp\u2003em-space\u3000ideographic\u0085nel\u180emongolian",
    " " * 300 + "x" + "\n" * 50 + "y" + "\t \n" * 40,
    "1234567890 3.14159 1,000,000 2026-11-24 ١٢٣ ४५६ ໑໒",
    "<|endoftext|> <|begin_of_text|> <s> </s> <unk> <｜end▁of▁sentence｜> [INST] <|im_start|>",
    "e\u0301 a\u0308 n\u0303 (combining) vs é ä ñ (composed); ﬁ ligature; Ｆｕｌｌｗｉｄｔｈ; ①②",
    "URL: https://example.com/path?q=1&r=2#frag mail: a.b@c.de",
    "ALLCAPS WORDS and MixedCase camelCaseIdentifiers snake_case_names kebab-case",
    "a" * 500,
    "ab" * 300 + " " + "🎉" * 100,
    "Zero\u200bwidth\u200cjoiner\u200dtest\ufeffbom",
    "",
    "x",
    " ",
    "\n",
    "'s 't 're 've 'm 'll 'd 'S 'T 'RE",
    "Mixed: English, 中文, русский, العربية, עברית, ελληνικά, ქართული, հայերեն in one line.",
    "Surrogate-free astral: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝒯ℯ𝓍𝓉 𠜎𠜱𠝹𠱓",
    "Kelvin sign K and long s ſ with 'ſ and 'K",
]

# Every special token of each vocabulary family the tokenizers read, inside text: at the
# start, between words, glued to words, repeated, at the end, and cut short. A tokenizer
# must give the ids its own library gives (a literal "<s>" is text to sentencepiece and to
# Megatron-LM's current SentencePieceTokenizer; its --tokenizer-sentencepiece-legacy wrapper
# matches "<s>", "<CLS>", ... in the text). Written after the lines above, so that their
# line numbers (the golden files') stay.
SPECIAL_TEXTS = [
    # GPT-2, r50k, p50k, cl100k, o200k (tiktoken)
    "<|endoftext|>Start. Middle <|endoftext|> end<|endoftext|>",
    "<|fim_prefix|>def f():<|fim_suffix|>\n<|fim_middle|>return 1<|endofprompt|> <|endoftext|><|endoftext|>",
    # Llama 3 (tiktoken) and Qwen2
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|eom_id|><|python_tag|>"
    "<|finetune_right_pad_id|><|reserved_special_token_0|><|end_of_text|>",
    "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nhello<|im_end|><|endoftext|>",
    # DeepSeek-V3 (tokenizer.json added tokens)
    "<｜begin▁of▁sentence｜>Q: 1+1?<｜end▁of▁sentence｜> <｜▁pad▁｜><｜fim▁hole｜><｜fim▁begin｜>x<｜fim▁end｜>"
    "<｜User｜>hi<｜Assistant｜><think>hmm</think><|EOT|>",
    # SentencePiece (Llama 2, Mistral): control and unknown pieces, Mistral's [INST], byte pieces as text
    "<s>Hello</s> <s> world </s><unk> <pad> [INST] question [/INST] answer</s><0x41>▁word ▁",
    # Megatron's old SentencePiece wrapper, its TikTokenizer v1/v2 specials, T5 and BERT
    "<CLS>a<SEP>b <EOD> c<MASK>d <PAD><BOS><EOS> <mask><pad><cls><sep> <SPECIAL_5> <extra_id_0> "
    "[CLS] [SEP] [MASK] [PAD] [UNK]",
    # cut short, nested, repeated, at the very end
    "<s <s> </s </s>> <<s>> <|endoftext| <|endoftext|>> <｜end▁of▁sentence <CLS <CLS>> <EOD><EOD><EOD>",
    "</s>",
    "<s>",
    "<EOD>",
]

def main():
    rnd = random.Random(28)
    alphabet = "aeiou bcdfg,.!?'\n\t 中文字русαβγ😀🎉0123456789-_/()<>|"
    for _ in range(40):
        TEXTS.append("".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 200))))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        for t in TEXTS:
            line = json.dumps({"text": t}, ensure_ascii=False)
            for c in "\u0085\u2028\u2029":  # line breaks to Python's splitlines(): escape them
                line = line.replace(c, "\\u%04x" % ord(c))
            f.write(line.encode() + b"\n")
        # raw invalid UTF-8 inside the JSON string (tools see bytes; Python decodes with "replace")
        for raw in (b"bad \xff\xfe bytes", b"truncated \xe4\xb8", b"overlong \xc0\xaf and surrogate \xed\xa0\x80 end",
                    b"lone continuation \x80\x80 x", b"\xf4\x90\x80\x80 above U+10FFFF"):
            f.write(b'{"text": "' + raw + b'"}\n')
        for t in SPECIAL_TEXTS:
            f.write(json.dumps({"text": t}, ensure_ascii=False).encode() + b"\n")


if __name__ == "__main__":
    main()
