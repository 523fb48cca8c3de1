#!/usr/bin/env bash
# Whole-process latency of aw commands.
#
# Usage: bench/latency.sh [manifest|sessions|listing|flow|status|capability|family|hook|startup|all] [SKILL_DIR...]
#   manifest: `aw manifest validate --strict` over the given skill folders (default: the five
#             family members of ../shared/data/manifest-fixtures when present, else the demo's
#             example skills).
#   sessions: `next-number`, `session-create` and `sessions` on a generated workspace holding
#             200 sessions (made with aw itself in a temporary folder); `sessions --state all` is
#             shown beside `sessions` (active only) with the ratio, and beside the floor: the
#             bare-read example reading every file of the session folders once.
#   listing:  every session listing (`sessions`, `--state active|closed|all`, `--all`,
#             `--verbose`) on workspaces written by gen-workspace --undated (sessions as v22
#             writes them: no start date in SESSION.md, a HISTORY.md row per closed session) at
#             1x, 10x, 100x and 1000x a small workspace of 30 sessions (30 to 30,000 sessions),
#             each beside the floor: the bare-read example reading HISTORY.md and every file of
#             the session folders once. Target: every listing <= 1.5x the floor at every scale.
#             AW_BENCH_SCALES overrides the scales; large scales take fewer runs.
#   flow:     `aw flow advance` (re-reading a boundary, nothing written) and `aw flow submit`
#             (answering the quick entry gate: validate, apply, walk, one atomic write), each on a
#             run restored before every timing run; target: median <= 5 ms.
#   status:   `aw status --json` and `aw resume --json` on workspaces written by the
#             gen-workspace example at 10x, 100x and 1000x (S-1 specs, S-1 plans of 10 phases,
#             S/5 sessions; 1000x is 999/999/200), with peak RSS from /usr/bin/time -v when
#             present; AW_BENCH_SCALES overrides the scales. Target at 1000x: median <= 50 ms and
#             peak RSS <= 30 MB for each command. Each scale also times the floor, the
#             bare-read example (one thread walking the folders status reads and reading every
#             file once, doing nothing with the bytes), and prints each command's ratio to it.
#   capability: in a temporary workspace holding one design package (DES-001), `aw capability
#             prepare` of design.create (the semantic request: resolution, inventory, design
#             index, digests) and of design.validate (the package read and its DESIGN.md digest
#             checked), and `aw skills --detail --format human` when this aw has the command;
#             beside the floor, /bin/true (process start-up alone). Target: median <= 5 ms.
#   family:   with the five real family members installed under a throwaway HOME (the test
#             fixtures) and both review wrappers wired into a project, `aw family status`,
#             `family sandbox`, `family settings list` and `family posture`; beside the floor,
#             /bin/true. Target: median <= 5 ms.
#   hook:     `aw hook branch-check` on an edit it allows (the source on its working branch),
#             in a repository of 10 and of 20,000 tracked files (AW_BENCH_HOOK_FILES overrides),
#             beside `git branch --show-current` in the same repository (the floor: the branch
#             name alone decides), `aw --version` (aw's own start-up) and, for scale, `git status
#             --porcelain`; timed by a small Python loop (each command started directly, stdin
#             from the payload file, the commands interleaved); then the same edit made in the
#             only active session's isolation unit (the unit rule). Target: the hook <= 3x the
#             floor at every size, with or without a unit.
#   startup:  process start-up: `aw --version`, and on a small workspace (5 sessions, 5 specs)
#             `next-number docs/specs --dry-run`, `sessions` and `flow advance` (a boundary
#             re-read), each beside /bin/true (the spawn floor), timed by a small Python loop (each
#             command started directly, all interleaved, 1000 rounds; AW_BENCH_ROUNDS overrides):
#             median and p10 wall time, and with perf, task-clock (cpu) and page faults from
#             `perf stat -r 300`. Target: --version <= 1.5x /bin/true, the others <= 2x.
# Uses hyperfine when installed (median of >= 100 runs), else a loop of N runs timed with `date`.
# AW_BIN times another aw binary (say, an older build kept aside) instead of building this tree's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${AW_BIN:-}" ]; then
  aw=$(realpath "$AW_BIN")
