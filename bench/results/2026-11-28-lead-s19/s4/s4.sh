#!/bin/bash
L=$OUT; cd "$(dirname "$0")/../.."
rm -rf build .devbuild .deps && tar xzf .devpack/bundle.tar.gz && mv .devbuild build && . scripts/device-env.sh
python3 .device/lead/s4_grain.py .deps/data .device/lead/grain $L/s4.txt > /dev/null 2>&1; cat $L/s4.txt
