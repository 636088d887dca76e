// MaxPoolWithArgmax and MaxPoolGradWithArgmax: the pooled values as MaxPool's, each argmax
// against a loop written here (the first maximal element in scan order, with and without
// the batch in the index, int32 and int64), ties, the gradient as MaxPoolGrad's and
// against central differences, and op cases for every device.
#include <limits>

#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/pool_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace pool_argmax_test {

MarkTested tested({"MaxPoolWithArgmax", "MaxPoolGradWithArgmax"});

using Ints = std::vector<int64_t>;

struct Window {
  int64_t k_h, k_w, s_h, s_w;
  std::string padding;
};
const Window kWindows[] = {{2, 2, 2, 2, "VALID"}, {3, 2, 2, 1, "SAME"}, {3, 3, 1, 1, "SAME"}};

ops::IntList Ksize(const Window& w) { return {1, w.k_h, w.k_w, 1}; }
ops::IntList Strides(const Window& w) { return {1, w.s_h, w.s_w, 1}; }

// The index of the first maximal element of each window (scan order), as the op defines it.
std::vector<double> ArgmaxReference(const Tensor& x, const Window& w, bool with_batch,
                                    Ints* out_dims) {
  const std::vector<double> v = ToDoubles(x);
  const int64_t N = x.dim_size(0), H = x.dim_size(1), W = x.dim_size(2), C = x.dim_size(3);
  const bool same = w.padding == "SAME";
  const int64_t oh = same ? (H + w.s_h - 1) / w.s_h : (H - w.k_h) / w.s_h + 1;
  const int64_t ow = same ? (W + w.s_w - 1) / w.s_w : (W - w.k_w) / w.s_w + 1;
  const int64_t pt = same ? std::max<int64_t>((oh - 1) * w.s_h + w.k_h - H, 0) / 2 : 0;
  const int64_t pl = same ? std::max<int64_t>((ow - 1) * w.s_w + w.k_w - W, 0) / 2 : 0;
  *out_dims = {N, oh, ow, C};
  std::vector<double> idx;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t c = 0; c < C; ++c) {
          double best = -std::numeric_limits<double>::infinity();
          int64_t at = -1;
          for (int64_t a = 0; a < w.k_h; ++a)
            for (int64_t b = 0; b < w.k_w; ++b) {
              const int64_t h = i * w.s_h - pt + a, x_ = j * w.s_w - pl + b;
              if (h < 0 || h >= H || x_ < 0 || x_ >= W) continue;
              const double val = v[((n * H + h) * W + x_) * C + c];
              if (val > best) {
                best = val;
                at = ((with_batch ? n * H : 0) + h) * W * C + x_ * C + c;
              }
            }
          idx.push_back(static_cast<double>(at));
        }
  return idx;
}

TEST(MaxPoolWithArgmax, ValuesAndIndicesMatchTheDefinition) {
  for (const Window& w : kWindows) {
    for (bool with_batch : {false, true}) {
      for (DataType index : {DT_INT64, DT_INT32}) {
        SCOPED_TRACE(absl::StrCat(w.padding, " k", w.k_h, w.k_w, with_batch ? " batch " : " ",
                                  DataTypeString(index)));
        const Tensor x = DistinctTensor({2, 5, 6, 3}, 4);
        const auto attrs = ops::MaxPoolWithArgmax::Targmax(index).IncludeBatchInIndex(with_batch);
        auto values = RunOp(
            [&](const Scope& s, const auto& in) {
              return ops::MaxPoolWithArgmax(s, in[0], Ksize(w), Strides(w), w.padding, attrs)
                  .output;
            },
            {x});
        auto pooled = RunOp(
            [&](const Scope& s, const auto& in) {
              return ops::MaxPool(s, in[0], Ksize(w), Strides(w), w.padding);
            },
            {x});
        auto indices = RunOp(
            [&](const Scope& s, const auto& in) {
              return ops::MaxPoolWithArgmax(s, in[0], Ksize(w), Strides(w), w.padding, attrs)
                  .argmax;
            },
            {x});
        ASSERT_TRUE(values.ok() && pooled.ok() && indices.ok()) << indices.status();
        test::ExpectTensorEqual<double>(*values, *pooled);
        Ints dims;
        const std::vector<double> want = ArgmaxReference(x, w, with_batch, &dims);
        ExpectTensorNear(*indices, index, TensorShape(dims), want, 0);
      }
    }
  }
}

