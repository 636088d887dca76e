// oneDNN's post-ops for a convolution's elementwise epilogue (ConvPostOps in dnnl_conv.h):
// one per step, binary ones reading their operand at execution.
#pragma once

#include "oneapi/dnnl/dnnl.hpp"
#include "rill/kernels/cpu/dnnl_conv.h"

namespace rill::cpu {

// The src1 of a binary post-op over an output of `dst` dims {n, oc, oh, ow}.
dnnl::memory::desc PostOperandDesc(PostOperand shape, const dnnl::memory::dims& dst);
// Appends the post-op of one epilogue step; false for an op oneDNN has none for.
bool AppendPostOp(const ConvPostOp& op, const dnnl::memory::dims& dst, dnnl::post_ops* po);

}  // namespace rill::cpu
