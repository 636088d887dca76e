// Roll, ReverseSequence, MirrorPad, SpaceToDepth, DepthToSpace, SpaceToBatchND,
// BatchToSpaceND and the diagonal ops: values against index arithmetic written here (one
// element at a time, no strided copies), over dtypes, shapes with 0s and 1s, and inputs
// given as constants (shapes known when the graph is built) and fed (known only at run).
#include "rill/ops/rearrange_ops.h"

#include <cstdint>
#include <functional>
#include <limits>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace rearrange_ops_test {

MarkTested tested({"Roll", "ReverseSequence", "MirrorPad", "MirrorPadGrad", "SpaceToDepth",
                   "DepthToSpace", "SpaceToBatchND", "BatchToSpaceND", "Diag", "DiagPart",
                   "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "MatrixBandPart"});

using Dims = std::vector<int64_t>;
using Inputs = std::vector<Tensor>;

int64_t Count(const Dims& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}
Dims Unravel(int64_t i, const Dims& dims) {
  Dims idx(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    idx[d] = i % dims[d];
    i /= dims[d];
  }
  return idx;
}
int64_t Ravel(const Dims& idx, const Dims& dims) {
  int64_t i = 0;
  for (size_t d = 0; d < dims.size(); ++d) i = i * dims[d] + idx[d];
  return i;
}
Dims DimsOf(const Tensor& t) {
  auto s = t.shape().dim_sizes();
  return Dims(s.begin(), s.end());
}
Tensor Ints(DataType dt, Dims shape, std::vector<double> v) {
  return FromDoubles(dt, TensorShape(shape), v);
}

// An output of `dims` whose element at each index is `src(index)`: an input element's flat
// position, or -1 for 0.
std::vector<double> Gather(const Tensor& x, const Dims& dims,
                           const std::function<int64_t(const Dims&)>& src) {
  const auto in = ToDoubles(x);
  std::vector<double> out(Count(dims));
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t from = src(Unravel(static_cast<int64_t>(i), dims));
    out[i] = from < 0 ? 0 : in[from];
  }
  return out;
}

// Runs `build` on inputs fed and as constants; both must give `dims` and `want`.
void Expect(const BuildFn& build, const Inputs& inputs, const Dims& dims,
            const std::vector<double>& want, double rtol = 0) {
  for (auto run : {RunOp, RunOpConst}) {
    auto got = run(build, inputs);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, inputs[0].dtype(), TensorShape(dims), want, rtol);
  }
}

const std::vector<DataType> kTypes = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL};

TEST(RearrangeOps, RollAgainstIndexArithmetic) {
  struct Case {
    Dims x;
    std::vector<double> shift, axis;
  };
  const int64_t big = std::numeric_limits<int64_t>::min();
  const std::vector<Case> cases = {
      {{5}, {2}, {0}},
      {{5}, {-7}, {0}},
      {{3, 4}, {1, -1}, {0, 1}},
      {{3, 4}, {2, 3}, {1, 1}},  // one axis twice: 5 along dim 1
      {{2, 3, 4}, {1, 2, 3}, {0, -2, 2}},
      {{2, 1, 4}, {1, 5}, {1, 2}},
      {{0, 3}, {1}, {1}},
      {{4, 3}, {4, 3}, {0, 1}},  // whole turns: x itself
      {{7, 2}, {static_cast<double>(big)}, {0}},
  };
  for (DataType dt : kTypes) {
    for (const Case& c : cases) {
      SCOPED_TRACE(DataTypeString(dt) + " " + TensorShape(c.x).DebugString());
      const Tensor x = RandomTensor(dt, TensorShape(c.x), 0, 9, 1);
      Dims s(c.x.size(), 0);
      for (size_t i = 0; i < c.axis.size(); ++i) {
        const int64_t d = c.axis[i] < 0 ? c.axis[i] + c.x.size() : c.axis[i];
        if (c.x[d] > 0)
          s[d] = ((s[d] + static_cast<int64_t>(c.shift[i]) % c.x[d]) % c.x[d] + c.x[d]) % c.x[d];
      }
      const auto want = Gather(x, c.x, [&](const Dims& o) {
        Dims i = o;
        for (size_t d = 0; d < i.size(); ++d) i[d] = (o[d] - s[d] + c.x[d]) % c.x[d];
        return Ravel(i, c.x);
      });
      const DataType it = c.shift.size() == 1 ? DT_INT64 : DT_INT32;
      const Dims v = {static_cast<int64_t>(c.shift.size())};
      Expect([](const Scope& sc, const auto& in) { return ops::Roll(sc, in[0], in[1], in[2]); },
             {x, Ints(it, v, c.shift), Ints(it, v, c.axis)}, c.x, want);
    }
  }
  // Scalars for shift and axis, as TensorFlow's roll(x, 1, 0).
  const Tensor x = FromDoubles(DT_FLOAT, {4}, {0, 1, 2, 3});
  Expect([](const Scope& s, const auto& in) { return ops::Roll(s, in[0], 1, 0); }, {x}, {4},
         {3, 0, 1, 2});
}

