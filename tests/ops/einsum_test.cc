// Einsum: against a direct evaluation of the sum straight from the equation for one and two
// operands (transposes, contractions, diagonals, sums within an operand, repeated output
// labels, ellipses broadcast wholly and partly, empty sizes), every dtype; refusals; op
// cases on every device; gradients against central differences.
#include <atomic>
#include <cmath>
#include <map>
#include <thread>

#include "gradient_checker.h"
#include "rill/ops/einsum_ops.h"
#include "support/op_tester.h"

namespace rill::testing {
namespace {
namespace einsum_test {

MarkTested tested({"Einsum"});

using Xs = std::vector<Output>;

// A term with its "..." spelled as `count` digits, right-aligned among the output's `total`.
std::string Spell(const std::string& term, int count, int total) {
  const size_t e = term.find("...");
  if (e == std::string::npos) return term;
  std::string digits;
  for (int j = 0; j < count; ++j) digits += static_cast<char>('0' + total - count + j);
  return term.substr(0, e) + digits + term.substr(e + 3);
}

// The sum over every assignment of the labels, evaluated from the equation alone: each
// operand read at its labels' values (0 along a broadcast dim of size 1), the product added
// where the output's labels agree with the assignment (a repeated output label: only on its
// diagonal).
std::vector<double> Reference(const std::string& eq, const std::vector<Tensor>& in) {
  const size_t arrow = eq.find("->");
  std::vector<std::string> terms;
  for (size_t b = 0, c; b <= arrow; b = c + 1) {
    c = std::min(eq.find(',', b), arrow);
    terms.push_back(eq.substr(b, c - b));
  }
  int total = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (terms[i].find("...") != std::string::npos) {
      total = std::max(total, static_cast<int>(in[i].dims() - terms[i].size() + 3));
    }
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < in.size(); ++i) {
    terms[i] = Spell(terms[i], in[i].dims() - static_cast<int>(terms[i].size()) + 3, total);
    for (size_t d = 0; d < terms[i].size(); ++d) {
      size[terms[i][d]] = std::max(size[terms[i][d]], in[i].dim_size(d));
    }
  }
  const std::string out = Spell(eq.substr(arrow + 2), total, total);
  std::string labels;
  int64_t assignments = 1, out_n = 1;
  for (auto [c, s] : size) labels += c, assignments *= s;
  for (char c : out) out_n *= size[c];
  std::vector<std::vector<double>> v;
  for (const Tensor& t : in) v.push_back(ToDoubles(t));
  std::vector<double> result(out_n, 0);
  std::map<char, int64_t> at;
  auto flat = [&](const std::string& term, const Tensor* t) {
    int64_t f = 0;
    for (size_t d = 0; d < term.size(); ++d) {
      const int64_t s = t ? t->dim_size(d) : size[term[d]];
      f = f * s + (s == 1 ? 0 : at[term[d]]);
    }
    return f;
  };
  for (int64_t a = 0; a < assignments; ++a) {
    int64_t rest = a;
    for (int j = static_cast<int>(labels.size()) - 1; j >= 0; --j) {
      at[labels[j]] = rest % size[labels[j]];
      rest /= size[labels[j]];
    }
    double p = 1;
    for (size_t i = 0; i < in.size(); ++i) p *= v[i][flat(terms[i], &in[i])];
    result[flat(out, nullptr)] += p;
  }
  return result;
}

struct Case {
  std::string eq;
  std::vector<TensorShape> in;
  TensorShape out;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      // one operand
      {"ij->ji", {{3, 4}}, {4, 3}},
      {"ij->ij", {{3, 4}}, {3, 4}},
      {"ii->", {{3, 3}}, {}},
      {"ii->i", {{4, 4}}, {4}},
      {"iij->ji", {{3, 3, 2}}, {2, 3}},
      {"ijk->ki", {{2, 3, 4}}, {4, 2}},
      {"ij->", {{3, 4}}, {}},
      {"i->ii", {{3}}, {3, 3}},
      {"ij->jii", {{2, 3}}, {3, 2, 2}},
      {"...ii->...i", {{2, 3, 3}}, {2, 3}},
      {"...ij->...ji", {{2, 2, 3, 4}}, {2, 2, 4, 3}},
      {"i...->...", {{3, 2, 2}}, {2, 2}},
      // two operands
      {"ij,jk->ik", {{3, 4}, {4, 5}}, {3, 5}},
      {"ij,jk->ki", {{3, 4}, {4, 5}}, {5, 3}},
      {"ji,jk->ik", {{4, 3}, {4, 5}}, {3, 5}},
      {"ji,kj->ik", {{4, 3}, {5, 4}}, {3, 5}},
      {"bij,bkj->bik", {{2, 3, 4}, {2, 5, 4}}, {2, 3, 5}},
      {"bhqd,bhkd->bhqk", {{2, 3, 4, 5}, {2, 3, 6, 5}}, {2, 3, 4, 6}},
      {"jb,bj->b", {{4, 3}, {3, 4}}, {3}},
      {"i,i->", {{6}, {6}}, {}},
      {"i,i->i", {{6}, {6}}, {6}},
      {"i,j->ji", {{3}, {4}}, {4, 3}},
      {"ij,j->i", {{3, 4}, {4}}, {3}},
      {"abc,cd->dba", {{2, 3, 4}, {4, 2}}, {2, 3, 2}},
      {"abc,cd->ad", {{3, 2, 4}, {4, 5}}, {3, 5}},
      {"ij,kl->ik", {{2, 3}, {4, 5}}, {2, 4}},
      {"ii,ij->j", {{3, 3}, {3, 4}}, {4}},
      {"i,j->iij", {{2}, {3}}, {2, 2, 3}},
      {"...ij,...jk->...ik", {{3, 2, 3}, {3, 4}}, {3, 2, 4}},
      {"...ij,...jk->...ik", {{2, 1, 3, 4}, {3, 4, 2}}, {2, 3, 3, 2}},
      {"...ij,jk...->ik...", {{2, 1, 3, 4}, {4, 2, 1, 5}}, {3, 2, 2, 5}},
      {"...i,...i->...", {{3, 4}, {4}}, {3}},
      {"ij,jk->ik", {{2, 0}, {0, 3}}, {2, 3}},
      {"ij,jk->ik", {{0, 2}, {2, 3}}, {0, 3}},
  };
  return cases;
}

absl::StatusOr<Tensor> RunEinsum(const std::string& eq, const std::vector<Tensor>& in) {
  return RunOp(
      [eq](const Scope& s, const auto& x) {
        return ops::Einsum(s, InputList(std::vector<Output>(x.begin(), x.end())), eq);
      },
      in);
}

TEST(Einsum, MatchesTheSumForEveryKindOfEquation) {
  uint32_t seed = 130;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64}) {
    for (const Case& c : Cases()) {
      SCOPED_TRACE(DataTypeString(dt) + " " + c.eq);
      std::vector<Tensor> in;
      for (const TensorShape& s : c.in) in.push_back(RandomTensor(dt, s, -3, 3, seed++));
      auto got = RunEinsum(c.eq, in);
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectTensorNear(*got, dt, c.out, Reference(c.eq, in), Tolerance(dt));
    }
  }
}

