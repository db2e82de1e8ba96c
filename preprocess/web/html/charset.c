/* charset.c - a page's bytes to UTF-8 as a browser reads them (htmltext.h: htmltext_label,
 * htmltext_prescan, htmltext_sniff, htmltext_to_utf8). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uchardet.h>
#include <lexbor/html/encoding.h>

#include "common/err.h"
#include "common/utf8.h"
#include "preprocess/web/html/htmltext.h"

/* The Encoding Standard's label, as an iconv name (NULL: unknown). */
static const char *iconv_name(const char *label, size_t n, char *buf, size_t cap)
{
    while (n && isspace((unsigned char)*label)) {
        label++;
        n--;
    }
    while (n && isspace((unsigned char)label[n - 1]))
        n--;
    if (!n || n >= cap)
        return NULL;
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)tolower((unsigned char)label[i]);
    buf[n] = '\0';
    static const struct {
        const char *labels, *name;
    } map[] = {
        {"|utf-8|utf8|unicode-1-1-utf-8|unicode11utf8|unicode20utf8|x-unicode20utf8|", "UTF-8"},
        {"|iso-8859-1|iso8859-1|iso_8859-1|latin1|l1|ascii|us-ascii|cp1252|windows-1252|x-cp1252|cp819|ibm819|"
         "iso-ir-100|csisolatin1|iso88591|iso_8859-1:1987|ansi_x3.4-1968|",
         "WINDOWS-1252"},
        {"|gb2312|gbk|x-gbk|chinese|csgb2312|gb_2312|gb_2312-80|iso-ir-58|csiso58gb231280|gb18030|", "GB18030"},
        {"|shift_jis|shift-jis|sjis|x-sjis|ms_kanji|ms932|windows-31j|csshiftjis|", "CP932"},
        {"|euc-kr|ks_c_5601-1987|ks_c_5601-1989|ksc5601|ksc_5601|windows-949|cseuckr|korean|iso-ir-149|", "CP949"},
        {"|big5|big5-hkscs|x-x-big5|cn-big5|csbig5|", "BIG5-HKSCS"},
        {"|iso-8859-9|iso8859-9|latin5|l5|windows-1254|cp1254|x-cp1254|iso-ir-148|csisolatin5|", "WINDOWS-1254"},
        {"|tis-620|iso-8859-11|windows-874|dos-874|iso8859-11|", "WINDOWS-874"},
        {"|euc-jp|x-euc-jp|cseucpkdfmtjapanese|", "EUC-JP"},
        {"|iso-2022-jp|csiso2022jp|", "ISO-2022-JP"},
        {"|utf-16|utf-16le|unicode|ucs-2|csunicode|iso-10646-ucs-2|unicodefeff|", "UTF-16LE"},
        {"|utf-16be|unicodefffe|", "UTF-16BE"},
        {"|koi8-r|koi8|koi|cskoi8r|koi8_r|", "KOI8-R"},
        {"|koi8-u|koi8-ru|", "KOI8-U"},
        {"|x-user-defined|", "WINDOWS-1252"},
        {"|866|cp866|csibm866|ibm866|", "IBM866"},
        {"|csisolatin2|iso-8859-2|iso-ir-101|iso8859-2|iso88592|iso_8859-2|iso_8859-2:1988|l2|latin2|", "ISO-8859-2"},
        {"|csisolatin3|iso-8859-3|iso-ir-109|iso8859-3|iso88593|iso_8859-3|iso_8859-3:1988|l3|latin3|", "ISO-8859-3"},
        {"|csisolatin4|iso-8859-4|iso-ir-110|iso8859-4|iso88594|iso_8859-4|iso_8859-4:1988|l4|latin4|", "ISO-8859-4"},
        {"|csisolatincyrillic|cyrillic|iso-8859-5|iso-ir-144|iso8859-5|iso88595|iso_8859-5|iso_8859-5:1988|",
         "ISO-8859-5"},
        {"|arabic|asmo-708|csiso88596e|csiso88596i|csisolatinarabic|ecma-114|iso-8859-6|iso-8859-6-e|iso-8859-6-i|"
         "iso-ir-127|iso8859-6|iso88596|iso_8859-6|iso_8859-6:1987|",
         "ISO-8859-6"},
        {"|csisolatingreek|ecma-118|elot_928|greek|greek8|iso-8859-7|iso-ir-126|iso8859-7|iso88597|iso_8859-7|"
         "iso_8859-7:1987|sun_eu_greek|",
         "ISO-8859-7"},
        {"|csiso88598e|csisolatinhebrew|hebrew|iso-8859-8|iso-8859-8-e|iso-ir-138|iso8859-8|iso88598|iso_8859-8|"
         "iso_8859-8:1988|visual|csiso88598i|iso-8859-8-i|logical|",
         "ISO-8859-8"},
        {"|csisolatin6|iso-8859-10|iso-ir-157|iso8859-10|iso885910|l6|latin6|", "ISO-8859-10"},
        {"|iso-8859-13|iso8859-13|iso885913|", "ISO-8859-13"},
        {"|iso-8859-14|iso8859-14|iso885914|", "ISO-8859-14"},
        {"|csisolatin9|iso-8859-15|iso8859-15|iso885915|iso_8859-15|l9|", "ISO-8859-15"},
        {"|iso-8859-16|", "ISO-8859-16"},
        {"|cp1250|windows-1250|x-cp1250|", "WINDOWS-1250"},
        {"|cp1251|windows-1251|x-cp1251|", "WINDOWS-1251"},
        {"|cp1253|windows-1253|x-cp1253|", "WINDOWS-1253"},
        {"|cp1255|windows-1255|x-cp1255|", "WINDOWS-1255"},
        {"|cp1256|windows-1256|x-cp1256|", "WINDOWS-1256"},
        {"|cp1257|windows-1257|x-cp1257|", "WINDOWS-1257"},
        {"|cp1258|windows-1258|x-cp1258|", "WINDOWS-1258"},
        {"|csmacintosh|mac|macintosh|x-mac-roman|", "MACINTOSH"},
        {"|x-mac-cyrillic|x-mac-ukrainian|", "MAC-CYRILLIC"},
    };
    char key[48];
    snprintf(key, sizeof key, "|%s|", buf);
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strstr(map[i].labels, key))
            return map[i].name;
    return NULL; /* not a label of the Encoding Standard */
}

