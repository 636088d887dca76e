// Bitwise ops: schemas, shape functions and wrappers (kernels: kernels/cpu/bitwise_ops.cc).
#include "rill/ops/bitwise_ops.h"

#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"

namespace rill {

namespace {
// TensorFlow's: every integer type.
const std::vector<DataType> kBitwiseTypes = {DT_INT8,  DT_INT16,  DT_INT32,  DT_INT64,
                                             DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};
}  // namespace

#define RILL_REGISTER_BITWISE_BINARY(Name) \
  RILL_REGISTER_OP(Name)                   \
      .Input("x", "T")                     \
      .Input("y", "T")                     \
      .Output("z", "T")                    \
      .TypeAttr("T", kBitwiseTypes)        \
      .SetShapeFn(shape_fns::BroadcastBinary)
RILL_REGISTER_BITWISE_BINARY("BitwiseAnd");
RILL_REGISTER_BITWISE_BINARY("BitwiseOr");
RILL_REGISTER_BITWISE_BINARY("BitwiseXor");
RILL_REGISTER_BITWISE_BINARY("LeftShift");
RILL_REGISTER_BITWISE_BINARY("RightShift");
#undef RILL_REGISTER_BITWISE_BINARY

RILL_REGISTER_OP("Invert")
    .Input("x", "T")
    .Output("y", "T")
    .TypeAttr("T", kBitwiseTypes)
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_OP("PopulationCount")
    .Input("x", "T")
    .Output("y", DT_UINT8)
    .TypeAttr("T", kBitwiseTypes)
    .SetShapeFn(shape_fns::Unchanged);

RILL_REGISTER_NO_GRADIENT("BitwiseAnd");
RILL_REGISTER_NO_GRADIENT("BitwiseOr");
RILL_REGISTER_NO_GRADIENT("BitwiseXor");
RILL_REGISTER_NO_GRADIENT("LeftShift");
RILL_REGISTER_NO_GRADIENT("RightShift");
RILL_REGISTER_NO_GRADIENT("Invert");
RILL_REGISTER_NO_GRADIENT("PopulationCount");

namespace ops {
RILL_DEFINE_BINARY_OP(BitwiseAnd)
RILL_DEFINE_BINARY_OP(BitwiseOr)
RILL_DEFINE_BINARY_OP(BitwiseXor)
RILL_DEFINE_BINARY_OP(LeftShift)
RILL_DEFINE_BINARY_OP(RightShift)
RILL_DEFINE_UNARY_OP(Invert)
RILL_DEFINE_UNARY_OP(PopulationCount)
}  // namespace ops

}  // namespace rill
