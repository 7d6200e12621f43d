/* device_choice.h — the one rule by which `--device auto` (and
 * COARSEN_DEVICE_AUTO in the library) picks the backend of a run: the GPU
 * when one is usable and the graph has at least DEVICE_AUTO_ENTRIES_PER_THREAD
 * adjacency entries per CPU thread, the CPU backend below, where it finishes
 * before the GPU has even started (the driver, the context and the process
 * teardown cost a few hundred ms; docs/benchmarks.md has the measured
 * crossover). Pure functions: nothing here touches the GPU. */
#ifndef EXEC_DEVICE_CHOICE_H
#define EXEC_DEVICE_CHOICE_H

#include <stdint.h>

#include "device/device.h"

/* Adjacency entries per CPU thread from which the GPU backend is the faster
 * one for the whole command (file in, hierarchy out): measured first on the H100
 * machine (16 cores) in session 16, re-measured on the H200 machine in
 * session 18 (the GPU run got ~0.1 s cheaper: its teardown is no longer
 * waited for), docs/benchmarks.md "--device auto". */
#define DEVICE_AUTO_ENTRIES_PER_THREAD 700000

/* The entries from which auto picks the GPU when the CPU backend would run
 * `threads` threads (<= 0: one). */
int64_t device_auto_min_entries(int threads);

/* Before reading: 1 when an input file of `bytes` bytes (gzip: compressed
 * bytes; < 0: unknown, e.g. standard input) likely holds enough entries for
 * auto to pick the GPU, so that its start-up is worth beginning beside the
 * reading (a start-up begun for nothing costs its teardown at exit,
 * ~0.1 s); 0 otherwise. */
int device_auto_worth_starting(int64_t bytes, int gzip, int threads);

/* The decision for a graph of `entries` adjacency entries under `mode`:
 * CPU and GPU as asked; AUTO: *wants_gpu = 1 when entries reach the
 * crossover (the caller then still needs a usable GPU). why receives a
 * phrase for the device line and stats.json, e.g. "2687902 adjacency
 * entries, below the 11200000 (...) from which the GPU backend is faster". */
void device_auto_decide(device_mode mode, int64_t entries, int threads, int *wants_gpu, char *why, int why_size);

#endif
