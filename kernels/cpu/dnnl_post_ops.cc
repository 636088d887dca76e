#include "rill/kernels/cpu/dnnl_post_ops.h"

namespace rill::cpu {

using dnnl::memory;
using Tag = memory::format_tag;

dnnl::memory::desc PostOperandDesc(PostOperand shape, const dnnl::memory::dims& dst) {
  const auto f32 = memory::data_type::f32;
  switch (shape) {
    case PostOperand::kChannel:
      return memory::desc({1, dst[1], 1, 1}, f32, Tag::nchw);
    case PostOperand::kFull:
      return memory::desc(dst, f32, Tag::nhwc);
    default:
      return memory::desc({1, 1, 1, 1}, f32, Tag::nchw);
  }
}

bool AppendPostOp(const ConvPostOp& op, const dnnl::memory::dims& dst, dnnl::post_ops* po) {
  using A = dnnl::algorithm;
  auto eltwise = [&](A algo, float alpha = 0.f, float beta = 0.f) {
    po->append_eltwise(1.f, algo, alpha, beta);
    return true;
  };
  auto binary = [&](A algo) {
    po->append_binary(algo, PostOperandDesc(op.shape, dst));
    return true;
  };
  switch (op.op) {
    case ElementwiseOp::kAdd:
      return binary(A::binary_add);
    case ElementwiseOp::kSub:
      return binary(A::binary_sub);
    case ElementwiseOp::kMul:
      return binary(A::binary_mul);
    case ElementwiseOp::kDiv:
      return binary(A::binary_div);
    case ElementwiseOp::kMaximum:
      return binary(A::binary_max);
    case ElementwiseOp::kMinimum:
      return binary(A::binary_min);
    case ElementwiseOp::kRelu:
      return eltwise(A::eltwise_relu);
    case ElementwiseOp::kRelu6:
      return eltwise(A::eltwise_clip, 0.f, 6.f);
    case ElementwiseOp::kNeg:
      return eltwise(A::eltwise_linear, -1.f, 0.f);
    case ElementwiseOp::kAbs:
      return eltwise(A::eltwise_abs);
    case ElementwiseOp::kSquare:
      return eltwise(A::eltwise_square);
    case ElementwiseOp::kHardSwish:
      return eltwise(A::eltwise_hardswish);
    case ElementwiseOp::kIdentity:
      return true;
    case ElementwiseOp::kCount:
      break;
  }
  return false;
}

std::vector<PostSource> PostSources(const ConvPostOps* post, bool after_activation,
                                    const dnnl::memory::dims& dst) {
  std::vector<PostSource> sources;
  int index = after_activation ? 1 : 0;
  for (int i = 0; post != nullptr && i < post->size; ++i) {
    const ConvPostOp& op = post->ops[i];
    if (op.op == ElementwiseOp::kIdentity) continue;
    if (op.shape != PostOperand::kNone)
      sources.push_back({index, i, PostOperandDesc(op.shape, dst)});
    ++index;
  }
  return sources;
}

dnnl::primitive_attr AttrOf(std::optional<FusedActivation> fused, const ConvPostOps* post,
                            const dnnl::memory::dims& dst) {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::post_ops po;
  if (fused) {
    const auto algo = *fused == FusedActivation::kRelu      ? dnnl::algorithm::eltwise_relu
                      : *fused == FusedActivation::kSigmoid ? dnnl::algorithm::eltwise_logistic
                                                            : dnnl::algorithm::eltwise_tanh;
    po.append_eltwise(1.f, algo, 0.f, 0.f);
  }
  for (int i = 0; post != nullptr && i < post->size; ++i) {
    if (!AppendPostOp(post->ops[i], dst, &po)) {
      throw dnnl::error(dnnl_unimplemented, "no post-op for this elementwise op");
    }
  }
  if (po.len() > 0) attr.set_post_ops(po);
  return attr;
}

}  // namespace rill::cpu
