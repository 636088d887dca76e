// Every registered op case (support/op_tester.h) on every device present, one test per
// group: on a machine without a GPU, the CPU against float64; with one, the GPU too.
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace op_cases_test {

class OpCases : public ::testing::TestWithParam<std::string> {};

TEST_P(OpCases, OnEveryDeviceAgainstFloat64) {
  const std::vector<OpCase> cases = OpCasesOf(GetParam());
  ASSERT_FALSE(cases.empty());
  for (const OpCase& c : cases) ExpectOpCase(c);
  std::printf("%zu cases on %s\n", cases.size(), HaveGpu() ? "CPU and GPU" : "the CPU");
}

INSTANTIATE_TEST_SUITE_P(Registered, OpCases, ::testing::ValuesIn(OpCaseGroups()),
                         [](const auto& info) { return info.param; });

}  // namespace op_cases_test
}  // namespace
}  // namespace rill::testing
