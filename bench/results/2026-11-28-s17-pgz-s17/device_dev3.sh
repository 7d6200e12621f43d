# device_dev3.sh — as device_dev.sh (programs in .pgz-devbin/, 16-core device host)
set -e
export LD_LIBRARY_PATH=$PWD/.pgz-devbin:$LD_LIBRARY_PATH
B=$PWD/.pgz-devbin; D=$(mktemp -d)
$B/coarsen-new gen rgg --vertices 2097152 --degree 12 -o $D/x.mtx >/dev/null 2>&1
env -u GZIP gzip -1 -c $D/x.mtx > $D/x-1.mtx.gz; env -u GZIP gzip -6 -c $D/x.mtx > $D/x-6.mtx.gz
for f in x-1.mtx.gz x-6.mtx.gz; do for r in 1 2 3; do for p in coarsen-new coarsen-base; do
  j=$(OMP_NUM_THREADS=16 $B/$p --levels 10 --json $D/$f 2>/dev/null | tr -d '\n' | sed -n 's/.*"phases": *{\([^}]*\)}.*/\1/p' | sed 's/"//g;s/ //g')
  s=$(date +%s%N); OMP_NUM_THREADS=16 $B/$p info $D/$f >/dev/null; e=$(date +%s%N)
  s2=$(date +%s%N); OMP_NUM_THREADS=16 $B/$p --device cpu --levels 10 $D/$f >/dev/null 2>&1; e2=$(date +%s%N)
  echo "file=$f threads=16 run=$r prog=$p info_wall_ms=$(( (e - s) / 1000000 )) cpu_levels_wall_ms=$(( (e2 - s2) / 1000000 )) $j"
done; done; done
