// Graphs built from random sequences of ops, inputs, attributes and shapes, then run on
// random feeds: every node is either added or refused with a Status, and every Run either
// succeeds or returns a Status that says what failed. Under ASan and UBSan (CI's second
// pass) this is a fuzz of graph construction and of every CPU kernel's validation.
#include "support/random_program.h"
#include "test_util.h"

namespace rill::testing {
namespace {

TEST(RandomGraphs, BuildAndRunNeverCrash) {
  int refused = 0;
  RunCounts counts;
  for (uint32_t seed = 0; seed < 1500; ++seed) {
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

}  // namespace
}  // namespace rill::testing
