# Makefile — builds libcoarsen.a, the `coarsen` program, the test suite and the
# benchmarks; installs missing Debian packages first (scripts/install-deps.sh).
#
#   make                 library + program (CUDA backend when nvcc is found)
#   make test            CPU-only build and CUDA build, each with the whole suite
#   make check           the suite on this build only
#   make example         generate a graph and coarsen it (README)
#   make asan            the suite under AddressSanitizer + UBSan (CPU build)
#   make install PREFIX=/usr/local
# Variables: CUDA=0 forces a CPU-only build; CUDA_ARCH picks GPU targets;
# GZIP=isal|zlib picks the gzip library (default: ISA-L when installed);
# BUILD names the output folder (objects under BUILD/obj, so that the coarsen/
# sources do not collide with the BUILD/coarsen program).

PREFIX    ?= /usr/local
CUDA      ?= auto
CUDA_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
CC        ?= cc

ifeq ($(CUDA),0)
NVCC :=
BUILD ?= build-cpu
else
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
BUILD ?= build
endif
CUDA_HOME ?= $(if $(NVCC),$(abspath $(dir $(NVCC))/..))

OPT       ?= -O3
SANITIZE  ?=
WARN      := -Wall -Wextra -Wshadow -Wno-unknown-pragmas
CPPFLAGS  += -Iinclude -I. -DCOARSEN_HAVE_CUDA=$(if $(NVCC),1,0) -D_GNU_SOURCE
CFLAGS    += -std=c11 $(OPT) -g $(WARN) -fopenmp -MMD -MP $(SANITIZE)
NVFLAGS   := -std=c++17 $(OPT) -g $(CUDA_ARCH) -Xcompiler -fopenmp,-Wall,-Wextra -MMD -MP \
             --expt-relaxed-constexpr -Xcudafe --display_error_number
# gzip through ISA-L's igzip (Debian libisal-dev) when its headers are there;
# zlib is the fallback the build needs only without it.
GZIP      ?= $(if $(wildcard /usr/include/isa-l/igzip_lib.h),isal,zlib)
ifeq ($(GZIP),isal)
CPPFLAGS  += -DCOARSEN_HAVE_ISAL=1
GZ_LIBS   := -lisal
else
CPPFLAGS  += -DCOARSEN_HAVE_ISAL=0
GZ_LIBS   := -lz
endif
LDLIBS    := $(GZ_LIBS) -lm -fopenmp $(SANITIZE)
ifneq ($(NVCC),)
LDLIBS    += -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/targets/x86_64-linux/lib -lcudart_static -lstdc++ -ldl -lrt -lpthread
endif

