# device_dev.sh — run on a 16-core device host from the repo root, with the programs
# copied to .pgz-devbin/ (coarsen-new: 1e4c9ec+7da0206's CPU build, coarsen-base: c37920e's;
# coarsen-new2 in device_dev4.sh: the mmap'ed symbol buffers tried and dropped)
set -e
export LD_LIBRARY_PATH=$PWD/.pgz-devbin:$LD_LIBRARY_PATH
B=$PWD/.pgz-devbin; D=$(mktemp -d)
echo "cores $(nproc)"; lscpu | grep "Model name" || true
$B/coarsen-new gen rgg --vertices 2097152 --degree 12 -o $D/x.mtx >/dev/null 2>&1
env -u GZIP gzip -1 -c $D/x.mtx > $D/x-1.mtx.gz; env -u GZIP gzip -6 -c $D/x.mtx > $D/x-6.mtx.gz
for f in x-1.mtx.gz x-6.mtx.gz; do
  OMP_NUM_THREADS=1 $B/bench_one_member --runs 3 --only zlib $D/$f | sed "s|^|file=$f |"
  OMP_NUM_THREADS=1 $B/bench_one_member --runs 3 --only isal $D/$f | sed "s|^|file=$f |"
  for t in 1 2 4 8 16; do OMP_NUM_THREADS=$t $B/bench_one_member --runs 3 --only split $D/$f | sed "s|^|file=$f |"; done
done
for f in x-1.mtx.gz x-6.mtx.gz; do for t in 4 16; do for r in 1 2 3; do for p in coarsen-new coarsen-base; do
  s=$(date +%s%N); j=$(OMP_NUM_THREADS=$t $B/$p --levels 10 --json $D/$f 2>/dev/null | tr -d '\n' | sed -n 's/.*"inflate_ms": *\([0-9.]*\).*"read_ms".*//p;s/.*"read_ms": *\([0-9.]*\), *"inflate_ms": *\([0-9.]*\).*/read=\1 inflate=\2/p'); e=$(date +%s%N)
  echo "file=$f threads=$t run=$r prog=$p $j levels_wall_ms=$(( (e - s) / 1000000 ))"
done; done; done; done
for p in coarsen-new coarsen-base; do OMP_NUM_THREADS=16 /usr/bin/time -f "prog=$p file=x-6.mtx.gz threads=16 maxrss_kb=%M wall_s=%e" $B/$p info $D/x-6.mtx.gz 2>&1 >/dev/null | tail -1; done
