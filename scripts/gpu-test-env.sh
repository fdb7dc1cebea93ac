# Sourced by gpu-check.sh and gpu-sanitize.sh (from the folder made by scripts/pack-cuda.sh),
# with $out set: test_env, the command prefix that gives a test program the environment ctest
# gives it (tests/CMakeLists.txt). The tests run the straightforward kernels unless they tune
# themselves, and their tuning cache stays out of the user's.
# shellcheck shell=bash
# shellcheck disable=SC2034  # used by the scripts that source this file
test_env=(env DGK_TUNE=never DGK_TUNING_CACHE="$out/tests-tuning.json" OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
          DGK_TEST_THREADS="${DGK_TEST_THREADS:-${OMP_NUM_THREADS:-8}}")
