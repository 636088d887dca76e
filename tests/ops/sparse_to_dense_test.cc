// SparseToDense: outputs by hand (scalar, vector and matrix indices; one value for all;
// every dtype, int64 indices), unvalidated indices in any order with the last repeated
// value kept, the gradient against central differences, and an op case for GPU parity
// (the kernel runs on the host there).
#include "gradient_checker.h"
#include "rill/ops/sparse_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace sparse_to_dense_test {

MarkTested tested({"SparseToDense"});

BuildFn ToDense(bool validate = true) {
  return [validate](const Scope& s, const std::vector<Output>& in) {
    return Output(ops::SparseToDense(s, in[0], in[1], in[2], in[3],
                                     ops::SparseToDense::ValidateIndices(validate)));
  };
}

TEST(SparseToDense, MatrixIndicesEachValueInItsPlace) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL}) {
    SCOPED_TRACE(DataTypeString(dt));
    auto got = RunOp(ToDense(), {FromDoubles(DT_INT64, {3, 2}, {0, 1, 0, 2, 2, 3}),
                                 FromDoubles(DT_INT64, {2}, {3, 4}),
                                 FromDoubles(dt, {3}, {1, 1, 1}), FromDoubles(dt, {}, {0})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {3, 4}, {0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 0);
  }
}

TEST(SparseToDense, ScalarAndVectorIndicesAndOneValueForAll) {
  auto got = RunOp(ToDense(), {FromDoubles(DT_INT32, {}, {2}), FromDoubles(DT_INT32, {1}, {4}),
                               FromDoubles(DT_FLOAT, {}, {7}), FromDoubles(DT_FLOAT, {}, {-1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {4}, {-1, -1, 7, -1}, 0);
  got = RunOp(ToDense(), {FromDoubles(DT_INT32, {2}, {0, 3}), FromDoubles(DT_INT32, {1}, {5}),
                          FromDoubles(DT_FLOAT, {}, {7}), FromDoubles(DT_FLOAT, {}, {-1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {5}, {7, -1, -1, 7, -1}, 0);
}

// validate_indices false: any order, and a repeated index keeps the last of its values.
TEST(SparseToDense, UnvalidatedIndicesInAnyOrderLastRepeatWins) {
  auto got =
      RunOp(ToDense(false),
            {FromDoubles(DT_INT32, {3, 2}, {1, 1, 0, 0, 1, 1}), FromDoubles(DT_INT32, {2}, {2, 2}),
             FromDoubles(DT_FLOAT, {3}, {5, 6, 9}), FromDoubles(DT_FLOAT, {}, {0})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 2}, {6, 0, 0, 9}, 0);
  const absl::Status refused =
      RunOp(ToDense(true),
            {FromDoubles(DT_INT32, {3, 2}, {1, 1, 0, 0, 1, 1}), FromDoubles(DT_INT32, {2}, {2, 2}),
             FromDoubles(DT_FLOAT, {3}, {5, 6, 9}), FromDoubles(DT_FLOAT, {}, {0})})
          .status();
  EXPECT_NE(refused.message().find("is out of order"), std::string::npos) << refused;
}

TEST(SparseToDense, NoIndicesGiveTheDefaultEverywhere) {
  auto got =
      RunOp(ToDense(), {Tensor(DT_INT32, TensorShape({0, 2})), FromDoubles(DT_INT32, {2}, {2, 3}),
                        Tensor(DT_FLOAT, TensorShape({0})), FromDoubles(DT_FLOAT, {}, {4})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3}, {4, 4, 4, 4, 4, 4}, 0);
}

// Values and default as the checker's float64 inputs (indices and shape built in).
TEST(SparseToDense, GradientMatchesNumericForValuesAndDefault) {
  auto build = [](const Scope& s, const std::vector<Output>& in) {
    auto idx = ops::Const(s, {{0, 1}, {1, 0}, {2, 2}});
    auto dense = ops::SparseToDense(s, idx, ops::Const(s, {3, 3}), in[0], in[1]);
    return Output(ops::Square(s, dense));
  };
  ExpectGradientMatchesNumeric(
      build, {FromDoubles(DT_DOUBLE, {3}, {0.5, -1.5, 2}), FromDoubles(DT_DOUBLE, {}, {0.25})});
  // One scalar value for every index: its gradient is the sum over them.
  ExpectGradientMatchesNumeric(
      build, {FromDoubles(DT_DOUBLE, {}, {0.75}), FromDoubles(DT_DOUBLE, {}, {-0.5})});
}

const bool kMarked = [] {
  GradTestedOps().insert("SparseToDense");
  return true;
}();

std::vector<OpCase> Cases() {
  std::vector<int32_t> idx;
  for (int32_t i = 0; i < 40; ++i) idx.insert(idx.end(), {i, (i * 7) % 13});
  std::vector<double> pairs(idx.begin(), idx.end());
  return {{"SparseToDense float",
           ToDense(),
           {FromDoubles(DT_INT32, {40, 2}, pairs), FromDoubles(DT_INT32, {2}, {40, 13}),
            RandomTensor(DT_FLOAT, {40}, -1, 1, 1), FromDoubles(DT_FLOAT, {}, {0.5})}}};
}

}  // namespace sparse_to_dense_test
}  // namespace

RILL_OP_CASES(sparse_to_dense, sparse_to_dense_test::Cases);

}  // namespace rill::testing
