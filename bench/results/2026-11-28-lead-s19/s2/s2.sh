#!/bin/bash
# lead call s2 (session 19): the level kernels loaded by a warm-up in the
# start-up thread: road-FLA's 20 GPU levels (levels_ms) and walls, base
# (0884b38) vs new, LAZY default, EAGER beside; 0.5 s pause between GPU runs.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
S=$(date +%s); el() { echo "elapsed $(( $(date +%s) - S )) s"; }
F=.deps/data/road-FLA.mtx.gz
js() { python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["phases"]; print(p["levels_ms"], p["wall_ms"], p["device_wait_ms"], p["read_ms"])'; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "== road-FLA 20 levels --device gpu: build levels_ms wall_ms device_wait_ms read_ms, outer wall"
for i in 1 2 3 4 5 6 7 8; do for b in build/baseline build; do for ml in LAZY EAGER; do
  [ $ml = EAGER ] && [ $b = build ] && continue
  sleep 0.5; s=$(date +%s.%N); r=$(CUDA_MODULE_LOADING=$ml $b/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 $F | js); e=$(date +%s.%N)
  echo "$b $ml $r outer=$(awk "BEGIN{print $e-$s}")"
done; done; done
el
echo "== road-FLA 20 levels --matcher handshake, new LAZY / base EAGER"
for i in 1 2 3 4; do for b in build/baseline build; do sleep 0.5
  ml=LAZY; [ $b = build/baseline ] && ml=EAGER
  echo "$b $ml $(CUDA_MODULE_LOADING=$ml $b/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 --matcher handshake $F | js)"
done; done
el
echo "== karate / mdual / copter2 --device gpu, outer wall (base / new)"
for g in karate.graph mdual.graph.gz copter2.graph.gz; do for i in 1 2 3 4 5; do for b in build/baseline build; do
  sleep 0.5; s=$(date +%s.%N); r=$($b/coarsen --quiet --json --device gpu --levels 10 .deps/data/$g | js); e=$(date +%s.%N)
  echo "$g $b $r outer=$(awk "BEGIN{print $e-$s}")"
done; done; done
el
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
build/coarsen gen rgg --vertices 1048576 --degree 12 --seed 1 --quiet -o $T/m.graph
echo "== rgg 2^23 / 2^20 .graph --device auto (GPU), base / new"
for f in g.graph m.graph; do for i in 1 2 3 4; do for b in build/baseline build; do
  sleep 0.5; s=$(date +%s.%N); r=$($b/coarsen --quiet --json --device auto --levels 10 $T/$f | js); e=$(date +%s.%N)
  echo "$f $b $r outer=$(awk "BEGIN{print $e-$s}")"
done; done; done
el
echo "== partition -k 8 road-FLA --device gpu, base / new (wall)"
for i in 1 2 3; do for b in build/baseline build; do sleep 0.5
  s=$(date +%s.%N); $b/coarsen partition -k 8 --quiet --device gpu $F > /dev/null; e=$(date +%s.%N); echo "$b $(awk "BEGIN{print $e-$s}")"
done; done
el
echo "== identity GPU files base/new"
for g in road-FLA.mtx.gz copter2.graph.gz; do for b in build/baseline build; do rm -rf /tmp/o_$(basename $b); $b/coarsen --quiet --device gpu --levels 20 --coarsen-to 0 --out /tmp/o_$(basename $b) .deps/data/$g; done
  diff -rq -x stats.json /tmp/o_baseline /tmp/o_build >/dev/null && echo "$g same" || echo "$g DIFFER"; done
echo "== GPU CLI tests"
timeout 200 build/coarsen-tests --jobs 12 --filter 'cli*/*' > $L/cli-tests.log 2>&1; echo "rc=$?"; grep -E '^\[FAIL|Synthesis' $L/cli-tests.log | tail
el
} 2>&1 | tee $L/s2.txt
