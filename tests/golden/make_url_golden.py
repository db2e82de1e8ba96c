#!/usr/bin/env python3
"""Golden fixture for blacklist_urls: Megatron's tools/openwebtext/blacklist_urls.py
logic, run with tldextract on the same public suffix list our tool uses.

Only the decisions of FORMATS.md section 4 / README "URL rules" are applied on top:
".7z" instead of the reference's ".7z.ai" typo, a case-insensitive domain
comparison, and kept URLs in input order. Writes one line per input URL:
REASON<TAB>URL (REASON = kept|domain|extension|short|malformed|duplicate).

  pip install tldextract
  python3 tests/golden/make_url_golden.py tests/fixtures/urls/reddit_2005_urls.txt > tests/fixtures/urls/reddit_2005_golden.tsv
"""
import re
import sys

import tldextract

PSL = "/usr/share/publicsuffix/public_suffix_list.dat"

domain_blacklist = set("""500px aapks akamaihd amazon apple artifactfire artstation awwni bandcamp
battleforthenet coinscalendar dailymotion deviantart discord discordapp dlapkandroid dropbox e621 ebay
edealinfo erome eroshare explosm facebook fbcdn flickr furaffinity futhead gatopardo gfycat gifsound gifsoup
giphy github google gunprime gyazo horsefucker hotdealstar imagefap imageshack imgflip imgur instagram
karmadecay kryptocal kym-cdn liveleak livememe lmgtfy magaimg memegenerator minorplanetcenter minus mobafire
morejpeg nocookie pcpartpicker photobucket pinimg pinterest pixiv pornhub prntscr puu qkme quickmeme radd redd
reddit reddit-stream redditlog redditmedia reddituploads redtube reupp reverb roanoke rollingstone sli
soundcloud soundgasm spankbang spotify strawpoll streamable timeanddate tinypic touhouradio tumblr twimg twitch
twitter vid vimeo vine vkaao vocaroo voyagefusion walmart wciu wikimedia wikipedia xhamster xkcd xvideos youtu
youtube youtubedoubler ytimg zillexplorer""".split())

extentions_blacklist = tuple(""".3gp .7z .aif .apk .app .avi .bin .bmp .bz2 .css .csv .dat .deb .dmg .doc
.docx .exe .gif .gifv .gz .iso .jar .jpeg .jpg .js .log .mid .midi .mkv .mov .mp3 .mp4 .mpeg .mpg .ogg .ogv
.otf .pdf .pkg .png .pps .ppt .pptx .psd .py .qt .ram .rar .sql .svg .swf .tar.gz .tar .tgz .tiff .ttf .txt
.wav .webm .wma .wmv .xls .xlsx .xml .xz .zip""".split())

url_regex = re.compile(
    r'^(?:http)s?://'
    r'(?:(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+(?:[A-Z]{2,6}\.?|[A-Z0-9-]{2,}\.?)|'
    r'\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})'
    r'(?::\d+)?'
    r'(?:/?|[/?]\S+)$', re.IGNORECASE)

extract = tldextract.TLDExtract(suffix_list_urls=("file://" + PSL,), cache_dir=None,
                                fallback_to_snapshot=False, include_psl_private_domains=False)


def classify(url, seen):
    if extract(url).domain.lower() in domain_blacklist:
        return "domain"
    if url.split('?')[0].lower().endswith(extentions_blacklist):
        return "extension"
    if len(url) <= 8:
        return "short"
    if re.match(url_regex, url) is None:
        return "malformed"
    if url in seen:
        return "duplicate"
    seen.add(url)
    return "kept"


def main():
    seen = set()
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            url = line.strip()
            print(f"{classify(url, seen)}\t{url}")


if __name__ == "__main__":
    main()
