/* libFuzzer target: charset sniffing, decoding to UTF-8, HTML5 parsing (lexbor) and the
 * main-content and visible-text extraction on arbitrary bytes, the second opinion (jusText's
 * classifier, the recall try) among them. The first byte chooses the mode, the favour and a
 * transport charset. */
#include "common/utf8.h"
#include "preprocess/web/html/htmltext.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static htmltext *H;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!H && htmltext_new(&H) < 0)
        abort();
    if (!size)
        return 0;
    static const char *const cs[] = {NULL, "utf-8", "iso-8859-1", "shift_jis", "utf-16", "x-bogus", "gb2312", "koi8-r"};
    int mode = data[0] & 1, favor = (data[0] >> 1) % 3;
    const char *c = cs[(data[0] >> 3) & 7];
    htmltext_doc d;
    if (htmltext_extract(H, data + 1, size - 1, c, mode, favor, &d) == 0) {
        if (!d.text || strlen(d.text) != d.len || !utf8_valid(d.text, d.len))
            abort();
        if (d.title && !utf8_valid(d.title, strlen(d.title)))
            abort();
        if (mode == HTMLTEXT_ALL && d.visible) /* (counted by the main content's fallback only) */
            abort();
        htmltext_doc_free(&d);
    }
    return 0;
}
