#!/bin/sh
# device-env.sh — environment for running a build made on the development
# machine on the lent GPU machine, which has no package registry: the
# runtime libraries and gpmetis are carried in .deps/ (ignored by git; made
# by scripts/device-deps.sh), the shared graphs in .deps/data.
# Source it from the repository root: `. scripts/device-env.sh`.
export LD_LIBRARY_PATH="$PWD/.deps/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PWD/.deps/bin:$PATH"
export COARSEN_DATA="$PWD/.deps/data"
export COARSEN_PROG="$PWD/build/coarsen"
export OMP_WAIT_POLICY=passive
# coarsen-mpi: OpenMPI's components and help files carried in .deps/ompi
# (one rank starts as a singleton, without mpirun), and NCCL from the
# machine's Python wheel (nvidia-nccl-cu13) when it has one.
if [ -d .deps/ompi ]; then
    export OMPI_MCA_ess_singleton_isolated=1 OMPI_MCA_mca_base_component_path="$PWD/.deps/ompi/openmpi3"
    export OPAL_PKGDATADIR="$PWD/.deps/ompi/openmpi"
fi
nccl=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null) &&
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$nccl/lib"