int htmltext_label(const char *label, char *name, size_t cap)
{
    char buf[64];
    const char *nm = iconv_name(label, strlen(label), buf, sizeof buf);
    if (!nm)
        return 0;
    snprintf(name, cap, "%s", nm);
    return 1;
}

int htmltext_prescan(const unsigned char *s, size_t n, char *name, size_t cap)
{
    /* lexbor's prescan of the <meta> declarations; the first declaration whose label is
     * known wins. The standard lets a browser stop after 1024 bytes; html5lib's tests (and
     * browsers) find a declaration after a long comment, so 16 KiB are read. */
    lxb_html_encoding_t em;
    int found = 0;
    if (lxb_html_encoding_init(&em) != LXB_STATUS_OK)
        return 0;
    size_t k = n < 16384 ? n : 16384;
    if (lxb_html_encoding_determine(&em, s, s + k) == LXB_STATUS_OK) {
        for (size_t i = 0; i < lxb_html_encoding_meta_length(&em) && !found; i++) {
            lxb_html_encoding_entry_t *e = lxb_html_encoding_meta_entry(&em, i);
            char buf[64];
            const char *nm = iconv_name((const char *)e->name, (size_t)(e->end - e->name), buf, sizeof buf);
            if (!nm)
                continue;
            /* a page cannot declare itself UTF-16 from inside: it is read as UTF-8 */
            if (!strncmp(nm, "UTF-16", 6))
                nm = "UTF-8";
            snprintf(name, cap, "%s", nm);
            found = 1;
        }
    }
    lxb_html_encoding_destroy(&em, false);
    return found;
}

