#!/usr/bin/env python3
"""Writes an archive made to hurt its reader, for linkwright's tests: every kind must be refused
(exit 2) with nothing written. The archives are built here from PKWARE's APPNOTE.TXT layout.

Usage: make-hostile-zip.py KIND OUT.apk
KIND: bomb (a manifest declaring 1 GiB from a few kilobytes), lying-size (a manifest that inflates
past the size it declares), traversal (an entry named ../../evil), absolute (/etc/evil),
duplicate (two AndroidManifest.xml), overlap (two entries sharing one local header and its data),
huge-size (a stored entry declaring 4 GiB - 1), truncated (the file cut inside the directory),
directory-outside (the end record points the directory past the file), signing-block (an APK
Signing Block declaring 2^62 bytes).
"""
import importlib.util
import io
import os
import struct
import sys
import zipfile


def archive(entries, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as file:
        for name, data in entries:
            file.writestr(zipfile.ZipInfo(name), data, compress_type=compression)
    return bytearray(buffer.getvalue())


def end_record(data):
    return data.rindex(b"PK\x05\x06")


def central_records(data):
    offset = struct.unpack_from("<I", data, end_record(data) + 16)[0]
    records = []
    while data[offset:offset + 4] == b"PK\x01\x02":
        records.append(offset)
        name, extra, comment = struct.unpack_from("<HHH", data, offset + 28)
        offset += 46 + name + extra + comment
    return records


def real_manifest():
    """A valid binary manifest (make-apk.py's), so that only the archive's hostility is refused."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-apk.py")
    spec = importlib.util.spec_from_file_location("make_apk", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.binary_xml({"package": "com.example.hostile"}, utf8=False)


def make(kind):
    manifest = real_manifest()
    if kind == "bomb":
        data = archive([("AndroidManifest.xml", b"\0" * (1 << 20))])
        record = central_records(data)[0]
        struct.pack_into("<I", data, record + 24, 1 << 30)  # declared size: 1 GiB
        return data
    if kind == "lying-size":
        data = archive([("AndroidManifest.xml", b"\0" * 100_000)])
        record = central_records(data)[0]
        struct.pack_into("<I", data, record + 24, 1000)  # declares 1000 bytes; inflates to 100,000
        return data
    if kind == "traversal":
        return archive([("AndroidManifest.xml", manifest), ("../../evil", b"x")])
    if kind == "absolute":
        return archive([("AndroidManifest.xml", manifest), ("/etc/evil", b"x")])
    if kind == "duplicate":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as file:
            file.writestr("AndroidManifest.xml", manifest)
            file.writestr("AndroidManifest.xml", manifest + b"\1")
        return bytearray(buffer.getvalue())
    if kind == "overlap":
        data = archive([("AndroidManifest.xml", manifest), ("classes.dex", b"y" * 64)], zipfile.ZIP_STORED)
        first, second = central_records(data)
        # The second entry now starts at the first's header, as the overlapping zip bomb does.
        struct.pack_into("<I", data, second + 42, 0)
        return data
    if kind == "huge-size":
        data = archive([("AndroidManifest.xml", manifest)], zipfile.ZIP_STORED)
        record = central_records(data)[0]
        struct.pack_into("<II", data, record + 20, 0xFFFFFFFE, 0xFFFFFFFE)
        return data
    if kind == "truncated":
        data = archive([("AndroidManifest.xml", manifest), ("classes.dex", b"z" * 100)])
        end = end_record(data)
        return data[: central_records(data)[1] + 10] + data[end:]
    if kind == "directory-outside":
        data = archive([("AndroidManifest.xml", manifest)])
        struct.pack_into("<I", data, end_record(data) + 16, 0x7FFFFFF0)
        return data
    if kind == "signing-block":
        data = archive([("AndroidManifest.xml", manifest)], zipfile.ZIP_STORED)
        directory = struct.unpack_from("<I", data, end_record(data) + 16)[0]
        block = struct.pack("<Q", 1 << 62) + struct.pack("<Q", 1 << 62) + b"APK Sig Block 42"
        data[directory:directory] = block
        struct.pack_into("<I", data, end_record(data) + 16, directory + len(block))
        return data
    raise SystemExit(f"unknown kind {kind}")


if __name__ == "__main__":
    kind, out = sys.argv[1:3]
    with open(out, "wb") as file:
        file.write(make(kind))
