// BatchMatMulV2: against a reference product with broadcast batch dims and every adjoint
// combination, every dtype; op cases on every device; gradients against central differences.
#include "gradient_checker.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace batch_matmul_test {

MarkTested tested({"BatchMatMulV2"});

using Xs = std::vector<Output>;

// out[b, i, j] = sum_p op(x)[bx, i, p] op(y)[by, p, j] for x [bx0, 1, .., ..] style shapes:
// x's batch [xb0, xb1] and y's [yb0, yb1] broadcast to [B0, B1].
std::vector<double> Reference(const Tensor& x, const Tensor& y, bool ax, bool ay, int64_t m,
                              int64_t n, int64_t k, int64_t b0, int64_t b1) {
  const auto vx = ToDoubles(x), vy = ToDoubles(y);
  std::vector<double> out(b0 * b1 * m * n, 0);
  for (int64_t i0 = 0; i0 < b0; ++i0) {
    for (int64_t i1 = 0; i1 < b1; ++i1) {
      const int64_t xm =
          (x.dim_size(0) == 1 ? 0 : i0) * x.dim_size(1) + (x.dim_size(1) == 1 ? 0 : i1);
      const int64_t ym =
          (y.dim_size(0) == 1 ? 0 : i0) * y.dim_size(1) + (y.dim_size(1) == 1 ? 0 : i1);
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double acc = 0;
          for (int64_t p = 0; p < k; ++p) {
            acc += vx[xm * m * k + (ax ? p * m + i : i * k + p)] *
                   vy[ym * k * n + (ay ? j * k + p : p * n + j)];
          }
          out[((i0 * b1 + i1) * m + i) * n + j] = acc;
        }
      }
    }
  }
  return out;
}

TEST(BatchMatMul, BroadcastBatchesAndAdjoints) {
  const int64_t m = 3, n = 4, k = 5;
  uint32_t seed = 80;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    for (auto [xb, yb] : {std::pair<std::vector<int64_t>, std::vector<int64_t>>{{2, 3}, {2, 3}},
                          {{2, 1}, {1, 3}},
                          {{1, 1}, {2, 3}},
                          {{2, 3}, {1, 1}}}) {
      for (bool ax : {false, true}) {
        for (bool ay : {false, true}) {
          SCOPED_TRACE(DataTypeString(dt) + " " + ::testing::PrintToString(xb) + " " +
                       ::testing::PrintToString(yb) + (ax ? " adj_x" : "") + (ay ? " adj_y" : ""));
          const Tensor x = RandomTensor(dt, {xb[0], xb[1], ax ? k : m, ax ? m : k}, -3, 3, seed++);
          const Tensor y = RandomTensor(dt, {yb[0], yb[1], ay ? n : k, ay ? k : n}, -3, 3, seed++);
          auto got = RunOp(
              [ax, ay](const Scope& s, const auto& in) {
                return ops::BatchMatMulV2(s, in[0], in[1], ops::BatchMatMulV2::AdjX(ax).AdjY(ay));
              },
              {x, y});
          ASSERT_TRUE(got.ok()) << got.status();
          ExpectTensorNear(*got, dt, {2, 3, m, n}, Reference(x, y, ax, ay, m, n, k, 2, 3),
                           Tolerance(dt));
        }
      }
    }
  }
  // Rank 2 is a plain MatMul; inner dims that differ and batch dims that do not broadcast
  // are refused.
  auto bmm = [](const Scope& s, const auto& in) { return ops::BatchMatMulV2(s, in[0], in[1]); };
  auto plain =
      RunOp(bmm, {FromDoubles(DT_FLOAT, {1, 2}, {1, 2}), FromDoubles(DT_FLOAT, {2, 1}, {3, 4})});
  ASSERT_TRUE(plain.ok()) << plain.status();
  ExpectTensorNear(*plain, DT_FLOAT, {1, 1}, {11}, 0);
  EXPECT_FALSE(RunOp(bmm, {Tensor(DT_FLOAT, TensorShape({2, 3, 4})),
                           Tensor(DT_FLOAT, TensorShape({2, 5, 4}))})
                   .ok());
  EXPECT_FALSE(RunOp(bmm, {Tensor(DT_FLOAT, TensorShape({2, 3, 4})),
                           Tensor(DT_FLOAT, TensorShape({3, 4, 4}))})
                   .ok());
  // k = 0: zeros.
  auto empty = RunOp(
      bmm, {Tensor(DT_DOUBLE, TensorShape({2, 3, 0})), Tensor(DT_DOUBLE, TensorShape({0, 2}))});
  ASSERT_TRUE(empty.ok()) << empty.status();
  ExpectTensorNear(*empty, DT_DOUBLE, {2, 3, 2}, std::vector<double>(12, 0), 0);
}

std::vector<OpCase> BatchMatMuls() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (bool adj : {false, true}) {
      // Equal batches (one strided-batched GEMM) and broadcast ones (a GEMM per matrix).
      c.push_back({"BatchMatMulV2 strided " + DataTypeString(dt) + (adj ? " adj" : ""),
                   [adj](const Scope& s, const auto& in) {
                     return ops::BatchMatMulV2(s, in[0], in[1], ops::BatchMatMulV2::AdjY(adj));
                   },
                   {RandomTensor(dt, {6, 17, 33}, -1, 1, 90),
                    RandomTensor(dt, {6, adj ? 9 : 33, adj ? 33 : 9}, -1, 1, 91)}});
      c.push_back({"BatchMatMulV2 broadcast " + DataTypeString(dt) + (adj ? " adj" : ""),
                   [adj](const Scope& s, const auto& in) {
                     return ops::BatchMatMulV2(s, in[0], in[1], ops::BatchMatMulV2::AdjX(adj));
                   },
                   {RandomTensor(dt, {3, 1, adj ? 20 : 7, adj ? 7 : 20}, -1, 1, 92),
                    RandomTensor(dt, {1, 4, 20, 5}, -1, 1, 93)}});
    }
  }
  return c;
}

TEST(BatchMatMul, GradientsMatchNumeric) {
  for (bool ax : {false, true}) {
    for (bool ay : {false, true}) {
      SCOPED_TRACE(std::string(ax ? "adj_x " : "") + (ay ? "adj_y" : ""));
      auto build = [ax, ay](const Scope& s, const Xs& in) {
        return Output(ops::BatchMatMulV2(s, in[0], in[1], ops::BatchMatMulV2::AdjX(ax).AdjY(ay)));
      };
      // Same batch dims, then x broadcast over y's batch and y over x's.
      ExpectGradientMatchesNumeric(
          build, {RandomTensor(DT_DOUBLE, {2, ax ? 2 : 3, ax ? 3 : 2}, -1, 1, 94),
                  RandomTensor(DT_DOUBLE, {2, ay ? 4 : 2, ay ? 2 : 4}, -1, 1, 95)});
      ExpectGradientMatchesNumeric(
          build, {RandomTensor(DT_DOUBLE, {2, 1, ax ? 2 : 3, ax ? 3 : 2}, -1, 1, 96),
                  RandomTensor(DT_DOUBLE, {3, ay ? 4 : 2, ay ? 2 : 4}, -1, 1, 97)});
    }
  }
}

const bool kMarked = [] {
  GradTestedOps().insert("BatchMatMulV2");
  return true;
}();

}  // namespace batch_matmul_test
}  // namespace

RILL_OP_CASES(batch_matmul, batch_matmul_test::BatchMatMuls);

}  // namespace rill::testing
