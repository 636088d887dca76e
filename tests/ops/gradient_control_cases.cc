// The gradient checks' cases of Switch and Merge, and of Print. Switch and Merge: a tf.cond
// built of them, with the predicate a constant each way, so the numeric derivative runs the
// same branch as the symbolic one; a second value enters each branch through a Switch of
// its own, as tf.cond routes every outside value. Print (printing nothing: FirstN(0)): its
// input's gradient passes through, its data get none.
#include "gradient_cases.h"
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/debug_ops.h"

namespace rill::testing::gradient_cases {

void ControlCases(CaseList& l) {
  for (bool pred : {false, true}) {
    l.cases.push_back({std::string("Switch_Merge_") + (pred ? "true" : "false"),
                       {"Switch", "Merge"},
                       [pred](const Scope& s, const Xs& in) {
                         const Output p = Const(s, pred);
                         ops::Switch x(s, in[0], p), y(s, in[1], p);
                         const Output no = Mul(s, Square(s, x.output_false), y.output_false);
                         const Output yes =
                             Add(s, Tanh(s, x.output_true), Mul(s, x.output_true, y.output_true));
                         return ops::Merge(s, {no, yes}).output;
                       },
                       {Vals({2, 3}, -1, 1, 91), Vals({2, 3}, -1, 1, 92)}});
  }
  l.cases.push_back({"Print",
                     {"Print"},
                     [](const Scope& s, const Xs& in) {
                       const Output p = ops::Print(s, in[0], {in[1]}, ops::Print::FirstN(0));
                       return Mul(s, p, in[1]);
                     },
                     {Vals({2, 3}, -1, 1, 93), Vals({2, 3}, -1, 1, 94)}});
}

}  // namespace rill::testing::gradient_cases
