#!/bin/sh
# Records the digest of every output the aw integration suite reads (crates/aw/tests/support/wire.rs)
# into crates/aw/tests/wire/recorded.tsv. The suite runs RUNS times (default 3); a run is kept
# only when its digest was the same every time, so outputs that depend on timing or randomness
# never reach the record. Run it on the commit whose output is the one to keep.
set -eu
runs=${RUNS:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo test -q -p aw --test runner --no-run
i=1
while [ "$i" -le "$runs" ]; do
    AW_WIRE_RECORD="$work/$i" cargo test -q -p aw --test runner >"$work/log.$i" 2>&1 || {
        echo "wire-record: the suite failed on run $i; nothing recorded (see below)" >&2
        tail -n 40 "$work/log.$i" >&2
        exit 1
    }
    i=$((i + 1))
done
out="$root/crates/aw/tests/wire/recorded.tsv"
mkdir -p "$(dirname "$out")"
{
    echo "# test<TAB>run<TAB>sha256 of the normalised stdout: written by scripts/wire-record.sh ($runs runs)"
    for i in $(seq 1 "$runs"); do cat "$work/$i"/*.tsv; done |
        cut -f1-3 | sort | uniq -c |
        awk -v n="$runs" '$1 == n { print $2 "\t" $3 "\t" $4 }' |
        # a run whose digest differed between runs appears once per digest: drop the key
        awk -F'\t' '{ k = $1 "\t" $2; c[k]++; line[k] = $0 } END { for (k in c) if (c[k] == 1) print line[k] }' |
        sort -t"$(printf '\t')" -k1,1 -k2,2n
} >"$out"
kept=$(grep -vc '^#' "$out")
seen=$(cat "$work"/1/*.tsv | wc -l)
echo "wire-record: $kept of $seen runs kept in $out"