void htmltext_sniff(const unsigned char *s, size_t n, const char *http_charset, char *name, size_t cap)
{
    char buf[64];
    const char *nm = NULL;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        nm = "UTF-8";
    else if (n >= 2 && s[0] == 0xFE && s[1] == 0xFF)
        nm = "UTF-16BE";
    else if (n >= 2 && s[0] == 0xFF && s[1] == 0xFE)
        nm = "UTF-16LE";
    if (!nm && http_charset)
        nm = iconv_name(http_charset, strlen(http_charset), buf, sizeof buf);
    if (!nm && htmltext_prescan(s, n, buf, sizeof buf))
        nm = buf;
    if (!nm && utf8_valid((const char *)s, n))
        nm = "UTF-8";
    if (!nm) {
        /* nothing declared and not UTF-8: uchardet's guess from the bytes (the frequency
         * analysis the standard allows) when there are enough of them, else windows-1252 */
        size_t high = 0; /* a guess needs evidence: 16 bytes past ASCII at least */
        for (size_t i = 0; i < n && high < 16; i++)
            high += s[i] >= 0x80;
        uchardet_t ud = high >= 16 ? uchardet_new() : NULL;
        if (ud) {
            size_t k = n < 65536 ? n : 65536;
            if (uchardet_handle_data(ud, (const char *)s, k) == 0) {
                uchardet_data_end(ud);
                const char *g = uchardet_get_charset(ud);
                if (g && *g)
                    nm = iconv_name(g, strlen(g), buf, sizeof buf);
            }
            uchardet_delete(ud);
        }
    }
    if (!nm)
        nm = "WINDOWS-1252";
    snprintf(name, cap, "%s", nm);
}

char *htmltext_to_utf8(const unsigned char *s, size_t n, const char *label, size_t *out_len)
{
    size_t cap = n * 3 + 16;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t o = 0;
    if (!strcmp(label, "UTF-8")) {
        if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
            s += 3;
            n -= 3;
        }
        /* valid runs copied, each invalid sequence one U+FFFD (as the Encoding Standard) */
        size_t i = 0;
        while (i < n) {
            size_t v = utf8_valid_prefix((const char *)s + i, n - i);
            memcpy(out + o, s + i, v);
            o += v;
            i += v;
            if (i < n) {
                size_t bad = utf8_invalid_len(s + i, n - i);
                memcpy(out + o, "\xEF\xBF\xBD", 3);
                o += 3;
                i += bad ? bad : 1;
            }
        }
        out[o] = '\0';
        *out_len = o;
        return out;
    }
    iconv_t cd = iconv_open("UTF-8", label);
    if (cd == (iconv_t)-1) { /* cannot happen for names iconv_name returned; be safe */
        free(out);
        return htmltext_to_utf8(s, n, "WINDOWS-1252", out_len);
    }
    char *in = (char *)s;
    size_t inleft = n;
    if (!strcmp(label, "UTF-16LE") && n >= 2 && s[0] == 0xFF && s[1] == 0xFE) {
        in += 2;
        inleft -= 2;
    } else if (!strcmp(label, "UTF-16BE") && n >= 2 && s[0] == 0xFE && s[1] == 0xFF) {
        in += 2;
        inleft -= 2;
    }
    while (inleft) {
        char *op = out + o;
        size_t oleft = cap - o - 4; /* 4 spare: a U+FFFD (3) and the final NUL */
        size_t r = iconv(cd, &in, &inleft, &op, &oleft);
        int e = errno;
        o = (size_t)(op - out);
        if (r != (size_t)-1)
            break;
        if (e != E2BIG) { /* EILSEQ / EINVAL: one unmapped or cut byte */
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            in++;
            inleft--;
            iconv(cd, NULL, NULL, NULL, NULL);
        }
        if (e == E2BIG || cap - o < 8) {
            char *nb = realloc(out, cap * 2);
            if (!nb) {
                free(out);
                iconv_close(cd);
                return NULL;
            }
            out = nb;
            cap *= 2;
        }
    }
    iconv_close(cd);
    out[o] = '\0';
    *out_len = o;
    return out;
}
