#!/bin/sh
# run.sh [BUILD] — coarsen-mpi (dist/) against coarsen: on generated graphs
# and on the shared graphs (COARSEN_DATA, default ../shared/data; skipped
# visibly when absent), `mpirun -np P coarsen-mpi --out B` must write level
# and map files byte-identical to `coarsen --out A` (gzip ones: the same
# text; ISA-L may, rarely, encode a member otherwise), for every P in
# MPI_RANKS (default "1 2 3 4"), and the same per-level figures in
# stats.json (times aside, when python3 is there). Cases cover the ratings,
# both tie rules, integer and real weights, vertex weights, levels where
# two-hop runs (handed to rank 0) and where it is disabled (every level
# distributed), with the handshake, red/blue and HEC. Inputs: METIS, ParHIP
# binary and Matrix Market files, which every rank reads its share of
# (stats.json's "read_by_ranks": 1; comments, self-loops, duplicates, both
# directions, zero weights, pattern and complex values included), gzip,
# which rank 0 reads ("read_by_ranks": 0); and malformed METIS, ParHIP and
# Matrix Market files, which must end every run with coarsen's own message
# and status. `coarsen-mpi partition` (input read per rank, first
# hierarchy across the ranks, the rest on rank 0) against `coarsen
# partition`: the part files compared with cmp, the cut, imbalance and
# per-level cuts alike; malformed input gives coarsen's message and status
# there too. COARSEN_MPI_GATHER_BELOW=0 keeps even small levels
# distributed; one case runs with the default. Prints one line per run and
# a summary; exit 1 when any run differs. Skips (exit 0, saying so) when
# mpirun or BUILD/coarsen-mpi is absent. Runs from the repository root.
#
# On GPUs (docs/distributed.md, "GPUs with NCCL"): MPI_DEVICE=gpu gives
# both programs --device gpu, and every run with distributed levels, of
# any matcher, must say "gpus": P in stats.json (its exchanges went
# through NCCL). MPI_SINGLETON=1
# starts the one rank without mpirun (MPI_Init as a singleton; MPI_RANKS=1),
# for a machine that has OpenMPI's libraries but no launcher:
#   MPI_DEVICE=gpu MPI_SINGLETON=1 MPI_RANKS=1 sh tests/mpi/run.sh build
set -u
BUILD=${1:-build-cpu}
PROG=$BUILD/coarsen
MPIPROG=$BUILD/coarsen-mpi
DATA=${COARSEN_DATA:-../shared/data}
RANKS=${MPI_RANKS:-"1 2 3 4"}
DEVICE=${MPI_DEVICE:-}
SINGLETON=${MPI_SINGLETON:-0}
if [ "$SINGLETON" = 1 ] && [ "$RANKS" != 1 ]; then
    echo "mpi tests: MPI_SINGLETON=1 needs MPI_RANKS=1" >&2
    exit 2
fi
if [ "$SINGLETON" != 1 ] && ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi tests: [SKIP] mpirun not found (OpenMPI: scripts/install-deps.sh)"
    exit 0
fi
if [ ! -x "$MPIPROG" ]; then
    echo "mpi tests: [SKIP] $MPIPROG not built (no mpicc when it was built)"
    exit 0
fi
# root in CI containers; one OpenMP thread per rank on a small machine
MPIRUN="mpirun --oversubscribe -np"
[ "$(id -u)" -eq 0 ] && MPIRUN="mpirun --allow-run-as-root --oversubscribe -np"
# launch P PROGRAM ARGS...: P ranks under mpirun, or the singleton
launch() {
    np=$1
    shift
    if [ "$SINGLETON" = 1 ]; then "$@"; else $MPIRUN "$np" "$@"; fi
}
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
# the readers' symmetry check in rounds of few entries, so that every graph
# here takes several (dist/symmetry.h; 2^24 entries by default)
export COARSEN_MPI_SYMMETRY_CHUNK=${COARSEN_MPI_SYMMETRY_CHUNK:-65536}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
skip=0

# The per-level figures of stats.json without times, "ranks" and the like
# (and, on GPUs, without "built_on": coarsen-mpi contracts on the CPU).
figures() {
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
skip = ("built_on",) if sys.argv[2] == "gpu" else ()
for l in d["levels"]:
    print(sorted((k, v) for k, v in l.items() if not k.endswith("_ms") and k not in skip))
print(d["stop_reason"])' "$1" "$DEVICE"
}

