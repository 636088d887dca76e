// CPU kernels of the comparisons and the logical ops, with NumPy broadcasting.
#include "rill/kernels/cpu/cwise_kernels.h"

namespace rill::cpu {
namespace {
using namespace cwise;  // NOLINT(build/namespaces): the functors and kernel templates

RILL_FOR_ALL_TYPES(RILL_REG_COMPARE, "Equal", EqualF)
RILL_FOR_NUMBER_TYPES(RILL_REG_COMPARE, "Less", LessF)
RILL_FOR_NUMBER_TYPES(RILL_REG_COMPARE, "Greater", GreaterF)
RILL_FOR_ALL_TYPES(RILL_REG_COMPARE, "NotEqual", NotEqualF)
RILL_FOR_NUMBER_TYPES(RILL_REG_COMPARE, "LessEqual", LessEqualF)
RILL_FOR_NUMBER_TYPES(RILL_REG_COMPARE, "GreaterEqual", GreaterEqualF)
RILL_REGISTER_KERNEL("LogicalAnd", DEVICE_CPU, "", DT_INVALID, BinaryOp<bool, bool, LogicalAndF>);
RILL_REGISTER_KERNEL("LogicalOr", DEVICE_CPU, "", DT_INVALID, BinaryOp<bool, bool, LogicalOrF>);
RILL_REGISTER_KERNEL("LogicalNot", DEVICE_CPU, "", DT_INVALID, UnaryOp<bool, LogicalNotF>);

RILL_REG_HOST(int32_t, "Equal", bool, EqualF)
RILL_REG_HOST(int32_t, "Less", bool, LessF)
RILL_REG_HOST(int32_t, "Greater", bool, GreaterF)
RILL_REG_HOST(int32_t, "NotEqual", bool, NotEqualF)
RILL_REG_HOST(int32_t, "LessEqual", bool, LessEqualF)
RILL_REG_HOST(int32_t, "GreaterEqual", bool, GreaterEqualF)

}  // namespace
}  // namespace rill::cpu
