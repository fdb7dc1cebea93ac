// The FP64 tensor cores' mma shapes on one GPU: for each of m8n8k4 (compute capability 8.0) and
// m16n8k4, m16n8k8, m16n8k16 (9.0), one warp multiplies known matrices through the fragment
// layout below and compares with the host's product, then a grid of independent chains times the
// shape's rate. A standalone probe, not part of the dgk build (docs/PERFORMANCE.md, "FP64 tensor
// cores"):
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -o mma_shapes apps/mma_shapes/mma_shapes.cu && ./mma_shapes
//
#include <cstdio>
#include <vector>
#include <cmath>
#include <cuda_runtime.h>
// Shapes: 0 = m8n8k4, 1 = m16n8k4, 2 = m16n8k8, 3 = m16n8k16
template <int S> struct Sh;
template <> struct Sh<0> { static constexpr int M = 8, K = 4; };
template <> struct Sh<1> { static constexpr int M = 16, K = 4; };
template <> struct Sh<2> { static constexpr int M = 16, K = 8; };
template <> struct Sh<3> { static constexpr int M = 16, K = 16; };
template <int S> __device__ __forceinline__ void mma(double* c, const double* a, const double* b) {
  if constexpr (S == 0)
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1},{%2},{%3},{%0,%1};\n"
                 : "+d"(c[0]), "+d"(c[1]) : "d"(a[0]), "d"(b[0]));
  else if constexpr (S == 1)
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},{%4,%5},{%6},{%0,%1,%2,%3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3]) : "d"(a[0]), "d"(a[1]), "d"(b[0]));
  else if constexpr (S == 2)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%0,%1,%2,%3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3},{%4,%5,%6,%7,%8,%9,%10,%11},{%12,%13,%14,%15},{%0,%1,%2,%3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}
// Fragment layouts (g = lane / 4, t = lane % 4, R = M / 8):
//  A value i: row g + 8 (i % R), col t + 4 (i / R);  B value i: row t + 4 i, col g
//  C value i: row g + 8 (i / 2), col 2 t + i % 2
template <int S> __global__ void layout(const double* A, const double* B, double* C) {
  constexpr int M = Sh<S>::M, K = Sh<S>::K, R = M / 8, NA = M * K / 32, NB = K / 4, NC = M / 4;
  int l = threadIdx.x, g = l / 4, t = l % 4;
  double a[NA], b[NB], c[NC];
  for (int i = 0; i < NA; ++i) a[i] = A[(g + 8 * (i % R)) * K + t + 4 * (i / R)];
  for (int i = 0; i < NB; ++i) b[i] = B[(t + 4 * i) * 8 + g];
  for (int i = 0; i < NC; ++i) c[i] = 0;
  mma<S>(c, a, b);
  for (int i = 0; i < NC; ++i) C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = c[i];
}
template <int S> __global__ void rate(double* out, int iters) {
  constexpr int M = Sh<S>::M, K = Sh<S>::K, NA = M * K / 32, NB = K / 4, NC = M / 4, CH = 8;
  double a[NA], b[NB], c[CH][NC];
  for (int i = 0; i < NA; ++i) a[i] = 1e-3 * (threadIdx.x + i);
  for (int i = 0; i < NB; ++i) b[i] = 1e-3 * (threadIdx.x - i);
  for (int h = 0; h < CH; ++h) for (int i = 0; i < NC; ++i) c[h][i] = 0;
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int h = 0; h < CH; ++h) mma<S>(c[h], a, b);
  double s = 0;
  for (int h = 0; h < CH; ++h) for (int i = 0; i < NC; ++i) s += c[h][i];
  if (s == 1.2345) out[0] = s;
}
template <int S> void run(const char* name) {
  constexpr int M = Sh<S>::M, K = Sh<S>::K;
  std::vector<double> A(M * K), B(K * 8), C(M * 8), R(M * 8, 0.0);
  for (int i = 0; i < M * K; ++i) A[i] = std::sin(1.0 + i);
  for (int i = 0; i < K * 8; ++i) B[i] = std::cos(2.0 + 3 * i);
  for (int i = 0; i < M; ++i) for (int j = 0; j < 8; ++j) for (int k = 0; k < K; ++k) R[i * 8 + j] += A[i * K + k] * B[k * 8 + j];
  double *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * 8); cudaMalloc(&dB, B.size() * 8); cudaMalloc(&dC, C.size() * 8);
  cudaMemcpy(dA, A.data(), A.size() * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 8, cudaMemcpyHostToDevice);
  layout<S><<<1, 32>>>(dA, dB, dC);
  cudaMemcpy(C.data(), dC, C.size() * 8, cudaMemcpyDeviceToHost);
  double err = 0;
  for (int i = 0; i < M * 8; ++i) err = std::fmax(err, std::fabs(C[i] - R[i]));
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int blocks = sms * 8, threads = 256, iters = 4096;
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  rate<S><<<blocks, threads>>>(dC, 16);
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(e0); rate<S><<<blocks, threads>>>(dC, iters); cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1); best = ms < best ? ms : best;
  }
  double flops = 2.0 * M * 8 * K * 8 /*chains*/ * iters * (double)blocks * threads / 32;
  printf("%-9s layout: max |D - A B| %.2e   rate %.1f GFLOP/s (%s)\n", name, err, flops / (best * 1e-3) / 1e9, cudaGetErrorString(cudaGetLastError()));
}
int main() { run<0>("m8n8k4"); run<1>("m16n8k4"); run<2>("m16n8k8"); run<3>("m16n8k16"); }
