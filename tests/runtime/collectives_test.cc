// The collectives' agreement and data paths on one process, against a fake world of ranks
// (fake_comm.h): ranks that disagree fail before any transfer, a replica update fills and
// moves its data only once they agree (by a sum, or by rows when the factors are smaller),
// and NCCL is chosen only when every rank has a GPU of its own.
#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "fake_comm.h"
#include "rill/runtime/dist/data_path.h"

namespace rill::testing {
namespace {
namespace collectives_test {

using fake_comm::FakeComm;
using fake_comm::RecordingComm;
using fake_comm::Spec;
using fake_comm::Statement;

TEST(Collectives, RanksThatDisagreeAreAnErrorBeforeAnyTransfer) {
  const std::vector<char> four = Statement(Spec(TensorShape({4})));
  FakeComm comm(2, [&](void* st) { std::memcpy(st, four.data(), four.size()); });
  Tensor mine(DT_FLOAT, TensorShape({3}));
  dist::HostPlace host;
  absl::Status st = dist::AllReduce(comm, host, Spec(TensorShape({3})), mine, mine, false);
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(),
                                "rank 0 runs CollectiveAllReduce 'grad_sum' on "
                                "float [3]; rank 1 runs CollectiveAllReduce "
                                "'grad_sum' on float [4]"))
      << st.message();
  EXPECT_EQ(comm.transfers.load(), 0);
}

// A sum of filled buffers (the replicas' update) fills only once the ranks agree, and a
// fill that fails still takes part in the sum, so the other ranks are not left waiting.
TEST(Collectives, AFilledSumFillsAfterAgreeingAndTakesPartWhenTheFillFails) {
  dist::CollectiveSpec spec = Spec(TensorShape({3}));
  spec.kind = dist::CollectiveKind::kReplicaUpdate;
  dist::CollectiveSpec other = spec;
  other.shape = TensorShape({4});
  Tensor buf(DT_FLOAT, TensorShape({3}));
  dist::HostPlace host;
  for (const dist::CollectiveSpec* theirs : {&other, &spec}) {
    const std::vector<char> stated = Statement(*theirs);
    FakeComm comm(2, [&](void* st) { std::memcpy(st, stated.data(), stated.size()); });
    int fills = 0;
    absl::Status st = dist::AllReduceFilled(comm, host, spec, buf, [&](bool root) {
      fills += root ? 1 : 100;
      return errors::Internal("the GEMM failed");
    });
    const bool agree = theirs == &spec;
    EXPECT_EQ(st.code(), agree ? absl::StatusCode::kInternal : absl::StatusCode::kInvalidArgument)
        << st;
    EXPECT_EQ(fills, agree ? 1 : 0);
    EXPECT_EQ(comm.transfers.load(), agree ? 1 : 0);
  }
}

// A replica update takes the rows way only when both ranks can and the factors are smaller
// than the product: [8, 6] from 2 x 1 rows of factors (2 x 14 < 48 elements), not from 2 x 3
// (84). By rows, the factors and then this rank's rows (rank 0: 4 of 8, 24 floats) are
// gathered, also when the fill fails; ranks that disagree on the way fail before either.
TEST(Collectives, AReplicaUpdateGathersRowsWhenTheFactorsAreSmaller) {
  dist::CollectiveSpec spec = Spec(TensorShape({8, 6}));
  spec.kind = dist::CollectiveKind::kReplicaUpdate;
  spec.variant = 1;
  Tensor buf(DT_FLOAT, TensorShape({8, 6}));
  dist::HostPlace host;
  for (int64_t rows : {1, 3}) {
    spec.rows = rows;
    const std::vector<char> stated = Statement(spec);
    FakeComm comm(2, [&](void* st) { std::memcpy(st, stated.data(), stated.size()); });
    Tensor a(DT_FLOAT, TensorShape({rows, 8})), b(DT_FLOAT, TensorShape({rows, 6}));
    std::vector<std::string> calls;
    dist::ReplicaFills fills;
    fills.sum = [&](bool) {
      calls.push_back("sum");
      return absl::OkStatus();
    };
    fills.rows = [&](const Tensor& a_all, const Tensor& b_all, int64_t row0, int64_t count) {
      calls.push_back(absl::StrCat("rows ", a_all.shape().DebugString(), " ",
                                   b_all.shape().DebugString(), " ", row0, "+", count));
      return errors::Internal("the GEMM failed");
    };
    absl::Status st = dist::UpdateReplicas(comm, host, spec, buf, a, b, fills);
    if (rows == 1) {
      EXPECT_EQ(st.code(), absl::StatusCode::kInternal) << st;
      EXPECT_EQ(calls, std::vector<std::string>({"rows [2,8] [2,6] 0+4"}));
      EXPECT_EQ(comm.gathered, (std::vector<std::vector<int64_t>>{{32, 32}, {24, 24}, {96, 96}}));
    } else {
      EXPECT_TRUE(st.ok()) << st;
      EXPECT_EQ(calls, std::vector<std::string>({"sum"}));
      EXPECT_EQ(comm.transfers.load(), 1);
    }
  }
  dist::CollectiveSpec summing = spec;
  summing.variant = 0;
  const std::vector<char> stated = Statement(summing);
  FakeComm comm(2, [&](void* st) { std::memcpy(st, stated.data(), stated.size()); });
  Tensor a(DT_FLOAT, TensorShape({3, 8})), b(DT_FLOAT, TensorShape({3, 6}));
  absl::Status st = dist::UpdateReplicas(comm, host, spec, buf, a, b, {});
  EXPECT_TRUE(absl::IsInvalidArgument(st)) << st;
  EXPECT_TRUE(absl::StrContains(st.message(), "float [8,6] (way 1); rank 1 runs")) << st;
  EXPECT_TRUE(comm.gathered.empty());
}

// Where every rank states the same shared copy (segment 5) on one host, the update writes
// its rows there and gathers only the factors; a rank that states another number leaves
// its copy (a private one to update) and the rows are gathered; where every rank may share
// (0), the rows way ends with the move into shared memory, which no rank makes when one may
// not (-1) or when the sum is the way.
TEST(Collectives, AReplicaUpdateSharesOneCopyOnlyWhenEveryRankStatesIt) {
  struct Case {
    int64_t mine, theirs, rows;
    dist::ReplicaWay way;
    std::vector<std::string> calls;
    size_t gathers;
  };
  const std::vector<Case> cases = {
      {5, 5, 1, dist::ReplicaWay::kShared, {"rows 0+4"}, 2},
      {5, 0, 1, dist::ReplicaWay::kRows, {"leave", "rows 0+4"}, 3},
      {0, 5, 1, dist::ReplicaWay::kRows, {"rows 0+4"}, 3},
      {0, 0, 1, dist::ReplicaWay::kRows, {"rows 0+4", "adopt 0+4"}, 3},
      {0, -1, 1, dist::ReplicaWay::kRows, {"rows 0+4"}, 3},
      {5, 5, 3, dist::ReplicaWay::kSum, {"leave", "sum"}, 0},
      {0, 0, 3, dist::ReplicaWay::kSum, {"sum"}, 0},
  };
  dist::HostPlace host;
  for (const Case& c : cases) {
    dist::CollectiveSpec spec = Spec(TensorShape({8, 6}));
    spec.kind = dist::CollectiveKind::kReplicaUpdate;
    spec.variant = 1;
    spec.rows = c.rows;
    spec.segment = c.theirs;
    const std::vector<char> stated = Statement(spec);
    spec.segment = c.mine;
    FakeComm comm(2, [&](void* st) { std::memcpy(st, stated.data(), stated.size()); });
    Tensor buf(DT_FLOAT, TensorShape({8, 6}));
    Tensor a(DT_FLOAT, TensorShape({c.rows, 8})), b(DT_FLOAT, TensorShape({c.rows, 6}));
    std::vector<std::string> calls;
    dist::ReplicaWay way = dist::ReplicaWay::kSum;
    dist::ReplicaFills fills;
    fills.sum = [&](bool) {
      calls.push_back("sum");
      return absl::OkStatus();
    };
    fills.rows = [&](const Tensor&, const Tensor&, int64_t row0, int64_t count) {
      calls.push_back(absl::StrCat("rows ", row0, "+", count));
      return absl::OkStatus();
    };
    fills.leave = [&]() -> absl::StatusOr<Tensor> {
      calls.push_back("leave");
      return Tensor(DT_FLOAT, TensorShape({8, 6}));
    };
    fills.adopt = [&](dist::Comm&, int64_t row0, int64_t count, bool ready) {
      calls.push_back(absl::StrCat("adopt ", row0, "+", count, ready ? "" : " unready"));
      return absl::OkStatus();
    };
    fills.taken = &way;
    const absl::Status st = dist::UpdateReplicas(comm, host, spec, buf, a, b, fills);
    const std::string which = absl::StrCat("mine ", c.mine, ", theirs ", c.theirs);
    EXPECT_TRUE(st.ok()) << which << ": " << st;
    EXPECT_EQ(way, c.way) << which;
    EXPECT_EQ(calls, c.calls) << which;
    EXPECT_EQ(comm.gathered.size(), c.gathers) << which;
  }
}

// A place that states a GPU NCCL can reach and records the path every rank agreed on.
class NcclAblePlace : public dist::DataPlace {
 public:
  explicit NcclAblePlace(bool able) : able_(able) {}
  dist::NcclReach reach() const override { return {able_, 42, 0}; }
  absl::StatusOr<dist::DataPath*> Choose(dist::Comm& comm, bool nccl) override {
    chose_nccl = nccl;
    return host_.Choose(comm, nccl);
  }
  std::optional<bool> chose_nccl;

