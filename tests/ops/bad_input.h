// Bad-input cases for every registered op. A `Recipe` is a valid use of an op (its input
// values and attributes); a `BadCase` changes one thing in it and says where the change
// must be caught: when the node is added (shape functions see Const inputs' shapes and
// values), or when it runs with every input fed to a placeholder of unknown shape (so the
// kernel itself must validate). The recipe itself must build and run, so each case fails
// for the reason it names.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "test_util.h"

namespace rill::testing {

struct Recipe {
  Recipe(std::string op_name, std::vector<Tensor> in, AttrMap at = {}, bool can_run = true)
      : op(std::move(op_name)), inputs(std::move(in)), attrs(std::move(at)), runs(can_run) {}
  std::string op;
  std::vector<Tensor> inputs;  // ref inputs become variables initialized to the value
  AttrMap attrs;               // type attrs come from the inputs unless set here
  bool runs = true;            // false: valid to add, but a run needs more (a feed, an init)
  std::function<void(Graph*, NodeSpec*)> tweak;  // a last change to the node (generic cases)
  std::vector<int> dead_outputs;  // outputs dead when it runs (a Switch's): not fetched
};

enum class Where { kConstruction, kRun };

struct BadCase {
  std::string what;
  Recipe recipe;  // the changed recipe
  Where where;
  absl::StatusCode code;
  std::vector<std::string> mentions;  // besides the node and op names
  bool generic = false;               // one of the checks every op gets (arity, attrs)
  bool names_device = true;           // a run-time refusal names the device
};

// A float32 / int32 tensor of `shape` with values 1, 2, 3, ... (or the given values).
Tensor F(std::vector<int64_t> shape, std::vector<float> values = {});
Tensor I(std::vector<int64_t> shape, std::vector<int32_t> values = {});

// Adds the recipe's node as "bad_node" with Const inputs (or, when `fed`, placeholders of
// unknown shape fed the values), then runs it on the CPU when it was added.
struct Outcome {
  absl::Status added;
  absl::Status ran;  // OK when it was not run
};
Outcome Try(const Recipe& r, bool fed);

// Every op's valid recipe and its op-specific cases (bad_input_cases*.cc).
std::map<std::string, Recipe>& Recipes();
std::vector<BadCase>& SpecificCases();
struct AddRecipe {
  explicit AddRecipe(Recipe r);
};
struct AddCase {
  AddCase(std::string what, Recipe r, Where where, absl::StatusCode code,
          std::vector<std::string> mentions = {}, bool names_device = true);
};

// A case found both when the node is added (Const inputs) and when its kernel runs on fed
// inputs of unknown shape: two InvalidArgument checks, by different code.
void Both(const std::string& what, const Recipe& r, std::vector<std::string> mentions = {});

// The checks every op gets from its recipe: one input too many or too few, an unknown
// attribute, a required attribute missing or of the wrong kind, an input of a dtype the op
// does not take, a malformed device string, an edge from a missing output, a control input
// from another graph.
std::vector<BadCase> GenericCases(const Recipe& r);

}  // namespace rill::testing
