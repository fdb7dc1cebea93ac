#!/usr/bin/env bash
# Strong and weak scaling of Maxwell 3D at N = 4 on the GPUs of one host, with the fraction of
# the trace exchange hidden behind computation (dgk bench --distributed). Run on the GPU
# machine from the repository root, with the CUDA + MPI build and the carried OpenMPI:
#   scripts/gpu-scaling.sh BUILD_BIN OPENMPI_PACK OUT_DIR [reps]
set -euo pipefail
bin=${1:?dgk program} pack=${2:?carried OpenMPI folder} out=${3:?output folder} reps=${4:-20}
# shellcheck disable=SC1091
source "$pack/env.sh"
mkdir -p "$out"
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
bench() { # ranks, elements, report name
  mpirun -np "$1" --bind-to none "$bin" bench maxwell3d --distributed --orders 4 --backend cuda --precision double \
    --elements "$2" --reps "$reps" --report "$out/$3.json"
}
# Strong scaling: one mesh of about 2 M elements on 1 and 2 GPUs. Weak scaling: about 1 M and
# 2 M elements per GPU.
for e in 1000000 2000000; do bench 1 $e "one_$e"; done
if [ "$gpus" -ge 2 ]; then
  for e in 2000000 4000000; do bench 2 $e "two_$e"; done
fi
