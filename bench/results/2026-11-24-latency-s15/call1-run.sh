#!/bin/sh
# latency branch, device call 1 (before the changes): where the GPU levels'
# time goes. road-FLA 20 levels per level (HEC, handshake), the --host-below
# crossover, nsys API/kernel summaries of road-FLA (both matchers) and of
# bench_pipeline on rgg 2^22 (HEC).
L=$OUT
B=${B:-build}
F=.deps/data/road-FLA.mtx.gz
t0=$(date +%s)
per_level() { # label, then coarsen's options
  lab=$1; shift
  $B/coarsen --quiet --json --device gpu "$@" > /tmp/j.json 2>/tmp/j.err || { cat /tmp/j.err; return; }
  python3 -c "
import json; d=json.load(open('/tmp/j.json')); L=d['levels'][1:]
print('$lab', 'levels_ms=%.2f'%d['phases']['levels_ms'], 'nlev=%d'%len(L),
 'lv=' + ','.join('%s%.2f/%.2f'%(l['built_on'][0], l['matching_ms']+l['two_hop_ms'], l['contraction_ms']) for l in L),
 'n=' + ','.join(str(l['vertices']) for l in L), 'rounds=' + ','.join(str(l['matching_passes']) for l in L))"
}
{
nvidia-smi -L; which nsys ncu compute-sanitizer
echo "== road-FLA 20 levels, match/contract ms per level"
for m in hec handshake; do for r in 1 2 3; do
  per_level "fla-$m" --levels 20 --coarsen-to 0 --matcher $m $F
done; done
echo "== host-below sweep (levels_ms)"
for hb in 0 2048 16384 65536; do for m in hec handshake; do for r in 1 2 3; do
  $B/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher $m --host-below $hb $F 2>/dev/null |
    python3 -c "import json,sys; d=json.load(sys.stdin); print('hb=$hb $m levels_ms=%.2f'%d['phases']['levels_ms'])"
done; done; done
echo "elapsed $(( $(date +%s) - t0 )) s"
NSYS=$(which nsys 2>/dev/null || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
echo "nsys: $NSYS"
if [ -n "$NSYS" ]; then
  mkdir -p /tmp/ns
  for m in hec handshake; do
    $NSYS profile -t cuda -o /tmp/p-$m --force-overwrite true $B/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 --matcher $m $F > /dev/null 2>&1
    $NSYS stats -q --report cuda_api_sum,cuda_gpu_kern_sum,cuda_gpu_mem_time_sum --format csv -o /tmp/ns/nsys-fla-$m /tmp/p-$m.nsys-rep > /dev/null 2>&1
  done
  $NSYS profile -t cuda -o /tmp/p-rgg --force-overwrite true $B/bench/bench_pipeline --graph rgg:n=4194304,deg=12 --levels 10 --device gpu --no-metis --runs 1 > /dev/null 2>&1
  $NSYS stats -q --report cuda_api_sum,cuda_gpu_kern_sum --format csv -o /tmp/ns/nsys-rgg22-hec /tmp/p-rgg.nsys-rep > /dev/null 2>&1
  (cd /tmp/ns && tar czf $L/nsys.tgz . && ls)
fi
echo "elapsed $(( $(date +%s) - t0 )) s"
} 2>&1 | tee $L/call1.txt
