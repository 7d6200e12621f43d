#!/bin/bash
# probe: where the user's GPU command spends the wall clock outside its own timers
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; free -g | head -2
cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; df -h /tmp | tail -1
which perf strace ltrace nsys 2>&1 | head
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
ls -l $T/g.graph
stamp() { while IFS= read -r l; do echo "$(date +%s.%N) $l"; done; }
for dev in gpu cpu; do for i in 1 2 3; do
  t0=$(date +%s.%N); build/coarsen --levels 10 --device $dev $T/g.graph 2> >(stamp > $T/err) >/dev/null; t1=$(date +%s.%N); sleep 0.2
  last=$(tail -1 $T/err | cut -d' ' -f1)
  echo "dev=$dev run=$i wall=$(awk "BEGIN{print $t1 - $t0}") after_last_line=$(awk "BEGIN{print $t1 - $last}") $(tail -1 $T/err | cut -d' ' -f2-)"
done; done
for i in 1 2; do
  rm -rf $T/out; t0=$(date +%s.%N); build/coarsen --levels 10 --device gpu --out $T/out $T/g.graph 2> >(stamp > $T/err) >/dev/null; t1=$(date +%s.%N); sleep 0.2
  last=$(tail -1 $T/err | cut -d' ' -f1)
  echo "out run=$i wall=$(awk "BEGIN{print $t1 - $t0}") after_last_line=$(awk "BEGIN{print $t1 - $last}") $(tail -1 $T/err | cut -d' ' -f2-)"
done
du -sh $T/out; ls -la $T/out | head -30
if command -v strace >/dev/null; then
  strace -f -c -o $T/strace.txt build/coarsen --levels 10 --device gpu $T/g.graph >/dev/null 2>&1; head -25 $T/strace.txt
  strace -f -tt -e trace=exit_group,munmap,ioctl,close -o $T/st2.txt build/coarsen --levels 10 --device gpu $T/g.graph >/dev/null 2>&1; grep -n exit_group $T/st2.txt | head; tail -5 $T/st2.txt; wc -l $T/st2.txt
  cp $T/st2.txt $L/ 2>/dev/null
fi
# road-FLA 20 GPU levels with the default matcher, host_below sweep
for hb in 1024 2048 4096; do for i in 1 2 3; do
  build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --host-below $hb .deps/data/road-FLA.mtx.gz 2>/dev/null | grep -o '"levels_ms": *[0-9.]*' | sed "s/^/hb=$hb /"
done; done
} 2>&1 | tee $L/probe.txt