TEST(RearrangeOps, ReverseSequenceAgainstIndexArithmetic) {
  struct Case {
    Dims x;
    int64_t seq_dim, batch_dim;
    std::vector<double> lens;
  };
  const std::vector<Case> cases = {
      {{4, 5}, 1, 0, {5, 0, 1, 3}},
      {{5, 2, 4}, 0, 2, {5, 1, 2, 4}},
      {{3, 4, 2}, 1, 0, {4, 2, 3}},
      {{2, 0, 3}, 2, 0, {3, 1}},
  };
  for (DataType dt : kTypes) {
    for (const Case& c : cases) {
      SCOPED_TRACE(DataTypeString(dt) + " " + TensorShape(c.x).DebugString());
      const Tensor x = RandomTensor(dt, TensorShape(c.x), 0, 9, 2);
      const auto want = Gather(x, c.x, [&](const Dims& o) {
        Dims i = o;
        const int64_t len = static_cast<int64_t>(c.lens[o[c.batch_dim]]);
        if (o[c.seq_dim] < len) i[c.seq_dim] = len - 1 - o[c.seq_dim];
        return Ravel(i, c.x);
      });
      const int64_t seq_dim = c.seq_dim, batch_dim = c.batch_dim;
      Expect(
          [=](const Scope& s, const auto& in) {
            return ops::ReverseSequence(s, in[0], in[1], seq_dim,
                                        ops::ReverseSequence::BatchDim(batch_dim));
          },
          {x, Ints(DT_INT64, {static_cast<int64_t>(c.lens.size())}, c.lens)}, c.x, want);
    }
  }
}

// Many batch entries and many rows: one pass over the elements (an element map), not a
// copy planned per entry or row.
TEST(RearrangeOps, ManyShortSequencesAndRows) {
  const Dims dims = {20000, 3};
  const Tensor x = RandomTensor(DT_INT32, TensorShape(dims), 0, 1000, 8);
  std::vector<double> lens(20000);
  for (size_t b = 0; b < lens.size(); ++b) lens[b] = static_cast<double>(b % 4);
  const auto want = Gather(x, dims, [&](const Dims& o) {
    const int64_t len = static_cast<int64_t>(lens[o[0]]);
    return Ravel({o[0], o[1] < len ? len - 1 - o[1] : o[1]}, dims);
  });
  Expect([](const Scope& s, const auto& in) { return ops::ReverseSequence(s, in[0], in[1], 1); },
         {x, Ints(DT_INT64, {20000}, lens)}, dims, want);
  const Dims tall = {1, 20000, 2};
  const Tensor m = RandomTensor(DT_FLOAT, TensorShape(tall), 1, 9, 9);
  const auto band = Gather(m, tall, [&](const Dims& o) {
    return o[2] - o[1] <= 0 ? Ravel(o, tall) : int64_t{-1};  // lower triangle
  });
  Expect([](const Scope& s, const auto& in) { return ops::MatrixBandPart(s, in[0], in[1], in[2]); },
         {m, Ints(DT_INT64, {}, {-1}), Ints(DT_INT64, {}, {0})}, tall, band);
}

