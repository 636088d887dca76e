// Built against an installed rill by tests/consumer/run.sh.
#include <rill/rill.h>

#include <cstdio>

// A user's program, built without rill's -march, must see the library's Eigen alignment
// bound (rill::rill carries it), else the two halves allocate and free Eigen's temporaries
// differently.
static_assert(EIGEN_MAX_ALIGN_BYTES == 32, "rill::rill sets Eigen's alignment bound");

int main() {
  using namespace rill;  // NOLINT
  Scope root = Scope::NewRootScope();
  auto x = ops::Placeholder(root, DT_FLOAT);
  auto y = ops::Add(root, ops::MatMul(root, x, {{2.f}, {3.f}}), 1.f);
  ClientSession session(root);
  std::vector<Tensor> out;
  absl::Status s = session.Run({{x, {{1.f, 1.f}}}}, {y}, &out);
  if (!s.ok() || out[0].matrix<float>()(0, 0) != 6.f) {
    std::fprintf(stderr, "consumer: unexpected result: %s\n", s.ToString().c_str());
    return 1;
  }
  // A softmax: the library's kernel allocates Eigen temporaries.
  s = session.Run({{x, {{1.f, 1.f}}}}, {ops::Softmax(root, y)}, &out);
  if (!s.ok() || out[0].matrix<float>()(0, 0) != 1.f) {
    std::fprintf(stderr, "consumer: unexpected softmax: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("consumer: 1*2 + 1*3 + 1 = 6, its softmax 1\n");
  return 0;
}
