// Gather, GatherV2 (axes, batch_dims, every dtype) and UnsortedSegmentSum: values by hand
// and against index arithmetic; out-of-range indices refused on every device.
#include "test_util.h"

namespace rill::testing {
namespace {
namespace gather_ops_test {

MarkTested tested({"Gather", "GatherV2", "UnsortedSegmentSum", "GatherNd", "ScatterNd"});

TEST(GatherOps, GatherRowsInEveryDtype) {
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8, DT_BOOL}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor params = FromDoubles(dt, {3, 2}, {1, 0, 0, 1, 1, 1});
    for (DataType it : {DT_INT32, DT_INT64}) {
      auto got = RunOp([](const Scope& s, const auto& in) { return ops::Gather(s, in[0], in[1]); },
                       {params, FromDoubles(it, {2, 2}, {2, 0, 1, 2})});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, {2, 2, 2}, {1, 1, 1, 0, 0, 1, 1, 1}, 0);
    }
  }
}

TEST(GatherOps, GatherV2AlongEveryAxisWithBatchDims) {
  auto gather = [](int64_t batch_dims) {
    return [batch_dims](const Scope& s, const auto& in) {
      return ops::GatherV2(s, in[0], in[1], in[2], ops::GatherV2::BatchDims(batch_dims));
    };
  };
  // params [2, 3, 4] = 0..23.
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  const Tensor p = FromDoubles(DT_FLOAT, {2, 3, 4}, v);
  const Tensor idx = FromDoubles(DT_INT32, {2}, {3, 1});
  auto got = RunOp(gather(0), {p, idx, FromDoubles(DT_INT32, {}, {-1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 2}, {3, 1, 7, 5, 11, 9, 15, 13, 19, 17, 23, 21}, 0);
  got = RunOp(gather(0), {p, FromDoubles(DT_INT64, {}, {2}), FromDoubles(DT_INT64, {}, {1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 4}, {8, 9, 10, 11, 20, 21, 22, 23}, 0);
  // batch_dims 1: row b of indices picks along axis 2 of params[b].
  got =
      RunOp(gather(1), {p, FromDoubles(DT_INT32, {2, 1}, {0, 3}), FromDoubles(DT_INT32, {}, {2})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 3, 1}, {0, 4, 8, 15, 19, 23}, 0);
  // An index past the axis, a negative one: refused (TensorFlow's GPU kernel writes zeros).
  for (double bad : {3.0, -1.0}) {
    auto r =
        RunOp(gather(0), {p, FromDoubles(DT_INT32, {2}, {0, bad}), FromDoubles(DT_INT32, {}, {1})});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("indices[1]"), std::string::npos) << r.status();
  }
  // Empty indices give an empty result.
  got = RunOp(gather(0), {p, Tensor(DT_INT32, TensorShape({0})), FromDoubles(DT_INT32, {}, {0})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {0, 3, 4}, {}, 0);
}

TEST(GatherOps, UnsortedSegmentSumDropsNegativeIds) {
  auto sum = [](const Scope& s, const auto& in) {
    return ops::UnsortedSegmentSum(s, in[0], in[1], in[2]);
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor data = FromDoubles(dt, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
    auto got = RunOp(
        sum, {data, FromDoubles(DT_INT32, {4}, {2, 0, 2, -1}), FromDoubles(DT_INT32, {}, {4})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {4, 2}, {3, 4, 0, 0, 6, 8, 0, 0}, 0);
  }
  // segment_ids of two dims: a prefix of data's shape.
  auto got =
      RunOp(sum, {FromDoubles(DT_DOUBLE, {2, 2}, {1, 2, 3, 4}),
                  FromDoubles(DT_INT64, {2, 2}, {1, 1, 0, 1}), FromDoubles(DT_INT64, {}, {2})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_DOUBLE, {2}, {3, 7}, 0);
  EXPECT_FALSE(RunOp(sum, {FromDoubles(DT_FLOAT, {2}, {1, 2}), FromDoubles(DT_INT32, {2}, {0, 2}),
                           FromDoubles(DT_INT32, {}, {2})})
                   .ok());
}

TEST(GatherOps, GatherNdPicksElementsAndSlices) {
  auto gather_nd = [](const Scope& s, const auto& in) { return ops::GatherNd(s, in[0], in[1]); };
  for (DataType dt : {DT_FLOAT, DT_INT64, DT_UINT8, DT_BOOL}) {
    SCOPED_TRACE(DataTypeString(dt));
    const Tensor m = FromDoubles(dt, {2, 2}, {1, 0, 0, 1});
    auto got = RunOp(gather_nd, {m, FromDoubles(DT_INT32, {2, 2}, {0, 0, 1, 0})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2}, {1, 0}, 0);
    got = RunOp(gather_nd, {m, FromDoubles(DT_INT64, {2, 1}, {1, 0})});  // whole rows
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {2, 2}, {0, 1, 1, 0}, 0);
  }
  // [2, 3, 2] by pairs: rows of 2; tuples of length 0 take all of params.
  std::vector<double> v(12);
  for (int i = 0; i < 12; ++i) v[i] = i;
  const Tensor p = FromDoubles(DT_FLOAT, {2, 3, 2}, v);
  auto got = RunOp(gather_nd, {p, FromDoubles(DT_INT32, {2, 1, 2}, {1, 2, 0, 1})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {2, 1, 2}, {10, 11, 2, 3}, 0);
  got = RunOp(gather_nd, {p, Tensor(DT_INT32, TensorShape({2, 0}))});
  ASSERT_TRUE(got.ok()) << got.status();
  std::vector<double> twice = v;
  twice.insert(twice.end(), v.begin(), v.end());
  ExpectTensorNear(*got, DT_FLOAT, {2, 2, 3, 2}, twice, 0);
}

TEST(GatherOps, ScatterNdAddsUpdatesIntoZeros) {
  auto scatter = [](const Scope& s, const auto& in) {
    return ops::ScatterNd(s, in[0], in[1], in[2]);
  };
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT8}) {
    SCOPED_TRACE(DataTypeString(dt));
    // TensorFlow's documented example, and a tuple given twice.
    auto got =
        RunOp(scatter, {FromDoubles(DT_INT32, {4, 1}, {4, 3, 1, 7}),
                        FromDoubles(dt, {4}, {9, 10, 11, 12}), FromDoubles(DT_INT32, {1}, {8})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {8}, {0, 11, 0, 10, 9, 0, 0, 12}, 0);
    got = RunOp(scatter, {FromDoubles(DT_INT64, {3, 1}, {1, 1, 0}), FromDoubles(dt, {3}, {1, 2, 5}),
                          FromDoubles(DT_INT64, {1}, {3})});
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectTensorNear(*got, dt, {3}, {5, 3, 0}, 0);
  }
  // Slices: rows 0 and 2 of a [3, 2].
  auto got = RunOp(
      scatter, {FromDoubles(DT_INT32, {2, 1}, {0, 2}), FromDoubles(DT_FLOAT, {2, 2}, {1, 2, 3, 4}),
                FromDoubles(DT_INT32, {2}, {3, 2})});
  ASSERT_TRUE(got.ok()) << got.status();
  ExpectTensorNear(*got, DT_FLOAT, {3, 2}, {1, 2, 0, 0, 3, 4}, 0);
}

}  // namespace gather_ops_test
}  // namespace
}  // namespace rill::testing