// The input position that padded position j mirrors along a dim of size n.
int64_t Mirror(int64_t j, int64_t before, int64_t n, bool reflect) {
  int64_t k = j - before;
  if (k < 0) k = reflect ? -k : -k - 1;
  if (k >= n) k = reflect ? 2 * n - 2 - k : 2 * n - 1 - k;
  return k;
}

TEST(RearrangeOps, MirrorPadAndItsGradientAgainstIndexArithmetic) {
  struct Case {
    Dims x;
    std::vector<double> pads;
  };
  const std::vector<Case> cases = {
      {{3}, {2, 2}},
      {{2, 3}, {1, 1, 2, 2}},
      {{4, 1, 3}, {0, 3, 0, 0, 2, 1}},
      {{2, 2}, {0, 0, 0, 0}},
  };
  for (const std::string mode : {"REFLECT", "SYMMETRIC"}) {
    const bool reflect = mode == "REFLECT";
    for (DataType dt : kTypes) {
      for (const Case& c : cases) {
        SCOPED_TRACE(mode + " " + DataTypeString(dt) + " " + TensorShape(c.x).DebugString());
        const Tensor x = RandomTensor(dt, TensorShape(c.x), 0, 9, 3);
        Dims out = c.x;
        for (size_t d = 0; d < out.size(); ++d) out[d] += c.pads[2 * d] + c.pads[2 * d + 1];
        auto src = [&](const Dims& o) {
          Dims i = o;
          for (size_t d = 0; d < i.size(); ++d)
            i[d] = Mirror(o[d], static_cast<int64_t>(c.pads[2 * d]), c.x[d], reflect);
          return Ravel(i, c.x);
        };
        const Tensor pads = Ints(DT_INT32, {static_cast<int64_t>(c.x.size()), 2}, c.pads);
        Expect([mode](const Scope& s,
                      const auto& in) { return ops::MirrorPad(s, in[0], in[1], mode); },
               {x, pads}, out, Gather(x, out, src));
        if (dt == DT_UINT8 || dt == DT_BOOL) continue;  // MirrorPadGrad sums: signed types
        // The gradient folds a padded tensor: each input position sums what mirrors it.
        const Tensor g = RandomTensor(dt, TensorShape(out), 0, 9, 4);
        std::vector<double> want(Count(c.x), 0), gv = ToDoubles(g);
        for (int64_t j = 0; j < Count(out); ++j) want[src(Unravel(j, out))] += gv[j];
        Expect(
            [mode](const Scope& s, const auto& in) {
              return ops::internal::MirrorPadGrad(s, in[0], in[1], mode);
            },
            {g, pads}, c.x, want, Tolerance(dt));  // sums in another order
      }
    }
  }
}

TEST(RearrangeOps, SpaceToDepthAndBackBothFormats) {
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_BOOL}) {
    for (int64_t b : {2, 3}) {
      const Dims x_dims = {2, 2 * b, 3 * b, 3};  // NHWC
      const Tensor x = RandomTensor(dt, TensorShape(x_dims), 0, 9, 5);
      const Dims out = {2, 2, 3, 3 * b * b};
      const auto want = Gather(x, out, [&](const Dims& o) {
        const int64_t c = o[3] % 3, bw = (o[3] / 3) % b, bh = o[3] / 3 / b;
        return Ravel({o[0], o[1] * b + bh, o[2] * b + bw, c}, x_dims);
      });
      Expect([b](const Scope& s, const auto& in) { return ops::SpaceToDepth(s, in[0], b); }, {x},
             out, want);
      Expect([b](const Scope& s, const auto& in) { return ops::DepthToSpace(s, in[0], b); },
             {FromDoubles(dt, TensorShape(out), want)}, x_dims, ToDoubles(x));
      // NCHW is NHWC seen through transposes.
      auto nchw = [b](const Scope& s, const auto& in) {
        auto attrs = ops::SpaceToDepth::DataFormat("NCHW");
        Output y = ops::SpaceToDepth(s, ops::Transpose(s, in[0], {0, 3, 1, 2}), b, attrs);
        Output back = ops::DepthToSpace(s, y, b, attrs);
        return ops::Stack(s, {ops::Reshape(s, ops::Transpose(s, y, {0, 2, 3, 1}), {-1}),
                              ops::Reshape(s, ops::Transpose(s, back, {0, 2, 3, 1}), {-1})});
      };
      std::vector<double> both = want, xs = ToDoubles(x);
      both.insert(both.end(), xs.begin(), xs.end());
      auto got = RunOp(nchw, {x});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, TensorShape({2, Count(out)}), both, 0);
    }
  }
}

