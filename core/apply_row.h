// The adaptive optimizer updates (TensorFlow's ApplyAdagrad, ApplyAdagradV2, ApplyRMSProp,
// ApplyCenteredRMSProp, ApplyAdadelta, ApplyAdaMax), one element at a time: one formula for
// the CPU and GPU kernels (plain header: nvcc takes it).
//
// Every such op takes its ref inputs first (the variable, then its slots), then its scalars,
// then the gradient, so an op's layout is its number of refs and of scalars.
#pragma once

#include <cmath>
#include <cstdint>

#include "rill/core/host_device.h"

namespace rill {

enum class ApplyRule : int {
  kAdagrad,          // var, accum | lr | grad
  kAdagradV2,        // var, accum | lr, epsilon | grad
  kRMSProp,          // var, ms, mom | lr, rho, momentum, epsilon | grad
  kCenteredRMSProp,  // var, mg, ms, mom | lr, rho, momentum, epsilon | grad
  kAdadelta,         // var, accum, accum_update | lr, rho, epsilon | grad
  kAdaMax,           // var, m, v | beta1_power, lr, beta1, beta2, epsilon | grad
};

struct ApplyLayout {
  int refs;     // inputs 0 .. refs-1: the variable and its slots
  int scalars;  // the next inputs; the gradient comes last
};

RILL_HOST_DEVICE constexpr ApplyLayout LayoutOf(ApplyRule r) {
  switch (r) {
    case ApplyRule::kAdagrad:
      return {2, 1};
    case ApplyRule::kAdagradV2:
      return {2, 2};
    case ApplyRule::kRMSProp:
      return {3, 4};
    case ApplyRule::kCenteredRMSProp:
      return {4, 4};
    case ApplyRule::kAdadelta:
      return {3, 3};
    case ApplyRule::kAdaMax:
      return {3, 5};
  }
  return {0, 0};
}

constexpr int kMaxApplySlots = 3;    // besides the variable
constexpr int kMaxApplyScalars = 5;  // AdaMax's

// Updates element i: `var` and `slot[k]` point at the element, `a` holds the scalars in the
// op's order, `update_slots` is Adagrad's attr (accumulate the squared gradient or not).
template <ApplyRule R, typename T>
RILL_HOST_DEVICE inline void ApplyElement(const T* a, bool update_slots, T g, T* var,
                                          T* const* slot) {
  using std::sqrt;
  if constexpr (R == ApplyRule::kAdagrad || R == ApplyRule::kAdagradV2) {
    T& accum = *slot[0];
    if (update_slots) accum += g * g;
    if constexpr (R == ApplyRule::kAdagrad) {
      *var -= a[0] * g / sqrt(accum);
    } else {
      *var -= a[0] * g / (sqrt(accum) + a[1]);
    }
  } else if constexpr (R == ApplyRule::kRMSProp) {
    T &ms = *slot[0], &mom = *slot[1];
    ms += (g * g - ms) * (T(1) - a[1]);
    mom = mom * a[2] + a[0] * g / sqrt(ms + a[3]);
    *var -= mom;
  } else if constexpr (R == ApplyRule::kCenteredRMSProp) {
    T &mg = *slot[0], &ms = *slot[1], &mom = *slot[2];
    ms += (g * g - ms) * (T(1) - a[1]);
    mg += (g - mg) * (T(1) - a[1]);
    mom = mom * a[2] + a[0] * g / sqrt(ms - mg * mg + a[3]);
    *var -= mom;
  } else if constexpr (R == ApplyRule::kAdadelta) {
    T &accum = *slot[0], &accum_update = *slot[1];
    accum = accum * a[1] + g * g * (T(1) - a[1]);
    const T update = sqrt(accum_update + a[2]) / sqrt(accum + a[2]) * g;
    *var -= update * a[0];
    accum_update = accum_update * a[1] + update * update * (T(1) - a[1]);
  } else {  // AdaMax: a = beta1_power, lr, beta1, beta2, epsilon
    T &m = *slot[0], &v = *slot[1];
    m += (g - m) * (T(1) - a[2]);
    const T decayed = a[3] * v, size = g < T(0) ? -g : g;
    v = decayed > size ? decayed : size;
    *var -= a[1] / (T(1) - a[0]) * (m / (v + a[4]));
  }
}

}  // namespace rill
