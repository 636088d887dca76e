// ONNX's window functions (opset 17), for spectral models: Hann, Hamming and Blackman
// windows of `size` points, periodic (the default: the first `size` points of a window of
// size + 1) or symmetric, computed in float64 from a Range and cast to output_datatype.
#include <cmath>

#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

enum class Window { kHann, kHamming, kBlackman };

std::string WindowSupport(const SupportView& v) {
  const int64_t dt = v.attrs.i("output_datatype", ::onnx::TensorProto::FLOAT);
  const DataType out = FromOnnxType(static_cast<int32_t>(dt));
  if (out == DT_INVALID || out == DT_BOOL) return absl::StrCat("output_datatype ", dt);
  return "";
}

absl::Status ConvertWindow(NodeContext& c, Window w) {
  const DataType out = FromOnnxType(
      static_cast<int32_t>(c.attrs().i("output_datatype", ::onnx::TensorProto::FLOAT)));
  Output size = ScalarInput(c, 0, DT_INT64);
  Output n = c.Op("Cast",
                  {c.Op("Range", {c.Const(Tensor(int64_t{0})), size, c.Const(Tensor(int64_t{1}))})},
                  {{"DstT", DT_DOUBLE}});
  Output span = c.Op("Cast", {size}, {{"DstT", DT_DOUBLE}});
  if (c.attrs().i("periodic", 1) == 0) span = c.Op("Sub", {span, c.Const(Tensor(1.0))});
  // angle = 2 pi n / span; the window is a0 - a1 cos(angle) + a2 cos(2 angle).
  Output angle = c.Op("Div", {c.Op("Mul", {n, c.Const(Tensor(2 * M_PI))}), span});
  double a0 = 0.5, a1 = 0.5, a2 = 0;
  if (w == Window::kHamming) a0 = 25.0 / 46, a1 = 1 - a0;
  if (w == Window::kBlackman) a0 = 0.42, a1 = 0.5, a2 = 0.08;
  Output y =
      c.Op("Sub", {c.Const(Tensor(a0)), c.Op("Mul", {c.Const(Tensor(a1)), c.Op("Cos", {angle})})});
  if (a2 != 0) {
    Output twice = c.Op("Mul", {angle, c.Const(Tensor(2.0))});
    y = c.Op("Add", {y, c.Op("Mul", {c.Const(Tensor(a2)), c.Op("Cos", {twice})})});
  }
  c.set_output(0, out == DT_DOUBLE ? y : c.Op("Cast", {y}, {{"DstT", out}}));
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertWindowRegistered = [] {
  auto* r = ConverterRegistry::Global();
  for (auto [op, w] : {std::pair{"HannWindow", Window::kHann},
                       {"HammingWindow", Window::kHamming},
                       {"BlackmanWindow", Window::kBlackman}}) {
    const Window kind = w;
    r->Register({op, 17, WindowSupport, [kind](NodeContext& c) { return ConvertWindow(c, kind); }});
  }
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
