"""Compressed event states that still read a log written uncompressed (issue 23, item 6).

The library compresses every stored state when ``COMPRESSOR_TOPIC`` names a
compressor (eventsourcing.persistence.Compressor), and then decompresses every
state it reads: its own zlib compressor fails on a state stored before it was
switched on. This one tells the two apart, so a running room may switch it on:
the library's JSON transcoder always writes an object (its first byte ``{``),
a zlib stream always starts with ``x`` (0x78, the deflate header at any level).

Off by default. Measured by bench/store_size.py: zlib shrinks the event states
of 1,000 hands to about two thirds (bench/README.md, "store_size.py"). Switched
on with the library's own setting, in the environment of every process that
reads or writes the store (web, workers, projector, rebuild)::

    COMPRESSOR_TOPIC=floor.kernel.compression:ZlibOrPlain

Once on, it stays on: a process without it cannot read the compressed states.
"""

from __future__ import annotations

import zlib

from eventsourcing.persistence import Compressor

ZLIB_HEADER = b"x"


class ZlibOrPlain(Compressor):
    """zlib on the way in; on the way out, zlib's streams inflated and the
    plain JSON of an older write passed through as it is."""

    def compress(self, data: bytes) -> bytes:
        return zlib.compress(data)

    def decompress(self, data: bytes) -> bytes:
        if data[:1] == ZLIB_HEADER:
            return zlib.decompress(data)
        return data
