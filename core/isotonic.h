// IsotonicRegression (tf.nn.isotonic_regression): for each row of the input's last dim, the
// non-increasing sequence nearest to it in squared error, by pooling adjacent violators
// (Kruskal 1964): blocks start as single elements and a block whose mean exceeds the one
// before it is merged into it; each block is then its mean. Equal means are not merged, so
// each element's segment (numbered from 0 in its row) is its block. Sums and means in the
// output dtype, as TensorFlow's kernel computes them. Shared by the kernels and the shape
// function.
#pragma once

#include <cstdint>
#include <vector>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill {

// input of rank >= 1; both outputs of its shape.
absl::Status IsotonicShape(InferenceContext& c);
// _IsotonicRegressionGrad (grads, segments): one shape, rank >= 1.
absl::Status IsotonicGradShape(InferenceContext& c);

// One row of n values into y (its fit) and segment (its block numbers).
template <typename Tin, typename Tout>
void PoolAdjacentViolators(const Tin* x, int64_t n, Tout* y, int32_t* segment) {
  struct Block {
    int64_t start;
    Tout sum;
    Tout mean;
  };
  std::vector<Block> blocks;
  for (int64_t i = 0; i < n; ++i) {
    blocks.push_back({i, static_cast<Tout>(x[i]), static_cast<Tout>(x[i])});
    while (blocks.size() > 1 && blocks.back().mean > blocks[blocks.size() - 2].mean) {
      Block& into = blocks[blocks.size() - 2];
      into.sum += blocks.back().sum;
      blocks.pop_back();
      into.mean = into.sum / static_cast<Tout>(i + 1 - into.start);
    }
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    const int64_t end = b + 1 < blocks.size() ? blocks[b + 1].start : n;
    for (int64_t i = blocks[b].start; i < end; ++i) {
      y[i] = blocks[b].mean;
      segment[i] = static_cast<int32_t>(b);
    }
  }
}

}  // namespace rill
