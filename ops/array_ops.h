// Array ops: constants, placeholders, identity and the shape-changing ops.
#pragma once

#include <initializer_list>

#include "rill/ops/op_builder.h"
// TensorFlow's array_ops.h declares these too: Gather, GatherV2, Tile, Stack, Unstack, Split,
// SplitV, StridedSlice, Where, Unique.
#include "rill/ops/gather_ops.h"
#include "rill/ops/piece_ops.h"
#include "rill/ops/select_ops.h"
#include "rill/ops/strided_slice_ops.h"
#include "rill/ops/unique_ops.h"

namespace rill::ops {

// A constant, in TensorFlow's forms:
//   Const(scope, 42.f)                      a scalar (a Tensor, or nested lists {{1, 2}})
//   Const(scope, {})                        float, shape [0]
//   Const(scope, 42.0, {2, 2})              one value in every element of a shape
//   Const(scope, {1, 2, 3, 4}, {2, 2})      values laid out in a shape (or a std::vector)
//   Const<float>(scope, {1, 2})             values converted to T, as Cast converts them
Output Const(const Scope& scope, const Input::Initializer& val);
template <typename T>
Output Const(const Scope& scope, const T& v, const TensorShape& shape) {
  return Const(scope, Input::Initializer(v, shape));
}
template <typename T>
Output Const(const Scope& scope, const std::initializer_list<T>& v, const TensorShape& shape) {
  return Const(scope, Input::Initializer(v, shape));
}
// The initializer's values converted to `dtype` (TensorFlow builds a Cast node for this;
// rill converts while building, with Cast's rules: float to integer saturates, NaN is 0).
Input::Initializer ConvertInitializer(const Input::Initializer& val, DataType dtype);
template <typename T>
Output Const(const Scope& scope, const Input::Initializer& val) {
  using C = typename Input::Initializer::Canonical<T>::type;
  return Const(scope, ConvertInitializer(val, DataTypeToEnum<C>::value));
}

class Placeholder : public OpWrapper {
 public:
  struct Attrs {
    Attrs Shape(const PartialTensorShape& x) {
      Attrs r = *this;
      r.shape_ = x;
      return r;
    }
    PartialTensorShape shape_;  // unknown rank by default
  };
  Placeholder(const Scope& scope, DataType dtype) : Placeholder(scope, dtype, Attrs()) {}
  Placeholder(const Scope& scope, DataType dtype, const Attrs& attrs);
  static Attrs Shape(const PartialTensorShape& x) { return Attrs().Shape(x); }
};

class Identity : public OpWrapper {
 public:
  Identity(const Scope& scope, Input input);
};
// TensorFlow's IdentityN: each input as the output in its place, of any dtypes, in one
// node (so that one control edge, or a gradient override, covers them all): `output[i]`.
class IdentityN : public MultiOutputWrapper {
 public:
  IdentityN(const Scope& scope, InputList input);
};
// tf.bitcast: input's bytes read as `type` (rill's number dtypes: float, double, int32,
// int64, uint8). The same size keeps the shape; a smaller `type` adds a last dim of the
// size ratio; a larger one needs the last dim to be that ratio and drops it
// (core/bitcast.h). The bytes are copied; CPU only; not differentiable.
class Bitcast : public OpWrapper {
 public:
  Bitcast(const Scope& scope, Input input, DataType type);
};
// input's values in a buffer of their own: a later in-place update of what input read (a
// variable's AssignAdd) does not show through it.
class Snapshot : public OpWrapper {
 public:
  Snapshot(const Scope& scope, Input input);
};
// `input` as it is, promised constant for the life of the Session (tf.guarantee_const):
// stateful, so no pass removes it, and not differentiable (a constant has no gradient).
class GuaranteeConst : public OpWrapper {
 public:
  GuaranteeConst(const Scope& scope, Input input);
};

// TensorFlow's EnsureShape (tf.ensure_shape): `input`, whose shape must fit `shape` (-1:
// any size). The output's static shape is the two merged, so graph building knows dims a
// computed reshape hid; a value of another shape is InvalidArgument when it runs.
class EnsureShape : public OpWrapper {
 public:
  EnsureShape(const Scope& scope, Input input, const PartialTensorShape& shape);
};

// Does nothing; useful as a target that groups control dependencies.
class NoOp {
 public:
  explicit NoOp(const Scope& scope);
  operator Operation() const { return operation; }  // NOLINT
  Operation operation;
};

class Reshape : public OpWrapper {
 public:
  Reshape(const Scope& scope, Input tensor, Input shape);
};

class Transpose : public OpWrapper {
 public:
  Transpose(const Scope& scope, Input x, Input perm);
};

class Concat : public OpWrapper {
 public:
  Concat(const Scope& scope, InputList values, Input axis);
};

class Slice : public OpWrapper {
 public:
  Slice(const Scope& scope, Input input, Input begin, Input size);
};

class ExpandDims : public OpWrapper {
 public:
  ExpandDims(const Scope& scope, Input input, Input axis);
};

class Squeeze : public OpWrapper {
 public:
  struct Attrs {
    Attrs Axis(const std::vector<int64_t>& x) {
      Attrs r = *this;
      r.axis_ = x;
      return r;
    }
    std::vector<int64_t> axis_;  // empty: every size-1 dim
  };
  Squeeze(const Scope& scope, Input input) : Squeeze(scope, input, Attrs()) {}
  Squeeze(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs Axis(const std::vector<int64_t>& x) { return Attrs().Axis(x); }
};

class Shape : public OpWrapper {
 public:
  struct Attrs {
    Attrs OutType(DataType x) {
      Attrs r = *this;
      r.out_type_ = x;
      return r;
    }
    DataType out_type_ = DT_INT32;
  };
  Shape(const Scope& scope, Input input) : Shape(scope, input, Attrs()) {}
  Shape(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs OutType(DataType x) { return Attrs().OutType(x); }
};

class Fill : public OpWrapper {
 public:
  Fill(const Scope& scope, Input dims, Input value);
};

class ZerosLike : public OpWrapper {
 public:
  ZerosLike(const Scope& scope, Input x);
};

class OnesLike : public OpWrapper {
 public:
  OnesLike(const Scope& scope, Input x);
};

class OneHot : public OpWrapper {
 public:
  struct Attrs {
    Attrs Axis(int64_t x) {
      Attrs r = *this;
      r.axis_ = x;
      return r;
    }
    int64_t axis_ = -1;
  };
  OneHot(const Scope& scope, Input indices, Input depth, Input on_value, Input off_value)
      : OneHot(scope, indices, depth, on_value, off_value, Attrs()) {}
  OneHot(const Scope& scope, Input indices, Input depth, Input on_value, Input off_value,
         const Attrs& attrs);
  static Attrs Axis(int64_t x) { return Attrs().Axis(x); }
};

struct CastAttrs {
  CastAttrs Truncate(bool x) const {
    CastAttrs r = *this;
    r.truncate_ = x;
    return r;
  }
  bool truncate_ = false;
};
class Cast : public OpWrapper {
 public:
  using Attrs = CastAttrs;
  Cast(const Scope& scope, Input x, DataType DstT, const Attrs& attrs = Attrs());
  // Truncate(true): double to float goes toward zero instead of to the nearest float.
  static Attrs Truncate(bool x) { return Attrs().Truncate(x); }
};

// The number of elements, as a scalar of out_type.
class Size : public OpWrapper {
 public:
  struct Attrs {
    Attrs OutType(DataType x) {
      Attrs r = *this;
      r.out_type_ = x;
      return r;
    }
    DataType out_type_ = DT_INT32;
  };
  Size(const Scope& scope, Input input) : Size(scope, input, Attrs()) {}
  Size(const Scope& scope, Input input, const Attrs& attrs);
  static Attrs OutType(DataType x) { return Attrs().OutType(x); }
};

// The number of dims, an int32 scalar.
class Rank : public OpWrapper {
 public:
  Rank(const Scope& scope, Input input);
};

// The shape (a vector of s0's and s1's dtype) that shapes s0 and s1 broadcast to.
class BroadcastArgs : public OpWrapper {
 public:
  BroadcastArgs(const Scope& scope, Input s0, Input s1);
};

// `input` broadcast (NumPy rules) to `shape`.
class BroadcastTo : public OpWrapper {
 public:
  BroadcastTo(const Scope& scope, Input input, Input shape);
};

// Zero padding: paddings is [rank, 2], (before, after) per dim, each >= 0.
class Pad : public OpWrapper {
 public:
  Pad(const Scope& scope, Input input, Input paddings);
};
// tf.pad's PadV2: the padding filled with the scalar constant_values (of the input's dtype).
class PadV2 : public OpWrapper {
 public:
  PadV2(const Scope& scope, Input input, Input paddings, Input constant_values);
};

// tf.unravel_index: flat indices (a scalar or a vector, int32 or int64) into coordinates of
// a row-major array of shape dims: [ndims] or [ndims, n]. An index outside
// [0, prod(dims)) is InvalidArgument. Not differentiable.
class UnravelIndex : public OpWrapper {
 public:
  UnravelIndex(const Scope& scope, Input indices, Input dims);
};

// tf.compat.v1.setdiff1d (op ListDiff): `out` the values of the vector x not in the vector
// y, in x's order with repeats kept; `idx` their positions in x (OutIdx int32 or int64).
// Not differentiable.
struct SetDiff1DAttrs {
  SetDiff1DAttrs OutIdx(DataType x) const {
    SetDiff1DAttrs r = *this;
    r.out_idx_ = x;
    return r;
  }
  DataType out_idx_ = DT_INT32;
};
class SetDiff1D {
 public:
  using Attrs = SetDiff1DAttrs;
  SetDiff1D(const Scope& scope, Input x, Input y, const Attrs& attrs = Attrs());
  static Attrs OutIdx(DataType x) { return Attrs().OutIdx(x); }
  Operation operation;
  Output out, idx;
};

}  // namespace rill::ops
