// cld2_answers.cc - every answer of CLD2's ExtDetectLanguageSummary for each text of a
// record file (uint32 little-endian length + UTF-8 bytes, repeated), in plain-text and in
// HTML mode, one line per text. Built twice by tests/e2e/test_cld2_vendored.sh: against the
// project's CLD2 (third_party/cld2) and against Debian's libcld2, whose outputs must match.
#include <cstdint>
#include <cstdio>
#include <vector>
#ifdef SYSTEM_CLD2
#include <cld2/public/compact_lang_det.h>
#else
#include "third_party/cld2/public/compact_lang_det.h"
#endif

int main(int argc, char** argv) {
  if (argc != 2) { std::fprintf(stderr, "usage: cld2_answers RECORDS\n"); return 2; }
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) { std::perror(argv[1]); return 2; }
  uint32_t n;
  std::vector<char> b;
  while (std::fread(&n, 4, 1, f) == 1) {
    b.assign(n + 8, '"');  // a byte after the text, as a JSON line has
    if (std::fread(b.data(), 1, n, f) != n) { std::fprintf(stderr, "%s: short record\n", argv[1]); return 1; }
    for (int plain = 1; plain >= 0; plain--) {
      CLD2::Language l3[3];
      int p3[3], text_bytes = 0;
      bool reliable = false;
      CLD2::Language l = CLD2::ExtDetectLanguageSummary(b.data(), static_cast<int>(n), plain != 0, l3, p3,
                                                        &text_bytes, &reliable);
      // the full form too: its normalized scores move with every hit of every word
      CLD2::Language m3[3];
      int q3[3], bytes2 = 0;
      double s3[3];
      bool reliable2 = false;
      CLD2::ExtDetectLanguageSummary(b.data(), static_cast<int>(n), plain != 0, NULL, 0, m3, q3, s3, NULL, &bytes2,
                                     &reliable2);
      std::printf("%s %s:%d %s:%d %s:%d %d %d [%.17g %.17g %.17g]%c", CLD2::LanguageCode(l),
                  CLD2::LanguageCode(l3[0]), p3[0], CLD2::LanguageCode(l3[1]), p3[1], CLD2::LanguageCode(l3[2]),
                  p3[2], text_bytes, reliable ? 1 : 0, s3[0], s3[1], s3[2], plain ? ' ' : '\n');
    }
  }
  return 0;
}
