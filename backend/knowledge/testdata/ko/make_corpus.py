#!/usr/bin/env python3
"""Builds corpus.jsonl, the Korean retrieval set's documents: one JSON Lines
record per paragraph ({"_id", "title", "text"}), from two openly licensed
Korean texts shipped by Debian 12:

  debian-faq-ko         the Debian FAQ in Korean (SPI's verbatim/translation
                        permission notice, kept in LICENSES.md)
  libreoffice-help-ko   LibreOffice 7.4 help in Korean (MPL-2.0)

Usage (from this folder):
  apt-get download debian-faq-ko libreoffice-help-ko
  for f in *.deb; do dpkg-deb -x "$f" x; done
  python3 make_corpus.py x > corpus.jsonl

A paragraph is a <p> element; its title is the nearest heading above it
(the section of the FAQ, the help page's heading). Paragraphs with fewer
than 40 Hangul syllables (English left untranslated, captions, one-word
cells) and repeated paragraphs are left out. The output is sorted by id, so
a rebuild from the same packages gives the same file.
"""
import glob
import html
import json
import os
import re
import sys

TAG = re.compile(r'<(h[1-6]|p)\b[^>]*>(.*?)</\1>', re.S)


def clean(fragment):
    s = re.sub(r'<[^>]+>', '', fragment)
    return ' '.join(html.unescape(s).split())


def hangul(s):
    return sum(1 for c in s if '\uac00' <= c <= '\ud7a3')


def paragraphs(path):
    text = open(path, encoding='utf-8').read()
    body = text[text.find('<body'):]
    title = ''
    for m in TAG.finditer(body):
        tag, s = m.group(1), clean(m.group(2))
        if tag.startswith('h'):
            title = re.sub(r'^[0-9.]+\s*', '', s)  # "1.2. 데비안은…" -> "데비안은…"
            continue
        yield title, s


def main(root):
    sources = [
        ('debfaq', os.path.join(root, 'usr/share/doc/debian/FAQ/ko'), '*.ko.html'),
        ('lo', os.path.join(root, 'usr/share/libreoffice/help/ko/text'), '**/*.html'),
    ]
    seen, out = set(), []
    for prefix, base, pattern in sources:
        for path in sorted(glob.glob(os.path.join(base, pattern), recursive=True)):
            rel = os.path.relpath(path, base).replace('.ko.html', '').replace('.html', '').replace('/', '.')
            for n, (title, text) in enumerate(paragraphs(path)):
                if hangul(text) < 40 or text in seen:
                    continue
                seen.add(text)
                out.append({'_id': f'{prefix}.{rel}.{n}', 'title': title, 'text': text})
    out.sort(key=lambda r: r['_id'])
    for r in out:
        sys.stdout.write(json.dumps(r, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