 private:
  bool able_;
  dist::HostPlace host_;
};

// NCCL only when every rank can use it on a GPU of its own: one rank, yes; two ranks that
// state the same GPU of the same host (NCCL refuses them), no; a rank that cannot, no.
TEST(Collectives, NcclOnlyWhenEveryRankHasAGpuOfItsOwn) {
  Tensor t(DT_FLOAT, TensorShape({3}));
  for (bool able : {true, false}) {
    FakeComm one(1, nullptr);
    NcclAblePlace place(able);
    ASSERT_TRUE(dist::AllReduce(one, place, Spec(TensorShape({3})), t, t, false).ok());
    EXPECT_EQ(place.chose_nccl, able);
  }
  const std::vector<char> mine = [&] {
    RecordingComm recorder(1, nullptr);
    NcclAblePlace place(true);
    EXPECT_TRUE(dist::AllReduce(recorder, place, Spec(TensorShape({3})), t, t, false).ok());
    return recorder.sent;
  }();
  FakeComm two(2, [&](void* st) { std::memcpy(st, mine.data(), mine.size()); });
  NcclAblePlace shared(true);
  ASSERT_TRUE(dist::AllReduce(two, shared, Spec(TensorShape({3})), t, t, false).ok());
  EXPECT_EQ(shared.chose_nccl, false);
}

}  // namespace collectives_test
}  // namespace
}  // namespace rill::testing
