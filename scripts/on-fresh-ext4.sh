#!/usr/bin/env bash
# Runs a command with its temporary files (TMPDIR) on an ext4 file system made for this run and
# removed after it. A file system that earlier runs filled and emptied makes creating files
# slower run after run (docs/performance.md, "How the benchmark measures"); on a new one the
# build-against-writing figure meets the same disk state every time. Linux only; needs root to
# make and mount the file system, which lives in a file on the disk under FRESH_EXT4_DIR.
# Usage: scripts/on-fresh-ext4.sh COMMAND [ARGUMENTS...], e.g.
#   sudo scripts/on-fresh-ext4.sh .build/release/linkwright-bench run --only build --sizes L
set -euo pipefail
if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGUMENTS...]" >&2
    exit 64
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "$0: making and mounting a file system needs root" >&2
    exit 77
fi
work=$(mktemp -d "${FRESH_EXT4_DIR:-/var/tmp}/fresh-ext4.XXXXXX")
image="$work/ext4.img"
mounted="$work/mnt"
cleanup() {
    # Never a recursive delete: if unmounting fails, what the command wrote stays where it is.
    if mountpoint -q "$mounted"; then umount "$mounted" || return; fi
    rm -f "$image"
    rmdir "$mounted" "$work"
}
trap cleanup EXIT
mkdir "$mounted"
truncate -s "${FRESH_EXT4_SIZE:-16G}" "$image"
mkfs.ext4 -q -F "$image"
mount -o loop "$image" "$mounted"
chmod 1777 "$mounted"
TMPDIR="$mounted" "$@"
