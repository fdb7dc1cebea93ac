// Shared-memory configuration the driver picks: (i) default preference (PreferNone, carveout -1);
// (ii) PreferShared at the first launch, then a carveout percent equal to what the resident
// blocks need (need = blocks x (dyn + 1 KB reserved), ceil percent of 228 KB); (iii) several
// percents around it.  One kernel function per case (the attributes are per function).
#include <cstdio>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

template <int Id>
__global__ void probe(int p, double* out) {
  extern __shared__ double s[];
  if (p == 0) return;  // p = 0: the launch has too little shared memory to touch
  s[threadIdx.x] = p + blockIdx.x;
  __syncthreads();
  if (out != nullptr && s[(threadIdx.x + 1) % blockDim.x] < 0) out[blockIdx.x] = s[0];
}

using Fn = void (*)(int, double*);
template <std::size_t... I>
std::vector<Fn> table(std::index_sequence<I...>) { return {probe<I>...}; }

int main() {
  auto fns = table(std::make_index_sequence<64>{});
  int per_sm = 0;
  cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  struct Case { int threads; int dyn; };
  std::vector<Case> cases = {{32, 0}, {32, 272}, {32, 700}, {32, 1500}, {32, 2584}, {32, 4000}, {32, 6000},
                             {32, 9000}, {32, 12000}, {32, 19000}, {256, 0}, {256, 8000}, {256, 30000}, {64, 5000}};
  int id = 0;
  for (auto c : cases) {
    // (i) default
    Fn f = fns[id++];
    cudaFuncSetAttribute((const void*)f, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    f<<<132 * 16, c.threads, c.dyn>>>(c.dyn >= 8 * c.threads ? 1 : 0, nullptr);
    printf("case threads=%d dyn=%d mode=default p=-\n", c.threads, c.dyn);
    // (ii) Kokkos-like then fitted percent, then a few percents
    f = fns[id++];
    cudaFuncSetAttribute((const void*)f, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    cudaFuncSetCacheConfig((const void*)f, cudaFuncCachePreferShared);
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, c.threads, 0);
    size_t per_block = c.dyn + 1024;
    size_t fit = per_sm / per_block;
    size_t res = std::min<size_t>(blocks, fit);
    int need = (int)((100 * res * per_block + per_sm - 1) / per_sm);
    f<<<132 * 16, c.threads, c.dyn>>>(c.dyn >= 8 * c.threads ? 1 : 0, nullptr);
    printf("case threads=%d dyn=%d mode=first p=- (blocks %d resident %zu need %zu B)\n", c.threads, c.dyn, blocks,
           res, res * per_block);
    cudaFuncSetAttribute((const void*)f, cudaFuncAttributePreferredSharedMemoryCarveout, need);
    f<<<132 * 16, c.threads, c.dyn>>>(c.dyn >= 8 * c.threads ? 1 : 0, nullptr);
    printf("case threads=%d dyn=%d mode=fit p=%d\n", c.threads, c.dyn, need);
    // (iii) PreferNone after PreferShared, default carveout
    cudaFuncSetCacheConfig((const void*)f, cudaFuncCachePreferNone);
    cudaFuncSetAttribute((const void*)f, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    f<<<132 * 16, c.threads, c.dyn>>>(c.dyn >= 8 * c.threads ? 1 : 0, nullptr);
    printf("case threads=%d dyn=%d mode=reset_default p=-1\n", c.threads, c.dyn);
    // (iv) fitted percent after a reset to PreferNone
    cudaFuncSetAttribute((const void*)f, cudaFuncAttributePreferredSharedMemoryCarveout, need);
    f<<<132 * 16, c.threads, c.dyn>>>(c.dyn >= 8 * c.threads ? 1 : 0, nullptr);
    printf("case threads=%d dyn=%d mode=none_fit p=%d\n", c.threads, c.dyn, need);
  }
  cudaDeviceSynchronize();
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