else
  aw=${CARGO_TARGET_DIR:-$root/target}/release/aw
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
fi
# The examples the benchmarks use, built here: the benchmarks point HOME at throwaway folders,
# where cargo would find no toolchain. bare-read is the floor; gen-workspace writes workspaces.
floor=${CARGO_TARGET_DIR:-$root/target}/release/examples/bare-read
gen=${CARGO_TARGET_DIR:-$root/target}/release/examples/gen-workspace
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p aw --example bare-read --example gen-workspace
what=${1:-manifest}
shift || true

# The last median measured, in ms (the mean without hyperfine), for ratios, and the fastest run
# (on a machine others share, the least disturbed figure).
last_ms=
last_min_ms=
# Timing runs per measurement (a benchmark on large workspaces lowers it).
runs=200
measure() { # name, command...
  local name=$1; shift
  if command -v hyperfine >/dev/null 2>&1; then
    # One results file per run of this script: several benchmarks may run side by side.
    hyperfine -N --warmup $((runs < 10 ? runs : 10)) --runs "$runs" --style basic --export-json "/tmp/aw-bench.$$.json" "$(printf '%q ' "$@")" >/dev/null 2>&1 || true
    local out
    out=$(python3 - "$name" "/tmp/aw-bench.$$.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))['results'][0]
print(f"{r['median']*1000:.2f}\t{r['min']*1000:.2f}\t{sys.argv[1]:<40} median {r['median']*1000:7.2f} ms  mean {r['mean']*1000:7.2f} ms  min {r['min']*1000:7.2f} ms  (hyperfine, {len(r['times'])} runs)")
PY
    )
    last_ms=${out%%$'\t'*}
    out=${out#*$'\t'}
    last_min_ms=${out%%$'\t'*}
    echo "${out#*$'\t'}"
  else
    local n=$runs i start end
    start=$(date +%s%N)
    for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    last_ms=$(awk -v a="$start" -v b="$end" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n / 1000000 }')
    last_min_ms=$last_ms
    printf '%-40s mean %7.2f ms  (%d runs, no hyperfine)\n' "$name" "$last_ms" "$n"
  fi
}

ratio() { # name, numerator ms, denominator ms, what the denominator is
  printf '%-40s %5.2fx %s\n' "$1" "$(awk -v a="$2" -v b="$3" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$4"
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
    measure "floor: bare read of the sessions" "$floor" "$ws" --sessions
    floor_ms=$last_ms
    measure "sessions (active, 200 sessions)" "$aw" sessions --json
    active_ms=$last_ms
    measure "sessions --state all (200 sessions)" "$aw" sessions --state all --json
    all_ms=$last_ms
    ratio "sessions --state all / sessions" "$all_ms" "$active_ms" "(target <= 1.5)"
    ratio "sessions --state all / floor" "$all_ms" "$floor_ms" "(bare read of the session files)"
    measure "session-create (200+ sessions)" "$aw" session-create --type quick --name bench-quick --objective "Bench" --json
    cd "$root"
    ;;
  manifest|listing|flow|status|capability|family|hook|startup) ;;
  *) echo "unknown benchmark: $what (manifest|sessions|listing|flow|status|capability|family|hook|startup|all)" >&2; exit 2 ;;
esac

