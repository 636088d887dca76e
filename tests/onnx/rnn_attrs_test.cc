// The recurrent ops' sequence_lens and clip. sequence_lens: each batch row runs as the same
// op over its own rows alone (its first L steps), both directions, unrolled (the length
// known while importing) and as a While loop (known only when the model runs); its outputs
// past L are zeros and its final state is the one after its last step. clip: every gate's
// input bounded, against a plain C++ step of each cell.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "onnx/onnx_pb.h"
#include "onnx_test_util.h"
#include "rill/rill.h"

namespace rill {
namespace {
namespace rnn_attrs_test {

using ::onnx::TensorProto;
using namespace onnx_test;

constexpr int64_t kHidden = 3, kInput = 2;

int GatesOf(const std::string& op) { return op == "LSTM" ? 4 : op == "GRU" ? 3 : 1; }

// `op` over X [steps (-1: unknown), batch, 2] with fixed weights, and sequence_lens fed as
// "L" when `lens`.
std::string Model(const std::string& op, int64_t steps, int64_t batch, const std::string& direction,
                  bool lens, float clip = -1) {
  auto m = NewModel();
  AddInput(&m, "X", {steps, batch, kInput});
  const int64_t dirs = direction == "bidirectional" ? 2 : 1, gh = GatesOf(op) * kHidden;
  auto values = [](int64_t n, float scale, int mod) {
    std::vector<float> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(i % mod) - 0.2f;
    return v;
  };
  AddFloatInit(&m, "W", {dirs, gh, kInput}, values(dirs * gh * kInput, 0.1f, 7));
  AddFloatInit(&m, "R", {dirs, gh, kHidden}, values(dirs * gh * kHidden, 0.07f, 5));
  AddFloatInit(&m, "B", {dirs, 2 * gh}, values(dirs * 2 * gh, 0.03f, 4));
  std::vector<std::string> in = {"X", "W", "R", "B"};
  if (lens) {
    AddInput(&m, "L", {batch}, TensorProto::INT32);
    in.push_back("L");
  }
  std::vector<std::string> out = {"Y", "Y_h"};
  if (op == "LSTM") out.push_back("Y_c");
  auto* n = AddNode(&m, op, in, out);
  auto* h = n->add_attribute();
  h->set_name("hidden_size");
  h->set_type(::onnx::AttributeProto::INT);
  h->set_i(kHidden);
  AddStringAttr(n, "direction", direction);
  if (clip > 0) {
    auto* a = n->add_attribute();
    a->set_name("clip");
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(clip);
  }
  for (const std::string& o : out) AddOutput(&m, o);
  return Bytes(m);
}

// Y and Y_h (and Y_c of an LSTM).
std::vector<Tensor> Outputs(const std::string& bytes, const Tensor& x, const Tensor* lens,
                            bool lstm) {
  Scope root = Scope::NewRootScope();
  auto model = onnx::ImportModel(root, bytes);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return {};
  Session session(root);
  Session::FeedType feeds = {{model->input("X"), x}};
  if (lens != nullptr) feeds.emplace(model->input("L"), *lens);
  std::vector<Output> fetch = {model->output("Y"), model->output("Y_h")};
  if (lstm) fetch.push_back(model->output("Y_c"));
  std::vector<Tensor> got;
  absl::Status st = session.Run(feeds, fetch, &got);
  EXPECT_TRUE(st.ok()) << st;
  return got;
}

// Rows [0, steps) of batch row b of X [T, B, I], as [steps, 1, I].
Tensor RowOf(const Tensor& x, int64_t b, int64_t steps) {
  const int64_t batch = x.dim_size(1);
  Tensor r(DT_FLOAT, TensorShape({steps, 1, kInput}));
  for (int64_t t = 0; t < steps; ++t) {
    for (int64_t i = 0; i < kInput; ++i) {
      r.flat<float>()(t * kInput + i) = x.flat<float>()((t * batch + b) * kInput + i);
    }
  }
  return r;
}

TEST(OnnxRnn, SequenceLensRunEachRowAsItsOwnSequence) {
  const int64_t T = 5, B = 3;
  const std::vector<int32_t> lengths = {5, 1, 3};
  Tensor x(DT_FLOAT, TensorShape({T, B, kInput}));
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    x.flat<float>()(i) = 0.37f * static_cast<float>(i % 11) - 1.f;
  }
  Tensor lens(DT_INT32, TensorShape({B}));
  for (int64_t b = 0; b < B; ++b) lens.flat<int32_t>()(b) = lengths[b];
  for (const std::string op : {"RNN", "GRU", "LSTM"}) {
    for (const std::string dir : {"forward", "reverse", "bidirectional"}) {
      const int64_t dirs = dir == "bidirectional" ? 2 : 1;
      for (bool dynamic : {false, true}) {
        const std::string what = absl::StrCat(op, " ", dir, dynamic ? " (While)" : " (unrolled)");
        const bool lstm = op == "LSTM";
        const std::vector<Tensor> got =
            Outputs(Model(op, dynamic ? -1 : T, B, dir, true), x, &lens, lstm);
        ASSERT_EQ(got.size(), lstm ? 3u : 2u) << what;
        ASSERT_EQ(got[0].shape(), TensorShape({T, dirs, B, kHidden})) << what;
        for (int64_t b = 0; b < B; ++b) {
          const int64_t L = lengths[b];
          const std::vector<Tensor> want =
              Outputs(Model(op, L, 1, dir, false), RowOf(x, b, L), nullptr, lstm);
          ASSERT_EQ(want.size(), got.size()) << what;
          for (int64_t t = 0; t < T; ++t) {
            for (int64_t d = 0; d < dirs; ++d) {
              for (int64_t h = 0; h < kHidden; ++h) {
                const float y = got[0].flat<float>()(((t * dirs + d) * B + b) * kHidden + h);
                const float w = t < L ? want[0].flat<float>()((t * dirs + d) * kHidden + h) : 0.f;
                EXPECT_NEAR(y, w, 1e-5) << what << " row " << b << " step " << t;
              }
            }
          }
          for (size_t k = 1; k < got.size(); ++k) {  // Y_h, Y_c
            for (int64_t d = 0; d < dirs; ++d) {
              for (int64_t h = 0; h < kHidden; ++h) {
                EXPECT_NEAR(got[k].flat<float>()((d * B + b) * kHidden + h),
                            want[k].flat<float>()(d * kHidden + h), 1e-5)
                    << what << " final state " << k << " of row " << b;
              }
            }
          }
        }
      }
    }
  }
}

// Model()'s weights (one direction), as it writes them.
std::vector<float> Weights(int64_t n, float scale, int mod) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(i % mod) - 0.2f;
  return v;
}

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// One forward direction of `op` over x [T, 1, I] with Model()'s weights and gate inputs
// clipped to [-clip, clip], in doubles: the h of every step. *clipped counts the inputs
// the clip changed.
std::vector<std::vector<double>> Reference(const std::string& op, const Tensor& x, double clip,
                                           int* clipped) {
  const int64_t G = GatesOf(op), H = kHidden, I = kInput, T = x.dim_size(0);
  const std::vector<float> W = Weights(G * H * I, 0.1f, 7), R = Weights(G * H * H, 0.07f, 5),
                           B = Weights(2 * G * H, 0.03f, 4);
  auto cl = [&](double v) {
    const double c = std::clamp(v, -clip, clip);
    *clipped += c != v;
    return c;
  };
  // Gate g's input for unit j: x W^T + (h, or r * h for GRU's candidate) R^T + both biases.
  auto gate = [&](int64_t t, const std::vector<double>& h, int64_t g, int64_t j) {
    double v = B[g * H + j] + B[G * H + g * H + j];
    for (int64_t i = 0; i < I; ++i) v += x.flat<float>()(t * I + i) * W[(g * H + j) * I + i];
    for (int64_t k = 0; k < H; ++k) v += h[k] * R[(g * H + j) * H + k];
    return v;
  };
  std::vector<double> h(H, 0.0), c(H, 0.0);
  std::vector<std::vector<double>> ys;
  for (int64_t t = 0; t < T; ++t) {
    std::vector<double> next(H);
    for (int64_t j = 0; j < H; ++j) {
      if (op == "RNN") {
        next[j] = std::tanh(cl(gate(t, h, 0, j)));
      } else if (op == "LSTM") {  // gates i, o, f, c
        const double i = Sigmoid(cl(gate(t, h, 0, j))), o = Sigmoid(cl(gate(t, h, 1, j)));
        const double f = Sigmoid(cl(gate(t, h, 2, j))), g = std::tanh(cl(gate(t, h, 3, j)));
        c[j] = f * c[j] + i * g;
        next[j] = o * std::tanh(c[j]);
      } else {  // GRU z, r, h (linear_before_reset 0): the candidate reads r * h
        const double z = Sigmoid(cl(gate(t, h, 0, j)));
        std::vector<double> rh(H);
        for (int64_t k = 0; k < H; ++k) rh[k] = Sigmoid(cl(gate(t, h, 1, k))) * h[k];
        const double cand = std::tanh(cl(gate(t, rh, 2, j)));
        next[j] = (1 - z) * cand + z * h[j];
      }
    }
    h = next;
    ys.push_back(h);
  }
  return ys;
}

TEST(OnnxRnn, ClipBoundsEveryGateInput) {
  const int64_t T = 4;
  Tensor x(DT_FLOAT, TensorShape({T, 1, kInput}));
  for (int64_t i = 0; i < x.NumElements(); ++i) {
    x.flat<float>()(i) = 1.3f * static_cast<float>(i % 5) - 2.f;
  }
  for (const std::string op : {"RNN", "GRU", "LSTM"}) {
    for (bool dynamic : {false, true}) {
      const std::string what = absl::StrCat(op, dynamic ? " (While)" : " (unrolled)");
      int clipped = 0;
      const std::vector<std::vector<double>> want = Reference(op, x, 0.25, &clipped);
      EXPECT_GT(clipped, 0) << what << ": the clip must change some inputs";
      const std::vector<Tensor> got = Outputs(
          Model(op, dynamic ? -1 : T, 1, "forward", false, 0.25f), x, nullptr, op == "LSTM");
      ASSERT_FALSE(got.empty()) << what;
      for (int64_t t = 0; t < T; ++t) {
        for (int64_t j = 0; j < kHidden; ++j) {
          EXPECT_NEAR(got[0].flat<float>()(t * kHidden + j), want[t][j], 1e-5)
              << what << " step " << t << " unit " << j;
        }
      }
    }
  }
}

}  // namespace rnn_attrs_test
}  // namespace
}  // namespace rill