LIB_DIRS  := core device io gen matching contract bipartite partition coarsen
LIB_C     := $(filter-out %_nocuda.c,$(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
ifeq ($(NVCC),)
LIB_C     += $(wildcard $(addsuffix /*_nocuda.c,$(LIB_DIRS)))
LIB_CU    :=
else
LIB_CU    := $(wildcard $(addsuffix /*.cu,$(LIB_DIRS)))
endif
CLI_C     := $(wildcard cli/*.c)
TEST_C    := $(wildcard tests/*.c tests/support/*.c)
BENCH_UTIL_C := bench/bench_util.c
BENCH_C   := $(filter-out $(BENCH_UTIL_C),$(wildcard bench/*.c))
EXAMPLE_C := $(wildcard examples/*.c)

LIB_O     := $(LIB_C:%.c=$(BUILD)/obj/%.o) $(LIB_CU:%.cu=$(BUILD)/obj/%.cu.o)
CLI_O     := $(CLI_C:%.c=$(BUILD)/obj/%.o)
TEST_O    := $(TEST_C:%.c=$(BUILD)/obj/%.o)
LIB       := $(BUILD)/libcoarsen.a
PROG      := $(BUILD)/coarsen
TESTS     := $(BUILD)/coarsen-tests
BENCHES   := $(BENCH_C:bench/%.c=$(BUILD)/bench/%)
EXAMPLES  := $(EXAMPLE_C:examples/%.c=$(BUILD)/examples/%)

.PHONY: all deps test check example asan bench install clean fuzz
all: $(PROG) $(LIB) $(EXAMPLES) $(BENCHES)

deps:
	@sh scripts/install-deps.sh

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVFLAGS) -c $< -o $@

$(LIB): $(LIB_O)
	@rm -f $@
	ar rcs $@ $^

# The program links libgomp statically where GCC ships libgomp.a, so that
# cli/wait_policy.c can choose passive waiting before libgomp reads its
# variables; elsewhere (no libgomp.a, GOMP_STATIC=) it links the shared one.
GOMP_STATIC ?= $(filter /%,$(shell $(CC) -print-file-name=libgomp.a 2>/dev/null))
PROG_OMP  := $(if $(GOMP_STATIC),$(GOMP_STATIC) -pthread,-fopenmp)

$(PROG): $(CLI_O) $(LIB)
	$(CC) $(filter-out -fopenmp,$(CFLAGS)) $^ -o $@ $(filter-out -fopenmp,$(LDLIBS)) -lmetis $(PROG_OMP)

$(TESTS): $(TEST_O) $(LIB)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lz -lcriterion -lmetis

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(BENCH_UTIL_C:%.c=$(BUILD)/obj/%.o) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lz -lmetis

# bench_gzip compares libdeflate too (libdeflate-dev, scripts/install-deps.sh).
$(BUILD)/bench/bench_gzip: LDLIBS += -ldeflate

$(BUILD)/examples/%: $(BUILD)/obj/examples/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# The suite runs from the repository root; shared graphs are read from
# COARSEN_DATA (default ../shared/data) and skipped visibly when absent
# (--verbose prints every [SKIP] with its reason). Passive OpenMP waiting:
# Criterion runs tests in parallel processes, and spinning threads of one
# would starve the others on a small machine.
check: $(TESTS) $(PROG)
	COARSEN_PROG=$(abspath $(PROG)) OMP_WAIT_POLICY=passive $(TESTS) --jobs 2 --verbose

NPROC    := $(shell nproc 2>/dev/null || echo 2)
ASAN_VARS := CUDA=0 BUILD=build-asan OPT=-O1 \
             SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

# The CPU-only build runs with zlib, the fallback; the others with ISA-L.
test: deps
	$(MAKE) -j$(NPROC) CUDA=0 GZIP=zlib BUILD=build-zlib check
	$(MAKE) -j$(NPROC) check
	$(MAKE) -j$(NPROC) $(ASAN_VARS) check

asan:
	$(MAKE) -j$(NPROC) $(ASAN_VARS) check

example: deps $(PROG)
	$(PROG) gen rgg --vertices 100000 --seed 1 -o $(BUILD)/example-rgg.graph
	$(PROG) --levels 10 $(BUILD)/example-rgg.graph

bench: $(PROG) $(BENCHES)
	sh bench/run.sh $(BUILD)

install: $(PROG) $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/coarsen.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/.*COARSEN_VERSION "\(.*\)"/\1/p' include/coarsen.h)|' \
	    -e 's|@LIBS@|$(LDLIBS) -lmetis|' coarsen.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/coarsen.pc

# libFuzzer target of the readers (docs/fuzzing.md): clang, ASan + UBSan,
# CPU code only, no OpenMP.
FUZZ_SRC := $(wildcard core/*.c io/*.c) device/device_nocuda.c
fuzz: build-fuzz/fuzz_readers
build-fuzz/fuzz_readers: fuzz/fuzz_readers.c $(FUZZ_SRC) $(wildcard core/*.h io/*.h include/*.h)
	@mkdir -p build-fuzz
	clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -I. \
	    -DCOARSEN_HAVE_CUDA=0 -DCOARSEN_HAVE_ISAL=$(if $(filter isal,$(GZIP)),1,0) -D_GNU_SOURCE $(WARN) \
	    fuzz/fuzz_readers.c $(FUZZ_SRC) -o $@ $(GZ_LIBS) -lm

clean:
	rm -rf build build-cpu build-zlib build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
