// The end of a fused layer on the CPU, shared by _BiasActivation, _FusedMatMul and the
// non-oneDNN path of _FusedConv2D: out = act(in + bias) over [rows, channels], row-major;
// `out` may be `in` (the fused ops finish their product in place). The same arithmetic as
// BiasAdd then Relu/Sigmoid/Tanh, so fused and unfused graphs train alike.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "Eigen/Core"
#include "rill/core/activation.h"
#include "rill/core/fused_epilogue.h"
#include "rill/core/point_activation.h"

namespace rill::cpu {

template <typename T>
void BiasActivationRows(FusedActivation act, const T* in, const T* bias, T* out, int64_t rows,
                        int64_t channels) {
  using RowMajor = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const RowMajor> x(in, rows, channels);
  Eigen::Map<RowMajor> o(out, rows, channels);
  auto z = x.rowwise() + Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>(bias, channels);
  switch (act) {
    case FusedActivation::kRelu:
      o = z.max(T(0));
      break;
    case FusedActivation::kSigmoid:
      o = (T(1) + (-z).exp()).inverse();
      break;
    case FusedActivation::kTanh:
      o = z.tanh();
      break;
  }
}

// The end of a _FusedMatMul or _FusedConv2D over its product `out` [rows, channels], in
// place, by the same functions as the unfused ops: a batch norm's (x - mean) * scale /
// sqrt(variance + epsilon) + offset, or the bias, then Relu/Sigmoid/Tanh as above or
// Relu6/Elu/LeakyRelu's point functions. `args` are the node's: the bias, or scale, offset,
// mean and variance, each [channels]. Only a batch norm allocates (its factors).
template <typename T>
void FusedEpilogueRows(const FusedEpilogue& e, T* out, const std::array<const T*, 4>& args,
                       int64_t rows, int64_t channels) {
  using RowMajor = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Row = Eigen::Array<T, 1, Eigen::Dynamic>;
  Eigen::Map<RowMajor> o(out, rows, channels);
  const T* bias = args[0];
  if (e.batch_norm) {
    Eigen::Map<const Row> scale(args[0], channels), mean(args[2], channels),
        variance(args[3], channels);
    const Row factor = scale * (variance + T(e.epsilon)).rsqrt();
    o = (o.rowwise() - mean).rowwise() * factor;
    bias = args[1];  // the offset
  }
  if (const std::optional<FusedActivation> a = e.bias_activation()) {
    BiasActivationRows<T>(*a, out, bias, out, rows, channels);
    return;
  }
  o.rowwise() += Eigen::Map<const Row>(bias, channels);
  const std::optional<PointActivation> p = e.point_activation();
  if (!p) return;
  const T alpha = static_cast<T>(e.leakyrelu_alpha);
  auto apply = [&](auto kind) {
    for (int64_t i = 0; i < rows * channels; ++i) {
      out[i] = ApplyPointActivation<decltype(kind)::value, T>(out[i], alpha);
    }
  };
  switch (*p) {
    case PointActivation::kRelu6:
      return apply(std::integral_constant<PointActivation, PointActivation::kRelu6>());
    case PointActivation::kElu:
      return apply(std::integral_constant<PointActivation, PointActivation::kElu>());
    default:
      return apply(std::integral_constant<PointActivation, PointActivation::kLeakyRelu>());
  }
}

}  // namespace rill::cpu
