// Whether the occupancy API sees a kernel's carveout preference: for each percent, the blocks
// cudaOccupancyMaxActiveBlocksPerMultiprocessor allows and the dynamic shared memory
// cudaOccupancyAvailableDynamicSMemPerBlock reports for 1 and 32 blocks.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k32(int p, double* out) {
  extern __shared__ double s[];
  if (p < 0) return;
  s[threadIdx.x] = p;
  __syncthreads();
  if (out) out[blockIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

int main() {
  const int ps[] = {-1, 0, 1, 2, 4, 8, 13, 16, 20, 24, 50, 100};
  for (int p : ps) {
    if (p >= 0) cudaFuncSetAttribute((const void*)k32, cudaFuncAttributePreferredSharedMemoryCarveout, p);
    int b272 = 0, b8000 = 0;
    size_t a1 = 0, a32 = 0, a8 = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b272, k32, 32, 272);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b8000, k32, 32, 8000);
    cudaOccupancyAvailableDynamicSMemPerBlock(&a1, k32, 1, 32);
    cudaOccupancyAvailableDynamicSMemPerBlock(&a8, k32, 8, 32);
    cudaOccupancyAvailableDynamicSMemPerBlock(&a32, k32, 32, 32);
    cudaFuncAttributes at{};
    cudaFuncGetAttributes(&at, (const void*)k32);
    printf("p=%d blocks(272)=%d blocks(8000)=%d avail(1)=%zu avail(8)=%zu avail(32)=%zu attr.preferredShmemCarveout=%d\n",
           p, b272, b8000, a1, a8, a32, at.preferredShmemCarveout);
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
