#!/usr/bin/env python3
"""Assembles an iOS build for linkwright's tests from a JSON description: an .app folder, an .ipa
or an .xcarchive whose executable is a Mach-O file (thin arm64, or fat arm64 + x86_64) carrying a
code signature SuperBlob with a CodeDirectory, the XML entitlements and optionally a DER
entitlements blob, laid out from Apple's <mach-o/loader.h>, <mach-o/fat.h> and xnu's
osfmk/kern/cs_blobs.h; an Info.plist (XML or binary, written by Python's plistlib); and an
embedded.mobileprovision made by `openssl cms -sign` around a real plist. The code signature is
not a valid signature (no hashes are computed): linkwright reads, it does not verify. `lief`
reads the Mach-O files back as an independent oracle.

Usage: make-ios-build.py SPEC.json OUT (OUT ends .app, .ipa or .xcarchive)
SPEC: {"name": "Museo", "bundle_id": "...", "team": "ABCDE12345", "entitlements": {...},
       "url_schemes": [...], "binary_plist": false, "fat": false, "der": false, "signed": true,
       "profile": {"name": "...", "app_id": "TEAM.bundle", "entitlements": {...}} or null,
       "clips": [SPEC...], "extensions": [SPEC...]}
"""
import json
import os
import plistlib
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile

CPU_ARM64 = 0x0100000C
CPU_X86_64 = 0x01000007


def blob(magic, payload):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def code_directory(identifier, team):
    # CodeDirectory version 0x20400: fixed fields to execSegFlags (88 bytes), then the strings.
    ident = identifier.encode() + b"\0"
    team_bytes = team.encode() + b"\0"
    header_size = 88
    ident_offset = header_size
    team_offset = ident_offset + len(ident)
    # version, flags, hashOffset, identOffset, nSpecialSlots, nCodeSlots, codeLimit, hashSize, hashType,
    # platform, pageSize, spare2, scatterOffset, teamOffset, spare3, codeLimit64, execSeg base, limit, flags.
    fields = struct.pack(">IIIIIIIBBBBIIIIQQQQ", 0x20400, 0, team_offset + len(team_bytes), ident_offset,
                         0, 0, 0, 32, 2, 0, 12, 0, 0, team_offset, 0, 0, 0, 0, 0)
    assert 8 + len(fields) == header_size
    body = fields + ident + team_bytes
    return struct.pack(">II", 0xFADE0C02, 8 + len(body)) + body


def super_blob(spec):
    blobs = [(0, code_directory(spec["bundle_id"], spec["team"]))]
    if spec.get("entitlements") is not None:
        blobs.append((5, blob(0xFADE7171, plistlib.dumps(spec["entitlements"], fmt=plistlib.FMT_XML))))
    if spec.get("der"):
        blobs.append((7, blob(0xFADE7172, b"\x70\x03\x02\x01\x01")))
    index_size = 12 + 8 * len(blobs)
    index = b""
    data = b""
    for slot, content in blobs:
        index += struct.pack(">II", slot, index_size + len(data))
        data += content
    return struct.pack(">III", 0xFADE0CC0, index_size + len(data), len(blobs)) + index + data


def thin_macho(spec, cpu):
    signature = super_blob(spec) if spec.get("signed", True) else None
    # mach_header_64, LC_SEGMENT_64 __LINKEDIT covering the signature, LC_CODE_SIGNATURE.
    segment_size = 72
    commands_size = segment_size + (16 if signature else 0)
    header_size = 32
    data_offset = 0x4000
    text = b"\x1f\x20\x03\xd5" * 4  # some instructions, never run
    linkedit = signature or b""
    segment = struct.pack("<II16sQQQQIIII", 0x19, segment_size, b"__LINKEDIT", 0x100000000,
                          max(len(linkedit), 1), data_offset, len(linkedit), 1, 1, 0, 0)
    commands = segment
    if signature:
        commands += struct.pack("<IIII", 0x1D, 16, data_offset, len(signature))
    header = struct.pack("<IIIIIIII", 0xFEEDFACF, cpu, 0, 2, 2 if signature else 1, len(commands), 0, 0)
    body = header + commands + text
    return body + b"\0" * (data_offset - len(body)) + linkedit


