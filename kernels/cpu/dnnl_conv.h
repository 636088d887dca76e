// Float convolutions through oneDNN's convolution primitives (forward, backward data,
// backward weights) on TensorFlow's layouts as they are: NHWC activations, HWIO filters.
// Primitives are made once per geometry and kept; every execution gets its own scratchpad,
// so one kernel may run from several threads at once.
#pragma once

#include <memory>

#include "rill/core/conv_util.h"
#include "rill/core/status.h"

namespace rill::cpu {

enum class ConvPass { kForward, kBackwardData, kBackwardWeights };

class DnnlConv {
 public:
  DnnlConv();
  ~DnnlConv();
  // Whether oneDNN takes this geometry (false: the caller uses its own path).
  static bool Supports(const Conv2DGeometry& g);
  // kForward: out = conv(x, w); kBackwardData: out (dx) from w and dy; kBackwardWeights:
  // out (dw) from x and dy. `x`/`dx` are [n, h, w, c], `w`/`dw` [kh, kw, c, oc], `dy` and
  // the forward output [n, oh, ow, oc]; outputs are overwritten. Unimplemented (nothing
  // written) when oneDNN cannot make a primitive for the geometry: use the own path.
  absl::Status Run(ConvPass pass, const Conv2DGeometry& g, const float* a, const float* b,
                   float* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rill::cpu
