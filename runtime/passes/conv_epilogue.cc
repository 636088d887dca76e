// Optimizer pass: convolution epilogues. What an imported model does right after a
// convolution (a per-channel bias, an affine of learned scalars, an activation such as
// HardSwish, another affine) is an elementwise chain that the elementwise fusion pass
// has made one _FusedElementwise node, or left as one op (a lone BiasAdd or Relu); it
// still reads the convolution's whole output back from memory and runs as a loop of its
// own. oneDNN applies such a chain to the output while it is still in registers (its
// post-ops), as ONNX Runtime and TensorFlow fuse a convolution with what follows it. So a
// chain (or single elementwise op) whose input is a Conv2D's or DepthwiseConv2dNative's
// output, read by nothing else, becomes one _FusedConv2DElementwise /
// _FusedDepthwiseConv2dNativeElementwise node: the convolution's inputs and attrs, then
// the chain's other operands, its program renumbered so that register 0 is the
// convolution's output.
//
// It fires only where the kernel can hand the chain to oneDNN: the chain reads the
// convolution's output once, at its start, and each step reads the step before it
// (core/fused_elementwise.h LinearChain); every other operand broadcasts into the
// output without growing it, as far as shapes known while planning tell (the kernel
// checks again, and runs the chain itself where oneDNN refuses it); and it has an operand
// besides the convolution (a chain of unary steps alone stays). NHWC only; the fused
// node has no control inputs of its own, is on the convolution's device, and takes the
// chain's name. Runs after elementwise fusion, which makes the chains.
#include "absl/container/flat_hash_map.h"
#include "rill/core/fused_elementwise.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

const char* EpilogueOpOf(const Node& conv) {
  if (conv.type_string() == "Conv2D") return "_FusedConv2DElementwise";
  if (conv.type_string() == "DepthwiseConv2dNative") {
    return "_FusedDepthwiseConv2dNativeElementwise";
  }
  return nullptr;
}

// Whether a value of shape `s` broadcasts into `out` leaving it as it is, for any sizes
// the unknown dims take.
bool BroadcastsInto(const PartialTensorShape& s, const PartialTensorShape& out) {
  if (s.unknown_rank() || out.unknown_rank() || s.dims() > out.dims()) return false;
  for (int d = 1; d <= s.dims(); ++d) {
    const int64_t v = s.dim_size(s.dims() - d), o = out.dim_size(out.dims() - d);
    if (v != 1 && (v < 0 || v != o)) return false;
  }
  return true;
}

// The elementwise program `f` computes over its inputs: a _FusedElementwise's, or one step
// for a single elementwise op (a BiasAdd only where it is an Add: NHWC, a vector of known
// length); nullopt for any other node.
std::optional<std::vector<int64_t>> ProgramOf(const Node& f) {
  if (f.type_string() == "_FusedElementwise") return f.attr<std::vector<int64_t>>("program");
  if (!IsFusableElementwise(f)) return {};
  const ElementwiseOp op = *ElementwiseOpOf(f.type_string());
  return std::vector<int64_t>{static_cast<int64_t>(op), 0, IsUnary(op) ? -1 : 1};
}

// Which input of `f` (an elementwise chain) is a convolution's output it may take over.
std::optional<int> ConvInput(const Node& f, const PlanGraph& g, const UseCounts& uses) {
  if (!f.control_inputs().empty()) return {};
  const std::optional<std::vector<int64_t>> program = ProgramOf(f);
  if (!program) return {};
  const int n = f.num_inputs();
  // A chain of the convolution alone (unary steps only) would leave the fused node's
  // operand list empty, which op lists do not allow: it stays as it is.
  if (n < 2) return {};
  auto steps = ParseElementwiseProgram(*program, n);
  if (!steps.ok()) return {};
  for (int j = 0; j < n; ++j) {
    const NodeOut v = f.input(j);
    const char* op = EpilogueOpOf(*v.node);
    auto format = v.node->attrs().find("data_format");
    if (op == nullptr || v.index != 0 || !uses.SoleUse(v) || g.DeviceOf(v.node) != g.DeviceOf(&f) ||
        (format != v.node->attrs().end() && std::get<std::string>(format->second) != "NHWC") ||
        !HasKernelFor(op, {{"T", f.output_type(0)}}, g.DeviceOf(&f)->device_type()) ||
        !LinearChain(*steps, n, j)) {
      continue;
    }
    bool fits = true;
    for (int i = 0; i < n && fits; ++i) {
      const NodeOut o = f.input(i);
      fits = i == j || BroadcastsInto(o.node->output_shape(o.index), v.node->output_shape(0));
    }
    if (fits) return j;
  }
  return {};
}

// `program` with input register j moved to 0 and inputs 0..j-1 one up (step registers
// keep their numbers: the count of inputs is the same).
std::vector<int64_t> WithConvFirst(std::vector<int64_t> program, int n, int j) {
  for (size_t i = 0; i < program.size(); i += 3) {
    const bool unary = IsUnary(static_cast<ElementwiseOp>(program[i]));
    for (size_t k = i + 1; k < i + (unary ? 2 : 3); ++k) {
      if (program[k] < n)
        program[k] = program[k] == j ? 0 : program[k] < j ? program[k] + 1 : program[k];
    }
  }
  return program;
}

}  // namespace

absl::StatusOr<PlanGraph> FuseConvEpilogues(const PlanGraph& in) {
  const UseCounts uses(in);
  absl::flat_hash_map<const Node*, int> conv_input;  // per fused node taking a conv over
  absl::flat_hash_map<const Node*, const Node*> absorbed;
  for (int id = 0; id < in.graph->num_nodes(); ++id) {
    const Node* f = in.graph->node(id);
    if (f == nullptr || in.fed.contains(f)) continue;
    if (std::optional<int> j = ConvInput(*f, in, uses)) {
      conv_input[f] = *j;
      absorbed[f->input(*j).node] = f;
    }
  }
  GraphRewriter rw(in, "conv epilogue");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (absorbed.contains(&old)) {
      rw.Replace(old, {}, {});  // its only reader takes it over
      return true;
    }
    auto it = conv_input.find(&old);
    if (it == conv_input.end()) return false;
    const int j = it->second, n = old.num_inputs();
    const Node& conv = *old.input(j).node;
    NodeSpec spec = rw.SpecOf(conv);  // input, filter, attrs, control inputs
    spec.name = old.name();
    spec.op = EpilogueOpOf(conv);
    for (int i = 0; i < n; ++i) {
      if (i != j) spec.inputs.push_back(rw.Map(old.input(i)));
    }
    spec.attrs["N"] = static_cast<int64_t>(n - 1);
    spec.attrs["program"] = WithConvFirst(*ProgramOf(old), n, j);
    std::vector<std::string> replaces = rw.NamesOf(conv);
    for (std::string& name : rw.NamesOf(old)) replaces.push_back(std::move(name));
    RILL_ASSIGN_OR_RETURN(Node * f, rw.Add(std::move(spec), in.DeviceOf(&old), replaces));
    rw.Replace(old, {{f, 0}}, {f});
    return true;
  });
}

}  // namespace rill
