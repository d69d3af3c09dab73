#!/bin/sh
# Stand-in base images for a machine that reaches Debian's mirror but no image registry.
# TESTS ONLY, never part of the product: each is tagged with the exact name the product's
# Dockerfile and compose file pin, so those files stay unchanged.
#   sh tests/deploy/standin/build.sh        (root; needs debootstrap and a Docker engine)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
base=lie21-standin/bookworm:base
rootfs=${STANDIN_ROOTFS:-/tmp/lie21-standin-rootfs}
mirror=${STANDIN_MIRROR:-http://deb.debian.org/debian}
if ! docker image inspect "$base" >/dev/null 2>&1; then
  if [ ! -x "$rootfs/usr/bin/python3" ]; then
    debootstrap --variant=minbase \
      --include=python3,python3-pip,python3-venv,postgresql-15,postgresql-client-15,redis-server,redis-tools,nginx-light,ca-certificates,bubblewrap,python3-seccomp \
      bookworm "$rootfs" "$mirror"
  fi
  tar -C "$rootfs" -c . | docker import - "$base"
fi
pinned() { grep -h -o -E "$1" "$repo/docker/Dockerfile" "$repo/docker/compose.yml" | head -n 1 | awk '{print $NF}'; }
# The host's CA bundle (this machine's egress proxy re-signs TLS): the stand-in trusts what
# the host trusts, as a base image on such a network would be configured to.
cp /etc/ssl/certs/ca-certificates.crt "$here/host-ca-certificates.crt"
trap 'rm -f "$here/host-ca-certificates.crt"' EXIT
for kind in python postgres redis nginx minio; do
  name=$kind; [ "$kind" = minio ] && name=minio/minio
  tag=$(pinned "(FROM|image:) +$name:[^ ]+")
  [ -n "$tag" ] || { echo "no pinned $name image found" >&2; exit 1; }
  [ "$kind" = python ] && python_tag=$tag
  docker build -q --build-arg BASE="$base" --build-arg PYTHON="${python_tag:-}" \
    -t "$tag" -f "$here/$kind.Dockerfile" "$here" >/dev/null
  echo "stand-in: $tag"
done
