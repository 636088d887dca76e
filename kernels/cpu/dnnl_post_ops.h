// oneDNN's post-ops for a convolution's elementwise epilogue (ConvPostOps in dnnl_conv.h):
// one per step, binary ones reading their operand at execution.
#pragma once

#include <optional>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "rill/kernels/cpu/dnnl_conv.h"

namespace rill::cpu {

// The src1 of a binary post-op over an output of `dst` dims {n, oc, oh, ow}.
dnnl::memory::desc PostOperandDesc(PostOperand shape, const dnnl::memory::dims& dst);
// Appends the post-op of one epilogue step; false for an op oneDNN has none for.
bool AppendPostOp(const ConvPostOp& op, const dnnl::memory::dims& dst, dnnl::post_ops* po);

// A convolution's attributes (a user scratchpad): a fused activation, then `post`'s
// post-ops. Throws dnnl::error (as primitive creation does) for an epilogue oneDNN cannot
// apply.
dnnl::primitive_attr AttrOf(std::optional<FusedActivation> fused, const ConvPostOps* post,
                            const dnnl::memory::dims& dst);

// A binary post-op of an epilogue: its index among the post-ops, the epilogue step it came
// from, and its operand's desc.
struct PostSource {
  int index, step;
  dnnl::memory::desc md;
};
// The binary post-ops of `post`, numbered as AttrOf appends them (after a fused activation).
std::vector<PostSource> PostSources(const ConvPostOps* post, bool after_activation,
                                    const dnnl::memory::dims& dst);

}  // namespace rill::cpu
