// Graphs built from random sequences of ops, inputs, attributes and shapes, then run on
// random feeds: every node is either added or refused with a Status, and every Run either
// succeeds or returns a Status that says what failed. Under ASan and UBSan (CI's second
// pass) this is a fuzz of graph construction and of every CPU kernel's validation.
#include <cmath>

#include "support/random_program.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace random_graph_test {

TEST(RandomGraphs, BuildAndRunNeverCrash) {
  int refused = 0;
  RunCounts counts;
  for (uint32_t seed = 0; seed < 2300; ++seed) {  // more ops, fewer nodes each: keep >2000
    SeededChoices choices(seed);
    Scope root = Scope::NewRootScope();
    RandomProgram program;
    ASSERT_TRUE(BuildRandomProgram(choices, 16, /*wild=*/false, root.graph(), &program).ok());
    refused += program.refused;
    Session session(root, SessionOptions(), CpuOnly());
    absl::Status st = RunEveryNode(session, root, program, &counts);
    ASSERT_TRUE(st.ok()) << "program " << seed << ": " << st;
  }
  std::printf(
      "random graphs: %d nodes built (%d refused at construction), %d ran, %d refused "
      "at run time; %zu of %zu ops ran at least once\n",
      counts.built, refused, counts.ran, counts.failed, counts.ops_ran.size(),
      OpRegistry::Global()->ListOps().size());
  EXPECT_GT(counts.built, 2000);
  EXPECT_GT(counts.ran, 1000);
}

// The same with dtypes drawn from every one rill has: the narrow and unsigned integers
// reach every number kernel (fewer nodes get built: most ops take floats).
TEST(RandomGraphs, EveryIntegerWidthBuildsAndRunsNeverCrash) {
  RunCounts counts;
  for (uint32_t seed = 0; seed < (kSanitizedBuild ? 600 : 1200); ++seed) {
    SeededChoices choices(100000 + seed);
    choices.every_dtype = true;
    Scope root = Scope::NewRootScope();
    RandomProgram program;
    ASSERT_TRUE(BuildRandomProgram(choices, 16, /*wild=*/true, root.graph(), &program).ok());
    Session session(root, SessionOptions(), CpuOnly());
    absl::Status st = RunEveryNode(session, root, program, &counts);
    ASSERT_TRUE(st.ok()) << "program " << seed << ": " << st;
  }
  std::printf("random graphs, every dtype: %d nodes built, %d ran, %d refused at run time\n",
              counts.built, counts.ran, counts.failed);
  EXPECT_GT(counts.built, kSanitizedBuild ? 200 : 400);
  EXPECT_GT(counts.ran, kSanitizedBuild ? 100 : 200);
}

// Equal values: NaN where NaN, else within a relative 1e-5 (fused kernels may round
// differently from the pair they replace); -0 equals 0.
bool SameValues(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  const std::vector<double> x = ToDoubles(a), y = ToDoubles(b);
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      if (std::isnan(x[i]) != std::isnan(y[i])) return false;
    } else if (x[i] != y[i] && std::abs(x[i] - y[i]) > 1e-5 * std::max(1.0, std::abs(x[i]))) {
      return false;
    }
  }
  return true;
}

bool DrawsRandomNumbers(const Graph& g) {
  for (int i = 0; i < g.num_nodes(); ++i) {
    const std::string& op = g.node(i)->type_string();
    if (op.starts_with("Random") || op == "TruncatedNormal" || op == "Dropout" ||
        op == "Timestamp") {
      return true;  // Timestamp reads the clock: no two runs agree
    }
  }
  return false;
}

// The graph optimizer changes how a value is computed, never what it is: every node of
// random programs, fetched from an optimized and an unoptimized Session in turn (the same
// runs in the same order, so variables evolve alike), fails in both or in neither, with
// the same values. Programs that draw random numbers or read the clock are left out
// (unseeded draws differ from Session to Session, and times from run to run).
// The sanitizer builds compare the first 1200 programs (all 4000 took 77 s under ASan on
// two cores): BuildAndRunNeverCrash is their fuzz of the kernels; release compares 4000.
TEST(RandomGraphs, OptimizedPlansComputeWhatTheGraphSays) {
  int compared = 0;
  const uint32_t programs = kSanitizedBuild ? 1200 : 4000;
  for (uint32_t seed = 0; seed < programs; ++seed) {
    SeededChoices choices(seed);
    Scope root = Scope::NewRootScope();
    RandomProgram program;
    ASSERT_TRUE(BuildRandomProgram(choices, 16, /*wild=*/false, root.graph(), &program).ok());
    if (DrawsRandomNumbers(*root.graph())) continue;
    SessionOptions plain;
    plain.optimize_graph = false;
    Session optimized(root, SessionOptions(), CpuOnly()), reference(root, plain, CpuOnly());
    Session::FeedType feeds;
    for (const auto& [node, value] : program.feeds) feeds.emplace(Output(node, 0), value);
    for (int i = 0; i < root.graph()->num_nodes(); ++i) {
      Node* n = root.graph()->node(i);
      if (n->IsPlaceholder()) continue;
      std::vector<Output> fetch;
      for (int k = 0; k < n->num_outputs(); ++k) fetch.emplace_back(n, k);
      std::vector<Tensor> want, got;
      absl::Status w = reference.Run(feeds, fetch, {Operation(n)}, &want);
      absl::Status g = optimized.Run(feeds, fetch, {Operation(n)}, &got);
      ASSERT_EQ(w.ok(), g.ok()) << "program " << seed << ", " << n->DebugName() << ": " << w
                                << " / optimized: " << g;
      if (!w.ok()) continue;
      ASSERT_EQ(want.size(), got.size());
      for (size_t k = 0; k < want.size(); ++k) {
        ASSERT_TRUE(SameValues(want[k], got[k]))
            << "program " << seed << ", " << n->DebugName() << " output " << k << ": "
            << want[k].DebugString() << " / optimized: " << got[k].DebugString();
        ++compared;
      }
    }
  }
  std::printf("optimized against unoptimized: %d values compared\n", compared);
  // A floor, not a target: about 2,100 (release) and 600 (sanitizers) with 358 ops; the
  // share of programs that run moves as ops are added.
  EXPECT_GT(compared, kSanitizedBuild ? 400 : 1500);
}

}  // namespace random_graph_test
}  // namespace
}  // namespace rill::testing
