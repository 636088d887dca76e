// The cases of TensorFlow's tensorflow/core/kernels/mirror_pad_op_test.cc, which drive
// MirrorPad and MirrorPadGrad through OpsTestBase (runtime/testing/ops_testutil.h),
// rewritten against rill (their inputs and expected values are TensorFlow's; the code is
// ours), for every dtype TensorFlow's test runs.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace mirror_pad_op_test {

class MirrorPadOpTest : public OpsTestBase {
 protected:
  template <typename T>
  void MakeOp(const std::string& op, const std::string& mode) {
    TF_EXPECT_OK(NodeDefBuilder("mirror_pad_op", op)
                     .Input(FakeInput(DataTypeToEnum<T>::value))
                     .Input(FakeInput(DT_INT32))
                     .Attr("mode", mode)
                     .Finalize(node_def()));
    TF_EXPECT_OK(InitOp());
    inputs_.clear();
  }
  // Pads (or folds back, for MirrorPadGrad) `in` of `shape`, values i % period or
  // 1, 2, ... when period is 0.
  template <typename T>
  void Expect(const std::string& op, const std::string& mode, const TensorShape& shape, int period,
              std::vector<int32_t> paddings, const TensorShape& want_shape,
              const std::vector<T>& want) {
    MakeOp<T>(op, mode);
    AddInput<T>(shape, [&](int i) { return static_cast<T>(period > 0 ? i % period : i + 1); });
    AddInputFromArray<int32_t>(TensorShape({4, 2}), paddings);
    TF_ASSERT_OK(RunOpKernel());
    test::ExpectTensorEqual<T>(*GetOutput(0), test::AsTensor<T>(want, want_shape));
  }
  template <typename T>
  void ExpectEveryCase() {
    SCOPED_TRACE(DataTypeString(DataTypeToEnum<T>::value));
    Expect<T>("MirrorPad", "REFLECT", TensorShape({1, 2, 3, 1}), 0, {0, 0, 1, 1, 2, 2, 0, 0},
              TensorShape({1, 4, 7, 1}),
              {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1});
    Expect<T>("MirrorPad", "SYMMETRIC", TensorShape({1, 2, 1, 3}), 0, {1, 1, 0, 0, 0, 0, 2, 2},
              TensorShape({3, 2, 1, 7}),
              {2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 2, 1, 1, 2, 3, 3, 2,
               5, 4, 4, 5, 6, 6, 5, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5});
    Expect<T>("MirrorPadGrad", "REFLECT", TensorShape({1, 4, 7, 1}), 7, {0, 0, 1, 1, 2, 2, 0, 0},
              TensorShape({1, 2, 3, 1}), {16, 18, 8, 16, 18, 8});
    Expect<T>("MirrorPadGrad", "SYMMETRIC", TensorShape({3, 2, 1, 7}), 7, {1, 1, 0, 0, 0, 0, 2, 2},
              TensorShape({1, 2, 1, 3}), {9, 27, 27, 9, 27, 27});
  }
  // TensorFlow's large cases: rows 0 ... 999 padded by 10 each side; `edge` is 0 for
  // REFLECT (the edge not repeated) and 1 for SYMMETRIC.
  void ExpectLarge(const std::string& mode, int edge) {
    const int kInput = 1000, kPad = 10, kOutput = kInput + 2 * kPad;
    MakeOp<float>("MirrorPad", mode);
    AddInput<float>(TensorShape({1, kInput, kInput, 1}),
                    [=](int i) { return static_cast<float>(i % kInput); });
    AddInputFromArray<int32_t>(TensorShape({4, 2}), {0, 0, kPad, kPad, kPad, kPad, 0, 0});
    TF_ASSERT_OK(RunOpKernel());
    Tensor expected(allocator(), DT_FLOAT, TensorShape({1, kOutput, kOutput, 1}));
    test::FillFn<float>(&expected, [=](int i) {
      i = i % kOutput;
      if (i < kPad) return static_cast<float>(kPad - i - edge);
      if (i < kInput + kPad) return static_cast<float>(i - kPad);
      return static_cast<float>(2 * kInput + kPad - 2 + edge - i);
    });
    test::ExpectTensorEqual<float>(expected, *GetOutput(0));
  }
};

TEST_F(MirrorPadOpTest, TestMirrorPadAndGradEveryDtype) {
  ExpectEveryCase<float>();
  ExpectEveryCase<double>();
  ExpectEveryCase<uint8_t>();
  ExpectEveryCase<int32_t>();
  ExpectEveryCase<int64_t>();
  ExpectEveryCase<uint16_t>();
  ExpectEveryCase<int8_t>();
  ExpectEveryCase<int16_t>();
}

TEST_F(MirrorPadOpTest, TestMirrorPadReflectLargeInput) { ExpectLarge("REFLECT", 0); }

TEST_F(MirrorPadOpTest, TestMirrorPadSymmetricLargeInput) { ExpectLarge("SYMMETRIC", 1); }

}  // namespace mirror_pad_op_test
}  // namespace
}  // namespace rill
