// Float convolutions through oneDNN's convolution primitives (forward, backward data,
// backward weights) on TensorFlow's layouts as they are: NHWC / NDHWC activations, HWIO /
// DHWIO filters.
// Primitives are made once per geometry and kept, with the memory objects, reorder buffers
// and scratchpad of each execution: an execution takes an idle set (or makes one, when
// more threads run the kernel at once than ever before), so steady runs allocate nothing
// of their own and one kernel may run from several threads at once.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include "rill/core/activation.h"
#include "rill/core/conv3d.h"
#include "rill/core/conv_util.h"
#include "rill/core/fused_elementwise.h"
#include "rill/core/status.h"

namespace rill::cpu {

// Numbered as rill::ConvMode (core/conv_kernel_util.h): kernels cast one to the other.
enum class ConvPass { kForward = 0, kBackwardData = 1, kBackwardWeights = 2 };

// A forward convolution's epilogue, which oneDNN applies to the output while it is in
// registers (its post-ops): per step an elementwise op of the chain's value and, for a
// binary op, the other operand's values and how they cover the output [n, oh, ow, oc].
enum class PostOperand { kNone, kScalar, kChannel, kFull };
struct ConvPostOp {
  ElementwiseOp op = ElementwiseOp::kIdentity;
  PostOperand shape = PostOperand::kNone;
  const float* values = nullptr;
};
inline constexpr int kMaxConvPostOps = 10;
struct ConvPostOps {
  std::array<ConvPostOp, kMaxConvPostOps> ops;
  int size = 0;
};

struct ConvShape;  // dnnl_conv_prim.h

class DnnlConv {
 public:
  // `fused`: forward passes add a bias and apply this activation in the same primitive
  // (oneDNN's bias and eltwise post-op), for _FusedConv2D.
  explicit DnnlConv(std::optional<FusedActivation> fused = std::nullopt);
  ~DnnlConv();
  // Whether oneDNN takes this geometry (false: the caller uses its own path).
  static bool Supports(const Conv2DGeometry& g);
  static bool Supports(const Conv3DDims& g);
  // kForward: out = conv(x, w); kBackwardData: out (dx) from w and dy; kBackwardWeights:
  // out (dw) from x and dy. `x`/`dx` are [n, h, w, c], `w`/`dw` [kh, kw, c, oc], `dy` and
  // the forward output [n, oh, ow, oc]; outputs are overwritten. Unimplemented (nothing
  // written) when oneDNN cannot make a primitive for the geometry: use the own path.
  // `bias` [oc]: the fused forward's bias (null otherwise). Grouped geometries (groups > 1,
  // depthwise) take the weights as [kh, kw, c / groups, oc]. `constant_weights`: a forward
  // pass's `b` never changes while it has this address (a Const node's value), so it is
  // reordered to the primitive's layout once, not in every run. `post`: a forward pass's
  // epilogue (Unimplemented, nothing written, when oneDNN has no JIT kernel for it).
  absl::Status Run(ConvPass pass, const Conv2DGeometry& g, const float* a, const float* b,
                   float* out, const float* bias = nullptr, bool constant_weights = false,
                   const ConvPostOps* post = nullptr);
  // Conv3D's passes: `x`/`dx` [n, d, h, w, c], `w`/`dw` [kd, kh, kw, c / groups, oc], `dy` and
  // the forward output [n, od, oh, ow, oc]; as above otherwise.
  absl::Status Run(ConvPass pass, const Conv3DDims& g, const float* a, const float* b, float* out);

 private:
  absl::Status RunShape(ConvPass pass, const ConvShape& g, const float* a, const float* b,
                        float* out, const float* bias, bool constant_weights,
                        const ConvPostOps* post);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rill::cpu