# verdict RUN BAD OK: one run's line and count: FAIL with what differs
# when BAD is not empty, else ok with OK.
verdict() {
    if [ -n "$2" ]; then
        echo "FAIL $1: differs:$2"
        fail=$((fail + 1))
    else
        echo "ok   $1: $3"
        pass=$((pass + 1))
    fi
}

# check NAME GATHER GRAPH ARGS...: the reference run, then one run per rank count.
check() {
    name=$1 gather=$2 graph=$3
    shift 3
    ref=$tmp/ref
    rm -rf "$ref"
    if ! "$PROG" --quiet ${DEVICE:+--device $DEVICE} "$@" --out "$ref" "$graph" 2>"$tmp/err"; then
        echo "FAIL $name: coarsen: $(cat "$tmp/err")"
        fail=$((fail + 1))
        return
    fi
    for p in $RANKS; do
        out=$tmp/np$p
        rm -rf "$out"
        if ! (if [ -n "$gather" ]; then export COARSEN_MPI_GATHER_BELOW=$gather; fi
            launch "$p" "$MPIPROG" --quiet ${DEVICE:+--device $DEVICE} "$@" --out "$out" "$graph") >"$tmp/err" 2>&1; then
            echo "FAIL $name np=$p: coarsen-mpi: $(tail -3 "$tmp/err")"
            fail=$((fail + 1))
            continue
        fi
        bad=""
        for f in "$ref"/level-* "$ref"/map-*; do
            [ -e "$f" ] || continue
            g=$out/$(basename "$f")
            case $f in
            *.gz) # the same text: ISA-L's level 1 may, rarely, encode a member otherwise (docs/benchmarks.md)
                env -u GZIP gzip -dc "$f" >"$tmp/text" && env -u GZIP gzip -dc "$g" 2>/dev/null | cmp -s - "$tmp/text" ;;
            *) cmp -s "$f" "$g" ;;
            esac || bad="$bad $(basename "$f")"
        done
        [ "$(ls "$ref" | wc -l)" -eq "$(ls "$out" | wc -l)" ] || bad="$bad (file count)"
        grep -q "\"ranks\": $p," "$out/stats.json" || bad="$bad (ranks)"
        case $graph in *.gz) byranks=0 ;; *) byranks=1 ;; esac
        grep -q "\"read_by_ranks\": $byranks," "$out/stats.json" || bad="$bad (read_by_ranks not $byranks)"
        if command -v python3 >/dev/null 2>&1; then
            figures "$ref/stats.json" >"$tmp/a" && figures "$out/stats.json" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b" ||
                bad="$bad stats.json-figures"
        fi
        levels=$(ls "$ref" | grep -c '^map-')
        dl=$(sed -n 's/.*"distributed_levels": \([0-9]*\).*/\1/p' "$out/stats.json")
        if [ "$DEVICE" = gpu ] && [ "${dl:-0}" -gt 0 ]; then
            grep -q "\"gpus\": $p," "$out/stats.json" || bad="$bad (gpus: no NCCL)"
        fi
        verdict "$name np=$p" "$bad" "$levels levels identical ($dl built across ranks)"
    done
}

