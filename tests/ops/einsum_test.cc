// Einsum: against a direct evaluation of the sum for contractions of every shape of plan
// (operands and output permuted or not, no batch, no contraction), every dtype; refusals;
// op cases on every device; gradients against central differences.
#include <map>

#include "gradient_checker.h"
#include "rill/ops/einsum_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {

MarkTested tested({"Einsum"});

using Xs = std::vector<Output>;

// The sum over every assignment of the labels, straight from the equation.
std::vector<double> Reference(const std::string& eq, const Tensor& x, const Tensor& y) {
  const std::string xl = eq.substr(0, eq.find(',')),
                    yl = eq.substr(eq.find(',') + 1, eq.find('-') - eq.find(',') - 1),
                    ol = eq.substr(eq.find('>') + 1);
  std::map<char, int64_t> size;
  for (size_t i = 0; i < xl.size(); ++i) size[xl[i]] = x.dim_size(i);
  for (size_t i = 0; i < yl.size(); ++i) size[yl[i]] = y.dim_size(i);
  std::string labels;
  int64_t total = 1, out_n = 1;
  for (auto [c, s] : size) labels += c, total *= s;
  for (char c : ol) out_n *= size[c];
  const auto vx = ToDoubles(x), vy = ToDoubles(y);
  std::vector<double> out(out_n, 0);
  auto flat = [&](const std::string& term, const std::map<char, int64_t>& at) {
    int64_t f = 0;
    for (char c : term) f = f * size[c] + at.at(c);
    return f;
  };
  for (int64_t i = 0; i < total; ++i) {
    std::map<char, int64_t> at;
    int64_t rest = i;
    for (int j = static_cast<int>(labels.size()) - 1; j >= 0; --j) {
      at[labels[j]] = rest % size[labels[j]];
      rest /= size[labels[j]];
    }
    out[flat(ol, at)] += vx[flat(xl, at)] * vy[flat(yl, at)];
  }
  return out;
}

struct Case {
  std::string eq;
  TensorShape x, y, out;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"ij,jk->ik", {3, 4}, {4, 5}, {3, 5}},
      {"ij,jk->ki", {3, 4}, {4, 5}, {5, 3}},
      {"bij,bkj->bik", {2, 3, 4}, {2, 5, 4}, {2, 3, 5}},
      {"bhqd,bhkd->bhqk", {2, 3, 4, 5}, {2, 3, 6, 5}, {2, 3, 4, 6}},
      {"jb,bj->b", {4, 3}, {3, 4}, {3}},
      {"i,i->", {6}, {6}, {}},
      {"i,j->ji", {3}, {4}, {4, 3}},
      {"ij,j->i", {3, 4}, {4}, {3}},
      {"abc,cd->dba", {2, 3, 4}, {4, 2}, {2, 3, 2}},
  };
  return cases;
}

TEST(Einsum, MatchesTheSumForEveryPlan) {
  uint32_t seed = 130;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    for (const Case& c : Cases()) {
      SCOPED_TRACE(DataTypeString(dt) + " " + c.eq);
      const Tensor x = RandomTensor(dt, c.x, -3, 3, seed++),
                   y = RandomTensor(dt, c.y, -3, 3, seed++);
      auto got = RunOp(
          [eq = c.eq](const Scope& s, const auto& in) {
            return ops::Einsum(s, {in[0], in[1]}, eq);
          },
          {x, y});
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, c.out, Reference(c.eq, x, y), Tolerance(dt));
    }
  }
}

TEST(Einsum, RefusesWhatIsNotABatchedGemm) {
  const Tensor m = Tensor(DT_FLOAT, TensorShape({3, 3}));
  for (const char* eq :
       {"ii,ij->ij", "ij,jk", "ij,jk->iz", "ij,kl->i", "...ij,...jk->...ik", "ij,jk,kl->il"}) {
    SCOPED_TRACE(eq);
    auto r = RunOp(
        [eq](const Scope& s, const auto& in) {
          return ops::Einsum(s, {in[0], in[1]}, eq);
        },
        {m, m});
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  }
  // Sizes of a shared label that differ.
  EXPECT_FALSE(RunOp(
                   [](const Scope& s, const auto& in) {
                     return ops::Einsum(s, {in[0], in[1]}, "ij,jk->ik");
                   },
                   {m, Tensor(DT_FLOAT, TensorShape({4, 2}))})
                   .ok());
}

TEST(Einsum, GradientsMatchNumeric) {
  uint32_t seed = 140;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.eq);
    ExpectGradientMatchesNumeric(
        [eq = c.eq](const Scope& s, const Xs& in) {
          return Output(ops::Einsum(s, {in[0], in[1]}, eq));
        },
        {RandomTensor(DT_DOUBLE, c.x, -1, 1, seed), RandomTensor(DT_DOUBLE, c.y, -1, 1, seed + 1)});
    seed += 2;
  }
}

std::vector<OpCase> Einsums() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (const Case& e : Cases()) {
      c.push_back({"Einsum " + e.eq + " " + DataTypeString(dt),
                   [eq = e.eq](const Scope& s, const auto& in) {
                     return ops::Einsum(s, {in[0], in[1]}, eq);
                   },
                   {RandomTensor(dt, e.x, -1, 1, 150), RandomTensor(dt, e.y, -1, 1, 151)}});
    }
  }
  return c;
}

const bool kMarked = [] {
  GradTestedOps().insert("Einsum");
  return true;
}();

}  // namespace

RILL_OP_CASES(einsum, Einsums);

}  // namespace rill::testing
