// The end of a fused layer on the CPU, shared by _BiasActivation, _FusedMatMul and the
// non-oneDNN path of _FusedConv2D: out = act(in + bias) over [rows, channels], row-major;
// `out` may be `in` (the fused ops finish their product in place). The same arithmetic as
// BiasAdd then Relu/Sigmoid/Tanh, so fused and unfused graphs train alike.
#pragma once

#include <cstdint>

#include "Eigen/Core"
#include "rill/core/activation.h"

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

}  // namespace rill::cpu
