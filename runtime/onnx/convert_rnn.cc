// ONNX's recurrent ops (RNN, GRU, LSTM), unrolled over the sequence with ordinary rill ops,
// so gradients and GPU kernels come from those ops. The input projection of every step is
// one MatMul over the whole sequence; each step then adds H_{t-1} R^T and the biases and
// applies the gates in ONNX's order (LSTM i, o, f, c; GRU z, r, h) with the spec's
// equations. Both directions and bidirectional, initial states, LSTM peepholes and GRU's
// linear_before_reset and layout 1 (batch first) are supported; the sequence length must be
// known while importing for the unrolled form; a length known only when the model runs
// becomes a While loop over the steps (the same Step in its body). With sequence_lens, a
// batch row's steps at and past its length keep its state and output zeros (as ONNX
// Runtime: a reverse direction then starts at the row's last step). clip bounds every
// gate's input. input_forget and activations other than Sigmoid, Tanh and Relu are
// reported as unsupported.
#include "rill/ops/control_flow_ops.h"
#include "rill/ops/math_ops.h"
#include "rill/runtime/onnx/converter.h"

namespace rill::onnx::internal {
namespace {

enum class Cell { kRnn, kGru, kLstm };

int Gates(Cell cell) { return cell == Cell::kLstm ? 4 : cell == Cell::kGru ? 3 : 1; }
// Activation functions per direction: RNN f; GRU f, g; LSTM f, g, h.
int Functions(Cell cell) { return cell == Cell::kLstm ? 3 : cell == Cell::kGru ? 2 : 1; }

std::vector<std::string> Activations(const NodeAttrs& a) {
  std::vector<std::string> out;
  if (const auto* p = a.get("activations"); p != nullptr) {
    for (const auto& s : p->strings()) out.push_back(s);
  }
  return out;
}

std::string RnnSupport(const SupportView& v, Cell cell) {
  if (v.attrs.has("clip") && !(v.attrs.f("clip", 0) > 0)) return "a clip that is not positive";
  if (v.attrs.i("input_forget", 0) != 0) return "input_forget";
  if (v.attrs.has("activation_alpha") || v.attrs.has("activation_beta"))
    return "activation_alpha/beta";
  (void)cell;
  for (const std::string& f : Activations(v.attrs)) {
    if (f != "Sigmoid" && f != "Tanh" && f != "Relu") return absl::StrCat("activation ", f);
  }
  return "";
}

struct Params {
  Cell cell;
  int64_t hidden = 0;
  std::vector<std::string> f;  // activations, per direction: f, g(, h)
  float clip = -1;             // the clip attribute (none: -1)
};

// A gate's input clipped to [-clip, clip] where the node asks (ONNX: the input of the gates'
// activations; not an LSTM cell's state before h).
Output Clipped(const NodeContext& c, const Params& p, const Output& x) {
  if (p.clip < 0) return x;
  return c.Op("ClipByValue", {x, ScalarLike(c, x, -p.clip), ScalarLike(c, x, p.clip)});
}

Output Act(const NodeContext& c, const std::string& f, const Output& x) {
  return c.Op(f, {x});  // Sigmoid, Tanh and Relu are rill ops of the same names
}

// Rows [begin, begin + n) of the last dim of x.
Output Cols(const NodeContext& c, const Output& x, int64_t begin, int64_t n) {
  return c.Op(
      "StridedSlice", {x, c.Int64s({0, begin}), c.Int64s({0, begin + n}), c.Int64s({1, 1})},
      {{"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}, {"ellipsis_mask", int64_t{1}}});
}

// Element d of dim 0.
Output At(const NodeContext& c, const Output& x, int64_t d) {
  return c.Op("GatherV2", {x, c.Const(Tensor(d)), c.Const(Tensor(int64_t{0}))});
}

struct State {
  Output h, c;
};

// An LSTM step's state from its gates g [B, 4H] (i, o, f, c) without peepholes: one split
// and one activation for the three gates that share f (a loop body runs per step, so its
// node count is what a short sequence costs).
State LstmGates(const NodeContext& c, const std::string& f, const std::string& gfn,
                const std::string& hfn, const Output& g, const Output& c0, int64_t H) {
  const Operation parts =
      c.OpNode("SplitV", {g, c.Int64s({3 * H, H}), ScalarI32(c, -1)}, {{"num_split", int64_t{2}}});
  if (parts.node() == nullptr) return {};  // the scope holds the error
  const Operation iof = c.OpNode("Split", {ScalarI32(c, -1), Act(c, f, Output(parts.node(), 0))},
                                 {{"num_split", int64_t{3}}});
  if (iof.node() == nullptr) return {};
  const Output i(iof.node(), 0), o(iof.node(), 1), ff(iof.node(), 2);
  Output ct =
      c.Op("Add", {c.Op("Mul", {ff, c0}), c.Op("Mul", {i, Act(c, gfn, Output(parts.node(), 1))})});
  return {c.Op("Mul", {o, Act(c, hfn, ct)}), ct};
}

// One step: the projected input xw [B, G*H] (with W's bias), the state, and the
// direction's recurrent weights rt = R^T [H, G*H], recurrent bias rb [G*H], peepholes p.
State Step(const NodeContext& c, const Params& p, int dir, const Output& xw, const State& s,
           const Output& rt, const Output& rb, const Output& peep) {
  const int64_t H = p.hidden;
  auto fn = [&](int k) -> const std::string& { return p.f[dir * Functions(p.cell) + k]; };
  if (p.cell == Cell::kRnn) {
    Output pre = c.Op("Add", {c.Op("Add", {xw, c.Op("MatMul", {s.h, rt})}), rb});
    return {Act(c, fn(0), Clipped(c, p, pre)), Output()};
  }
  if (p.cell == Cell::kLstm) {
    Output g = c.Op("Add", {c.Op("Add", {xw, c.Op("MatMul", {s.h, rt})}), rb});
    if (peep.node() == nullptr) return LstmGates(c, fn(0), fn(1), fn(2), Clipped(c, p, g), s.c, H);
    // With peepholes: i and f read the old cell, o the new one.
    Output gi = Cols(c, g, 0, H), go = Cols(c, g, H, H), gf = Cols(c, g, 2 * H, H),
           gc = Cols(c, g, 3 * H, H);
    gi = c.Op("Add", {gi, c.Op("Mul", {Cols(c, peep, 0, H), s.c})});
    gf = c.Op("Add", {gf, c.Op("Mul", {Cols(c, peep, 2 * H, H), s.c})});
    Output i = Act(c, fn(0), Clipped(c, p, gi)), ff = Act(c, fn(0), Clipped(c, p, gf)),
           cc = Act(c, fn(1), Clipped(c, p, gc));
    Output ct = c.Op("Add", {c.Op("Mul", {ff, s.c}), c.Op("Mul", {i, cc})});
    go = c.Op("Add", {go, c.Op("Mul", {Cols(c, peep, H, H), ct})});
    Output o = Act(c, fn(0), Clipped(c, p, go));
    return {c.Op("Mul", {o, Act(c, fn(2), ct)}), ct};
  }
  // GRU: z and r from x and h; the candidate per linear_before_reset.
  Output hr = c.Op("MatMul", {s.h, rt});  // [B, 3H], without the recurrent bias
  Output zr = Clipped(c, p,
                      c.Op("Add", {c.Op("Add", {Cols(c, xw, 0, 2 * H), Cols(c, hr, 0, 2 * H)}),
                                   Cols(c, rb, 0, 2 * H)}));
  Output z = Act(c, fn(0), Cols(c, zr, 0, H)), r = Act(c, fn(0), Cols(c, zr, H, H));
  Output rh;
  if (c.attrs().i("linear_before_reset", 0) != 0) {
    rh = c.Op("Mul", {r, c.Op("Add", {Cols(c, hr, 2 * H, H), Cols(c, rb, 2 * H, H)})});
  } else {
    Output rth = Cols(c, rt, 2 * H, H);  // R_h^T
    rh = c.Op("Add", {c.Op("MatMul", {c.Op("Mul", {r, s.h}), rth}), Cols(c, rb, 2 * H, H)});
  }
  Output ht = Act(c, fn(1), Clipped(c, p, c.Op("Add", {Cols(c, xw, 2 * H, H), rh})));
  Output one = ScalarLike(c, z, 1);
  return {c.Op("Add", {c.Op("Mul", {c.Op("Sub", {one, z}), ht}), c.Op("Mul", {z, s.h})}), Output()};
}

// Step, where `lens` (sequence_lens as int64 [B, 1]) is given, for the rows still in
// their sequence at step t: the others keep their state and output zeros. Returns the
// output; *s becomes the new state.
Output LiveStep(const NodeContext& c, const Params& p, int dir, const Output& xw, const Output& t,
                const Output& lens, State* s, const Output& rt, const Output& rb,
                const Output& peep) {
  const State next = Step(c, p, dir, xw, *s, rt, rb, peep);
  if (lens.node() == nullptr) {
    *s = next;
    return next.h;
  }
  const Output live = c.Op("Less", {t, lens});  // [B, 1]
  const Output y = c.Op("SelectV2", {live, next.h, ScalarLike(c, next.h, 0)});
  s->h = c.Op("SelectV2", {live, next.h, s->h});
  if (p.cell == Cell::kLstm) s->c = c.Op("SelectV2", {live, next.c, s->c});
  return y;
}

// The stack of h's a loop starts with: [0, B, H], so that a step appends with one Concat.
Output EmptyStack(const NodeContext& c, const Output& h) {
  return c.Op("Reshape", {c.Const(Tensor(h.type(), TensorShape({0}))),
                          c.Op("ConcatV2", {c.Int64s({0}), ShapeOf(c, h), ScalarI32(c, 0)})});
}

// The steps of one direction as a While loop, for a sequence length known only when the
// model runs. Loop variables: (step, length, h, c, stacked h's, xw, rt, rb, peep); the
// body is Step on xw's row for this step. Returns the h's [T, B, H] in time order.
absl::StatusOr<Output> DynamicSteps(const NodeContext& c, const Params& p, int dir, bool reverse,
                                    const Output& xw, State* s, const Output& rt, const Output& rb,
                                    const Output& peep, const Output& lens) {
  const bool lstm = p.cell == Cell::kLstm;
  Output length = DimOf(c, xw, 0, DT_INT64);
  std::vector<Output> init = {c.Const(Tensor(int64_t{0})),
                              length,
                              s->h,
                              lstm ? s->c : s->h,
                              EmptyStack(c, s->h),
                              xw,
                              rt,
                              rb,
                              peep.node() != nullptr ? peep : rb,
                              lens.node() != nullptr ? lens : c.Int64s({0})};
  std::vector<DataType> types;
  std::vector<PartialTensorShape> shapes;
  for (const Output& o : init) {
    types.push_back(o.type());
    shapes.push_back(o.shape());
  }
  shapes[4] = PartialTensorShape();  // the stack grows
  const std::string name = absl::StrCat(c.node().name(), "/direction", dir);
  RILL_ASSIGN_OR_RETURN(
      FunctionRef cond,
      ops::MakeFunction(absl::StrCat(name, "/cond"), types, shapes,
                        [](const Scope& f, const std::vector<Output>& a, std::vector<Output>* r) {
                          r->push_back(ops::Less(f, a[0], a[1]));
                          return f.status();
                        }));
  auto body = [&](const Scope& f, const std::vector<Output>& a, std::vector<Output>* r) {
    const NodeContext in(c.node(), c.attrs(), c.opset(), f, {});
    Output t =
        reverse ? in.Op("Sub", {in.Op("Sub", {a[1], a[0]}), in.Const(Tensor(int64_t{1}))}) : a[0];
    Output row = in.Op("GatherV2", {a[5], t, in.Const(Tensor(int64_t{0}))});
    State next{a[2], a[3]};
    Output y = LiveStep(in, p, dir, row, t, lens.node() != nullptr ? a[9] : Output(), &next, a[6],
                        a[7], peep.node() != nullptr ? a[8] : Output());
    *r = {ops::Add(f, a[0], int64_t{1}),
          a[1],
          next.h,
          lstm ? next.c : next.h,
          in.Op("ConcatV2",
                {a[4], in.Op("ExpandDims", {y, in.Const(Tensor(int64_t{0}))}), ScalarI32(in, 0)}),
          a[5],
          a[6],
          a[7],
          a[8],
          a[9]};
    return f.status();
  };
  RILL_ASSIGN_OR_RETURN(FunctionRef step,
                        ops::MakeFunction(absl::StrCat(name, "/body"), types, shapes, body));
  ops::While loop(c.scope().WithOpName(absl::StrCat("direction", dir)), init, cond, step);
  RILL_RETURN_IF_ERROR(c.scope().status());
  s->h = loop.output[2];
  if (lstm) s->c = loop.output[3];
  // The stack's static shape, which the loop (its value grows) cannot know.
  const PartialTensorShape& hshape = s->h.shape();
  const int64_t batch = hshape.unknown_rank() || hshape.dims() != 2 ? -1 : hshape.dim_size(0);
  Output hs =
      c.Op("EnsureShape", {loop.output[4]}, {{"shape", PartialTensorShape({-1, batch, p.hidden})}});
  if (!reverse) return hs;
  Output back = c.Op("Range", {c.Op("Sub", {length, c.Const(Tensor(int64_t{1}))}),
                               c.Const(Tensor(int64_t{-1})), c.Const(Tensor(int64_t{-1}))});
  return c.Op("GatherV2", {hs, back, c.Const(Tensor(int64_t{0}))});
}

// A [rows..., cols] tensor of zeros shaped like x's dim 1 (the batch) by n.
Output Zeros(const NodeContext& c, const Output& x, int64_t n) {
  Output b = c.Op("Slice", {ShapeOf(c, x), c.Int64s({1}), c.Int64s({1})});
  return c.Op("Fill", {c.Op("ConcatV2", {b, c.Int64s({n}), ScalarI32(c, 0)}), ScalarLike(c, x, 0)});
}

// Direction d's input and recurrent biases [G*H] (zeros without B).
std::pair<Output, Output> Biases(const NodeContext& c, int d, int64_t gh, const Output& x) {
  if (!c.has_input(3)) {
    const Output zeros = c.Op("Fill", {c.Int64s({gh}), ScalarLike(c, x, 0)});
    return {zeros, zeros};
  }
  const Output b = At(c, c.input(3), d);
  return {c.Op("Slice", {b, c.Int64s({0}), c.Int64s({gh})}),
          c.Op("Slice", {b, c.Int64s({gh}), c.Int64s({gh})})};
}

absl::StatusOr<Params> ParamsOf(const NodeContext& c, Cell cell, int dirs) {
  Params p;
  p.cell = cell;
  p.hidden = c.attrs().i("hidden_size", -1);
  const PartialTensorShape& rs = c.input(2).shape();
  if (p.hidden < 0 && !rs.unknown_rank() && rs.dims() == 3) p.hidden = rs.dim_size(2);
  if (p.hidden <= 0) return c.Error("hidden_size is not known");
  if (c.attrs().has("clip")) p.clip = c.attrs().f("clip", -1);
  p.f = Activations(c.attrs());
  if (p.f.empty()) {
    for (int d = 0; d < dirs; ++d) {
      if (cell == Cell::kRnn) p.f.push_back("Tanh");
      if (cell != Cell::kRnn) p.f.insert(p.f.end(), {"Sigmoid", "Tanh"});
      if (cell == Cell::kLstm) p.f.push_back("Tanh");
    }
  }
  if (static_cast<int>(p.f.size()) != dirs * Functions(cell)) {
    return c.Error(p.f.size(), " activations for ", dirs, " direction(s)");
  }
  return p;
}

absl::Status ConvertRnn(NodeContext& c, Cell cell) {
  // layout 1 holds X [batch, seq, input] and the states [batch, directions, hidden]: the
  // steps run on the swapped first two dims, and the outputs are swapped back.
  const bool batch_first = c.attrs().i("layout", 0) != 0;
  const Output swap = c.Int64s({1, 0, 2});
  Output x = batch_first ? c.Op("Transpose", {c.input(0), swap}) : c.input(0);
  auto state_in = [&](int i) {
    return batch_first ? c.Op("Transpose", {c.input(i), swap}) : c.input(i);
  };
  const PartialTensorShape& xs = x.shape();
  if (xs.unknown_rank() || xs.dims() != 3 || xs.dim_size(2) < 0) {
    return c.Error("X must be [seq_length, batch, input_size] with its input size known");
  }
  const int64_t T = xs.dim_size(0), I = xs.dim_size(2);
  const std::string direction = c.attrs().s("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    return c.Error("direction '", direction, "'");
  }
  const int dirs = direction == "bidirectional" ? 2 : 1;
  RILL_ASSIGN_OR_RETURN(Params p, ParamsOf(c, cell, dirs));
  const int64_t GH = Gates(cell) * p.hidden;
  // sequence_lens [B] as int64 [B, 1], to compare with a step's index per row.
  const Output lens =
      c.has_input(4)
          ? c.Op("Reshape", {c.Op("Cast", {c.input(4)}, {{"DstT", DT_INT64}}), c.Int64s({-1, 1})})
          : Output();
  std::vector<Output> ys, hs, cs;
  for (int d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    const Output w = At(c, c.input(1), d),
                 rt = c.Op("Transpose", {At(c, c.input(2), d), c.Int64s({1, 0})});
    const auto [wb, rb] = Biases(c, d, GH, x);
    Output xw =
        c.Op("MatMul", {c.Op("Reshape", {x, c.Int64s({-1, I})}), w}, {{"transpose_b", true}});
    Output steps_by =
        T >= 0 ? c.Int64s({T, -1, GH})
               : c.Op("ConcatV2", {c.Op("Slice", {ShapeOf(c, x), c.Int64s({0}), c.Int64s({2})}),
                                   c.Int64s({GH}), ScalarI32(c, 0)});
    xw = c.Op("Reshape", {c.Op("Add", {xw, wb}), steps_by});
    State s{c.has_input(5) ? At(c, state_in(5), d) : Zeros(c, x, p.hidden), Output()};
    if (cell == Cell::kLstm) s.c = c.has_input(6) ? At(c, state_in(6), d) : Zeros(c, x, p.hidden);
    Output peep = cell == Cell::kLstm && c.has_input(7) ? At(c, c.input(7), d) : Output();
    if (T < 0) {
      RILL_ASSIGN_OR_RETURN(Output y, DynamicSteps(c, p, d, reverse, xw, &s, rt, rb, peep, lens));
      ys.push_back(y);
      hs.push_back(s.h);
      cs.push_back(s.c);
      continue;
    }
    std::vector<Output> steps(T);
    for (int64_t k = 0; k < T; ++k) {
      const int64_t t = reverse ? T - 1 - k : k;
      steps[t] = LiveStep(c, p, d, At(c, xw, t), c.Const(Tensor(t)), lens, &s, rt, rb, peep);
    }
    ys.push_back(T > 0 ? c.Op("Pack", steps, {{"axis", int64_t{0}}}) : Output());
    hs.push_back(s.h);
    cs.push_back(s.c);
  }
  if (T == 0) return c.Error("an empty sequence");
  Output y = c.Op("Pack", ys, {{"axis", int64_t{1}}});  // [seq, directions, batch, hidden]
  Output yh = c.Op("Pack", hs, {{"axis", int64_t{0}}});
  Output yc = cell == Cell::kLstm ? c.Op("Pack", cs, {{"axis", int64_t{0}}}) : Output();
  if (batch_first) {
    y = c.Op("Transpose", {y, c.Int64s({2, 0, 1, 3})});
    yh = c.Op("Transpose", {yh, swap});
    if (yc.node() != nullptr) yc = c.Op("Transpose", {yc, swap});
  }
  c.set_output(0, y);
  c.set_output(1, yh);
  if (yc.node() != nullptr) c.set_output(2, yc);
  return absl::OkStatus();
}

[[maybe_unused]] const bool kConvertRnnRegistered = [] {
  auto* r = ConverterRegistry::Global();
  for (Cell cell : {Cell::kRnn, Cell::kGru, Cell::kLstm}) {
    const char* op = cell == Cell::kRnn ? "RNN" : cell == Cell::kGru ? "GRU" : "LSTM";
    r->Register({op, 7, [cell](const SupportView& v) { return RnnSupport(v, cell); },
                 [cell](NodeContext& c) { return ConvertRnn(c, cell); }});
  }
  return true;
}();

}  // namespace
}  // namespace rill::onnx::internal
