#!/bin/bash
# call 1 (session 17): the detached exit on the GPU host: the user's command
# with one process (COARSEN_ONE_PROCESS=1, as before) and with two (new),
# interleaved; the exit_detach and interrupt tests there.
L=$OUT; cd "$(dirname "$0")/.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
echo "== tests: exit_detach, interrupt, cli_coarsen (GPU build)"
build/coarsen-tests --filter 'cli_exit_detach/*' 2>&1 | tail -1
build/coarsen-tests --filter 'cli_interrupt/*' 2>&1 | tail -1
build/coarsen-tests --filter 'cli_coarsen/*' 2>&1 | tail -1
T=/tmp/p; mkdir -p $T
build/coarsen gen rgg --vertices 8388608 --degree 12 --seed 1 --quiet -o $T/g.graph
w() { s=$(date +%s%N); "$@" 2>/tmp/err >/dev/null; e=$(date +%s%N); echo "$(( (e-s)/1000000 )) ms | $(grep 'time:' /tmp/err | sed 's/.*wall/wall/')"; }
echo "== rgg 2^23 .graph --levels 10: one process (before) / detached (new), 5 rounds"
for d in gpu cpu; do for i in 1 2 3 4 5; do
  echo "$d one: $(COARSEN_ONE_PROCESS=1 w build/coarsen --levels 10 --device $d $T/g.graph)"
  echo "$d new: $(w build/coarsen --levels 10 --device $d $T/g.graph)"
done; done
echo "== --out (GPU), 3 rounds"
for i in 1 2 3; do
  echo "out one: $(COARSEN_ONE_PROCESS=1 w build/coarsen --levels 10 --device gpu --out $T/o1 $T/g.graph)"
  echo "out new: $(w build/coarsen --levels 10 --device gpu --out $T/o2 $T/g.graph)"
done
cmp $T/o1/level-3.graph $T/o2/level-3.graph && echo same-files
echo "== karate --device gpu, 5 rounds"
for i in 1 2 3 4 5; do
  echo "karate one: $(COARSEN_ONE_PROCESS=1 w build/coarsen --levels 10 --device gpu .deps/data/karate.graph)"
  echo "karate new: $(w build/coarsen --levels 10 --device gpu .deps/data/karate.graph)"
done
echo "== road-FLA 20 GPU levels (levels_ms), 5 runs"
for i in 1 2 3 4 5; do build/coarsen --quiet --json --device gpu --levels 20 --coarsen-to 0 .deps/data/road-FLA.mtx.gz | python3 -c 'import json,sys; d=json.load(sys.stdin); print("levels_ms", d.get("levels_ms", d.get("phases",{}).get("levels")))'; done
} 2>&1 | tee $L/c1.txt
