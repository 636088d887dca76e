// Ops that assemble a tensor from pieces or cut it into pieces, with TensorFlow's C++
// names: Tile, Stack (op Pack), Unstack (op Unpack), Split and SplitV.
#pragma once

#include "rill/ops/op_builder.h"

namespace rill::ops {

// `input` repeated multiples[d] times along each dim d.
class Tile : public OpWrapper {
 public:
  Tile(const Scope& scope, Input input, Input multiples);
};

// `tensor` with its elements in reverse order along each dim in `axis` (a vector of
// int32 or int64, each in [-rank, rank), none twice): TensorFlow's ops::Reverse, which
// builds a ReverseV2 node.
class Reverse : public OpWrapper {
 public:
  Reverse(const Scope& scope, Input tensor, Input axis);
};

// The N `values` (one shape) stacked along a new dim at `axis` (default 0; negative counts
// from the end of the output's dims).
class Stack : public OpWrapper {
 public:
  struct Attrs {
    Attrs Axis(int64_t x) {
      Attrs r = *this;
      r.axis_ = x;
      return r;
    }
    int64_t axis_ = 0;
  };
  Stack(const Scope& scope, InputList values) : Stack(scope, values, Attrs()) {}
  Stack(const Scope& scope, InputList values, const Attrs& attrs);
  static Attrs Axis(int64_t x) { return Attrs().Axis(x); }
};

// Wrappers whose outputs are a list, as TensorFlow's: `output[i]`.
class MultiOutputWrapper {
 public:
  Output operator[](size_t i) const { return output[i]; }
  size_t size() const { return output.size(); }
  Operation operation;
  OutputList output;

 protected:
  void Fill(Operation op);
};

// `value` cut along `axis` into its `num` slices (each without that dim).
class Unstack : public MultiOutputWrapper {
 public:
  struct Attrs {
    Attrs Axis(int64_t x) {
      Attrs r = *this;
      r.axis_ = x;
      return r;
    }
    int64_t axis_ = 0;
  };
  Unstack(const Scope& scope, Input value, int64_t num) : Unstack(scope, value, num, Attrs()) {}
  Unstack(const Scope& scope, Input value, int64_t num, const Attrs& attrs);
  static Attrs Axis(int64_t x) { return Attrs().Axis(x); }
};

// `value` cut along `axis` (an int32 scalar) into `num_split` equal pieces.
class Split : public MultiOutputWrapper {
 public:
  Split(const Scope& scope, Input axis, Input value, int64_t num_split);
};

// `value` cut along `axis` into pieces of `size_splits` (one entry may be -1: the rest).
class SplitV : public MultiOutputWrapper {
 public:
  SplitV(const Scope& scope, Input value, Input size_splits, Input axis, int64_t num_split);
};

// TensorFlow's op names for the same wrappers.
using Pack = Stack;
using Unpack = Unstack;

}  // namespace rill::ops
