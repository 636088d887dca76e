// RILL_HOST_DEVICE marks functions that both the CPU kernels and nvcc's device code call
// (the same arithmetic on both devices).
#pragma once

#ifdef __CUDACC__
#define RILL_HOST_DEVICE __host__ __device__
#else
#define RILL_HOST_DEVICE
#endif
