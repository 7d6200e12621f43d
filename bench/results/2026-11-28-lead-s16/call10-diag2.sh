#!/bin/bash
L=$OUT; cd "$(dirname "$0")/.."
[ -d build ] && [ -x build/coarsen ] || { rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build; }
. scripts/device-env.sh
{
for f in road-FLA.mtx.gz road-NY.mtx.gz; do for i in 1 2 3 4 5; do for d in auto cpu; do for b in build/baseline build; do
 s=$(date +%s.%N); $b/coarsen --levels 10 --device $d .deps/data/$f 2>/tmp/err >/dev/null; e=$(date +%s.%N)
 echo "$f $d $b wall=$(awk "BEGIN{print $e-$s}") $(grep -o 'read [0-9.]* ms\|levels [0-9.]* ms\|waiting for the GPU [0-9.]* ms' /tmp/err | tr '\n' ' ') $(grep -c 'device: gpu' /tmp/err)"
done; done; done; done
} 2>&1 | tee $L/diag2.txt
