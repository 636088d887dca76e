// Ops whose output element e is one input element or zero, by a rule per element:
// ReverseSequence and MatrixBandPart. Planning them as strided copies would take one copy
// per batch entry or per row, so a [10^7, 2] input would plan 10^7 copies (gigabytes of
// plans); here each is one pass with O(1) state per element, the same rule on both devices.
// Elements move as integers of their size (1, 2, 4 or 8 bytes), so one kernel serves every dtype.
#pragma once

#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

// ReverseSequence: along seq_dim, the first lens[b] elements of batch entry b reversed.
struct ReverseSequenceMap {
  int64_t batch_stride = 0, batch_size = 0, seq_stride = 0, seq_size = 0;
  const int64_t* lens = nullptr;  // batch_size lengths, on the device that runs the map
  RILL_HOST_DEVICE int64_t operator()(int64_t e) const {
    const int64_t b = (e / batch_stride) % batch_size, t = (e / seq_stride) % seq_size;
    const int64_t len = lens[b];
    return t < len ? e + (len - 1 - 2 * t) * seq_stride : e;
  }
};

// MatrixBandPart: element (i, j) of each [rows, cols] matrix kept where i - j <= lower and
// j - i <= upper (a negative bound keeps that triangle), else zero.
struct BandMap {
  int64_t rows = 0, cols = 0, lower = -1, upper = -1;
  RILL_HOST_DEVICE int64_t operator()(int64_t e) const {
    const int64_t j = e % cols, i = (e / cols) % rows;
    const bool keep = (lower < 0 || i - j <= lower) && (upper < 0 || j - i <= upper);
    return keep ? e : -1;
  }
};

// out[e] = in[map(e)], or 0 where map(e) is -1.
template <typename Word, typename Map>
RILL_HOST_DEVICE inline void MapElement(const Word* in, Word* out, int64_t e, const Map& map) {
  const int64_t s = map(e);
  out[e] = s < 0 ? Word(0) : in[s];
}

}  // namespace rill