# part NAME GATHER GRAPH ARGS...: `coarsen partition ARGS --out A GRAPH`
# as the reference, then `coarsen-mpi partition` (input read per rank, first
# hierarchy built across the ranks) at every rank count: the part file
# identical (cmp), the same cut, imbalance and level count (stdout's first
# line) and the same per-level cuts and moves (stderr's "coarsen: partition"
# lines; not on GPUs, below), and stdout saying "ranks: P", with at least
# one level built across the ranks unless GATHER is the default.
part() {
    name=$1 gather=$2 graph=$3
    shift 3
    if ! "$PROG" partition ${DEVICE:+--device $DEVICE} "$@" --out "$tmp/ref.part" "$graph" >"$tmp/ref.out" 2>"$tmp/ref.err"; then
        echo "FAIL $name: coarsen partition: $(tail -1 "$tmp/ref.err")"
        fail=$((fail + 1))
        return
    fi
    grep '^coarsen: partition' "$tmp/ref.err" >"$tmp/ref.levels"
    for p in $RANKS; do
        rm -f "$tmp/out.part"
        if ! (if [ -n "$gather" ]; then export COARSEN_MPI_GATHER_BELOW=$gather; fi
            launch "$p" "$MPIPROG" partition ${DEVICE:+--device $DEVICE} "$@" --out "$tmp/out.part" "$graph") \
            >"$tmp/out" 2>"$tmp/err"; then
            echo "FAIL $name np=$p: coarsen-mpi partition: $(tail -3 "$tmp/err")"
            fail=$((fail + 1))
            continue
        fi
        bad=""
        cmp -s "$tmp/ref.part" "$tmp/out.part" || bad="$bad part-file"
        [ "$(head -1 "$tmp/ref.out")" = "$(head -1 "$tmp/out")" ] || bad="$bad cut/imbalance"
        # on GPUs coarsen refines on the device, whose per-level cuts of real
        # weights are fixed-point sums (partition.h), coarsen-mpi on the host
        [ "$DEVICE" = gpu ] || grep '^coarsen: partition' "$tmp/err" | cmp -s "$tmp/ref.levels" - ||
            bad="$bad level-cuts"
        dl=$(sed -n "s/^ranks: $p (levels 1\.\.\([0-9]*\) .*/\1/p" "$tmp/out")
        [ -n "$dl" ] || bad="$bad (ranks)"
        [ -n "$gather" ] && [ "${dl:-0}" -eq 0 ] && bad="$bad (no level across the ranks)"
        verdict "$name np=$p" "$bad" \
            "part file and cuts identical ($(head -1 "$tmp/out" | sed 's/ (max.*//'); $dl levels across ranks)"
    done
}

# bad NAME FILE [COMMAND ARGS...]: a malformed input; every run (of the
# pipeline, or of the command given) must end with the status and the
# one-line message of `coarsen` on it.
bad() {
    name=$1 graph=$2
    shift 2
    "$PROG" "$@" --quiet "$graph" >/dev/null 2>"$tmp/want"
    want=$?
    line=$(head -1 "$tmp/want")
    for p in $RANKS; do
        timeout 120 $MPIRUN "$p" "$MPIPROG" "$@" --quiet "$graph" >/dev/null 2>"$tmp/err"
        st=$?
        if [ "$want" -eq 3 ] && [ "$st" -eq "$want" ] && grep -qxF "$line" "$tmp/err"; then
            echo "ok   $name np=$p: exit $st, $line"
            pass=$((pass + 1))
        else
            echo "FAIL $name np=$p: exit $st (coarsen: $want, 124: the ranks hung): $(head -1 "$tmp/err")"
            fail=$((fail + 1))
        fi
    done
}

# gen NAME KIND ARGS...: a generated graph into $tmp/NAME.
gen() {
    name=$1
    shift
    "$PROG" gen "$@" --quiet -o "$tmp/$name" || { echo "FAIL gen $name"; fail=$((fail + 1)); }
}

gen rgg.graph rgg --vertices 20000 --seed 3
gen rgg-real.mtx rgg --vertices 12000 --seed 4 --weights real
gen rmat.graph rmat --vertices 16384 --degree 8 --seed 5 --weights int
gen grid.graph grid2d --nx 60 --ny 50
gen delaunay-exp.mtx delaunay --vertices 10000 --seed 6 --weights exponential
gen tiny.graph grid2d --nx 3 --ny 2
# Matrix Market: general with duplicates, both directions, zeros, negative
# and diagonal entries, comments and blank lines; pattern symmetric with
# duplicates; complex hermitian (python3 writes them)
python3 -c '
import random, sys
random.seed(7)
n, d = 3000, sys.argv[1]
def write(name, head, lines, every=0):
    with open(d + "/" + name, "w") as f:
        f.write(head + "%% written by tests/mpi/run.sh\n%d %d %d\n" % (n, n, len(lines)))
        for k, l in enumerate(lines):
            f.write(l + "\n")
            if every and k % every == 0:
                f.write("%% comment\n\n")
g = []
for k in range(20000):
    i, j = random.randint(1, n), random.randint(1, n)
    g.append("%d %d %r" % (i, j, random.choice([random.uniform(-5, 5), 0.0, float(random.randint(-3, 3))])))
    if random.random() < 0.1:
        g.append("%d %d %r" % (i, j, random.uniform(-1, 1)))
    if random.random() < 0.1:
        g.append("%d %d %r" % (j, i, random.uniform(-1, 1)))
random.shuffle(g)
write("general-dups.mtx", "%%MatrixMarket matrix coordinate real general\n", g, 977)
p = []
for k in range(15000):
    i = random.randint(1, n)
    p.append("%d %d" % (i, random.randint(1, i)))