case $what in
  listing|all)
    unset AW_NAMESPACE AW_CONTEXT_ID CLAUDE_CODE_SESSION_ID
    for scale in ${AW_BENCH_SCALES:-1 10 100 1000}; do
      lws=$(mktemp -d /tmp/aw-bench-listing.XXXXXX)
      trap 'rm -rf "${lws:-}" "${ws:-}"' EXIT
      export HOME=$lws/home
      mkdir -p "$HOME"
      n=$((30 * scale))
      "$gen" "$lws" --specs 0 --plans 0 --sessions "$n" --seed 11 --undated >/dev/null
      cd "$lws"
      closed=$(find .workflow/sessions -name .closed | wc -l)
      echo "listing workspace ${scale}x: $n sessions ($closed closed, no start dates, $(($(wc -l <.workflow/HISTORY.md) - 4)) HISTORY rows)"
      runs=$((scale >= 1000 ? 10 : scale >= 100 ? 30 : 200))
      measure "floor: bare read of the sessions (${scale}x)" "$floor" "$lws" --sessions
      floor_ms=$last_ms floor_min_ms=$last_min_ms
      for args in "" "--state active" "--state closed" "--state all" "--all" "--verbose"; do
        # shellcheck disable=SC2086 # the flags are meant to split
        measure "sessions $args (${scale}x)" "$aw" sessions $args --json
        ratio "sessions $args / floor (${scale}x)" "$last_ms" "$floor_ms" "(medians; target <= 1.5)"
        ratio "sessions $args / floor, fastest (${scale}x)" "$last_min_ms" "$floor_min_ms" "(fastest runs)"
      done
      runs=200
      cd "$root"
      rm -rf "$lws"
    done
    ;;
esac