def macho(spec):
    if not spec.get("fat"):
        return thin_macho(spec, CPU_ARM64)
    slices = [(CPU_ARM64, thin_macho(spec, CPU_ARM64)), (CPU_X86_64, thin_macho(spec, CPU_X86_64))]
    header = struct.pack(">II", 0xCAFEBABE, len(slices))
    offset = 0x4000
    arches = b""
    data = b""
    for cpu, content in slices:
        arches += struct.pack(">IIIII", cpu, 0, offset + len(data), len(content), 14)
        data += content + b"\0" * (-len(content) % 0x4000)
    head = header + arches
    return head + b"\0" * (offset - len(head)) + data


def profile(spec, work):
    described = spec["profile"]
    content = {
        "Name": described.get("name", "linkwright test profile"),
        "TeamIdentifier": [spec["team"]],
        "Entitlements": dict(described.get("entitlements", {}),
                             **{"application-identifier": described.get("app_id", spec["team"] + "." + spec["bundle_id"])}),
        "ExpirationDate": __import__("datetime").datetime(2030, 1, 1),
        "ProvisionedDevices": described.get("devices", []),
    }
    plist = os.path.join(work, "profile.plist")
    with open(plist, "wb") as file:
        plistlib.dump(content, file)
    key = os.path.join(work, "key.pem")
    cert = os.path.join(work, "cert.pem")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-subj", "/CN=linkwright test profiles", "-days", "2"], check=True, capture_output=True)
    signed = os.path.join(work, "profile.der")
    subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", plist,
                    "-signer", cert, "-inkey", key, "-out", signed], check=True, capture_output=True)
    with open(signed, "rb") as file:
        return file.read()


def write_bundle(spec, folder, work, suffix=".app"):
    path = os.path.join(folder, spec["name"] + suffix)
    os.makedirs(path)
    info = {"CFBundleIdentifier": spec["bundle_id"], "CFBundleExecutable": spec["name"],
            "CFBundleName": spec["name"]}
    if spec.get("url_schemes"):
        info["CFBundleURLTypes"] = [{"CFBundleURLName": spec["bundle_id"], "CFBundleURLSchemes": spec["url_schemes"]}]
    with open(os.path.join(path, "Info.plist"), "wb") as file:
        plistlib.dump(info, file, fmt=plistlib.FMT_BINARY if spec.get("binary_plist") else plistlib.FMT_XML)
    with open(os.path.join(path, spec["name"]), "wb") as file:
        file.write(macho(spec))
    if spec.get("profile"):
        with open(os.path.join(path, "embedded.mobileprovision"), "wb") as file:
            file.write(profile(spec, work))
    for clip in spec.get("clips", []):
        os.makedirs(os.path.join(path, "AppClips"), exist_ok=True)
        write_bundle(clip, os.path.join(path, "AppClips"), work)
    for extension in spec.get("extensions", []):
        os.makedirs(os.path.join(path, "PlugIns"), exist_ok=True)
        write_bundle(extension, os.path.join(path, "PlugIns"), work, ".appex")
    return path


def main(spec_path, out):
    with open(spec_path) as file:
        spec = json.load(file)
    with tempfile.TemporaryDirectory() as work:
        if out.endswith(".app"):
            staging = os.path.join(work, "staging")
            os.makedirs(staging)
            built = write_bundle(spec, staging, work)
            shutil.move(built, out)
        elif out.endswith(".xcarchive"):
            write_bundle(spec, os.path.join(out, "Products", "Applications"), work)
            with open(os.path.join(out, "Info.plist"), "wb") as file:
                plistlib.dump({"ArchiveVersion": 2, "Name": spec["name"]}, file)
        elif out.endswith(".ipa"):
            payload = os.path.join(work, "ipa")
            write_bundle(spec, os.path.join(payload, "Payload"), work)
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for root, _, names in sorted(os.walk(payload)):
                    for name in sorted(names):
                        full = os.path.join(root, name)
                        archive.write(full, os.path.relpath(full, payload))
        else:
            raise SystemExit("OUT must end in .app, .ipa or .xcarchive")


if __name__ == "__main__":
    main(*sys.argv[1:3])
