// The seeds' first lesson: a graph is only a specification until a Session runs it.
//   1. a = 3*4 + 2 is built, printed as a node (nothing computed), then run;
//   2. a placeholder fed twice with different values;
//   3. a variable that keeps counting across runs.
#include <cstdio>

#include "example_flags.h"
#include "rill/rill.h"

using namespace rill;  // NOLINT

int main(int argc, char** argv) {
  rill::examples::ParseFlags(
      argc, argv,
      "A first look at rill: builds a tiny graph and shows that nothing is computed until a\n"
      "Session runs it, feeds a placeholder two different values, and runs a variable that\n"
      "keeps counting across runs.");
  Scope root = Scope::NewRootScope();
  auto product = ops::Mul(root.WithOpName("product"), 3.0f, 4.0f);
  auto a = ops::Add(root.WithOpName("a"), product, 2.0f);
  std::printf("1. built '%s' (%s), dtype %s, shape %s: specified, not computed yet\n",
              a.node()->name().c_str(), a.node()->type_string().c_str(),
              DataTypeString(a.output.type()).c_str(), a.output.shape().DebugString().c_str());

  ClientSession session(root);
  std::vector<Tensor> out;
  absl::Status s = session.Run({a}, &out);
  if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
  std::printf("   session.Run(a) = %g\n", out[0].scalar<float>()());

  auto x = ops::Placeholder(root.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape({-1}));
  auto y = ops::Mul(root.WithOpName("y"), x, 2.0f);
  for (auto feed : {Input::Initializer({1.f, 2.f, 3.f}), Input::Initializer({10.f, 20.f})}) {
    s = session.Run({{x, feed}}, {y}, &out);
    if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
    std::printf("2. fed x = %s -> y = 2x = %s\n", feed.tensor.SummarizeValue().c_str(),
                out[0].SummarizeValue().c_str());
  }

  auto counter = ops::Variable(root.WithOpName("counter"), 0);
  auto increment = ops::AssignAdd(root.WithOpName("increment"), counter, 1);
  s = session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr);
  if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
  for (int i = 0; i < 3; ++i) {
    s = session.Run({increment}, &out);
    if (!s.ok()) return std::fprintf(stderr, "%s\n", s.ToString().c_str()), 1;
    std::printf("3. run %d: counter = %d\n", i + 1, out[0].scalar<int32_t>()());
  }
  return 0;
}
