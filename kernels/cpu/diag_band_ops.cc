// CPU kernels of TensorFlow's band diagonal ops: MatrixDiagV2/V3 (diagonal, k, num_rows,
// num_cols, padding_value), MatrixDiagPartV2/V3 (input, k, padding_value) and
// MatrixSetDiagV2/V3 (input, diagonal, k), every dtype. The band's checks and geometry are
// core/diag_band.h's, shared with the shape functions; values are moved as elements of
// their size, not interpreted.
#include <cstring>

#include "rill/core/diag_band.h"
#include "rill/core/piece_copy.h"
#include "rill/core/shape_inference.h"

namespace rill::cpu {
namespace {

// Input i, a scalar int32 (num_rows, num_cols).
absl::StatusOr<int64_t> ScalarInt(OpKernelContext& ctx, int i, const char* what) {
  const Tensor& t = ctx.input(i);
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, got shape ", t.shape().DebugString());
  }
  return static_cast<int64_t>(t.base<int32_t>()[0]);
}

// k (input i): a scalar or a vector of one or two int32 values.
absl::StatusOr<std::pair<int64_t, int64_t>> BandIndices(OpKernelContext& ctx, int i) {
  const Tensor& k = ctx.input(i);
  if (k.dims() > 1) {
    return errors::InvalidArgument("k must be a scalar or a vector, got shape ",
                                   k.shape().DebugString());
  }
  RILL_ASSIGN_OR_RETURN(auto v, shape_fns::IntValues(k, "k"));
  return DiagIndices(v);
}

// The kernels' base: the align attr, read once (V2 has none: LEFT_LEFT).
class BandKernel : public OpKernel {
 public:
  explicit BandKernel(OpKernelConstruction& c) : OpKernel(c) {
    auto align = c.node().attrs().find("align");
    if (align != c.node().attrs().end()) {
      align_status_ = ParseDiagAlign(std::get<std::string>(align->second), &align_);
    }
  }

 protected:
  absl::StatusOr<DiagBand> WithAlign(DiagBand band) const {
    RILL_RETURN_IF_ERROR(align_status_);
    band.left_super = align_.left_super;
    band.left_sub = align_.left_sub;
    return band;
  }
  // The band of input 0's matrices, k from input `k_input`.
  absl::StatusOr<DiagBand> MatrixBand(OpKernelContext& ctx, int k_input) const {
    const Tensor& in = ctx.input(0);
    if (in.dims() < 2) {
      return errors::InvalidArgument("input must have rank >= 2, got shape ",
                                     in.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(auto k, BandIndices(ctx, k_input));
    RILL_ASSIGN_OR_RETURN(DiagBand g, BandOfMatrix(in.dim_size(in.dims() - 2),
                                                   in.dim_size(in.dims() - 1), k.first, k.second));
    return WithAlign(g);
  }

 private:
  DiagBand align_;
  absl::Status align_status_;
};

absl::Status CheckPadding(const Tensor& pad) {
  if (pad.dims() != 0) {
    return errors::InvalidArgument("padding_value must be a scalar, got shape ",
                                   pad.shape().DebugString());
  }
  return absl::OkStatus();
}

// Element moves of `size` bytes; E is a POD of that size.
template <size_t kSize>
struct Elem {
  unsigned char bytes[kSize];
};

// Calls f.template operator()<E>() with E the element type of `size` bytes.
template <typename F>
absl::Status BySize(int size, F&& f) {
  switch (size) {
    case 1:
      return f(Elem<1>{});
    case 2:
      return f(Elem<2>{});
    case 4:
      return f(Elem<4>{});
    case 8:
      return f(Elem<8>{});
    default:
      return errors::Unimplemented("no band kernel for elements of ", size, " bytes");
  }
}

// The packed band of every matrix: out[b, m, n] from in[b, row, col], padding elsewhere.
template <typename E>
void Pack(const E* in, const E& pad, int64_t batch, const DiagBand& g, E* out) {
  const int64_t nd = g.num_diags(), per = g.rows * g.cols;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t m = 0; m < nd; ++m) {
      const int64_t d = g.upper - m, len = g.Length(d), off = g.Offset(d);
      E* row = out + (b * nd + m) * g.max_len;
      for (int64_t n = 0; n < g.max_len; ++n) {
        const int64_t p = n - off;
        row[n] = p >= 0 && p < len ? in[b * per + (p + std::max<int64_t>(-d, 0)) * g.cols + p +
                                        std::max<int64_t>(d, 0)]
                                   : pad;
      }
    }
  }
}

// Writes the packed band into matrices (`out` already holds the rest).
template <typename E>
void Unpack(const E* diag, int64_t batch, const DiagBand& g, E* out) {
  const int64_t nd = g.num_diags(), per = g.rows * g.cols;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t m = 0; m < nd; ++m) {
      const int64_t d = g.upper - m, len = g.Length(d), off = g.Offset(d);
      const E* row = diag + (b * nd + m) * g.max_len + off;
      for (int64_t p = 0; p < len; ++p) {
        out[b * per + (p + std::max<int64_t>(-d, 0)) * g.cols + p + std::max<int64_t>(d, 0)] =
            row[p];
      }
    }
  }
}

