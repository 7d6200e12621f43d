#!/bin/bash
# lead call s5 (session 19): THREADS_GRAIN on the merged tree, CPU builds:
# 32768 (before), 16384 (now), 16384 with a 65536 floor for full teams.
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf .deps && tar xzf .device/lead/deps.tar.gz && . scripts/device-env.sh
python3 .device/lead/s4_grain.py .deps/data .device/lead/grain $L/s5.txt > /dev/null 2>&1; cat $L/s5.txt
