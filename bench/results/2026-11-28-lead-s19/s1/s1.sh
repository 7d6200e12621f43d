#!/bin/bash
# lead call s1 (session 19): CPU study on the 16-core host (no GPU work) and LAZY/EAGER road-FLA levels.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u; lscpu | grep -E "Model name|MHz|NUMA node\(s\)|Thread"
python3 .device/lead/s1_study.py .deps/data $PWD/build/coarsen $L/study.txt
} 2>&1 | tee $L/s1.txt