write("pattern.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n", p + p[:700])
c = []
for k in range(8000):
    i = random.randint(1, n)
    c.append("%d %d %r %r" % (i, random.randint(1, i), random.uniform(-2, 2), random.uniform(-2, 2)))
write("complex.mtx", "%%MatrixMarket matrix coordinate complex hermitian\n", c)
' "$tmp" 2>/dev/null
"$PROG" convert --quiet "$tmp/rgg.graph" "$tmp/rgg.parhip" || { echo "FAIL convert rgg.parhip"; fail=$((fail + 1)); }
"$PROG" convert --quiet "$tmp/rmat.graph" "$tmp/rmat.parhip" || { echo "FAIL convert rmat.parhip"; fail=$((fail + 1)); }
# comments between vertex lines and a self-loop on every fifth vertex (dropped)
awk 'NR == 1 { print; next } NR % 5 == 0 { print $0 " " NR - 1; next } { print } NR % 7 == 0 { print "% comment" }' \
    "$tmp/rgg.graph" >"$tmp/rgg-comments.graph"
# malformed: an entry without its mirror (the counts kept), a bad token far
# from rank 0's share, a line past the last vertex, an asymmetric ParHIP file
sed '5s/ 228 / 19999 /' "$tmp/rgg.graph" >"$tmp/bad-mirror.graph"
sed '15000s/$/ x7/' "$tmp/rgg.graph" >"$tmp/bad-token.graph"
sed '40000s/^[0-9]* /12001 /' "$tmp/rgg-real.mtx" >"$tmp/bad-index.mtx"
sed '30000s/$/ 7/' "$tmp/rgg-real.mtx" >"$tmp/bad-token.mtx"
sed '$d' "$tmp/rgg-real.mtx" >"$tmp/bad-count.mtx"
{ cat "$tmp/rgg.graph"; echo "1 2"; } >"$tmp/bad-extra.graph"
python3 -c '
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
v, n, m = struct.unpack("<3Q", d[:24])
eid, vid = (4 if v & 4 else 8), (4 if v & 8 else 8)
struct.pack_into("<I" if vid == 4 else "<Q", d, 24 + (n + 1) * eid + (m - 1) * vid, 0)
open(sys.argv[2], "wb").write(d)' "$tmp/rgg.parhip" "$tmp/bad-mirror.parhip" 2>/dev/null

check rgg-default 0 "$tmp/rgg.graph"
check rgg-weight-id 0 "$tmp/rgg.graph" --rating weight --ties id
check rgg-expansion 0 "$tmp/rgg.graph" --rating expansion --levels 4
check rgg-gather-default "" "$tmp/rgg.graph"
check rgg-real 0 "$tmp/rgg-real.mtx" --format mtx
check rgg-parhip-gzip 0 "$tmp/rgg.graph" --format parhip --gzip --levels 3 --no-level0
check rgg-read-parhip 0 "$tmp/rgg.parhip" --levels 4
check rmat-read-parhip 0 "$tmp/rmat.parhip" --levels 3
check rgg-read-comments-loops 0 "$tmp/rgg-comments.graph" --levels 3
for f in general-dups pattern complex; do
    if [ -f "$tmp/$f.mtx" ]; then
        check "mtx-$f" 0 "$tmp/$f.mtx" --format mtx
    else
        echo "SKIP mtx-$f: no python3 to write it"
        skip=$((skip + 1))
    fi
done
check rmat-two-hop 0 "$tmp/rmat.graph"
check rmat-no-two-hop 0 "$tmp/rmat.graph" --two-hop-threshold 2 --levels 6
check grid-id 0 "$tmp/grid.graph" --ties id --rating weight --levels 3
check delaunay-real-cap 0 "$tmp/delaunay-exp.mtx" --format mtx --max-vertex-weight 3 --coarsen-to 10
check rgg-redblue 0 "$tmp/rgg.graph" --matcher redblue --levels 3
check rgg-redblue-id-gather "" "$tmp/rgg.graph" --matcher redblue --ties id
check rmat-redblue-two-hop 0 "$tmp/rmat.graph" --matcher redblue --levels 5
check delaunay-redblue-real-cap 0 "$tmp/delaunay-exp.mtx" --format mtx --matcher redblue --max-vertex-weight 3 --coarsen-to 10
check rgg-hec 0 "$tmp/rgg.graph" --matcher hec
check rmat-hec-islands 0 "$tmp/rmat.graph" --matcher hec --levels 5
check grid-hec-id 0 "$tmp/grid.graph" --matcher hec --ties id --rating weight --levels 3
check delaunay-hec-real-cap 0 "$tmp/delaunay-exp.mtx" --format mtx --matcher hec --max-vertex-weight 3 --coarsen-to 10
check tiny-hec-deep 0 "$tmp/tiny.graph" --matcher hec --coarsen-to 0 --levels 10
check tiny-deep 0 "$tmp/tiny.graph" --coarsen-to 0 --levels 10 --two-hop-threshold 2 # blocks with no vertex

