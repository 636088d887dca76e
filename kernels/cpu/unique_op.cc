// The kernel of Unique and UniqueWithCounts and of their V2 forms, which make the slices
// along an axis unique: one pass with a hash map of the values (or slices) seen. Their
// outputs' length is the count of distinct values, so on a GPU device they are host-memory
// kernels (as Where).
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "rill/core/kernel.h"
#include "rill/core/shape_inference.h"

namespace rill::cpu {
namespace {

// Values are keyed by their bytes, except that floats compare by value: -0.0 is 0.0 and
// every NaN is distinct (NaN != NaN), as TensorFlow's hash of values.
template <typename T>
uint64_t Key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if (v == T(0)) v = T(0);
  }
  uint64_t k = 0;
  std::memcpy(&k, &v, sizeof(T));
  return k;
}

// x as [outer, n, inner] around the axis whose slices are made unique (a vector: [1, n, 1]).
struct Slices {
  int axis = 0;
  int64_t outer = 1, n = 0, inner = 1;
};

// The slices V1 takes (x a vector) or V2's axis input asks for: a vector of at most one
// value; none means x is a vector.
absl::StatusOr<Slices> SlicesOf(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  int64_t axis = 0;
  if (ctx.num_inputs() > 1) {
    const Tensor& a = ctx.input(1);
    if (a.dims() != 1 || a.NumElements() > 1) {
      return errors::InvalidArgument("axis must be a vector of at most one value, got shape ",
                                     a.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(a, "axis"));
    if (!v.empty()) {
      if (v[0] < -x.dims() || v[0] >= x.dims()) {
        return errors::InvalidArgument("axis ", v[0], " is out of range for x of shape ",
                                       x.shape().DebugString());
      }
      axis = v[0] < 0 ? v[0] + x.dims() : v[0];
    }
  }
  if ((ctx.num_inputs() == 1 || ctx.input(1).NumElements() == 0) && x.dims() != 1) {
    return errors::InvalidArgument("x must be a vector, got shape ", x.shape().DebugString());
  }
  Slices s;
  s.axis = static_cast<int>(axis);
  s.n = x.dim_size(s.axis);
  for (int d = 0; d < x.dims(); ++d) {
    if (d < s.axis) s.outer *= x.dim_size(d);
    if (d > s.axis) s.inner *= x.dim_size(d);
  }
  return s;
}

// Slice j's key in *key; false when it holds a NaN (it matches no other slice).
template <typename T>
bool SliceKey(const T* v, const Slices& s, int64_t j, std::vector<uint64_t>* key) {
  bool nan = false;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t i = 0; i < s.inner; ++i) {
      const T e = v[(o * s.n + j) * s.inner + i];
      nan |= !(e == e);
      (*key)[static_cast<size_t>(o * s.inner + i)] = Key(e);
    }
  }
  return !nan;
}

// The place of `key` among the distinct keys: `next` when it is new (*fresh then true).
template <typename Map, typename K, typename Index>
Index Place(Map& seen, const K& key, Index next, bool* fresh) {
  auto [it, inserted] = seen.try_emplace(key, next);
  *fresh = inserted;
  return it->second;
}

// The first slice of each distinct one in order (*firsts) and each slice's place among them
// (idx); one key per element where a slice is one element.
template <typename T, typename Index>
void Distinct(const T* v, const Slices& s, Index* idx, std::vector<int64_t>* firsts) {
  absl::flat_hash_map<uint64_t, Index> one;
  absl::flat_hash_map<std::vector<uint64_t>, Index> many;
  std::vector<uint64_t> key(static_cast<size_t>(s.outer * s.inner));
  for (int64_t j = 0; j < s.n; ++j) {
    Index at = static_cast<Index>(firsts->size());
    bool fresh = true;
    if (SliceKey(v, s, j, &key)) {
      at = key.size() == 1 ? Place(one, key[0], at, &fresh) : Place(many, key, at, &fresh);
    }
    if (fresh) firsts->push_back(j);
    idx[j] = at;
  }
}

// Unique (kCounts false) and UniqueWithCounts, whose third output counts each value.
template <typename T, typename Index, bool kCounts>
absl::Status UniqueSlices(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(const Slices s, SlicesOf(ctx));
  if (s.n > std::numeric_limits<Index>::max()) {
    return errors::InvalidArgument(s.n, " slices do not fit the ",
                                   DataTypeString(ctx.output_type(1)), " indices");
  }
  Tensor* idx;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(1, TensorShape({s.n}), &idx));
  std::vector<int64_t> firsts;
  Distinct(x.base<T>(), s, idx->base<Index>(), &firsts);
  const int64_t count = static_cast<int64_t>(firsts.size());
  TensorShape shape = x.shape();
  shape.set_dim(s.axis, count);
  Tensor* y;
  RILL_RETURN_IF_ERROR(ctx.allocate_output(0, shape, &y));
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t u = 0; u < count; ++u) {
      std::copy_n(x.base<T>() + (o * s.n + firsts[u]) * s.inner, s.inner,
                  y->base<T>() + (o * count + u) * s.inner);
    }
  }
  if (kCounts) {
    Tensor* counts;
    RILL_RETURN_IF_ERROR(ctx.allocate_output(2, TensorShape({count}), &counts));
    std::fill_n(counts->base<Index>(), count, Index(0));
    for (int64_t j = 0; j < s.n; ++j) ++counts->base<Index>()[idx->base<Index>()[j]];
  }
  return absl::OkStatus();
}

template <typename T, bool kCounts>
class UniqueOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    return ctx.output_type(1) == DT_INT32 ? UniqueSlices<T, int32_t, kCounts>(ctx)
                                          : UniqueSlices<T, int64_t, kCounts>(ctx);
  }
};

#define RILL_REG_UNIQUE_OP(name, T, counts, host_outputs)                                          \
  RILL_REGISTER_KERNEL(name, DEVICE_CPU, "T", DataTypeToEnum<T>::value, UniqueOp<T, counts>);      \
  RILL_REGISTER_KERNEL_HOST_OUTPUTS(name, DEVICE_GPU, "T", DataTypeToEnum<T>::value, host_outputs, \
                                    UniqueOp<T, counts>);
#define RILL_REG_UNIQUE(T, unused)                          \
  RILL_REG_UNIQUE_OP("Unique", T, false, {0})               \
  RILL_REG_UNIQUE_OP("UniqueV2", T, false, {0})             \
  RILL_REG_UNIQUE_OP("UniqueWithCounts", T, true, ({0, 2})) \
  RILL_REG_UNIQUE_OP("UniqueWithCountsV2", T, true, ({0, 2}))
RILL_FOR_ALL_TYPES(RILL_REG_UNIQUE, 0)
#undef RILL_REG_UNIQUE
#undef RILL_REG_UNIQUE_OP

}  // namespace

}  // namespace rill::cpu
