// Every op of the registry has a valid recipe and at least five bad-input cases: the
// generic ones (arity, attributes, dtypes) and its own (shapes, values, attribute values),
// each refused with the right code and a message naming the node and the op, and, when the
// kernel refuses it, the device. The per-op table in docs/robustness.md is this test's
// output.
#include "ops/bad_input.h"

#include <cstdio>
#include <map>

namespace rill::testing {
namespace {
namespace bad_input_test {

std::vector<BadCase> AllCases() {
  std::vector<BadCase> all = SpecificCases();
  for (const auto& [op, recipe] : Recipes()) {
    for (BadCase& c : GenericCases(recipe)) all.push_back(std::move(c));
  }
  return all;
}

TEST(BadInputs, EveryRecipeIsValid) {
  for (const auto& [op, recipe] : Recipes()) {
    for (bool fed : {false, true}) {
      Outcome o = Try(recipe, fed);
      EXPECT_TRUE(o.added.ok()) << op << (fed ? " fed: " : ": ") << o.added;
      if (recipe.runs) {
        EXPECT_TRUE(o.ran.ok()) << op << (fed ? " fed: " : ": ") << o.ran;
      }
    }
  }
}

TEST(BadInputs, EveryCaseIsRefusedWithItsCodeNamingNodeOpAndDevice) {
  for (const BadCase& c : AllCases()) {
    SCOPED_TRACE(c.recipe.op + ": " + c.what);
    const bool in_kernel = c.where == Where::kRun;
    Outcome o = Try(c.recipe, /*fed=*/in_kernel);
    const absl::Status& st = in_kernel ? o.ran : o.added;
    if (in_kernel && !o.added.ok()) {
      ADD_FAILURE() << "refused before it ran: " << o.added;
      continue;
    }
    if (st.ok()) {
      ADD_FAILURE() << "accepted";
      continue;
    }
    EXPECT_EQ(st.code(), c.code) << st;
    std::vector<std::string> mentions = c.mentions;
    mentions.push_back("bad_node");
    mentions.push_back(c.recipe.op);
    if (in_kernel && c.names_device) mentions.push_back("CPU:0");
    for (const std::string& m : mentions) {
      EXPECT_NE(st.message().find(m), std::string::npos) << "no '" << m << "' in: " << st;
    }
  }
}

TEST(BadInputs, EveryOpHasAtLeastFiveCases) {
  std::map<std::string, std::pair<int, int>> counts;  // op -> generic, specific
  for (const BadCase& c : AllCases()) {
    (c.generic ? counts[c.recipe.op].first : counts[c.recipe.op].second)++;
  }
  std::printf("| op | generic | own | total |\n|---|---|---|---|\n");
  int total = 0;
  for (const std::string& op : OpRegistry::Global()->ListOps()) {
    EXPECT_TRUE(Recipes().contains(op)) << op << " has no recipe";
    const auto [generic, own] = counts[op];
    EXPECT_GE(generic + own, 5) << op;
    std::printf("| %s | %d | %d | %d |\n", op.c_str(), generic, own, generic + own);
    total += generic + own;
  }
  std::printf("%d cases over %zu ops\n", total, OpRegistry::Global()->ListOps().size());
}

}  // namespace bad_input_test
}  // namespace
}  // namespace rill::testing