TEST(MaxPoolWithArgmax, TiesGoToTheFirstElement) {
  auto got = RunOp(
      [](const Scope& s, const auto& in) {
        return ops::MaxPoolWithArgmax(s, in[0], {1, 2, 2, 1}, {1, 2, 2, 1}, "VALID").argmax;
      },
      {FromDoubles(DT_FLOAT, {1, 2, 4, 1}, {1, 1, 0, 5, 1, 1, 5, 5})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_INT64, {1, 1, 2, 1}, {0, 3}, 0);
}

TEST(MaxPoolWithArgmax, GradientIsMaxPoolGrad) {
  for (const Window& w : kWindows) {
    SCOPED_TRACE(w.padding);
    const Tensor x = DistinctTensor({2, 5, 6, 3}, 9);
    Ints dims;
    ArgmaxReference(x, w, false, &dims);
    const Tensor dy = RandomTensor(DT_DOUBLE, TensorShape(dims), -1, 1, 10);
    auto with_argmax = RunOp(
        [&](const Scope& s, const auto& in) {
          auto p = ops::MaxPoolWithArgmax(s, in[0], Ksize(w), Strides(w), w.padding);
          return Output(ops::MaxPoolGradWithArgmax(s, in[0], in[1], p.argmax, Ksize(w), Strides(w),
                                                   w.padding));
        },
        {x, dy});
    auto plain = RunOp(
        [&](const Scope& s, const auto& in) {
          return ops::MaxPoolGrad(s, in[0], ops::MaxPool(s, in[0], Ksize(w), Strides(w), w.padding),
                                  in[1], Ksize(w), Strides(w), w.padding);
        },
        {x, dy});
    ASSERT_TRUE(with_argmax.ok() && plain.ok()) << with_argmax.status();
    ExpectTensorNear(*with_argmax, DT_DOUBLE, x.shape(), ToDoubles(*plain), 1e-12);
    ExpectGradientMatchesNumeric(
        [&](const Scope& s, const std::vector<Output>& in) {
          return ops::MaxPoolWithArgmax(s, in[0], Ksize(w), Strides(w), w.padding).output;
        },
        {DistinctTensor({1, 4, 5, 2}, 11)});
  }
}

TEST(MaxPoolWithArgmax, AnArgmaxOutsideItsImageIsRefused) {
  auto got = RunOp(
      [](const Scope& s, const auto& in) {
        return Output(ops::MaxPoolGradWithArgmax(s, in[0], in[1], in[2], {1, 2, 2, 1}, {1, 2, 2, 1},
                                                 "VALID"));
      },
      {RandomTensor(DT_FLOAT, {2, 2, 2, 1}, -1, 1, 1),
       RandomTensor(DT_FLOAT, {2, 1, 1, 1}, -1, 1, 2),
       test::AsTensor<int64_t>({1, 4}, {2, 1, 1, 1})});  // image 1's indices are 0..3 too
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << got.status();
  EXPECT_NE(got.status().message().find("argmax 4"), std::string::npos) << got.status();
}

const bool kMarked = [] {
  GradTestedOps().insert("MaxPoolWithArgmax");
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (const Window& w : kWindows) {
    for (bool with_batch : {false, true}) {
      const std::string what =
          absl::StrCat(" ", w.padding, " k", w.k_h, w.k_w, with_batch ? " batch" : "");
      const auto k = Ksize(w), st = Strides(w);
      const std::string pad = w.padding;
      const auto attrs = ops::MaxPoolWithArgmax::IncludeBatchInIndex(with_batch);
      const Tensor x = RandomTensor(DT_FLOAT, {2, 7, 6, 3}, -2, 2, 20);
      c.push_back({"MaxPoolWithArgmax output" + what,
                   [=](const Scope& s, const auto& in) {
                     return ops::MaxPoolWithArgmax(s, in[0], k, st, pad, attrs).output;
                   },
                   {x}});
      OpCase argmax{"MaxPoolWithArgmax argmax" + what,
                    [=](const Scope& s, const auto& in) {
                      return ops::MaxPoolWithArgmax(s, in[0], k, st, pad, attrs).argmax;
                    },
                    {x}};
      argmax.float64_reference = false;
      c.push_back(argmax);
    }
  }
  return c;
}

}  // namespace pool_argmax_test
}  // namespace

RILL_OP_CASES(pool_argmax, pool_argmax_test::Cases);

}  // namespace rill::testing