case $what in
  flow|all)
    fws=$(mktemp -d /tmp/aw-bench-flow.XXXXXX)
    export HOME=$fws/home AW_LOCK_WAIT_MS=30000
    unset AW_NAMESPACE AW_CONTEXT_ID
    mkdir -p "$HOME" "$fws/app"
    cd "$fws"
    "$aw" workspace-init --source app:app --json >/dev/null
    "$aw" session-create --type quick --name bench-quick --objective "Bench the flow" --json >/dev/null
    folder=001-bench-quick
    state=$fws/.workflow/sessions/$folder/.flow-run.json
    seal=$("$aw" flow advance --session "$folder" --flow quick --adopt --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state_digest"])')
    cp "$state" "$fws/adopted.json"
    printf '{"input_digest":"%s","signals":["quick.needs-architecture"]}' "$seal" >"$fws/answer.json"
    measure "flow advance (boundary re-read)" "$aw" flow advance --session "$folder" --json
    if command -v hyperfine >/dev/null 2>&1; then
      # stdin needs a shell; hyperfine subtracts the shell's own start-up.
      hyperfine --warmup 10 --runs 200 --style basic --export-json /tmp/aw-bench.json \
        --prepare "cp $fws/adopted.json $state" \
        "$aw flow submit --session $folder --json < $fws/answer.json" >/dev/null 2>&1 || true
      python3 - <<'PY'
import json
r = json.load(open('/tmp/aw-bench.json'))['results'][0]
print(f"{'flow submit (apply + walk + write)':<40} median {r['median']*1000:7.2f} ms  mean {r['mean']*1000:7.2f} ms  min {r['min']*1000:7.2f} ms  (hyperfine, {len(r['times'])} runs)")
PY
    else
      n=200 total=0
      for ((i = 0; i < n; i++)); do
        cp "$fws/adopted.json" "$state"
        start=$(date +%s%N)
        "$aw" flow submit --session "$folder" --json <"$fws/answer.json" >/dev/null 2>&1 || true
        end=$(date +%s%N)
        total=$((total + end - start))
      done
      printf '%-40s mean %7.2f ms  (%d runs, no hyperfine)\n' "flow submit (apply + walk + write)" "$(awk -v t="$total" -v n="$n" 'BEGIN { print t / n / 1000000 }')" "$n"
    fi
    cd "$root"
    rm -rf "$fws"
    ;;
esac

case $what in
  status|all)
    unset AW_NAMESPACE AW_CONTEXT_ID
    for scale in ${AW_BENCH_SCALES:-10 100 1000}; do
      sws=$(mktemp -d /tmp/aw-bench-status.XXXXXX)
      # Removed even when a measurement fails (keeping the sessions benchmark's folder in the trap).
      trap 'rm -rf "${sws:-}" "${ws:-}"' EXIT
      "$gen" "$sws" --specs $((scale - 1)) --plans $((scale - 1)) --phases 10 \
        --sessions $((scale / 5)) --seed 7 >/dev/null
      cd "$sws"
      bytes=$(cat docs/specs/* docs/plans/* | wc -c)
      echo "status workspace ${scale}x: $((scale - 1)) specs, $((scale - 1)) plans, $((scale / 5)) sessions, $((bytes / 1024)) KiB of documents"
      measure "floor: bare read (${scale}x)" "$floor" "$sws"
      floor_ms=$last_ms
      measure "status --json (${scale}x)" "$aw" status --json
      ratio "status --json / floor (${scale}x)" "$last_ms" "$floor_ms" "(target <= 1.5 at 1000x)"
      measure "resume --json (${scale}x)" "$aw" resume --json
      ratio "resume --json / floor (${scale}x)" "$last_ms" "$floor_ms" "(target <= 1.5 at 1000x)"
      if [ -x /usr/bin/time ]; then
        for cmd in status resume; do
          kb=$(/usr/bin/time -v "$aw" "$cmd" --json 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}')
          printf '%-40s peak RSS %6.1f MB\n' "$cmd --json (${scale}x)" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')"
        done
      fi
      cd "$root"
      rm -rf "$sws"
    done
    ;;
esac

case $what in
  capability|all)
    cws=$(mktemp -d /tmp/aw-bench-cap.XXXXXX)
    # Removed even when a measurement fails (keeping the other benchmarks' folders in the trap).
    trap 'rm -rf "${cws:-}" "${sws:-}" "${ws:-}"' EXIT
    export HOME=$cws/home
    unset AW_NAMESPACE AW_CONTEXT_ID
    mkdir -p "$HOME" "$cws/.workflow" "$cws/docs/designs/001-design-checkout"
    pkg=$cws/docs/designs/001-design-checkout
    printf '# Checkout\n\n## Objective\n\nPay in one step.\n\n## Proposed design\n\nOne page.\n\n## Validation\n\nA person pays.\n' >"$pkg/DESIGN.md"
    sum=$(sha256sum "$pkg/DESIGN.md" | cut -d' ' -f1)
    # A v1 manifest (docs/PROTOCOL.md, "The design package format (v1)").
    printf '{"schema":"workline.design-manifest/v1","id":"DES-001","title":"Checkout","revision":1,"digest":"sha256:%s","sources":[],"maturity":{"requested":null,"attained":"handoff","gaps":[]},"history":[{"revision":1,"digest":"sha256:%s","path":"DESIGN.md"}]}\n' "$sum" "$sum" >"$pkg/design-manifest.json"
    cd "$cws"
    # Each command must work before it is timed: a failing command would time its error path.
    "$aw" capability prepare --capability design --operation validate --input package=DES-001 --json \
      | grep -q '"passed": true' || { echo "design.validate did not pass on DES-001" >&2; exit 1; }
    measure "floor: /bin/true" /bin/true
    floor_ms=$last_ms
    measure "capability prepare design.create" "$aw" capability prepare --capability design \
      --operation create --input title=Checkout --input sources=docs/specs/001-checkout.md \
      --input target=docs/designs --json
    ratio "prepare design.create / floor" "$last_ms" "$floor_ms" "(process start-up)"
    measure "capability prepare design.validate" "$aw" capability prepare --capability design \
      --operation validate --input package=DES-001 --json
    ratio "prepare design.validate / floor" "$last_ms" "$floor_ms" "(process start-up)"
    if "$aw" skills --help >/dev/null 2>&1; then
      measure "skills --detail --format human" "$aw" skills --detail --format human
      ratio "skills --detail / floor" "$last_ms" "$floor_ms" "(process start-up)"
    else
      echo "skills --detail: skipped (this aw has no 'skills' command)"
    fi
    cd "$root"
    rm -rf "$cws"
    ;;
esac

case $what in
  family|all)
    fam=$(mktemp -d /tmp/aw-bench-family.XXXXXX)
    trap 'rm -rf "${fam:-}" "${cws:-}" "${sws:-}" "${ws:-}"' EXIT
    export HOME=$fam/home XDG_CONFIG_HOME=$fam/xdg
    unset CODEX_CLI_BRIDGE_DIR ANTIGRAVITY_CLI_BRIDGE_DIR AGENT_WORKFLOW_KIT_DIR \
      AGENT_WORKFLOW_MEMORY_DIR AGENT_WORKFLOW_ENGINE_DIR CODEX_SERVICE_TIER
    mkdir -p "$HOME/.claude/skills" "$fam/proj/.claude" "$fam/bin" "$XDG_CONFIG_HOME/agent-workflow"
    cp -r "$root"/crates/aw/tests/fixtures/family/members/* "$HOME/.claude/skills/"
    for c in codex-review agy-review; do printf '#!/bin/sh\n' >"$fam/bin/$c"; chmod 755 "$fam/bin/$c"; done
    export PATH=$fam/bin:$PATH
    printf '{"sandbox":{"excludedCommands":["codex-review","agy-review"]},"permissions":{"allow":["Bash(codex-review code:*)","Bash(agy-review code:*)"]}}' \
      >"$fam/proj/.claude/settings.json"
    printf '# knobs\nCODEX_HARD_TIMEOUT=600\nAGY_HARD_TIMEOUT=5m\n' >"$XDG_CONFIG_HOME/agent-workflow/bridge-settings.conf"
    cd "$fam/proj"
    "$aw" family sandbox --json | grep -q '"fingerprint": "72a12b72349012b9"' \
      || { echo "family sandbox did not give the kit's fingerprint" >&2; exit 1; }
    measure "floor: /bin/true" /bin/true
    floor_ms=$last_ms
    for args in "status --json" "sandbox --json" "settings list --json" "posture --json"; do
      # shellcheck disable=SC2086
      measure "family $args" "$aw" family $args
      ratio "family ${args%% *} / floor" "$last_ms" "$floor_ms" "(process start-up)"
    done
    cd "$root"
    rm -rf "$fam"
    ;;
esac

case $what in
  hook|all)
    hws=$(mktemp -d /tmp/aw-bench-hook.XXXXXX)
    trap 'rm -rf "${hws:-}" "${fam:-}" "${cws:-}" "${sws:-}" "${ws:-}"' EXIT
    export HOME=$hws/home
    unset AW_NAMESPACE AW_CONTEXT_ID AW_HOOK_BUDGET_MS GIT_DIR GIT_WORK_TREE GIT_CEILING_DIRECTORIES
    mkdir -p "$HOME"
    for files in ${AW_BENCH_HOOK_FILES:-10 20000}; do
      repo=$hws/repo-$files
      mkdir -p "$repo"
      cd "$repo"
      git init -q -b main
      # 100 files a folder, each a line of its own.
      python3 - "$files" <<'PY'
import os, sys
n = int(sys.argv[1])
for i in range(n):
    d = f"d{i // 100}"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/f{i}.txt", "w") as f:
        f.write(f"line {i}\n")
PY
      git add -A
      git -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -q -m init
      "$aw" workspace-init --source app:.:main --json >/dev/null
      "$aw" set-working-branch app main --json >/dev/null
      payload=$hws/payload-$files.json
      printf '{"tool_name":"Edit","cwd":"%s","tool_input":{"file_path":"%s/d0/f0.txt","old_string":"line","new_string":"row"}}' \
        "$repo" "$repo" >"$payload"
      # The hook must allow this edit, or the benchmark would time a refusal.
      "$aw" hook branch-check <"$payload" || { echo "the hook did not allow the bench edit" >&2; exit 1; }
      tracked=$(git ls-files | wc -l)
      echo "hook repository: $tracked tracked files"
      # Each command is started directly (no shell, whose start-up would dwarf git's), with the
      # payload as stdin, the three interleaved so that a busy machine weighs on each alike.
      python3 - "$aw" "$payload" "$tracked" <<'PY'
import statistics, subprocess, sys, time
aw, payload, files = sys.argv[1], sys.argv[2], sys.argv[3]
def run(cmd, stdin_path=None):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    start = time.perf_counter_ns()
    subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter_ns() - start) / 1e6
cmds = {
    "floor: git branch --show-current": (["git", "branch", "--show-current"], None),
    "aw hook branch-check (allowed edit)": ([aw, "hook", "branch-check"], payload),
    "aw --version (aw's start-up)": ([aw, "--version"], None),
}
times = {name: [] for name in cmds}
for name, (cmd, stdin) in cmds.items():
    for _ in range(10):
        run(cmd, stdin)
for _ in range(300):
    for name, (cmd, stdin) in cmds.items():
        times[name].append(run(cmd, stdin))
status = sorted(run(["git", "status", "--porcelain"]) for _ in range(20))
for name, xs in times.items():
    xs.sort()
    print(f"{name + ' (' + files + ' files)':<56} median {statistics.median(xs):7.2f} ms  p10 {xs[len(xs) // 10]:7.2f} ms  (300 runs)")
print(f"{'git status --porcelain (' + files + ' files)':<56} median {statistics.median(status):7.2f} ms  (20 runs, for scale)")
floor = times["floor: git branch --show-current"]
hook = times["aw hook branch-check (allowed edit)"]
print(f"{'hook / floor (' + files + ' files)':<56} {statistics.median(hook) / statistics.median(floor):5.2f}x median, {hook[len(hook) // 10] / floor[len(floor) // 10]:5.2f}x p10 (target <= 3)")
PY
      # The same edit made in the only active session's isolation unit (a source with units
      # answers by the unit rule: the units read, the session resolved).
      folder=$("$aw" session-create --type exec --name bench-plan-exec --objective bench --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["folder"])')
      key=$("$aw" worktree list --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["workspace_key"])')
      unit=$(realpath "$HOME")/.workflow/worktrees/$key/app/$folder
      mkdir -p "$(dirname "$unit")"
      git worktree add -q -b "aw/$folder" "$unit"
      upayload=$hws/payload-unit-$files.json
      printf '{"tool_name":"Edit","cwd":"%s","tool_input":{"file_path":"%s/d0/f0.txt","old_string":"line","new_string":"row"}}' \
        "$repo" "$unit" >"$upayload"
      "$aw" hook branch-check <"$upayload" || { echo "the hook did not allow the edit in the unit" >&2; exit 1; }
      python3 - "$aw" "$upayload" "$files" "$unit" <<'PY'
import statistics, subprocess, sys, time
aw, payload, files, unit = sys.argv[1:5]
def run(cmd, stdin_path=None):
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    start = time.perf_counter_ns()
    subprocess.run(cmd, stdin=stdin, cwd=unit, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter_ns() - start) / 1e6
cmds = {
    "floor: git branch --show-current (in the unit)": (["git", "branch", "--show-current"], None),
    "aw hook branch-check (edit in own unit)": ([aw, "hook", "branch-check"], payload),
}
times = {name: [] for name in cmds}
for _ in range(300):
    for name, (cmd, stdin) in cmds.items():
        times[name].append(run(cmd, stdin))
for name, xs in times.items():
    xs.sort()
    print(f"{name + ' (' + files + ')':<56} median {statistics.median(xs):7.2f} ms  p10 {xs[len(xs) // 10]:7.2f} ms  (300 runs)")
floor, hook = times["floor: git branch --show-current (in the unit)"], times["aw hook branch-check (edit in own unit)"]
print(f"{'hook in a unit / floor (' + files + ' files)':<56} {statistics.median(hook) / statistics.median(floor):5.2f}x median (target <= 3)")
PY
      cd "$root"
    done
    rm -rf "$hws"
    ;;
esac

case $what in
  startup|all)
    stws=$(mktemp -d /tmp/aw-bench-startup.XXXXXX)
    trap 'rm -rf "${stws:-}" "${hws:-}" "${fam:-}" "${cws:-}" "${sws:-}" "${ws:-}"' EXIT
    export HOME=$stws/home AW_LOCK_WAIT_MS=30000
    unset AW_NAMESPACE AW_CONTEXT_ID CLAUDE_CODE_SESSION_ID NO_COLOR CLICOLOR_FORCE
    mkdir -p "$HOME" "$stws/app" "$stws/docs/specs"
    cd "$stws"
    "$aw" workspace-init --source app:app --json >/dev/null
    for ((i = 1; i <= 5; i++)); do
      "$aw" session-create --type quick --name "topic-$i" --objective "Bench session $i" --json >/dev/null
      : >"docs/specs/$(printf '%03d' "$i")-spec-topic-$i.md"
    done
    folder=005-topic-5
    "$aw" flow advance --session "$folder" --flow quick --adopt --json >/dev/null
    # Each command must work before it is timed: a failing command would time its error path.
    for args in "--version" "next-number docs/specs --dry-run --json" "sessions --json" \
      "flow advance --session $folder --json"; do
      # shellcheck disable=SC2086 # the arguments are meant to split
      "$aw" $args >/dev/null || { echo "aw $args failed" >&2; exit 1; }
    done
    python3 - "$aw" "$folder" "${AW_BENCH_ROUNDS:-1000}" <<'PY'
import shutil, statistics, subprocess, sys, time
aw, folder, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
cmds = {
    "floor: /bin/true": ["/bin/true"],
    "aw --version": [aw, "--version"],
    "aw next-number docs/specs --dry-run": [aw, "next-number", "docs/specs", "--dry-run", "--json"],
    "aw sessions (5 sessions)": [aw, "sessions", "--json"],
    "aw flow advance (boundary re-read)": [aw, "flow", "advance", "--session", folder, "--json"],
}
targets = {"aw --version": 1.5}
def run(cmd):
    start = time.perf_counter_ns()
    subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter_ns() - start) / 1e6
def stat(cmd):
    """task-clock (cpu ms) and page faults from perf stat, or None without perf."""
    if not shutil.which("perf"):
        return None
    p = subprocess.run(["perf", "stat", "-x,", "-r", "300", "-e", "page-faults,task-clock", *cmd],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    got = {}
    for line in p.stderr.splitlines():
        f = line.split(",")
        if len(f) > 3 and f[0] and f[2].startswith(("page-faults", "task-clock")):
            got[f[2].split(":")[0]] = float(f[0])
    return got if len(got) == 2 else None
times = {name: [] for name in cmds}
for cmd in cmds.values():
    for _ in range(20):
        run(cmd)
for _ in range(rounds):
    for name, cmd in cmds.items():
        times[name].append(run(cmd))
for xs in times.values():
    xs.sort()
floor = times["floor: /bin/true"]
fstat = stat(cmds["floor: /bin/true"])
for name, cmd in cmds.items():
    xs = times[name]
    med, p10 = statistics.median(xs), xs[len(xs) // 10]
    st = fstat if name.startswith("floor") else stat(cmd)
    line = f"{name:<38} median {med:5.2f} ms  p10 {p10:5.2f} ms"
    if st:
        line += f"  cpu {st['task-clock']:5.2f} ms  {st['page-faults']:4.0f} faults"
    if not name.startswith("floor"):
        line += f"  | {med / statistics.median(floor):4.2f}x median, {p10 / floor[len(floor) // 10]:4.2f}x p10"
        if st and fstat:
            line += f", {st['task-clock'] / fstat['task-clock']:4.2f}x cpu"
        line += f" (target <= {targets.get(name, 2.0)})"
    print(line)
print(f"({rounds} interleaved rounds" + ("; cpu and faults: perf stat -r 300)" if fstat else ")"))
PY
    cd "$root"
    rm -rf "$stws"
    ;;
esac
