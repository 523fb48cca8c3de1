#!/usr/bin/env bash
# Whole-process latency of aw commands.
#
# Usage: bench/latency.sh [manifest|sessions|all] [SKILL_DIR...]
#   manifest: `aw manifest validate --strict` over the given skill folders (default: the five
#             family members of ../shared/data/manifest-fixtures when present, else the demo's
#             example skills).
#   sessions: `next-number`, `session-create` and `sessions` on a generated workspace holding
#             200 sessions (made with aw itself in a temporary folder).
# Uses hyperfine when installed (median of >= 100 runs), else a loop of N runs timed with `date`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
aw=${CARGO_TARGET_DIR:-$root/target}/release/aw
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
what=${1:-manifest}
shift || true

measure() { # name, command...
  local name=$1; shift
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 10 --runs 200 --style basic --export-json /tmp/aw-bench.json "$(printf '%q ' "$@")" >/dev/null 2>&1 || true
    python3 - "$name" <<'PY'
import json, sys
r = json.load(open('/tmp/aw-bench.json'))['results'][0]
print(f"{sys.argv[1]:<40} median {r['median']*1000:7.2f} ms  mean {r['mean']*1000:7.2f} ms  min {r['min']*1000:7.2f} ms  (hyperfine, {len(r['times'])} runs)")
PY
  else
    local n=200 i start end
    start=$(date +%s%N)
    for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    printf '%-40s mean %7.2f ms  (%d runs, no hyperfine)\n' "$name" "$(awk -v a="$start" -v b="$end" -v n="$n" 'BEGIN { print (b - a) / n / 1000000 }')" "$n"
  fi
}

case $what in
  manifest|all)
    if [ $# -eq 0 ]; then
      if [ -d "$root/../shared/data/manifest-fixtures/members" ]; then
        set -- "$root"/../shared/data/manifest-fixtures/members/*
      else
        set -- "$root"/crates/aw/demo/skills/*
      fi
    fi
    measure "manifest validate --strict ($# dirs)" "$aw" manifest validate --strict "$@"
    ;;
esac

case $what in
  sessions|all)
    ws=$(mktemp -d /tmp/aw-bench-ws.XXXXXX)
    trap 'rm -rf "$ws"' EXIT
    export HOME=$ws/home AW_LOCK_WAIT_MS=30000
    unset AW_NAMESPACE AW_CONTEXT_ID
    mkdir -p "$HOME"
    "$aw" workspace-init --workspace "$ws" --source app:. --json >/dev/null
    for ((i = 1; i <= 200; i++)); do
      (cd "$ws" && "$aw" session-create --type quick --name "topic-$i-quick" --objective "Bench session $i" --json >/dev/null)
      if ((i % 3 == 0)); then (cd "$ws" && "$aw" session-close --code "$(printf '%03d' "$i")" --json >/dev/null); fi
    done
    mkdir -p "$ws/docs/specs"
    for ((i = 1; i <= 50; i++)); do
      : >"$ws/docs/specs/$(printf '%03d' "$i")-spec-topic-$i.md"
    done
    cd "$ws"
    measure "next-number docs/specs --dry-run" "$aw" next-number docs/specs --dry-run --json
    measure "sessions --state all (200 sessions)" "$aw" sessions --state all --json
    measure "session-create (200+ sessions)" "$aw" session-create --type quick --name bench-quick --objective "Bench" --json
    cd "$root"
    ;;
  manifest) ;;
  *) echo "unknown benchmark: $what (manifest|sessions|all)" >&2; exit 2 ;;
esac
