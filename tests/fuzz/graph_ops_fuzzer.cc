// libFuzzer target: graphs built from fuzzed sequences of ops, inputs, attributes and
// shapes, then run. The bytes are the choices of tests/support/random_program.h (the same
// generator the RandomGraphs unit test drives from seeds): placeholders, eight nodes of
// any registered op, every node then fetched on its own with the placeholders fed (values
// include NaN, infinities and extreme integers). A node is either added or refused with a
// Status; a run either gives outputs of the inferred dtype and shape or a Status that is
// not Internal. Anything else, or a sanitizer report, is a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "rill/rill.h"
#include "support/random_program.h"

// The collectives run too: a job of one rank (the sanitizer builds have no MPI).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (absl::Status st = rill::dist::Init(); !st.ok()) {
    std::fprintf(stderr, "graph_ops_fuzzer: %s\n", st.ToString().c_str());
    __builtin_trap();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rill;
  testing::ByteChoices choices(absl::MakeConstSpan(data, size));
  choices.every_dtype = true;  // the narrow and unsigned integers too
  Scope root = Scope::NewRootScope();
  testing::RandomProgram program;
  absl::Status st = testing::BuildRandomProgram(choices, 8, /*wild=*/true, root.graph(), &program);
  if (st.ok()) {
    Session session(root, SessionOptions());
    testing::RunCounts counts;
    st = testing::RunEveryNode(session, root, program, &counts);
  }
  if (!st.ok()) {
    std::fprintf(stderr, "graph_ops_fuzzer: %s\n", st.ToString().c_str());
    __builtin_trap();
  }
  return 0;
}
