// The op tester: one case, every device. A case builds a small graph over placeholders fed
// with its inputs. The tester runs it on the CPU and, where this process sees a GPU, with
// the output's node pinned to the GPU and soft placement off (a missing GPU kernel fails),
// and holds each result to the same graph computed in float64 on the CPU (floating inputs
// widened to double): an op's case is its CPU test and its GPU parity test at once.
//
// Cases register themselves from any test file (RILL_OP_CASES); tests/ops/op_cases_test.cc
// runs them all, and the registry test requires a case for every op with a GPU kernel.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"

namespace rill::testing {

struct OpCase {
  std::string name;
  BuildFn build;
  std::vector<Tensor> inputs;
  // Tolerance of a float32 result against the float64 reference (relative, with an
  // absolute floor; float64 results are held to 1e-9).
  double rtol = 1e-4;
  // false for ops whose result must not depend on precision (integers, data movement,
  // random numbers, comparisons): every device is held to the CPU in the case's own
  // dtypes, exactly unless rtol says otherwise.
  bool float64_reference = true;
};

// Runs the case on every device present that has a kernel for its output's op, and checks
// each result (gtest failures); returns whether it ran on the GPU.
bool ExpectOpCase(const OpCase& c);

// Whether the case's output op has a GPU kernel for the case's dtypes.
bool HasGpuKernel(const OpCase& c);

// The op types of the case's graph (built on the CPU, not run).
std::set<std::string> OpsOf(const OpCase& c);

// The registered groups of cases (one test each), and a group's cases.
std::vector<std::string> OpCaseGroups();
std::vector<OpCase> OpCasesOf(const std::string& group);
std::vector<OpCase> AllOpCases();

struct OpCaseRegistration {
  OpCaseRegistration(const char* group, std::function<std::vector<OpCase>()> make);
};
#define RILL_OP_CASES(group, make) \
  const ::rill::testing::OpCaseRegistration rill_op_cases_##group [[maybe_unused]] (#group, make)

}  // namespace rill::testing
