#!/bin/sh
# Makes a base image for the Containerfile without a registry (an air-gapped site): this
# machine's node and npm, with the shared libraries they need, laid out as the official
# node image (/usr/local/bin/node, npm, user node of uid 1000, /tmp), imported as <tag>.
#
#   deploy/offline-base.sh localhost/node-offline:24
#   podman build --format docker --build-arg BASE=localhost/node-offline:24 -t mcp-switchyard .
#
# PODMAN names the command that imports the image (default podman; `docker` works too);
# the build still runs `npm ci`, so it needs the npm registry or a mirror of it.
set -eu
tag=${1:?usage: offline-base.sh <image tag>}
podman=${PODMAN:-podman}
node=$(command -v node)
npm_root=$(npm root -g)/npm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

# A program at its path in the image, with every library ldd lists at that library's path.
copy_with_libraries() {
  mkdir -p "$root$(dirname "$2")"
  cp -L "$1" "$root$2"
  for library in $(ldd "$1" 2>/dev/null | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^\// && $(i + 1) ~ /^\(0x/) print $i }'); do
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
  done
}

copy_with_libraries "$node" /usr/local/bin/node
copy_with_libraries /bin/sh /bin/sh
copy_with_libraries /usr/bin/env /usr/bin/env
mkdir -p "$root/usr/local/lib/node_modules" "$root/etc" "$root/root" "$root/home/node" "$root/tmp"
cp -RL "$npm_root" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' > "$root/etc/group"
tar -C "$root" -cf "$work/base.tar" .
$podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]' "$work/base.tar" "$tag"