bad bad-mirror.graph "$tmp/bad-mirror.graph"
bad bad-token.graph "$tmp/bad-token.graph"
bad bad-extra.graph "$tmp/bad-extra.graph"
bad bad-index.mtx "$tmp/bad-index.mtx"
bad bad-token.mtx "$tmp/bad-token.mtx"
bad bad-count.mtx "$tmp/bad-count.mtx"
if [ -f "$tmp/bad-mirror.parhip" ]; then
    bad bad-mirror.parhip "$tmp/bad-mirror.parhip"
else
    echo "SKIP bad-mirror.parhip: no python3 to write it"
    skip=$((skip + 1))
fi

# partition: the first hierarchy across the ranks, the rest on rank 0
part part-rgg-k2 0 "$tmp/rgg.graph" -k 2
part part-rgg-k8 0 "$tmp/rgg.graph" -k 8
part part-rgg-k8-no-vcycles 0 "$tmp/rgg.graph" -k 8 --vcycles 0
part part-rgg-k64-gather-default "" "$tmp/rgg.graph" -k 64
part part-rgg-k8-hec-id 0 "$tmp/rgg.graph" -k 8 --matcher hec --ties id
part part-rmat-k2-no-vcycles 0 "$tmp/rmat.graph" -k 2 --vcycles 0
part part-rmat-k8 0 "$tmp/rmat.graph" -k 8
part part-delaunay-real-k8 0 "$tmp/delaunay-exp.mtx" -k 8 --vcycles 0
part part-delaunay-real-k2 0 "$tmp/delaunay-exp.mtx" -k 2
bad partition-bad-token.graph "$tmp/bad-token.graph" partition -k 2
bad partition-bad-index.mtx "$tmp/bad-index.mtx" partition -k 8

# A run that fails on rank 0 before any level (no such file) must end, with
# rank 0's exit status, instead of leaving the other ranks waiting.
if [ "$SINGLETON" != 1 ] && command -v timeout >/dev/null 2>&1; then
    timeout 120 $MPIRUN 2 "$MPIPROG" --quiet "$tmp/no-such-file.graph" >"$tmp/err" 2>&1
    st=$?
    if [ "$st" -ne 0 ] && [ "$st" -ne 124 ] && grep -q "no-such-file" "$tmp/err"; then
        echo "ok   missing input: rank 0 fails (exit $st), the other rank is released"
        pass=$((pass + 1))
    else
        echo "FAIL missing input: exit $st (124: the ranks hung): $(tail -2 "$tmp/err")"
        fail=$((fail + 1))
    fi
fi

# shared CASE PREFIX FILE[:ARG:ARG...]...: CASE (check or part) on each
# shared graph with its arguments, named PREFIX FILE; skipped visibly when
# the graph is absent.
shared() {
    case_fn=$1 prefix=$2
    shift 2
    for spec in "$@"; do
        sfile=${spec%%:*}
        sargs=$(echo "$spec" | sed -n 's/^[^:]*:\(.*\)/\1/p' | tr ':' ' ')
        if [ -f "$DATA/$sfile" ]; then
            $case_fn "$prefix$sfile" 0 "$DATA/$sfile" $sargs
        else
            echo "SKIP $prefix$sfile: not in $DATA (COARSEN_DATA)"
            skip=$((skip + 1))
        fi
    done
}
shared check "" karate.graph:--coarsen-to:0:--levels:20:--two-hop-threshold:2 4elt.graph PGPgiantcompo.graph \
    kahip_example_weighted.graph:--coarsen-to:5 bcsstk13.mtx.gz:--format:mtx power.graph astro-ph.graph.gz
shared part part- 4elt.graph:-k:8 PGPgiantcompo.graph:-k:2:--vcycles:0

echo "mpi tests: $pass identical, $fail failed, $skip skipped (ranks: $RANKS)"
[ "$fail" -eq 0 ]
