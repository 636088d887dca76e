// CPU kernels of the binary arithmetic ops, with NumPy broadcasting.
#include "rill/kernels/cpu/cwise_kernels.h"

namespace rill::cpu {
namespace {
using namespace cwise;  // NOLINT(build/namespaces): the functors and kernel templates

RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Add", AddF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "AddV2", AddF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Sub", SubF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Mul", MulF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Div", DivF)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "RealDiv", DivF)
RILL_FOR_SIGNED_TYPES(RILL_REG_BINARY, "SquaredDifference", SquaredDifferenceF)
RILL_FOR_SIGNED_TYPES(RILL_REG_BINARY, "Pow", PowF)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "Polygamma", PolygammaF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "FloorDiv", FloorDivF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "FloorMod", FloorModF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "TruncateDiv", TruncateDivF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "TruncateMod", TruncateModF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Mod", TruncateModF)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "Atan2", Atan2F)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "DivNoNan", SafeBinaryF<SafeBinary::kDivNoNan>)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "MulNoNan", SafeBinaryF<SafeBinary::kMulNoNan>)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "Xlogy", SafeBinaryF<SafeBinary::kXlogy>)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "Xlog1py", SafeBinaryF<SafeBinary::kXlog1py>)
RILL_FOR_FLOAT_TYPES(RILL_REG_BINARY, "Xdivy", SafeBinaryF<SafeBinary::kXdivy>)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Maximum", MaxF)
RILL_FOR_NUMBER_TYPES(RILL_REG_BINARY, "Minimum", MinF)

RILL_REG_HOST(int32_t, "Add", int32_t, AddF)
RILL_REG_HOST(int32_t, "AddV2", int32_t, AddF)
RILL_REG_HOST(int32_t, "Sub", int32_t, SubF)
RILL_REG_HOST(int32_t, "SquaredDifference", int32_t, SquaredDifferenceF)
RILL_REG_HOST(int32_t, "Mul", int32_t, MulF)
RILL_REG_HOST(int32_t, "Div", int32_t, DivF)
RILL_REG_HOST(int32_t, "Pow", int32_t, PowF)
RILL_REG_HOST(int32_t, "Maximum", int32_t, MaxF)
RILL_REG_HOST(int32_t, "Minimum", int32_t, MinF)
RILL_REG_HOST(int64_t, "Div", int64_t, DivF)
RILL_REG_HOST(uint8_t, "Div", uint8_t, DivF)
RILL_REG_HOST(int64_t, "Pow", int64_t, PowF)
// Integer FloorDiv, FloorMod, TruncateDiv, TruncateMod and Mod on a GPU machine compute on
// the host, where divisors are checked (as integer Div's).
RILL_REG_HOST(int32_t, "FloorDiv", int32_t, FloorDivF)
RILL_REG_HOST(int64_t, "FloorDiv", int64_t, FloorDivF)
RILL_REG_HOST(uint8_t, "FloorDiv", uint8_t, FloorDivF)
RILL_REG_HOST(int32_t, "FloorMod", int32_t, FloorModF)
RILL_REG_HOST(int64_t, "FloorMod", int64_t, FloorModF)
RILL_REG_HOST(uint8_t, "FloorMod", uint8_t, FloorModF)
#define RILL_REG_HOST_TRUNCATE(T, unused)          \
  RILL_REG_HOST(T, "TruncateDiv", T, TruncateDivF) \
  RILL_REG_HOST(T, "TruncateMod", T, TruncateModF) \
  RILL_REG_HOST(T, "Mod", T, TruncateModF)
RILL_REG_HOST_TRUNCATE(int32_t, _)
RILL_REG_HOST_TRUNCATE(int64_t, _)
RILL_REG_HOST_TRUNCATE(uint8_t, _)
#undef RILL_REG_HOST_TRUNCATE

}  // namespace
}  // namespace rill::cpu