// SpaceToBatchND's output element: the padded input at (y * block + offset), 0 in the padding.
std::vector<double> SpaceToBatchReference(const Tensor& x, const Dims& block, const Dims& pads,
                                          Dims* out_dims) {
  const Dims in = DimsOf(x);
  const size_t m = block.size();
  Dims out = in;
  int64_t p = 1;
  for (size_t i = 0; i < m; ++i) {
    out[1 + i] = (in[1 + i] + pads[2 * i] + pads[2 * i + 1]) / block[i];
    p *= block[i];
  }
  out[0] = in[0] * p;
  *out_dims = out;
  return Gather(x, out, [&](const Dims& o) {
    Dims i = o;
    i[0] = o[0] % in[0];
    int64_t offsets = o[0] / in[0];
    for (size_t k = m; k-- > 0;) {
      const int64_t off = offsets % block[k];
      offsets /= block[k];
      i[1 + k] = o[1 + k] * block[k] + off - pads[2 * k];
      if (i[1 + k] < 0 || i[1 + k] >= in[1 + k]) return int64_t{-1};
    }
    return Ravel(i, in);
  });
}

TEST(RearrangeOps, SpaceToBatchAndBackAgainstIndexArithmetic) {
  struct Case {
    Dims x, block, pads;
  };
  const std::vector<Case> cases = {
      {{1, 2, 2, 1}, {2, 2}, {0, 0, 0, 0}},
      {{2, 2, 4, 1}, {2, 2}, {0, 0, 2, 0}},
      {{2, 3, 5, 2}, {2, 3}, {1, 0, 3, 1}},
      {{3, 5, 2}, {4}, {6, 5}},
      {{1, 4, 3, 2, 2}, {3, 2, 2}, {1, 1, 0, 1, 0, 0}},
      {{2, 1}, {3}, {1, 1}},
      {{2, 0, 2}, {2}, {1, 1}},  // an empty dim padded: zeros only
  };
  for (DataType dt : {DT_FLOAT, DT_INT32, DT_UINT8}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(DataTypeString(dt) + " " + TensorShape(c.x).DebugString());
      const Tensor x = RandomTensor(dt, TensorShape(c.x), 1, 9, 6);
      Dims out;
      const auto want = SpaceToBatchReference(x, c.block, c.pads, &out);
      const int64_t m = static_cast<int64_t>(c.block.size());
      const Tensor block = Ints(DT_INT32, {m}, std::vector<double>(c.block.begin(), c.block.end()));
      const Tensor pads = Ints(DT_INT64, {m, 2}, std::vector<double>(c.pads.begin(), c.pads.end()));
      Expect([](const Scope& s,
                const auto& in) { return ops::SpaceToBatchND(s, in[0], in[1], in[2]); },
             {x, block, pads}, out, want);
      // BatchToSpaceND with crops = paddings undoes it.
      Expect([](const Scope& s,
                const auto& in) { return ops::BatchToSpaceND(s, in[0], in[1], in[2]); },
             {FromDoubles(dt, TensorShape(out), want), block, pads}, c.x, ToDoubles(x));
    }
  }
  // The 4-D forms with a square block.
  const Tensor x = FromDoubles(DT_FLOAT, {1, 2, 2, 1}, {1, 2, 3, 4});
  const Tensor zero_pads = Ints(DT_INT32, {2, 2}, {0, 0, 0, 0});
  Expect([](const Scope& s, const auto& in) { return ops::SpaceToBatch(s, in[0], in[1], 2); },
         {x, zero_pads}, {4, 1, 1, 1}, {1, 2, 3, 4});
  Expect([](const Scope& s, const auto& in) { return ops::BatchToSpace(s, in[0], in[1], 2); },
         {FromDoubles(DT_FLOAT, {4, 1, 1, 1}, {1, 2, 3, 4}), zero_pads}, {1, 2, 2, 1},
         {1, 2, 3, 4});
}

