// What alternating shared-memory carveouts cost between two kernels launched back to back
// (docs/PERFORMANCE.md, "Whole stages against the sum of their kernels"). Two kernels with the
// launch shapes of the N = 5 Maxwell volume and fused update: A with one-warp blocks and 11 KB of
// shared memory each (19 blocks per SM only at the largest carveout), B with 128 threads and
// 28 KB each; both wait on chains of dependent loads, so their time follows their resident
// warps. For each pair of preferred carveouts (percent; -1: cudaFuncCachePreferShared, as Kokkos
// sets it) it times A alone, B alone and A then B, medians of 15 loops of 10, and prints the
// excess of the pair over the sum. Standalone:
//   nvcc -std=c++17 -O3 -arch=sm_90 -o carveout_switch carveout_switch.cu && ./carveout_switch
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)
template <int ID>
__global__ void kern(const double* __restrict__ x, double* __restrict__ y, long n, int chain) {
  extern __shared__ double s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  double acc = s[(threadIdx.x + 1) % blockDim.x];
  long j = i;
  for (int c = 0; c < chain; ++c) {  // dependent loads: latency bound
    double v = x[j];
    acc += v;
    j = (j + 4096 + (long)(v != 0.0)) % n;
  }
  y[i] = acc;
}
int main() {
  CK(cudaSetDevice(0));
  setvbuf(stdout, nullptr, _IONBF, 0);
  long n = 1L << 24;
  double *x, *y;
  CK(cudaMalloc(&x, n * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMemset(x, 0, n * 8));
  int chain = 8;
  int tA = 32, tB = 128; size_t dA = 11024, dB = 28688;
  CK(cudaFuncSetAttribute(kern<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  CK(cudaFuncSetAttribute(kern<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  auto launchA = [&] { kern<0><<<(n + tA - 1) / tA, tA, dA>>>(x, y, n, chain); };
  auto launchB = [&] { kern<1><<<(n + tB - 1) / tB, tB, dB>>>(x, y, n, chain); };
  auto timeit = [&](auto f) {
    std::vector<float> t;
    for (int w = 0; w < 3; ++w) f();
    for (int k = 0; k < 15; ++k) { CK(cudaEventRecord(e0)); for (int j = 0; j < 10; ++j) f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms / 10); }
    std::sort(t.begin(), t.end()); return t[t.size() / 2];
  };
  int pairs[][2] = {{100, 100}, {100, 64}, {-1, 64}, {100, 50}, {100, 30}, {64, 64}, {50, 100}};
  printf("%6s %6s %9s %9s %9s %9s %9s\n", "cA", "cB", "A (ms)", "B (ms)", "sum", "A+B", "excess");
  for (auto& p : pairs) {
    int ca = p[0], cb = p[1];
    if (ca >= 0) CK(cudaFuncSetAttribute(kern<0>, cudaFuncAttributePreferredSharedMemoryCarveout, ca));
    else CK(cudaFuncSetCacheConfig(kern<0>, cudaFuncCachePreferShared));
    CK(cudaFuncSetAttribute(kern<1>, cudaFuncAttributePreferredSharedMemoryCarveout, cb));
    float a = timeit(launchA), b = timeit(launchB), ab = timeit([&] { launchA(); launchB(); });
    printf("%6d %6d %9.4f %9.4f %9.4f %9.4f %9.4f\n", ca, cb, a, b, a + b, ab, ab - a - b);
  }
  CK(cudaGetLastError());
}
