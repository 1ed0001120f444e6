"""Reading the report's PDFs in tests: its pages and the text they show, without a PDF
library (what a matplotlib PDF, and pypdf's merge of several, holds as written)."""

from __future__ import annotations

import re
import zlib


def pdf_pages(data: bytes) -> int:
    """Page objects (``/Type /Page``, not the ``/Pages`` tree)."""
    return len(re.findall(rb"/Type\s*/Page\b", data))


def pdf_text(data: bytes) -> str:
    """The text shown in a matplotlib PDF: its content streams' kerned TJ strings, joined
    (enough to find names and titles; no layout)."""
    out = []
    # The end of line before "endstream" is not cut off by the pattern: a compressed
    # stream may end in a \r byte (the title page's time and path vary from run to run),
    # which "\r?\nendstream" took as its own and so lost the page's text once in a while.
    # A decompressor stops at the end of its stream and leaves what follows unused.
    for stream in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            content = zlib.decompressobj().decompress(stream.group(1))
        except zlib.error:
            continue  # fonts and images
        for array in re.finditer(rb"\[(.*?)\]\s*TJ", content, re.S):
            parts = re.findall(rb"\(((?:\\.|[^\\)])*)\)", array.group(1))
            text = b"".join(parts).decode("latin-1")
            out.append(re.sub(r"\\(.)", r"\1", text))  # PDF string escapes: \( \) \\
    return "\n".join(out)
