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
  size_t on_gpu = 0;
  for (const OpCase& c : cases) on_gpu += ExpectOpCase(c) ? 1 : 0;
  std::printf("%zu cases on the CPU, %zu of them on the GPU too\n", cases.size(), on_gpu);
}

INSTANTIATE_TEST_SUITE_P(Registered, OpCases, ::testing::ValuesIn(OpCaseGroups()),
                         [](const auto& info) { return info.param; });

}  // namespace op_cases_test
}  // namespace
}  // namespace rill::testing
