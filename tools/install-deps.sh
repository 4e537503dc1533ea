#!/bin/sh
# Install the Debian/Ubuntu packages Shoal builds and tests with.
# Skips apt entirely when everything is already there.
set -e
pkgs="build-essential autoconf automake libtool pkg-config cmake check libpmix-dev libpmix-bin
      openmpi-bin libopenmpi-dev libfabric-dev libfabric-bin
      python3-dev python3-numpy"
# The Python package's torch tests and torchrun runs (torch 1.13 CPU, about
# 1.5 minutes to install); SHOAL_DEPS_NO_TORCH=1 leaves it out and those
# tests are skipped.
[ "${SHOAL_DEPS_NO_TORCH:-0}" = 1 ] || pkgs="$pkgs python3-torch"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
