// The cases of TensorFlow's tensorflow/core/kernels/cast_op_test.cc, which drive Cast through
// OpsTestBase, rewritten against rill (their inputs and expected values are TensorFlow's;
// the code is ours): every pair of the dtypes rill has (uint8, uint16, uint32, uint64, int8,
// int16, int32, int64, float, double), with and without Truncate. Left out: the pairs with
// int4, uint4, half, bfloat16 and the quantized dtypes, which rill does not have.
#include "gtest/gtest.h"
#include "rill/core/testing/status_test_util.h"
#include "rill/core/testing/tensor_testutil.h"
#include "rill/rill.h"
#include "rill/runtime/testing/ops_testutil.h"

namespace rill {
namespace {
namespace cast_op_test {

using uint8 = uint8_t;
using uint16 = uint16_t;
using uint32 = uint32_t;
using uint64 = uint64_t;
using int8 = int8_t;
using int16 = int16_t;
using int32 = int32_t;

class CastOpTest : public OpsTestBase {
 protected:
  void MakeOp(DataType src, DataType dst, bool trunc) {
    if (trunc) {
      TF_EXPECT_OK(NodeDefBuilder("cast_op", "Cast")
                       .Input(FakeInput(src))
                       .Attr("SrcT", src)
                       .Attr("DstT", dst)
                       .Attr("Truncate", true)
                       .Finalize(node_def()));
    } else {
      TF_EXPECT_OK(NodeDefBuilder("cast_op", "Cast")
                       .Input(FakeInput(src))
                       .Attr("SrcT", src)
                       .Attr("DstT", dst)
                       .Finalize(node_def()));
    }
    TF_EXPECT_OK(InitOp());
  }

  template <typename INPUT, typename OUTPUT>
  void CheckCast(bool trunc) {
    DataType in_type = DataTypeToEnum<INPUT>::v();
    DataType out_type = DataTypeToEnum<OUTPUT>::v();
    MakeOp(in_type, out_type, trunc);
    AddInputFromArray<INPUT>(TensorShape({1, 2, 2, 1}), {INPUT(1), INPUT(2), INPUT(3), INPUT(4)});
    TF_ASSERT_OK(RunOpKernel());
    Tensor expected(allocator(), out_type, TensorShape({1, 2, 2, 1}));
    test::FillValues<OUTPUT>(&expected, {OUTPUT(1), OUTPUT(2), OUTPUT(3), OUTPUT(4)});
    test::ExpectTensorEqual<OUTPUT>(expected, *GetOutput(0));
  }
};

#define TEST_CAST(in, out)                                                   \
  TEST_F(CastOpTest, TestCast##_##in##_##out) { CheckCast<in, out>(false); } \
  TEST_F(CastOpTest, TestCastTruncate_##_##in##_##out) { CheckCast<in, out>(true); }

#define TEST_ALL_CASTS_FROM(in) \
  TEST_CAST(in, uint8)          \
  TEST_CAST(in, uint16)         \
  TEST_CAST(in, uint32)         \
  TEST_CAST(in, uint64)         \
  TEST_CAST(in, int8)           \
  TEST_CAST(in, int16)          \
  TEST_CAST(in, int32)          \
  TEST_CAST(in, int64_t)        \
  TEST_CAST(in, float)          \
  TEST_CAST(in, double)

TEST_ALL_CASTS_FROM(uint8)
TEST_ALL_CASTS_FROM(uint16)
TEST_ALL_CASTS_FROM(uint32)
TEST_ALL_CASTS_FROM(uint64)
TEST_ALL_CASTS_FROM(int8)
TEST_ALL_CASTS_FROM(int16)
TEST_ALL_CASTS_FROM(int32)
TEST_ALL_CASTS_FROM(int64_t)
TEST_ALL_CASTS_FROM(float)
TEST_ALL_CASTS_FROM(double)
#undef TEST_ALL_CASTS_FROM
#undef TEST_CAST

}  // namespace cast_op_test
}  // namespace
}  // namespace rill
