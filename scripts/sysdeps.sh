#!/usr/bin/env bash
# Installs the system packages the project needs, or stops with the exact command to run.
#   scripts/sysdeps.sh run    WeasyPrint's libraries (PDF scorecards)
#   scripts/sysdeps.sh test   the above, plus chromium (browser tests) and poppler-utils (pdftoppm)
#   scripts/sysdeps.sh messages  gettext (msgfmt, xgettext), to extract and compile translations
#                                (`make messages`); running the app needs none: the .mo is committed
set -euo pipefail

want=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
if [ "${1:-run}" = "test" ]; then
    want+=(chromium poppler-utils)
fi
if [ "${1:-run}" = "messages" ]; then
    want=(gettext)
fi

missing=()
for pkg in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
    echo "Missing system packages: ${missing[*]}" >&2
    echo "Run as root:  $cmd" >&2
    exit 1
fi
