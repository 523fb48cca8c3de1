#!/usr/bin/env bash
# Whole-process latency and system calls of `aw self install` and `aw self doctor`.
#
# Usage: bench/self.sh
#   floor:    `aw --version` (process start-up and argument parsing).
#   install:  `aw self install --target <host>` into an empty HOME (a new one before every run,
#             the last moved aside, not deleted), for each host and for `all`; target: median <=
#             10 ms per host. The install syncs the filesystem once (`syncfs`), which also
#             waits for whatever other programs have written and not yet flushed: on a busy
#             machine the wall-clock figures carry that wait, the cpu (user + system) figures
#             do not.
#   doctor:   `aw self doctor` over a HOME where `--target all` and `agents` are installed;
#             target: median <= 3x `aw --version`.
#   syscalls: with strace at hand, the calls of one `install --target all` into an empty HOME and
#             of one `doctor`: syncs (fsync, fdatasync, syncfs), readlink, opens, and how often
#             the most read file (a SKILL.md) is opened.
# Uses hyperfine when installed (median of >= 100 runs), else a loop timed with `date`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
aw=${CARGO_TARGET_DIR:-$root/target}/release/aw
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p aw

work=$(mktemp -d /tmp/aw-bench-self.XXXXXX)
trap 'rm -rf "$work"' EXIT
home=$work/home
unset AW_LOCK_WAIT_MS

last_ms=
last_cpu=
measure() { # name, prepare (shell, may be empty), command...
  local name=$1 prepare=$2; shift 2
  if command -v hyperfine >/dev/null 2>&1; then
    local json=$work/hf.json
    if [ -n "$prepare" ]; then
      hyperfine -N --warmup 5 --runs 100 --style basic --prepare "$prepare" \
        --export-json "$json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    else
      hyperfine -N --warmup 10 --runs 200 --style basic --export-json "$json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    fi
    local out
    out=$(python3 - "$name" "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))['results'][0]
cpu = (r['user'] + r['system']) * 1000
print(f"{r['median']*1000:.2f}\t{cpu:.2f}\t{sys.argv[1]:<40} median {r['median']*1000:7.2f} ms  min {r['min']*1000:7.2f} ms  cpu {cpu:6.2f} ms  (hyperfine, {len(r['times'])} runs)")
PY
    )
    last_ms=${out%%$'\t'*}
    out=${out#*$'\t'}
    last_cpu=${out%%$'\t'*}
    echo "${out#*$'\t'}"
  else
    local n=100 i total=0 start end
    for ((i = 0; i < n; i++)); do
      [ -n "$prepare" ] && sh -c "$prepare"
      start=$(date +%s%N)
      "$@" >/dev/null 2>&1 || true
      end=$(date +%s%N)
      total=$((total + end - start))
    done
    last_ms=$(awk -v t="$total" -v n="$n" 'BEGIN { printf "%.2f", t / n / 1000000 }')
    last_cpu=$last_ms
    printf '%-40s mean %7.2f ms  (%d runs, no hyperfine)\n' "$name" "$last_ms" "$n"
  fi
}

ratio() { # name, numerator ms, denominator ms, what the denominator is
  printf '%-40s %5.2fx %s\n' "$1" "$(awk -v a="$2" -v b="$3" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$4"
}

export HOME=$home
mkdir -p "$home"
measure "floor: aw --version" "" "$aw" --version
floor_ms=$last_ms
floor_cpu=$last_cpu

# Each run gets a new empty HOME; the last one is moved aside, not deleted: deleting some 150 files
# before every run made ext4 skip its recently freed inodes when the next run created files, and
# made the install's one sync also flush the deletion, so the figure measured the benchmark's own
# clean-up (the kernel's inode search was a third of the samples) rather than an install.
mkdir -p "$work/old"
fresh="sh -c 'mv \"$home\" \"\$(mktemp -d \"$work/old/h.XXXXXX\")/\" && mkdir -p \"$home\"'"
for t in claude codex gemini opencode agents all; do
  measure "self install --target $t (empty HOME)" "$fresh" "$aw" self install --target "$t" --format json
done
hosts=4

rm -rf "$home" && mkdir -p "$home"
"$aw" self install --target all --format json >/dev/null
"$aw" self install --target agents --format json >/dev/null
measure "self install --target all (noop)" "" "$aw" self install --target all --format json
measure "self doctor (all installed)" "" "$aw" self doctor --format json
ratio "self doctor / aw --version" "$last_ms" "$floor_ms" "(target <= 3; wall-clock medians)"
ratio "self doctor / aw --version, cpu" "$last_cpu" "$floor_cpu" "(user + system time, less sensitive to a busy machine)"

if command -v strace >/dev/null 2>&1; then
  count() { # file, regex
    grep -cE "$2" "$1" || true
  }
  rm -rf "$home" && mkdir -p "$home"
  strace -f -qq -o "$work/install.trace" "$aw" self install --target all --format json >/dev/null
  files=$(find "$home" -type f | wc -l)
  echo "install --target all: $files files written; syncs $(count "$work/install.trace" '^[0-9]+ +(fsync|fdatasync|syncfs)\(')," \
    "readlink $(count "$work/install.trace" '^[0-9]+ +readlink(at)?\('), opens $(count "$work/install.trace" '^[0-9]+ +open(at)?\(')" \
    "(per host: $(awk -v s="$(count "$work/install.trace" '^[0-9]+ +(fsync|fdatasync|syncfs)\(')" -v h="$hosts" 'BEGIN { printf "%.1f", s / h }') syncs)"
  "$aw" self install --target agents --format json >/dev/null
  strace -f -qq -o "$work/doctor.trace" "$aw" self doctor --format json >/dev/null
  files=$(find "$home" -type f | wc -l)
  skill_opens=$(count "$work/doctor.trace" 'open(at)?\(.*"(.*/)?\.claude/skills/w/SKILL\.md"|open(at)?\([0-9]+, "SKILL\.md"')
  echo "doctor: $files files under HOME; opens $(count "$work/doctor.trace" '^[0-9]+ +open(at)?\('), readlink $(count "$work/doctor.trace" '^[0-9]+ +readlink(at)?\(')," \
    "syncs $(count "$work/doctor.trace" '^[0-9]+ +(fsync|fdatasync|syncfs)\('), opens naming a SKILL.md $skill_opens (for $(find "$home" -name SKILL.md | wc -l) SKILL.md files)"
else
  echo "strace not found: system call counts skipped"
fi