// A kernel keeps its last plan while the shapes stay: fed other shapes, it plans again.
TEST(Einsum, FedOtherShapesPlansAgain) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_DOUBLE), y = ops::Placeholder(s, DT_DOUBLE);
  auto z = ops::Einsum(s, {x, y}, "...ij,...jk->...ik");
  Session session(s);
  uint32_t seed = 170;
  for (const Case& c : std::vector<Case>{{"", {{2, 3}, {3, 4}}, {2, 4}},
                                         {"", {{2, 2, 3}, {3, 1}}, {2, 2, 1}},
                                         {"", {{2, 3}, {3, 4}}, {2, 4}},
                                         {"", {{5, 1, 1, 2}, {2, 2, 3}}, {5, 2, 1, 3}}}) {
    SCOPED_TRACE(c.in[0].DebugString() + " " + c.in[1].DebugString());
    const Tensor xv = RandomTensor(DT_DOUBLE, c.in[0], -1, 1, seed++);
    const Tensor yv = RandomTensor(DT_DOUBLE, c.in[1], -1, 1, seed++);
    std::vector<Tensor> got;
    ASSERT_TRUE(session.Run({{x, xv}, {y, yv}}, {z}, &got).ok());
    ExpectTensorNear(got[0], DT_DOUBLE, c.out, Reference("...ij,...jk->...ik", {xv, yv}), 1e-12);
  }
}

