#!/usr/bin/env python3
"""Assembles a real, signed APK for linkwright's tests from a JSON description of its manifest.

The manifest is written as Android binary XML by this script, from the layout AOSP documents in
frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h (a string pool, the attribute
resource map, and one node chunk per namespace and element): Debian's aapt cannot compile a
manifest without the platform's android.jar, which Debian does not ship. The archive is then
aligned by `zipalign` and signed by `apksigner` with keys `keytool` made, so the signatures are
the platform tools' own; `aapt dump xmltree` and `apksigner verify --print-certs` read the
result back as independent oracles.

With --bundle it assembles an Android App Bundle (.aab) instead: the manifest is written as the
protobuf aapt.pb.XmlNode that bundletool stores under base/manifest/ (field numbers from AOSP
frameworks/base/tools/aapt2/Resources.proto), and the bundle is signed by the JDK's `jarsigner`
as Android Studio signs uploads; `protoc --decode_raw` and `keytool -printcert -jarfile` read it
back.

Usage: make-apk.py SPEC.json OUT.apk KEYSTORE [--schemes v1,v2,v3] [--utf8] [--unsigned] [--bundle]
SPEC: {"package": "...", "activities": [{"name": ".Main", "filters": [{"autoVerify": true,
       "actions": [...], "categories": [...], "data": [{"scheme": "https"}, {"host": "..."}]}]}]}
The keystore is PKCS12 with store and key password "linkwright" and the alias "key".
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

ANDROID = "http://schemas.android.com/apk/res/android"
# android.R.attr values (frameworks/base/core/res/res/values/public.xml).
ATTRIBUTE_IDS = {
    "name": 0x01010003, "scheme": 0x01010027, "host": 0x01010028, "port": 0x01010029,
    "path": 0x0101002A, "pathPrefix": 0x0101002B, "pathPattern": 0x0101002C,
    "minSdkVersion": 0x0101020C, "autoVerify": 0x010104EE, "exported": 0x01010010,
}


class StringPool:
    def __init__(self, first):
        self.strings = list(first)

    def index(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def chunk(self, utf8):
        data = b""
        offsets = []
        for text in self.strings:
            offsets.append(len(data))
            if utf8:
                encoded = text.encode("utf-8")
                data += length8(len(text)) + length8(len(encoded)) + encoded + b"\0"
            else:
                encoded = text.encode("utf-16-le")
                data += struct.pack("<H", len(encoded) // 2) + encoded + b"\0\0"
        data += b"\0" * (-len(data) % 4)
        header_size = 28
        start = header_size + 4 * len(self.strings)
        body = b"".join(struct.pack("<I", offset) for offset in offsets) + data
        flags = 0x100 if utf8 else 0
        return struct.pack("<HHIIIIII", 0x0001, header_size, header_size + len(body),
                           len(self.strings), 0, flags, start, 0) + body


def length8(value):
    return bytes([value]) if value < 0x80 else bytes([0x80 | value >> 8, value & 0xFF])


def element(name, attributes, children, line):
    return {"name": name, "attributes": attributes, "children": children, "line": line}


def manifest_tree(spec):
    line = [3]  # manifest on line 1, uses-sdk on 2, application on 3

    def next_line():
        line[0] += 1
        return line[0]

    activities = []
    for activity in spec.get("activities", []):
        activity_line = next_line()
        filters = []
        for described in activity.get("filters", []):
            filter_line = next_line()
            children = []
            for action in described.get("actions", []):
                children.append(element("action", [("name", action)], [], next_line()))
            for category in described.get("categories", []):
                children.append(element("category", [("name", category)], [], next_line()))
            for data in described.get("data", []):
                children.append(element("data", list(data.items()), [], next_line()))
            attributes = []
            if "autoVerify" in described:
                attributes.append(("autoVerify", bool(described["autoVerify"])))
            filters.append(element("intent-filter", attributes, children, filter_line))
        activities.append(element(activity.get("element", "activity"),
                                  [("name", activity["name"]), ("exported", True)], filters, activity_line))
    uses_sdk = element("uses-sdk", [("minSdkVersion", 21)], [], 2)
    application = element("application", [], activities, 3)
    return element("manifest", [("package", spec["package"])], [uses_sdk, application], 1)


def binary_xml(spec, utf8):
    root = manifest_tree(spec)
    # Attribute names with resource IDs come first: the resource map is indexed by string index.
    names = []

    def collect(node):
        for attribute, _ in node["attributes"]:
            if attribute in ATTRIBUTE_IDS and attribute not in names:
                names.append(attribute)
        for child in node["children"]:
            collect(child)

    collect(root)
    pool = StringPool(names)
    android = pool.index(ANDROID)
    prefix = pool.index("android")
    nodes = b""
    nodes += struct.pack("<HHIIIII", 0x0100, 16, 24, 1, 0xFFFFFFFF, prefix, android)

    def write(node):
        nonlocal nodes
        records = b""
        for attribute, value in node["attributes"]:
            namespace = android if attribute in ATTRIBUTE_IDS else 0xFFFFFFFF
            name = pool.index(attribute)
            if isinstance(value, bool):
                raw, kind, data = 0xFFFFFFFF, 0x12, 0xFFFFFFFF if value else 0
            elif isinstance(value, int):
                raw, kind, data = 0xFFFFFFFF, 0x10, value
            else:
                raw = pool.index(str(value))
                kind, data = 0x03, raw
            records += struct.pack("<IIIHBBI", namespace, name, raw, 8, 0, kind, data)
        count = len(node["attributes"])
        nodes += struct.pack("<HHIIIIIHHHHHH", 0x0102, 16, 36 + len(records), node["line"], 0xFFFFFFFF,
                             0xFFFFFFFF, pool.index(node["name"]), 20, 20, count, 0, 0, 0) + records
        for child in node["children"]:
            write(child)
        nodes += struct.pack("<HHIIIII", 0x0103, 16, 24, node["line"], 0xFFFFFFFF, 0xFFFFFFFF,
                             pool.index(node["name"]))

    write(root)
    nodes += struct.pack("<HHIIIII", 0x0101, 16, 24, 1, 0xFFFFFFFF, prefix, android)
    resource_map = struct.pack("<HHI", 0x0180, 8, 8 + 4 * len(names)) + b"".join(
        struct.pack("<I", ATTRIBUTE_IDS[name]) for name in names)
    body = pool.chunk(utf8) + resource_map + nodes
    return struct.pack("<HHI", 0x0003, 8, 8 + len(body)) + body


def proto_varint(value):
    out = b""
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def proto_bytes(number, data):
    return proto_varint(number << 3 | 2) + proto_varint(len(data)) + data


def proto_xml(spec):
    """The manifest as aapt.pb.XmlNode: element = 1, source = 3; XmlElement namespace_declaration = 1,
    name = 3, attribute = 4, child = 5; XmlAttribute namespace_uri = 1, name = 2, value = 3,
    resource_id = 5; SourcePosition line_number = 1."""

    def node(element, root=False):
        body = b""
        if root:
            body += proto_bytes(1, proto_bytes(1, b"android") + proto_bytes(2, ANDROID.encode()))
        body += proto_bytes(3, element["name"].encode())
        for name, value in element["attributes"]:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            attribute = b""
            if name in ATTRIBUTE_IDS:
                attribute += proto_bytes(1, ANDROID.encode())
            attribute += proto_bytes(2, name.encode()) + proto_bytes(3, text.encode())
            if name in ATTRIBUTE_IDS:
                attribute += proto_varint(5 << 3) + proto_varint(ATTRIBUTE_IDS[name])
            body += proto_bytes(4, attribute)
        for child in element["children"]:
            body += proto_bytes(5, node(child))
        return proto_bytes(1, body) + proto_bytes(3, proto_varint(1 << 3) + proto_varint(element["line"]))

    return node(manifest_tree(spec), root=True)


def main(arguments):
    parser = argparse.ArgumentParser(description="Assembles a signed APK for linkwright's tests.")
    parser.add_argument("spec")
    parser.add_argument("out")
    parser.add_argument("keystore", nargs="?")
    parser.add_argument("--schemes", default="v1,v2,v3")
    parser.add_argument("--utf8", action="store_true", help="write the string pool in UTF-8, not UTF-16")
    parser.add_argument("--unsigned", action="store_true")
    parser.add_argument("--bundle", action="store_true", help="an .aab signed by jarsigner, not an .apk")
    options = parser.parse_args(arguments)
    spec_path, out_path, keystore = options.spec, options.out, options.keystore
    schemes = set(options.schemes.split(","))
    with open(spec_path) as file:
        spec = json.load(file)
    if options.bundle:
        with zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("BundleConfig.pb", b"")
            archive.writestr("base/manifest/AndroidManifest.xml", proto_xml(spec))
            archive.writestr("base/dex/classes.dex", b"dex\n035\0" + b"\0" * 104)
        if not options.unsigned:
            subprocess.run(["jarsigner", "-keystore", keystore, "-storetype", "PKCS12", "-storepass", "linkwright",
                            out_path, "key"], check=True, capture_output=True)
        return
    with tempfile.TemporaryDirectory() as work:
        unaligned = os.path.join(work, "unaligned.apk")
        with zipfile.ZipFile(unaligned, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("AndroidManifest.xml", binary_xml(spec, options.utf8))
            archive.writestr("classes.dex", b"dex\n035\0" + b"\0" * 104)
            # An empty resource table (ResTable_header, no packages, an empty global string pool),
            # which `aapt dump` insists on finding.
            empty_pool = StringPool([]).chunk(utf8=False)
            archive.writestr(zipfile.ZipInfo("resources.arsc"),
                             struct.pack("<HHII", 0x0002, 12, 12 + len(empty_pool), 0) + empty_pool)
        aligned = os.path.join(work, "aligned.apk")
        subprocess.run(["zipalign", "-f", "4", unaligned, aligned], check=True, capture_output=True)
        if options.unsigned:
            os.replace(aligned, out_path)
            return
        subprocess.run(["apksigner", "sign", "--ks", keystore, "--ks-pass", "pass:linkwright",
                        "--ks-key-alias", "key", "--min-sdk-version", "21",
                        "--v1-signing-enabled", str("v1" in schemes).lower(),
                        "--v2-signing-enabled", str("v2" in schemes).lower(),
                        "--v3-signing-enabled", str("v3" in schemes).lower(),
                        "--out", out_path, aligned], check=True, capture_output=True)


if __name__ == "__main__":
    main(sys.argv[1:])
