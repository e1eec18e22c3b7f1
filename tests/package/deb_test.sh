#!/usr/bin/env bash
# Debian package test (slow: the `package` stage, not in the default scripts/test run).
# 1. dpkg-deb: the control fields (name, version, architecture, dependencies from dpkg-shlibdeps) and the
#    exact file list.
# 2. A real install into a throwaway Debian 12 root (debootstrap minbase, cached in build/package/base):
#    `apt-get install ./llm-memory_*.deb` pulls only what Depends names, then the installed CLI prints the
#    seed's figures, the man page and bash completion work, the desktop app draws a frame under Xvfb
#    (screenshot: build/screenshots/installed-desktop.png), and `apt-get purge` removes every file.
# Usage: deb_test.sh [DEB]   (default: builds it with `scripts/dist deb` and tests dist/llm-memory_*.deb)
# Needs root (chroot, mount) and the Debian mirror of /etc/apt (or DEBIAN_MIRROR).
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "deb test: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || fail "needs root (debootstrap, chroot)"

if [[ $# -ge 1 ]]; then deb=$(readlink -f "$1"); else scripts/dist deb >/dev/null; deb=$(readlink -f dist/llm-memory_*.deb); fi
[[ -f "$deb" ]] || fail "no package at $deb"
version=$(sed -n 's/^project(llm_memory VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
arch=$(dpkg --print-architecture)

# --- 1. fields and files --------------------------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1"; }
[[ $(basename "$deb") == "llm-memory_${version}_${arch}.deb" ]] || fail "file name $(basename "$deb")"
[[ $(field Package) == llm-memory ]] || fail "Package: $(field Package)"
[[ $(field Version) == "$version" ]] || fail "Version: $(field Version), CMakeLists.txt says $version"
[[ $(field Architecture) == "$arch" ]] || fail "Architecture: $(field Architecture)"
[[ -n $(field Maintainer) && -n $(field Description) ]] || fail "Maintainer or Description missing"
depends=$(field Depends)
for lib in libc6 libstdc++6 libglfw3 libcurl4; do  # what the two binaries link (dpkg-shlibdeps), and the opened libcurl
  [[ ", $depends," == *", $lib "* || ", $depends," == *", $lib,"* ]] || fail "Depends lacks $lib: $depends"
done
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | LC_ALL=C sort)
expected="./usr/bin/llm-memory
./usr/bin/llm-memory-gui
./usr/share/applications/llm-memory.desktop
./usr/share/bash-completion/completions/llm-memory
./usr/share/icons/hicolor/128x128/apps/llm-memory.png
./usr/share/icons/hicolor/256x256/apps/llm-memory.png
./usr/share/icons/hicolor/48x48/apps/llm-memory.png
./usr/share/icons/hicolor/scalable/apps/llm-memory.svg
./usr/share/man/man1/llm-memory.1.gz"
[[ "$files" == "$expected" ]] || fail "file list differs:"$'\n'"$(diff <(echo "$expected") <(echo "$files"))"
echo "deb test: fields and $(wc -l <<<"$files") files ok (Depends: $depends)"

# --- 2. install into a clean Debian 12 root ----------------------------------------------------------
work=build/package
base=$work/base
root=$work/root
mirror=${DEBIAN_MIRROR:-$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)}
mirror=${mirror:-$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -n1)}
[[ -n "$mirror" ]] || fail "no Debian mirror in /etc/apt (set DEBIAN_MIRROR)"
mkdir -p "$work" build/screenshots
if [[ ! -f "$base/.complete" ]]; then
  echo "deb test: debootstrap bookworm (minbase) from $mirror into $base (once; about 2 minutes)"
  rm -rf --one-file-system "$base"
  debootstrap --variant=minbase bookworm "$base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log"; fail "debootstrap failed"; }
  touch "$base/.complete"
fi
cleanup() {
  mountpoint -q "$root/proc" && { umount "$root/proc" || umount -l "$root/proc"; }
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cleanup
cp -a "$base" "$root"
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/"
# Downloaded .debs are kept between runs (copied in and out; nothing is bind-mounted into the root).
mkdir -p "$work/apt-archives"
cp "$work"/apt-archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get -q update >"$work/apt.log" 2>&1 || { tail "$work/apt.log"; fail "apt-get update in the root failed"; }
in_root apt-get -q install -y --no-install-recommends "/tmp/$(basename "$deb")" >>"$work/apt.log" 2>&1 ||
  { tail -n 20 "$work/apt.log"; fail "apt-get install ./$(basename "$deb") failed"; }
in_root dpkg -s llm-memory | grep -qx 'Status: install ok installed' || fail "llm-memory is not installed"
for bin in /usr/bin/llm-memory /usr/bin/llm-memory-gui; do
  missing=$(in_root ldd "$bin" | grep 'not found' || true)
  [[ -z "$missing" ]] || fail "$bin: libraries not installed by Depends: $missing"
done

out=$(in_root llm-memory --params 13B)
grep -qx 'Weight memory               26 GB (24.21 GiB)' <<<"$out" || fail "installed CLI: $out"
grep -qx 'Inference total             31.2 GB (29.06 GiB)' <<<"$out" || fail "installed CLI: $out"
grep -qx 'Training total              104 GB (96.86 GiB)' <<<"$out" || fail "installed CLI: $out"
in_root sh -c 'zcat /usr/share/man/man1/llm-memory.1.gz | grep -q "^\.TH LLM-MEMORY 1"' || fail "man page"
# Recommends: bash-completion, as `apt install` would add; the installed completion answers TAB.
in_root apt-get -q install -y --no-install-recommends bash-completion xvfb xauth >>"$work/apt.log" 2>&1 ||
  { tail -n 20 "$work/apt.log"; fail "apt-get install bash-completion xvfb xauth failed"; }
completed=$(in_root bash -c 'source /usr/share/bash-completion/bash_completion
  COMP_WORDS=(llm-memory --gpu h); COMP_CWORD=2; COMP_LINE="llm-memory --gpu h"; COMP_POINT=${#COMP_LINE}
  _completion_loader llm-memory; complete -p llm-memory >/dev/null && _llm_memory; echo "${COMPREPLY[*]}"')
[[ "$completed" == "h100-80gb h200" ]] || fail "installed completion of --gpu h: '$completed'"

rm -f "$root/tmp/installed-desktop.ppm"
in_root timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" llm-memory-gui --frames 1 --size 1280x800 \
  --screenshot /tmp/installed-desktop.ppm || fail "the installed desktop app failed (--frames 1 under Xvfb)"
convert "$root/tmp/installed-desktop.ppm" build/screenshots/installed-desktop.png
colours=$(convert build/screenshots/installed-desktop.png -format %k info:)
(( colours >= 20 )) || fail "the installed desktop app drew a blank window ($colours colours)"

in_root apt-get -q purge -y llm-memory >>"$work/apt.log" 2>&1 || fail "apt-get purge failed"
for path in /usr/bin/llm-memory /usr/bin/llm-memory-gui /usr/share/man/man1/llm-memory.1.gz /usr/share/applications/llm-memory.desktop; do
  [[ ! -e "$root$path" ]] || fail "$path is still there after purge"
done
cp -n "$root"/var/cache/apt/archives/*.deb "$work/apt-archives/" 2>/dev/null || true
echo "deb test: installed in a clean Debian 12 root, CLI, man page, completion and desktop app ($colours colours, build/screenshots/installed-desktop.png) ok, purged"
