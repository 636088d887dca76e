// Internal: values kept channels-last while importing. ONNX's images are NCHW and rill's
// convolutions NHWC, so every Conv would otherwise read its input through a Transpose and
// give its output back through another. A 1-D window's value [N, C, L] has the twin
// [N, 1, L, C] (NHWC with a height of 1, as rill runs 1-D windows). Instead the importer keeps,
// next to a value, its NHWC twin when a layout-aware converter made one (Conv, ConvTranspose,
// pools, batch normalization, Concat, global pools: NodeContext::set_nhwc_output), and converts
// elementwise nodes whose inputs all have one (or are constants or scalars) on the twins,
// so a chain Conv -> BatchNorm -> HardSwish -> Conv has no Transpose left. The NCHW value is
// still made (a Transpose of the twin) for consumers that need it; when none reads it,
// the plan prunes it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rill/ops/scope.h"
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {

// Permutations between ONNX's [N, C, H, W] and rill's [N, H, W, C].
inline const std::vector<int64_t> kToNhwc = {0, 2, 3, 1};
inline const std::vector<int64_t> kToNchw = {0, 3, 1, 2};

// Whether `op_type` computes each output element from the inputs' elements at the same
// (broadcast) index, so that it gives the same values on permuted inputs, permuted.
bool IsLayoutFree(const std::string& op_type);  // numpy broadcasting: opset >= 7

// The inputs of a layout-free node as channels-last values: each input's twin, a constant
// broadcast-aligned to the twins' ONNX rank (*rank: 3 or 4) and permuted, or a scalar as
// it is. nullopt when no input has a twin, the twins' values differ in rank, or an input
// has none of these forms (an unknown-rank value, a value without a twin: converting it
// would cost the Transpose this saves; a constant of higher rank than the twins' values).
std::optional<std::vector<Output>> ChannelsLastInputs(const Scope& scope,
                                                      const std::vector<Output>& inputs,
                                                      const std::vector<Output>& twins, int* rank);

// An ONNX axis of a rank-4 NCHW (or rank-3 NCL) value as the axis of its twin (-1 when out
// of range).
int64_t NhwcAxis(int64_t nchw_axis, int rank = 4);

// The ONNX value (rank 4: NCHW; rank 3: NCL) of a channels-last one, made in the node's
// scope.
Output ToNchw(const NodeContext& c, const Output& nhwc, int rank = 4);
// Output i from its channels-last value y: y is the twin, its ONNX value the output.
void SetChannelsLast(NodeContext& c, int i, const Output& y, int rank = 4);

}  // namespace rill::onnx::internal
