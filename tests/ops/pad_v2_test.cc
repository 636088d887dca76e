// PadV2 (tf.pad with constant_values): values by hand in float, int32, int64, uint8 and
// bool, an empty input, the gradient against central differences (none for the
// constant), and op cases for every device.
#include "gradient_checker.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/ops/array_ops.h"
#include "support/op_tester.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace pad_v2_test {

MarkTested tested({"PadV2"});

Output PadV2Of(const Scope& s, const std::vector<Output>& in) {
  return ops::PadV2(s, in[0], in[1], in[2]);
}

TEST(PadV2, FillsThePaddingWithTheConstant) {
  // [[1, 2], [3, 4]] padded by one row before and one column after with 9.
  const Tensor paddings = test::AsTensor<int32_t>({1, 0, 0, 1}, {2, 2});
  auto f = RunOp(PadV2Of, {test::AsTensor<float>({1, 2, 3, 4}, {2, 2}), paddings,
                           test::AsTensor<float>({-1.5f}, {})});
  ASSERT_TRUE(f.ok()) << f.status();
  test::ExpectTensorEqual<float>(
      *f, test::AsTensor<float>({-1.5f, -1.5f, -1.5f, 1, 2, -1.5f, 3, 4, -1.5f}, {3, 3}));
  auto i = RunOp(PadV2Of, {test::AsTensor<int64_t>({5, 6}, {1, 2}),
                           test::AsTensor<int64_t>({0, 1, 2, 0}, {2, 2}),
                           test::AsTensor<int64_t>({int64_t{1} << 40}, {})});
  ASSERT_TRUE(i.ok()) << i.status();
  const int64_t big = int64_t{1} << 40;
  test::ExpectTensorEqual<int64_t>(
      *i, test::AsTensor<int64_t>({big, big, 5, 6, big, big, big, big}, {2, 4}));
  auto u =
      RunOp(PadV2Of, {test::AsTensor<uint8_t>({7}, {1}), test::AsTensor<int32_t>({2, 1}, {1, 2}),
                      test::AsTensor<uint8_t>({255}, {})});
  ASSERT_TRUE(u.ok()) << u.status();
  test::ExpectTensorEqual<uint8_t>(*u, test::AsTensor<uint8_t>({255, 255, 7, 255}, {4}));
  auto b =
      RunOp(PadV2Of, {test::AsTensor<bool>({false}, {1}), test::AsTensor<int32_t>({1, 1}, {1, 2}),
                      test::AsTensor<bool>({true}, {})});
  ASSERT_TRUE(b.ok()) << b.status();
  test::ExpectTensorEqual<bool>(*b, test::AsTensor<bool>({true, false, true}, {3}));
  // An empty input: all constant.
  auto e = RunOp(PadV2Of,
                 {Tensor(DT_INT32, TensorShape({0, 2})),
                  test::AsTensor<int32_t>({1, 1, 0, 0}, {2, 2}), test::AsTensor<int32_t>({3}, {})});
  ASSERT_TRUE(e.ok()) << e.status();
  test::ExpectTensorEqual<int32_t>(*e, test::AsTensor<int32_t>({3, 3, 3, 3}, {2, 2}));
}

TEST(PadV2, GradientMatchesNumeric) {
  ExpectGradientMatchesNumeric(
      [](const Scope& s, const std::vector<Output>& in) {
        return Output(ops::PadV2(s, in[0], ops::Const(s, {{1, 2}, {0, 1}}),
                                 ops::Cast(s, ops::Const(s, 0.5), in[0].type())));
      },
      {RandomTensor(DT_DOUBLE, {2, 3}, -1, 1, 5)});
}

const bool kMarked = [] {
  GradTestedOps().insert("PadV2");
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    OpCase k{"PadV2 " + DataTypeString(dt),
             PadV2Of,
             {RandomTensor(dt, {2, 3, 2}, 0, 9, 7),
              test::AsTensor<int32_t>({0, 1, 2, 0, 1, 1}, {3, 2}), RandomTensor(dt, {}, 0, 9, 8)}};
    k.float64_reference = false;
    c.push_back(k);
  }
  return c;
}

}  // namespace pad_v2_test
}  // namespace

RILL_OP_CASES(pad_v2, pad_v2_test::Cases);

}  // namespace rill::testing
