// Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11):
// a counter-based generator. Block i of a stream is a pure function of (key, i), so CPU
// and GPU kernels can produce the same numbers for the same seed in any order.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "rill/core/host_device.h"

namespace rill::random {

struct Block {
  uint32_t v[4];
  RILL_HOST_DEVICE uint32_t operator[](int i) const { return v[i]; }
};

RILL_HOST_DEVICE inline Block Philox(uint64_t key, uint64_t counter_hi, uint64_t counter_lo) {
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  uint32_t c[4] = {static_cast<uint32_t>(counter_lo), static_cast<uint32_t>(counter_lo >> 32),
                   static_cast<uint32_t>(counter_hi), static_cast<uint32_t>(counter_hi >> 32)};
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t{0xD2511F53} * c[0];
    uint64_t p1 = uint64_t{0xCD9E8D57} * c[2];
    uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c[0] = hi1 ^ c[1] ^ k0;
    c[1] = lo1;
    c[2] = hi0 ^ c[3] ^ k1;
    c[3] = lo0;
    k0 += 0x9E3779B9;
    k1 += 0xBB67AE85;
  }
  return Block{{c[0], c[1], c[2], c[3]}};
}

// Uniform in [0, 1) from 32 (float) or 64 (double) random bits.
RILL_HOST_DEVICE inline float ToFloat(uint32_t x) {
  uint32_t bits = (x >> 9) | 0x3F800000u;
  float f;
  memcpy(&f, &bits, 4);
  return f - 1.0f;
}
RILL_HOST_DEVICE inline double ToDouble(uint32_t hi, uint32_t lo) {
  uint64_t bits = ((uint64_t{hi} << 32 | lo) >> 12) | 0x3FF0000000000000ull;
  double d;
  memcpy(&d, &bits, 8);
  return d - 1.0;
}

// Two standard normals from two uniforms in (0, 1] and [0, 1) (Box-Muller).
template <typename T>
RILL_HOST_DEVICE inline void BoxMuller(T u1, T u2, T* z0, T* z1) {
  using std::cos;
  using std::log;
  using std::sin;
  using std::sqrt;
  const T r = sqrt(T(-2) * log(u1));
  const T theta = T(6.283185307179586) * u2;
  *z0 = r * cos(theta);
  *z1 = r * sin(theta);
}

}  // namespace rill::random