TEST(RearrangeOps, DiagonalsByHand) {
  for (DataType dt : kTypes) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor v = FromDoubles(dt, {2, 2}, {1, 0, 1, 1});
    Dims d4 = {2, 2, 2, 2};
    std::vector<double> diag(16, 0);
    for (int i = 0; i < 4; ++i) diag[i * 5] = ToDoubles(v)[i];
    Expect([](const Scope& s, const auto& in) { return ops::Diag(s, in[0]); }, {v}, d4, diag);
    Expect([](const Scope& s, const auto& in) { return ops::DiagPart(s, in[0]); },
           {FromDoubles(dt, TensorShape(d4), diag)}, {2, 2}, ToDoubles(v));
    // MatrixDiag: a batch of two diagonals of 2.
    Expect([](const Scope& s, const auto& in) { return ops::MatrixDiag(s, in[0]); }, {v}, {2, 2, 2},
           {1, 0, 0, 0, 1, 0, 0, 1});
  }
  // MatrixDiagPart and MatrixSetDiag of non-square matrices, [2, 2, 3] and [2, 3, 2].
  std::vector<double> seq(12);
  for (int i = 0; i < 12; ++i) seq[i] = i;
  const Tensor wide = FromDoubles(DT_FLOAT, {2, 2, 3}, seq),
               tall = FromDoubles(DT_FLOAT, {2, 3, 2}, seq);
  auto part = [](const Scope& s, const auto& in) { return ops::MatrixDiagPart(s, in[0]); };
  Expect(part, {wide}, {2, 2}, {0, 4, 6, 10});
  Expect(part, {tall}, {2, 2}, {0, 3, 6, 9});
  auto set = [](const Scope& s, const auto& in) { return ops::MatrixSetDiag(s, in[0], in[1]); };
  Expect(set, {wide, FromDoubles(DT_FLOAT, {2, 2}, {-1, -2, -3, -4})}, {2, 2, 3},
         {-1, 1, 2, 3, -2, 5, -3, 7, 8, 9, -4, 11});
  Expect(set, {tall, FromDoubles(DT_FLOAT, {2, 2}, {-1, -2, -3, -4})}, {2, 3, 2},
         {-1, 1, 2, -2, 4, 5, -3, 7, 8, -4, 10, 11});
  Expect([](const Scope& s, const auto& in) { return ops::MatrixDiag(s, in[0]); },
         {Tensor(DT_FLOAT, TensorShape({3, 0}))}, {3, 0, 0}, {});
}

TEST(RearrangeOps, MatrixBandPartAgainstIndexArithmetic) {
  const Dims x_dims = {2, 4, 5};
  for (DataType dt : {DT_FLOAT, DT_INT32, DT_BOOL}) {
    const Tensor x = RandomTensor(dt, TensorShape(x_dims), 1, 9, 7);
    for (int64_t lower : {-1, 0, 1, 3, 4}) {
      for (int64_t upper : {-1, 0, 2, 5}) {
        SCOPED_TRACE(DataTypeString(dt) + " " + std::to_string(lower) + " " +
                     std::to_string(upper));
        const auto want = Gather(x, x_dims, [&](const Dims& o) {
          const int64_t i = o[1], j = o[2];
          const bool keep = (lower < 0 || i - j <= lower) && (upper < 0 || j - i <= upper);
          return keep ? Ravel(o, x_dims) : int64_t{-1};
        });
        Expect([](const Scope& s,
                  const auto& in) { return ops::MatrixBandPart(s, in[0], in[1], in[2]); },
               {x, Ints(DT_INT64, {}, {double(lower)}), Ints(DT_INT64, {}, {double(upper)})},
               x_dims, want);
      }
    }
  }
}

}  // namespace rearrange_ops_test
}  // namespace
}  // namespace rill::testing
