// The epilogue of _FusedConv2DElementwise and _FusedDepthwiseConv2dNativeElementwise: an
// elementwise program (core/fused_elementwise.h) whose register 0 is the convolution's
// output and registers 1..N the node's inputs from 2 on. A float convolution through
// oneDNN applies it as post-ops, while the output is in registers, where the program is a
// chain (LinearChain) and each operand is one value, a vector along the channels or a
// tensor of the output's shape; otherwise the program runs over the output afterwards.
#pragma once

#include <optional>
#include <vector>

#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"
#include "rill/kernels/cpu/dnnl_conv.h"
#include "rill/kernels/cpu/elementwise_program.h"

namespace rill::cpu {

template <typename T>
class ConvEpilogue {
 public:
  explicit ConvEpilogue(const OpKernelConstruction& c) {
    const int registers = c.node().num_inputs() - 1;  // the output, then inputs 2..
    auto steps = ParseElementwiseProgram(c.node().attr<std::vector<int64_t>>("program"), registers);
    if (!steps.ok()) {
      status_ = steps.status();
      return;
    }
    chain_ = LinearChain(*steps, registers, 0);
    if (chain_ && chain_->size() > static_cast<size_t>(kMaxConvPostOps)) chain_.reset();
    program_.emplace(*std::move(steps), registers);
  }

  // The program's own error, or one for an operand that does not broadcast into the
  // convolution's output `out` as it is (the fused node's output has the output's shape).
  absl::Status Check(OpKernelContext& ctx, const TensorShape& out) const {
    RILL_RETURN_IF_ERROR(status_);
    for (int i = 2; i < ctx.num_inputs(); ++i) {
      absl::StatusOr<TensorShape> b = shape_fns::Broadcast(out, ctx.input(i).shape());
      if (!b.ok() || *b != out) {
        return errors::InvalidArgument(
            "epilogue operand ", i, " of shape ", ctx.input(i).shape().DebugString(),
            " does not broadcast into the convolution's output ", out.DebugString());
      }
    }
    return absl::OkStatus();
  }

  // This run's post-ops in *ops, or null where oneDNN cannot apply the program.
  const ConvPostOps* PostOps(OpKernelContext& ctx, const TensorShape& out, ConvPostOps* ops) const {
    if constexpr (!std::is_same_v<T, float>) return nullptr;
    if (!chain_) return nullptr;
    ops->size = 0;
    for (const ChainStep& s : *chain_) {
      ConvPostOp& op = ops->ops[ops->size++];
      op = {s.op, PostOperand::kNone, nullptr};
      if (s.operand < 0) continue;
      const Tensor& v = ctx.input(s.operand + 1);
      op.shape = ShapeOf(v.shape(), out);
      if (op.shape == PostOperand::kNone) return nullptr;
      op.values = reinterpret_cast<const float*>(v.data());
    }
    return ops;
  }

  // out = the program over the convolution's output (out itself) and the operands.
  void Apply(OpKernelContext& ctx, Tensor* out) const {
    program_->Run([&](int i) -> const Tensor& { return i == 0 ? *out : ctx.input(i + 1); },
                  out->shape(), out->base<T>());
  }

 private:
  // How operand `v` covers an NHWC output `out`; kNone if in no way oneDNN takes.
  static PostOperand ShapeOf(const TensorShape& v, const TensorShape& out) {
    if (v.num_elements() == 1) return PostOperand::kScalar;
    if (v == out) return PostOperand::kFull;
    const int rank = v.dims();
    if (rank == 0 || rank > out.dims() || v.dim_size(rank - 1) != out.dim_size(out.dims() - 1)) {
      return PostOperand::kNone;
    }
    for (int d = 0; d + 1 < rank; ++d) {
      if (v.dim_size(d) != 1) return PostOperand::kNone;
    }
    return PostOperand::kChannel;
  }

  absl::Status status_;
  std::optional<std::vector<ChainStep>> chain_;
  std::optional<ElementwiseProgram<T>> program_;
};

}  // namespace rill::cpu
