# Makefile — builds libcoarsen.a and libcoarsen.so, the `coarsen` program, the
# test suite and the benchmarks; installs missing Debian packages first
# (scripts/install-deps.sh).
#
#   make                 libraries + program (CUDA backend when nvcc is found)
#   make shared          the shared library only (what the Python package bundles)
#   make test            CPU-only, CUDA and ASan builds, each with the whole suite,
#                        then the Python package's tests (tests/python/run.sh)
#   make check           the suite on this build only (with coarsen-mpi's, when mpicc is found,
#                        and the example compiled as C++)
#   make mpi-check       coarsen-mpi against coarsen at 1-4 ranks (tests/mpi/run.sh)
#   make python-check    build the Python package on this build, run its tests
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
# Position-independent code everywhere: one set of objects makes both
# libraries, and it costs nothing measurable (docs/benchmarks.md, "-fPIC").
CFLAGS    += -std=c11 $(OPT) -g $(WARN) -fopenmp -fPIC -MMD -MP $(SANITIZE)
NVFLAGS   := -std=c++17 $(OPT) -g $(CUDA_ARCH) -Xcompiler -fopenmp,-fPIC,-Wall,-Wextra -MMD -MP \
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

LIB_DIRS  := core device exec io gen matching contract bipartite partition coarsen
LIB_C     := $(filter-out %_nocuda.c,$(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
ifeq ($(NVCC),)
LIB_C     += $(wildcard $(addsuffix /*_nocuda.c,$(LIB_DIRS)))
LIB_CU    :=
else
LIB_CU    := $(wildcard $(addsuffix /*.cu,$(LIB_DIRS)))
endif
CLI_C     := $(wildcard cli/*.c)
# coarsen-mpi (dist/, docs/distributed.md): built when mpicc is on the PATH
# (OpenMPI from Debian: scripts/install-deps.sh); MPI=0 leaves it out. It
# links the CLI without its main() (cli/program.c).
MPI       ?= auto
MPICC     := $(if $(filter 0,$(MPI)),,$(shell command -v mpicc 2>/dev/null))
# NCCL (coarsen-mpi --device gpu: dist/nccl*, docs/distributed.md) when nvcc,
# mpicc and nccl.h are there: NCCL_HOME is NCCL's folder (include/nccl.h,
# lib/libnccl.so.2), by default the PyPI wheel's (`pip install
# nvidia-nccl-cu13`: nvidia/nccl in python3's site-packages) or /usr;
# NCCL=0 leaves it out.
NCCL      ?= auto
NCCL_HOME ?= $(if $(filter 0,$(NCCL)),,$(or $(shell python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null),$(if $(wildcard /usr/include/nccl.h),/usr)))
HAVE_NCCL := $(if $(and $(NVCC),$(MPICC),$(NCCL_HOME),$(wildcard $(NCCL_HOME)/include/nccl.h)),1,0)
NCCL_WHEEL_LIBS := -L$(NCCL_HOME)/lib -Wl,-rpath,$(NCCL_HOME)/lib -l:libnccl.so.2
NCCL_LIBS := $(if $(filter 1,$(HAVE_NCCL)),$(if $(wildcard $(NCCL_HOME)/lib/libnccl.so.2),$(NCCL_WHEEL_LIBS),-lnccl))
DIST_C    := $(filter-out $(if $(filter 1,$(HAVE_NCCL)),,dist/nccl_%),$(wildcard dist/*.c))
DIST_CU   := $(if $(filter 1,$(HAVE_NCCL)),$(wildcard dist/*.cu))
TEST_C    := $(wildcard tests/*.c tests/support/*.c)
BENCH_UTIL_C := bench/bench_util.c
BENCH_C   := $(filter-out $(BENCH_UTIL_C),$(wildcard bench/*.c))
EXAMPLE_C := $(wildcard examples/*.c)

LIB_O     := $(LIB_C:%.c=$(BUILD)/obj/%.o) $(LIB_CU:%.cu=$(BUILD)/obj/%.cu.o)
CLI_O     := $(CLI_C:%.c=$(BUILD)/obj/%.o)
TEST_O    := $(TEST_C:%.c=$(BUILD)/obj/%.o)
LIB       := $(BUILD)/libcoarsen.a
# Shared library: soname libcoarsen.so.MAJOR.MINOR while MAJOR is 0 (a 0.x
# minor release may change the ABI), file libcoarsen.so.VERSION.
VERSION   := $(shell sed -n 's/.*COARSEN_VERSION "\(.*\)"/\1/p' include/coarsen.h)
SONAME    := libcoarsen.so.$(word 1,$(subst ., ,$(VERSION))).$(word 2,$(subst ., ,$(VERSION)))
SHLIB     := $(BUILD)/libcoarsen.so.$(VERSION)
PROG      := $(BUILD)/coarsen
DIST_O    := $(DIST_C:%.c=$(BUILD)/obj/%.o) $(DIST_CU:%.cu=$(BUILD)/obj/%.cu.o)
MPIPROG   := $(if $(MPICC),$(BUILD)/coarsen-mpi)
FAULTY    := $(BUILD)/coarsen-faulty
TESTS     := $(BUILD)/coarsen-tests
BENCHES   := $(BENCH_C:bench/%.c=$(BUILD)/bench/%)
EXAMPLES  := $(EXAMPLE_C:examples/%.c=$(BUILD)/examples/%)

.PHONY: all deps test check mpi-check example asan bench install clean fuzz shared print-shlib python-check
all: $(PROG) $(MPIPROG) $(LIB) $(SHLIB) $(EXAMPLES) $(BENCHES)

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

# The same objects, linked with their dependencies (the CUDA runtime
# statically); only the public API (coarsen_*) is exported
# (include/libcoarsen.map), so the internals and the CUDA runtime inside stay
# private to it. -z defs: every symbol resolved at link time.
$(SHLIB): $(LIB_O) include/libcoarsen.map
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=include/libcoarsen.map -Wl,-z,defs \
	    $(CFLAGS) $(LIB_O) -o $@ $(LDLIBS) -lmetis
	ln -sf $(notdir $@) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libcoarsen.so

shared: $(SHLIB)
print-shlib:
	@echo $(SHLIB)

# The program links libgomp statically where GCC ships libgomp.a, so that
# cli/wait_policy.c can choose passive waiting before libgomp reads its
# variables; elsewhere (no libgomp.a, GOMP_STATIC=) it links the shared one.
comma := ,
GOMP_STATIC ?= $(filter /%,$(shell $(CC) -print-file-name=libgomp.a 2>/dev/null))
PROG_OMP  := $(if $(GOMP_STATIC),$(GOMP_STATIC) -pthread,-fopenmp)
# The CUDA runtime needs libstdc++; the program links it (and libgcc)
# statically where GCC ships libstdc++.a: loading and binding the shared one
# took 0.46 of the 1.68 ms of `coarsen --version` (docs/benchmarks.md),
# which every small graph's run pays.
STDCXX_STATIC ?= $(filter /%,$(shell $(CC) -print-file-name=libstdc++.a 2>/dev/null))
PROG_LIBS := $(if $(STDCXX_STATIC),$(subst -lstdc++,-Wl$(comma)-Bstatic -lstdc++ -Wl$(comma)-Bdynamic -static-libgcc,$(LDLIBS)),$(LDLIBS))

$(PROG): $(CLI_O) $(LIB)
	$(CC) $(filter-out -fopenmp,$(CFLAGS)) $^ -o $@ $(filter-out -fopenmp,$(PROG_LIBS)) -lmetis $(PROG_OMP)

$(BUILD)/obj/dist/%.o: dist/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) -DCOARSEN_HAVE_NCCL=$(HAVE_NCCL) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/dist/%.cu.o: dist/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) -I$(NCCL_HOME)/include $(NVFLAGS) -c $< -o $@

# Linked as the program is (its OpenMP and C++ runtimes), so that
# cli/wait_policy.c's passive waiting takes effect in every rank too.
$(BUILD)/coarsen-mpi: $(DIST_O) $(filter-out $(BUILD)/obj/cli/program.o,$(CLI_O)) $(LIB)
	$(MPICC) $(filter-out -fopenmp,$(CFLAGS)) $^ -o $@ $(filter-out -fopenmp,$(PROG_LIBS)) -lmetis $(NCCL_LIBS) $(PROG_OMP)

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
# Then coarsen-mpi against coarsen at 1-4 ranks (tests/mpi/run.sh; skipped
# visibly without mpirun; not in sanitizer builds, where OpenMPI's own
# allocations would fail the leak check).
check: $(TESTS) $(PROG) $(FAULTY) $(BUILD)/examples/build_hierarchy_cxx $(MPIPROG)
	$(BUILD)/examples/build_hierarchy_cxx > /dev/null
	COARSEN_PROG=$(abspath $(PROG)) COARSEN_FAULTY_PROG=$(abspath $(FAULTY)) OMP_WAIT_POLICY=passive \
	    $(if $(SANITIZE),LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp)) $(TESTS) --jobs 2 --verbose
	$(if $(SANITIZE),@echo "mpi tests: [SKIP] sanitizer build",$(if $(MPIPROG),sh tests/mpi/run.sh $(BUILD),@echo "mpi tests: [SKIP] no mpicc: coarsen-mpi not built"))

mpi-check: $(PROG) $(MPIPROG)
	$(if $(MPIPROG),sh tests/mpi/run.sh $(BUILD),@echo "mpi tests: [SKIP] no mpicc: coarsen-mpi not built")

# The program with the test build's fault injection (core/fault.h): the
# same objects as coarsen, plus strong fault_write / fault_alloc that fail
# the Nth call as COARSEN_FAULT_* say (tests/fault/fault_inject.c). Never
# installed; the tests loop whole runs over N (tests/test_fault_injection.c).
$(FAULTY): $(CLI_O) $(BUILD)/obj/tests/fault/fault_inject.o $(LIB)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lmetis

# The public header is C and C++: the shipped example compiled as C++
# (warnings are errors), linked against the library and run by make check.
CXX ?= g++
$(BUILD)/examples/build_hierarchy_cxx: examples/build_hierarchy.c include/coarsen.h $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) -x c++ -std=c++11 -Wall -Wpedantic -Werror -Iinclude -c $< -o $@.o
	$(CXX) $@.o $(LIB) -o $@ $(LDLIBS) -lmetis

NPROC    := $(shell nproc 2>/dev/null || echo 2)
ASAN_VARS := CUDA=0 BUILD=build-asan OPT=-O1 \
             SANITIZE="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

# The CPU-only build runs with zlib, the fallback; the others with ISA-L.
# The Python package is built on the default build (the CUDA one when nvcc
# is there), whose objects the second step has just compiled.
test: deps
	$(MAKE) -j$(NPROC) CUDA=0 GZIP=zlib BUILD=build-zlib check
	$(MAKE) -j$(NPROC) check
	$(MAKE) -j$(NPROC) $(ASAN_VARS) check
	$(MAKE) python-check

# Builds the wheel (setup.py runs `make shared` on this build), installs it
# into $(BUILD)/python and runs tests/python with pytest.
python-check: $(PROG)
	CUDA=$(CUDA) GZIP=$(GZIP) sh tests/python/run.sh $(BUILD)

asan:
	$(MAKE) -j$(NPROC) $(ASAN_VARS) check

example: deps $(PROG)
	$(PROG) gen rgg --vertices 100000 --seed 1 -o $(BUILD)/example-rgg.graph
	$(PROG) --levels 10 $(BUILD)/example-rgg.graph

bench: $(PROG) $(BENCHES)
	sh bench/run.sh $(BUILD)

# pkg-config: `coarsen` links the shared library (`--static` adds what the
# static one needs), `coarsen-static` the static library by its path.
PC_SED := sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|'
install: $(PROG) $(LIB) $(SHLIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHLIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libcoarsen.so
	install -m 644 include/coarsen.h $(DESTDIR)$(PREFIX)/include/
	$(PC_SED) -e 's|@NAME@|coarsen|' -e 's|@LIBS@|-L$${libdir} -lcoarsen|' \
	    -e 's|@PRIVATE@|$(LDLIBS) -lmetis|' coarsen.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/coarsen.pc
	$(PC_SED) -e 's|@NAME@|coarsen-static|' -e 's|@LIBS@|$${libdir}/libcoarsen.a $(LDLIBS) -lmetis|' \
	    -e 's|@PRIVATE@||' coarsen.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/coarsen-static.pc
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ]; then ldconfig; fi

# libFuzzer targets (docs/fuzzing.md): clang, ASan + UBSan, CPU code only.
# The readers' target has no OpenMP; the option parsing's links every
# command (the whole CPU library, OpenMP through clang's libomp).
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Iinclude -I. \
              -DCOARSEN_HAVE_CUDA=0 -DCOARSEN_HAVE_ISAL=$(if $(filter isal,$(GZIP)),1,0) -D_GNU_SOURCE $(WARN)
FUZZ_SRC := $(wildcard core/*.c io/*.c) device/device_nocuda.c device/graph_free.c
FUZZ_CLI_SRC := $(filter-out cli/program.c,$(CLI_C)) $(filter-out %_nocuda.c,$(wildcard $(addsuffix /*.c,$(LIB_DIRS)))) \
                $(wildcard $(addsuffix /*_nocuda.c,$(LIB_DIRS)))
fuzz: build-fuzz/fuzz_readers build-fuzz/fuzz_cli_options
build-fuzz/fuzz_readers: fuzz/fuzz_readers.c $(FUZZ_SRC) $(wildcard core/*.h io/*.h include/*.h)
	@mkdir -p build-fuzz
	clang $(FUZZ_FLAGS) fuzz/fuzz_readers.c $(FUZZ_SRC) -o $@ $(GZ_LIBS) -lm
build-fuzz/fuzz_cli_options: fuzz/fuzz_cli_options.c $(FUZZ_CLI_SRC) $(wildcard */*.h include/*.h)
	@mkdir -p build-fuzz
	clang $(FUZZ_FLAGS) -fopenmp fuzz/fuzz_cli_options.c $(FUZZ_CLI_SRC) -o $@ $(GZ_LIBS) -lm -lmetis

clean:
	rm -rf build build-cpu build-zlib build-asan build-fuzz build-python python/coarsen.egg-info

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
