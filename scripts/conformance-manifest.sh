#!/usr/bin/env bash
# Conformance of `aw manifest validate` with the reference validator's recorded results.
#
# Usage: scripts/conformance-manifest.sh [FIXTURES_DIR] [AW_BIN]
# For every row of FIXTURES_DIR/EXPECTED.tsv (case, class, strict exit, error count) it runs the
# release binary on that case and compares the class, the --strict exit code and the number of
# error lines. Prints `N/N agree`; exits 1 on any difference.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures=${1:-$root/../shared/data/manifest-fixtures}
aw=${2:-$root/target/release/aw}
[ -f "$fixtures/EXPECTED.tsv" ] || { echo "no EXPECTED.tsv in $fixtures" >&2; exit 1; }
[ -x "$aw" ] || { echo "no aw binary at $aw (run: cargo build --release)" >&2; exit 1; }

total=0 agree=0
while IFS=$'\t' read -r case class strict_exit errors; do
  [ "$case" = case ] && continue
  total=$((total + 1))
  set +e
  out=$(cd "$fixtures" && "$aw" manifest validate --strict "$case")
  got_exit=$?
  set -e
  # Here-strings, not pipes: with pipefail an early-closing `head` could fail the script.
  got_class=$(sed -n '1s/^\[\([A-Z]*\)\].*/\1/p' <<<"$out")
  got_errors=$(grep -c '^    - ' <<<"$out" || true)
  if [ "$got_class" = "$class" ] && [ "$got_exit" = "$strict_exit" ] && [ "$got_errors" = "$errors" ]; then
    agree=$((agree + 1))
  else
    echo "DIFF $case: expected $class/$strict_exit/$errors, got $got_class/$got_exit/$got_errors"
    printf '%s\n' "$out" | sed 's/^/    | /'
  fi
done < "$fixtures/EXPECTED.tsv"

echo "$agree/$total agree"
[ "$agree" = "$total" ]
