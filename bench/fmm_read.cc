// fmm_read.cc — benchmark-only comparison: times reading a Matrix Market
// coordinate file into triplets (int32 rows/cols, double values) with
// fast_matrix_market (FMM, Adam Lugowski, header-only C++17) and its parallel
// reader, to set beside `coarsen info`'s "read time". Triplets only: no
// symmetry expansion (generalize_symmetry = false), no CSR build, so this
// times text parsing (open + parse + FMM's resize of the output vectors).
// Runs the read RUNS times (default 3) and prints one line with the median.
//
// FMM is not shipped or copied here: it is compiled from a fetched copy
// outside the repository (github:alugowski/fast_matrix_market, whose tree
// vendors fast_float, dragonbox and task_thread_pool). Build, from the
// repository root, with that copy in /work/fmm-src:
//
//   g++ -std=c++17 -O3 -march=x86-64-v2 -pthread -static \
//       -DFMM_USE_FAST_FLOAT -DFMM_FROM_CHARS_INT_SUPPORTED \
//       -DFMM_FROM_CHARS_DOUBLE_SUPPORTED \
//       -I/work/fmm-src/include -I/work/fmm-src/dependencies/fast_float/include \
//       bench/fmm_read.cc -o .fmm/fmm_read
//
// Usage: fmm_read FILE [threads (0 = all cores)] [runs]
#include <fast_matrix_market/app/triplet.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        std::fprintf(stderr, "usage: %s FILE [threads] [runs]\n", argv[0]);
        return 2;
    }
    const char *path = argv[1];
    int threads = argc > 2 ? std::atoi(argv[2]) : 0;
    if (threads <= 0)
        threads = (int)std::max(1u, std::thread::hardware_concurrency());
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    if (runs < 1)
        runs = 1;

    fast_matrix_market::read_options opt;
    opt.parallel_ok = true;
    opt.num_threads = threads;
    opt.generalize_symmetry = false; // triplets as stored: parse only

    std::vector<double> ms;
    int64_t nnz = -1, hdr_nnz = -1;
    for (int r = 0; r < runs; r++) {
        std::vector<int32_t> rows, cols;
        std::vector<double> vals;
        fast_matrix_market::matrix_market_header header;
        auto t0 = std::chrono::steady_clock::now();
        try {
            std::ifstream in(path, std::ios::binary);
            if (!in) {
                std::perror(path);
                return 2;
            }
            fast_matrix_market::read_matrix_market_triplet(in, header, rows, cols,
                                                           vals, opt);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s: %s\n", path, e.what());
            return 1;
        }
        auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        nnz = (int64_t)rows.size();
        hdr_nnz = header.nnz;
    }
    if (nnz != hdr_nnz)
        std::fprintf(stderr, "fmm_read: warning: read %lld entries, header says %lld\n",
                     (long long)nnz, (long long)hdr_nnz);

    std::ifstream sz(path, std::ios::binary | std::ios::ate);
    long long bytes = (long long)sz.tellg();
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    double med = sorted[sorted.size() / 2];
    std::string all;
    for (size_t i = 0; i < ms.size(); i++) {
        char b[32];
        std::snprintf(b, sizeof b, "%s%.1f", i ? "," : "", ms[i]);
        all += b;
    }
    std::printf("fmm_read file=%s bytes=%lld nnz=%lld threads=%d read_ms=%.1f "
                "mb_per_s=%.1f runs_ms=%s\n",
                path, bytes, (long long)nnz, threads, med,
                bytes / 1e6 / (med / 1e3), all.c_str());
    return nnz == hdr_nnz ? 0 : 1;
}