// The kept plan is shared by runs on several threads, each feeding its own shapes.
TEST(Einsum, RunsFromSeveralThreadsWithTheirOwnShapes) {
  Scope s = Scope::NewRootScope();
  auto x = ops::Placeholder(s, DT_DOUBLE), y = ops::Placeholder(s, DT_DOUBLE);
  auto z = ops::Einsum(s, {x, y}, "ij,jk->ik");
  Session session(s);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      const Tensor xv = RandomTensor(DT_DOUBLE, {t + 1, 3}, -1, 1, 180 + t);
      const Tensor yv = RandomTensor(DT_DOUBLE, {3, 2}, -1, 1, 190 + t);
      const std::vector<double> want = Reference("ij,jk->ik", {xv, yv});
      for (int i = 0; i < 50; ++i) {
        std::vector<Tensor> got;
        if (!session.Run({{x, xv}, {y, yv}}, {z}, &got).ok() ||
            ToDoubles(got[0]).size() != want.size()) {
          ++wrong;
          continue;
        }
        const std::vector<double> v = ToDoubles(got[0]);
        for (size_t k = 0; k < v.size(); ++k) wrong += std::abs(v[k] - want[k]) > 1e-12;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Einsum, RefusesBadEquationsAndShapes) {
  const Tensor m(DT_FLOAT, TensorShape({3, 3})), v(DT_FLOAT, TensorShape({3}));
  const Tensor cube(DT_FLOAT, TensorShape({2, 3, 3}));
  struct Bad {
    std::string eq;
    std::vector<Tensor> in;
    std::string says;
  };
  for (const Bad& b : std::vector<Bad>{
           {"ij,jk", {m, m}, "'->'"},
           {"ij,jk,kl->il", {m, m, m}, "one or two"},
           {"ij->iz", {m}, "no operand"},
           {"i.j->ij", {m}, "not a label"},
           {"...i...->i", {m}, "more than one ellipsis"},
           {"ijk->i", {m}, "rank 2"},
           {"ij,jk->ik", {m, Tensor(DT_FLOAT, TensorShape({4, 2}))}, "size 4"},
           {"...i,...i->...",
            {Tensor(DT_FLOAT, TensorShape({2, 3})), cube},
            "dim 1 of '...' has size 3 in operand 1"},
           {"...ij->ij", {cube}, "no '...'"},
           {"i->iiiiiiiii", {v}, "rank 9"},
           {"ij->i", {m, m}, "1 operand term"},
       }) {
    SCOPED_TRACE(b.eq);
    auto r = RunEinsum(b.eq, b.in);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(std::string(r.status().message()).find(b.says), std::string::npos) << r.status();
  }
}

TEST(Einsum, GradientsMatchNumeric) {
  uint32_t seed = 140;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.eq);
    std::vector<Tensor> in;
    for (const TensorShape& s : c.in) in.push_back(RandomTensor(DT_DOUBLE, s, -1, 1, seed++));
    ExpectGradientMatchesNumeric(
        [eq = c.eq](const Scope& s, const Xs& x) { return Output(ops::Einsum(s, x, eq)); }, in);
  }
}

std::vector<OpCase> Einsums() {
  std::vector<OpCase> c;
  for (DataType dt : {DT_FLOAT, DT_DOUBLE}) {
    for (const Case& e : Cases()) {
      std::vector<Tensor> in;
      for (const TensorShape& s : e.in) in.push_back(RandomTensor(dt, s, -1, 1, 150 + in.size()));
      c.push_back({"Einsum " + e.eq + " " + DataTypeString(dt),
                   [eq = e.eq](const Scope& s, const auto& x) {
                     return ops::Einsum(s, InputList(std::vector<Output>(x.begin(), x.end())), eq);
                   },
                   in});
    }
  }
  return c;
}

const bool kMarked = [] {
  GradTestedOps().insert("Einsum");
  return true;
}();

}  // namespace einsum_test
}  // namespace

RILL_OP_CASES(einsum, einsum_test::Einsums);

}  // namespace rill::testing
