#!/bin/bash
# lead call 4 (session 18): CPU levels at 16 threads of four CPU builds,
# interleaved: A36 = main 36d2229, B79 = 79c62ea (first round merged),
# Cgather = 79c62ea + s18-gather, Dmain = c6f078d (+ s18-tok).
cd "$(dirname "$0")/../../.."
rm -rf .deps && tar xzf .devpack/bundle.tar.gz .deps && . scripts/device-env.sh
P=.device/lead/cpu4
{
nproc; date -u
for g in copter2.graph.gz wing.graph.gz astro-ph.graph.gz rgg_n_2_15_s0.graph.gz delaunay_n15.graph.gz mdual.graph.gz p2p-Gnutella06.mtx road-NY.mtx.gz; do
  for i in $(seq 11); do for b in A36 B79 Cgather Dmain; do
    echo "$g $b $($P/$b --levels 10 --device cpu .deps/data/$g 2>&1 >/dev/null | grep time: | sed 's/.*read \([0-9.]*\) ms.*levels \([0-9.]*\) ms.*wall \([0-9.]*\) ms.*/\1 \2 \3/')"
  done; done
done
} > $OUT/cpu4.txt 2>&1
python3 - $OUT/cpu4.txt <<'PY'
import sys,statistics as st
d={}
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)==5: d.setdefault((p[0],p[1]),[]).append([float(x) for x in p[2:]])
gs=[]
for (g,b) in d:
    if g not in gs: gs.append(g)
print("graph: read/levels/wall medians of 11 per build (A36 B79 Cgather Dmain)")
for g in gs:
    print(g, '  '.join('%s %.1f/%.1f/%.1f'%(b,*[st.median(x[i] for x in d[(g,b)]) for i in range(3)]) for b in ['A36','B79','Cgather','Dmain'] if (g,b) in d))
PY
