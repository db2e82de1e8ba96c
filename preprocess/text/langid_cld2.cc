// langid_cld2.cc - the C face of CLD2 (see langid.h). The only C++ in the
// project: CLD2 has no C API.
#include <cstdio>  // compact_lang_det.h uses FILE without including it
#include "third_party/cld2/public/compact_lang_det.h"
#include <cstring>
#include <new>
#include <vector>

#include "preprocess/text/langid.h"
extern "C" {
#include "common/err.h"
}

static int detect(const char *s, size_t n, langid_result *r);

// No C++ exception leaves for the C callers: an allocation that fails here or inside CLD2
// (std::bad_alloc, under a memory limit) is ERR_NOMEM with a message, as in the C code.
extern "C" int langid_detect(const char *s, size_t n, langid_result *r)
{
    try {
        return detect(s, n, r);
    } catch (const std::bad_alloc &) {
        return err_set(ERR_NOMEM, "out of memory identifying a text's language (%zu bytes)", n);
    }
}

static int detect(const char *s, size_t n, langid_result *r)
{
    size_t after = 0;  // bytes of the text after the part read: the character there
    if (n > LANGID_MAX_BYTES) {
        size_t all = n;
        n = LANGID_MAX_BYTES;
        while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) n--;  // character boundary
        after = all - n < 4 ? all - n : 4;
    }
    // CLD2 reads past the text's end (GetOneScriptSpan's look at the character after a
    // letter of another script): it finds there the text's next character when the text
    // was cut, else NULs, never whatever follows the caller's buffer.
    static thread_local std::vector<char> buf;
    if (buf.size() < n + 8) buf.resize(n + 8);
    std::memset(buf.data() + n, 0, 8);
    std::memcpy(buf.data(), s, n + after);
    s = buf.data();
    CLD2::Language lang3[3];
    int percent3[3];
    int text_bytes = 0;
    bool reliable = false;
    CLD2::Language l = CLD2::ExtDetectLanguageSummary(s, static_cast<int>(n), true, lang3, percent3, &text_bytes,
                                                      &reliable);
    const char *code = CLD2::LanguageCode(l);
    std::snprintf(r->code, sizeof r->code, "%s", code ? code : "un");
    r->percent = lang3[0] == l ? percent3[0] : 0;
    r->reliable = reliable ? 1 : 0;
    r->text_bytes = text_bytes;
    return 0;
}

extern "C" int langid_known(const char *code)
{
    if (std::strcmp(code, "un") == 0) return 0;
    for (int i = 0; i < CLD2::NUM_LANGUAGES; i++) {
        const char *c = CLD2::LanguageCode(static_cast<CLD2::Language>(i));
        if (c && std::strcmp(c, code) == 0) return 1;
    }
    return 0;
}
