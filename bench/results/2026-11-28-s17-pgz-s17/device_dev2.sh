# device_dev2.sh — as device_dev.sh (programs in .pgz-devbin/, 16-core device host)
set -e
export LD_LIBRARY_PATH=$PWD/.pgz-devbin:$LD_LIBRARY_PATH
B=$PWD/.pgz-devbin; D=$(mktemp -d)
$B/coarsen-new gen rgg --vertices 2097152 --degree 12 -o $D/x.mtx >/dev/null 2>&1
env -u GZIP gzip -1 -c $D/x.mtx > $D/x-1.mtx.gz; env -u GZIP gzip -6 -c $D/x.mtx > $D/x-6.mtx.gz
for f in x-1.mtx.gz x-6.mtx.gz; do for t in 6 8 12; do for r in 1 2 3; do for p in coarsen-new coarsen-base; do
  j=$(OMP_NUM_THREADS=$t $B/$p --levels 10 --json $D/$f 2>/dev/null | tr -d '\n' | sed -n 's/.*"read_ms": *\([0-9.]*\), *"inflate_ms": *\([0-9.]*\), *"parse_ms": *\([0-9.]*\).*"wall_ms": *\([0-9.]*\).*/read=\1 inflate=\2 parse=\3 wall=\4/p')
  echo "file=$f threads=$t run=$r prog=$p $j"
done; done; done; done
