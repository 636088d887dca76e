// The multi-process tests' main: joins the job, runs the tests on every rank, and prints
// each rank's verdict (ranks other than 0 print only failures).
#include "dist_test_util.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new rill::testing::DistEnvironment);
  const int result = RUN_ALL_TESTS();
  std::printf("rank %d of %d: %s\n", rill::dist::Rank(), rill::dist::Size(),
              result == 0 ? "all tests passed" : "FAILED");
  return result;
}
