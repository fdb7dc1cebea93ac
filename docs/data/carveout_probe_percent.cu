// The shared-memory configuration the driver picks for each carveout percent 0..100, for kernels
// of several block sizes and dynamic shared memory sizes (one kernel function per case).
#include <cstdio>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

template <int Id>
__global__ void probe(int p, double* out) {
  extern __shared__ double s[];
  if (p < 0) return;
  s[threadIdx.x] = p + blockIdx.x;
  __syncthreads();
  if (out != nullptr && s[(threadIdx.x + 1) % blockDim.x] < 0) out[blockIdx.x] = s[0];
}

using Fn = void (*)(int, double*);
template <std::size_t... I>
std::vector<Fn> table(std::index_sequence<I...>) { return {probe<I>...}; }

int main() {
  auto fns = table(std::make_index_sequence<16>{});
  struct Case { int threads; int dyn; };
  std::vector<Case> cases = {{32, 272}, {32, 2584}, {32, 9000}, {64, 1000}, {64, 5000}, {128, 2000},
                             {128, 12000}, {256, 272}, {256, 8000}, {256, 20000}, {512, 4000}, {1024, 8000}};
  int id = 0;
  for (auto c : cases) {
    Fn f = fns[id++];
    cudaFuncSetAttribute((const void*)f, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    const int ok = c.dyn >= 8 * c.threads ? 0 : -1;
    for (int p = 0; p <= 100; ++p) {
      cudaFuncSetAttribute((const void*)f, cudaFuncAttributePreferredSharedMemoryCarveout, p);
      f<<<132 * 4, c.threads, c.dyn>>>(ok, nullptr);
      printf("case %d %d %d\n", c.threads, c.dyn, p);
    }
  }
  cudaDeviceSynchronize();
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