class MatrixDiagBandOp : public BandKernel {
 public:
  using BandKernel::BandKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& diag = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(auto k, BandIndices(ctx, 1));
    RILL_ASSIGN_OR_RETURN(int64_t rows, ScalarInt(ctx, 2, "num_rows"));
    RILL_ASSIGN_OR_RETURN(int64_t cols, ScalarInt(ctx, 3, "num_cols"));
    RILL_RETURN_IF_ERROR(CheckPadding(ctx.input(4)));
    const auto dims = diag.shape().dim_sizes();
    RILL_ASSIGN_OR_RETURN(DiagBand g, BandOfDiagonals(dims, k.first, k.second, rows, cols));
    RILL_ASSIGN_OR_RETURN(g, WithAlign(g));
    shape_util::Dims out_dims(dims.begin(), dims.end() - (g.num_diags() > 1 ? 2 : 1));
    out_dims.push_back(g.rows);
    out_dims.push_back(g.cols);
    RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, out_dims));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t batch = out->NumElements() / (g.rows * g.cols);
    return BySize(DataTypeSize(diag.dtype()), [&](auto tag) {
      using E = decltype(tag);
      const E pad = *static_cast<const E*>(ctx.input(4).data());
      E* o = static_cast<E*>(out->data());
      std::fill_n(o, out->NumElements(), pad);
      Unpack(static_cast<const E*>(diag.data()), batch, g, o);
      return absl::OkStatus();
    });
  }
};

class MatrixDiagPartBandOp : public BandKernel {
 public:
  using BandKernel::BandKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor& in = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(DiagBand g, MatrixBand(ctx, 1));
    RILL_RETURN_IF_ERROR(CheckPadding(ctx.input(2)));
    RILL_ASSIGN_OR_RETURN(Tensor * out,
                          AllocateOutput(ctx, 0, PackedDiagDims(in.shape().dim_sizes(), g)));
    if (out->NumElements() == 0) return absl::OkStatus();
    const int64_t batch = in.NumElements() / (g.rows * g.cols);
    return BySize(DataTypeSize(in.dtype()), [&](auto tag) {
      using E = decltype(tag);
      Pack(static_cast<const E*>(in.data()), *static_cast<const E*>(ctx.input(2).data()), batch, g,
           static_cast<E*>(out->data()));
      return absl::OkStatus();
    });
  }
};

class MatrixSetDiagBandOp : public BandKernel {
 public:
  using BandKernel::BandKernel;
  absl::Status Compute(OpKernelContext& ctx) override {
    const Tensor &in = ctx.input(0), &diag = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(DiagBand g, MatrixBand(ctx, 2));
    const shape_util::Dims want = PackedDiagDims(in.shape().dim_sizes(), g);
    if (diag.shape().dim_sizes() != absl::Span<const int64_t>(want)) {
      return errors::InvalidArgument("the diagonal must have shape ", shape_util::Str(want),
                                     " for the input ", in.shape().DebugString(), " and k = [",
                                     g.lower, ", ", g.upper, "], got ", diag.shape().DebugString());
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, AllocateOutput(ctx, 0, in.shape().dim_sizes()));
    if (out->NumElements() == 0) return absl::OkStatus();
    std::memcpy(out->data(), in.data(), in.TotalBytes());
    const int64_t batch = in.NumElements() / (g.rows * g.cols);
    return BySize(DataTypeSize(in.dtype()), [&](auto tag) {
      using E = decltype(tag);
      Unpack(static_cast<const E*>(diag.data()), batch, g, static_cast<E*>(out->data()));
      return absl::OkStatus();
    });
  }
};

RILL_REGISTER_KERNEL("MatrixDiagV2", DEVICE_CPU, "", DT_INVALID, MatrixDiagBandOp);
RILL_REGISTER_KERNEL("MatrixDiagV3", DEVICE_CPU, "", DT_INVALID, MatrixDiagBandOp);
RILL_REGISTER_KERNEL("MatrixDiagPartV2", DEVICE_CPU, "", DT_INVALID, MatrixDiagPartBandOp);
RILL_REGISTER_KERNEL("MatrixDiagPartV3", DEVICE_CPU, "", DT_INVALID, MatrixDiagPartBandOp);
RILL_REGISTER_KERNEL("MatrixSetDiagV2", DEVICE_CPU, "", DT_INVALID, MatrixSetDiagBandOp);
RILL_REGISTER_KERNEL("MatrixSetDiagV3", DEVICE_CPU, "", DT_INVALID, MatrixSetDiagBandOp);

}  // namespace
}  // namespace rill::cpu
