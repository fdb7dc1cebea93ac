// Which shared-memory configuration the driver picks for a kernel, for each carveout preference
// (percent), after cudaFuncSetCacheConfig(PreferShared) as Kokkos 3.4 does or without it.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

template <int Id>
__global__ void probe(int p, double* out) {
  extern __shared__ double s[];
  s[threadIdx.x] = p + blockIdx.x;
  __syncwarp();
  if (out != nullptr && s[(threadIdx.x + 1) % blockDim.x] < 0) out[blockIdx.x] = s[0];
}

template <int Id>
void sweep(const char* name, size_t dyn, bool prefer_shared, size_t max_dyn, const std::vector<int>& ps) {
  auto f = probe<Id>;
  if (max_dyn) cudaFuncSetAttribute((const void*)f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)max_dyn);
  if (prefer_shared) cudaFuncSetCacheConfig((const void*)f, cudaFuncCachePreferShared);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 32, dyn);
  f<<<132 * 64, 32, dyn>>>(-1, nullptr);
  printf("%s dyn=%zu prefer_shared=%d max_dyn=%zu occupancy_blocks=%d launch p=-1 (first)\n", name, dyn,
         (int)prefer_shared, max_dyn, blocks);
  for (int p : ps) {
    cudaError_t e = cudaFuncSetAttribute((const void*)f, cudaFuncAttributePreferredSharedMemoryCarveout, p);
    f<<<132 * 64, 32, dyn>>>(p, nullptr);
    printf("%s launch p=%d%s\n", name, p, e != cudaSuccess ? " (set failed)" : "");
  }
  cudaDeviceSynchronize();
}

int main() {
  int dev = 0, per_sm = 0, reserved = 0;
  cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev);
  cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev);
  printf("max shared per SM %d, reserved per block %d\n", per_sm, reserved);
  std::vector<int> ps = {0, 3, 4, 7, 8, 14, 15, 16, 17, 18, 19, 20, 28, 29, 30, 43, 44, 45, 57, 58, 71, 72, 86, 100};
  sweep<0>("A_kokkos_like", 272, true, 0, ps);
  sweep<1>("B_no_cache_config", 272, false, 0, ps);
  sweep<2>("C_max_dyn_100k", 272, true, 100 * 1024, ps);
  sweep<3>("D_dyn_19k", 19000, true, 0, ps);
  sweep<4>("E_dyn_2584", 2584, true, 0, ps);
  return 0;
}
