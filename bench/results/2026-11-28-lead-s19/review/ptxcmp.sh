#!/bin/sh
# ptxcmp.sh FILE.cu: PTX of FILE from /work/wt-biglev4 (0533dca) and /work/main, compared with the file-hash names normalised
f=$1
for t in /work/wt-biglev4 /work/main; do
  (cd $t && /usr/local/cuda/bin/nvcc -Iinclude -I. -DCOARSEN_HAVE_CUDA=1 -D_GNU_SOURCE -DCOARSEN_HAVE_ISAL=1 -std=c++17 -O3 -arch=compute_90 --expt-relaxed-constexpr -ptx $f -o /tmp/ptx_$(basename $t).ptx 2>/dev/null)
  grep -vE "^\s*//|^\s*\.loc|^\s*\.file|^\s*$" /tmp/ptx_$(basename $t).ptx | perl -pe 's/_ZZ\w*?warp_(sum|part|max)\[/WP[/g; s/_ZN\d+_INTERNAL_\w*?_cu_[0-9a-f]{8}/_ZNI/g; s/\d+_GLOBAL__N__\w*?_cu_[0-9a-f]{8}/G/g; s/_INTERNAL_\w*?_cu_[0-9a-f]{8}/I/g' > /tmp/ptx_$(basename $t).clean
done
if cmp -s /tmp/ptx_wt-biglev4.clean /tmp/ptx_main.clean; then echo "$f PTX same ($(wc -l < /tmp/ptx_main.clean) lines)"; else echo "$f PTX DIFFERS $(diff /tmp/ptx_wt-biglev4.clean /tmp/ptx_main.clean | grep -c '^[<>]')"; fi
