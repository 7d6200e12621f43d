#!/bin/sh
# metis_phases.sh — runs gpmetis on a METIS graph with timing output
# (-dbglvl=2) and prints its phase times as key=value lines, for comparison
# rows in other benchmarks. The times are the CPU seconds gpmetis reports.
#
#   sh bench/metis_phases.sh FILE [NPARTS [GPMETIS_OPTION...]]
#
# FILE may be gzip'd (.gz: unpacked to a temporary file first). NPARTS
# defaults to 2. Nothing is written next to FILE (-nooutput). Output:
#   metis_file=FILE
#   metis_nparts=2
#   metis_io_s=0.005
#   metis_coarsening_s=0.004
#   metis_matching_s=0.002
#   metis_contract_s=0.002
#   metis_partitioning_s=0.008
#   metis_edgecut=624
set -eu
file=${1:?usage: sh bench/metis_phases.sh FILE [NPARTS [GPMETIS_OPTION...]]}
nparts=${2:-2}
[ $# -ge 2 ] && shift 2 || shift $#
command -v gpmetis >/dev/null 2>&1 || { echo "metis_phases.sh: gpmetis not found" >&2; exit 2; }
[ -r "$file" ] || { echo "metis_phases.sh: cannot read $file" >&2; exit 2; }
input=$file
tmp=
trap '[ -n "$tmp" ] && rm -f "$tmp"' EXIT
case "$file" in
*.gz)
    tmp=$(mktemp "${TMPDIR:-/tmp}/metis_phases.XXXXXX")
    gzip -dc "$file" >"$tmp"
    input=$tmp
    ;;
esac
log=$(gpmetis -nooutput -dbglvl=2 "$@" "$input" "$nparts" 2>&1) || {
    echo "metis_phases.sh: gpmetis failed on $file:" >&2
    printf '%s\n' "$log" | tail -5 >&2
    exit 1
}
# "Label:   0.004" lines (tabs and spaces); the first match of each label.
value() {
    printf '%s\n' "$log" | awk -v key="$1" '
        { line = $0; sub(/^[ \t]+/, "", line) }
        index(line, key ":") == 1 { v = line; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t].*$/, "", v); print v; exit }'
}
echo "metis_file=$file"
echo "metis_nparts=$nparts"
echo "metis_io_s=$(value 'I/O')"
echo "metis_coarsening_s=$(value 'Coarsening')"
echo "metis_matching_s=$(value 'Matching')"
echo "metis_contract_s=$(value 'Contract')"
echo "metis_partitioning_s=$(value 'Partitioning')"
echo "metis_edgecut=$(printf '%s\n' "$log" | sed -n 's/.*Edgecut: *\([0-9]*\).*/\1/p' | head -1)"
