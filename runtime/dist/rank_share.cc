// _RankShare's CPU kernel (runtime/dist/rank_share.h).
#include "rill/runtime/dist/rank_share.h"

namespace rill::dist {
namespace {

template <typename T>
struct DivideOnHost {
  absl::Status operator()(OpKernelContext&, const Tensor& x, Tensor& y, int ranks) const {
    const T* in = x.base<T>();
    T* out = y.base<T>();
    // Divided, as a mean's reduction divides (x * (1/3) can differ from x / 3 in the last
    // bit).
    for (int64_t i = 0; i < x.NumElements(); ++i) out[i] = in[i] / static_cast<T>(ranks);
    return absl::OkStatus();
  }
};

#define RILL_REGISTER_RANK_SHARE(T, unused)                                     \
  RILL_REGISTER_KERNEL("_RankShare", DEVICE_CPU, "T", DataTypeToEnum<T>::value, \
                       RankShareKernel<DivideOnHost<T>>);
RILL_FOR_FLOAT_TYPES(RILL_REGISTER_RANK_SHARE, unused)

}  // namespace
}  // namespace rill::dist
