// GridSample: ONNX's and PyTorch's grid_sample (TensorFlow has no such op), rill's own
// name. X [N, C, H, W] sampled at grid [N, H_out, W_out, 2] (normalized (x, y) in
// [-1, 1] per output pixel) gives [N, C, H_out, W_out]; core/grid_sample.h has the rules.
// Attrs: mode "bilinear" (default), "nearest" or "bicubic"; padding_mode "zeros"
// (default), "border" or "reflection"; align_corners. Float and double, CPU; not
// differentiable in rill.
#pragma once

#include <string>

#include "rill/ops/op_builder.h"

namespace rill::ops {

class GridSample : public OpWrapper {
 public:
  struct Attrs {
    Attrs Mode(const std::string& x) const {
      Attrs r = *this;
      r.mode_ = x;
      return r;
    }
    Attrs PaddingMode(const std::string& x) const {
      Attrs r = *this;
      r.padding_mode_ = x;
      return r;
    }
    Attrs AlignCorners(bool x) const {
      Attrs r = *this;
      r.align_corners_ = x;
      return r;
    }
    std::string mode_ = "bilinear";
    std::string padding_mode_ = "zeros";
    bool align_corners_ = false;
  };
  GridSample(const Scope& scope, Input x, Input grid) : GridSample(scope, x, grid, Attrs()) {}
  GridSample(const Scope& scope, Input x, Input grid, const Attrs& attrs);
  static Attrs Mode(const std::string& x) { return Attrs().Mode(x); }
  static Attrs PaddingMode(const std::string& x) { return Attrs().PaddingMode(x); }
  static Attrs AlignCorners(bool x) { return Attrs().AlignCorners(x); }
};

}  // namespace rill::ops
