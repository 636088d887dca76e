// The primitives behind DnnlConv (dnnl_conv.h): a convolution's shape in oneDNN's terms,
// the same for 2-D (Conv2D and its kin) and 3-D (Conv3D) windows, and each pass's
// primitive with its operands in rill's channels-last layouts.
#pragma once

#include <optional>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "rill/core/conv3d.h"
#include "rill/kernels/cpu/dnnl_conv.h"
#include "rill/kernels/cpu/dnnl_post_ops.h"

namespace rill::cpu {

dnnl::engine& Engine();

// A convolution over `spatial` (2 or 3) dims: NHWC / NDHWC activations and HWIO / DHWIO
// filters, per spatial dim its sizes, stride, dilation (1: none) and padding before.
struct ConvShape {
  int spatial = 2;
  int64_t batch = 0, in_c = 0, out_c = 0, groups = 1;
  int64_t in[3] = {}, k[3] = {}, out[3] = {}, stride[3] = {}, dilation[3] = {}, pad[3] = {};
};
ConvShape ShapeOf(const Conv2DGeometry& g);
ConvShape ShapeOf(const Conv3DDims& g);
// Whether oneDNN's descriptors take the shape (sizes within int32, whole groups, a
// non-empty output).
bool Supported(const ConvShape& s);
// The OpenMP team a primitive of this shape runs on: 1, or 0 for OpenMP's default.
int ThreadsFor(const ConvShape& s);

// One of a primitive's three tensors: rill's plain layout, the one the primitive chose
// (oneDNN's fastest kernels want blocked layouts), and the reorder between them if they
// differ (user -> primitive for inputs, primitive -> user for the output).
struct Operand {
  int arg;
  dnnl::memory::desc user, prim;
  std::optional<dnnl::reorder> reorder;
};

// One pass's primitive, its operands (two inputs, then the output), the fused forward's
// bias, and its scratchpad.
struct Prepared {
  dnnl::primitive prim;
  Operand a, b, out;
  std::optional<dnnl::memory::desc> bias;
  dnnl::memory::desc scratch;
  std::vector<PostSource> post_sources;  // the epilogue's binary post-ops' operands
};

// Throws dnnl::error when oneDNN makes no primitive (or no JIT one for an epilogue).
Prepared Make(ConvPass pass, const ConvShape& s, std::optional<FusedActivation> fused,
              const ConvPostOps* post);

}  // namespace rill::cpu
