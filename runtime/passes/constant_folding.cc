// Optimizer pass: constant folding.
//
// A node whose every input is a constant computes the same value on every run, so the
// plan computes it once, while it is built, and keeps the result as a Const in its place
// (named as the node it replaces, so fetching that node still works). It runs on the
// host with the node's CPU kernel, in the order of the graph, so a chain of constant
// arithmetic folds to one constant.
//
// Not folded, and why:
// - stateful ops (variables, their updates, random ops, Dropout): their value differs
//   from run to run or their effect is the point (the op's is_stateful flag);
// - Placeholders and fed values: the caller gives them per run;
// - nodes with control inputs: the ordering they ask for would be lost;
// - Switch and Merge: which of their outputs is dead is decided in each run;
// - values whose static shape is not fully known, or larger than max_folded_bytes: the
//   plan would hold them for as long as it is cached (a 1 GiB Fill stays computed);
// - nodes without a CPU kernel, and nodes whose kernel fails: the node stays, and the run
//   reports its error where it happens, as it would unoptimized.
#include "absl/strings/str_cat.h"
#include "rill/core/checked_math.h"
#include "rill/core/kernel.h"
#include "rill/runtime/passes/passes.h"

namespace rill {
namespace {

// The inputs' constant values in the new graph, or empty when one is not a constant.
std::vector<const Tensor*> ConstantInputs(const Node& old, const GraphRewriter& rw) {
  std::vector<const Tensor*> values;
  for (int i = 0; i < old.num_inputs(); ++i) {
    NodeOut in = rw.Map(old.input(i));
    if (in.node == nullptr || old.input_is_ref(i)) return {};
    const Tensor* v = in.node->constant_value();
    if (v == nullptr) return {};
    values.push_back(v);
  }
  return values;
}

bool Foldable(const Node& old, const OptimizeOptions& options) {
  const OpDef& def = old.op_def();
  if (def.is_stateful || old.IsConstant() || old.IsPlaceholder() || old.num_inputs() == 0 ||
      old.num_outputs() == 0 || !old.control_inputs().empty() || old.type_string() == "Switch" ||
      old.type_string() == "Merge") {
    return false;
  }
  if (!HasKernelFor(old.type_string(), old.attrs(), "CPU")) return false;
  int64_t bytes = 0;
  for (int k = 0; k < old.num_outputs(); ++k) {
    const PartialTensorShape& s = old.output_shape(k);
    if (!s.IsFullyDefined() || DataTypeSize(old.output_type(k)) == 0) return false;
    std::optional<int64_t> n = DataTypeSize(old.output_type(k));
    for (int64_t d : s.dim_sizes()) n = n ? checked::Mul(*n, d) : n;
    std::optional<int64_t> sum = n ? checked::Add(bytes, *n) : n;
    if (!sum) return false;
    bytes = *sum;
  }
  return bytes <= options.max_folded_bytes;
}

// Runs `old`'s CPU kernel on the constant inputs; false when it cannot.
bool Evaluate(const Node& old, const std::vector<const Tensor*>& inputs, Device* host,
              std::vector<Tensor>* outputs) {
  absl::StatusOr<std::unique_ptr<OpKernel>> kernel = CreateKernel(old, host, nullptr);
  if (!kernel.ok()) return false;
  outputs->assign(old.num_outputs(), Tensor());
  OpKernelContext ctx(old, host, inputs.data(), outputs->data());
  if (!(*kernel)->Compute(ctx).ok()) return false;
  for (const Tensor& t : *outputs) {
    if (!t.IsInitialized()) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<PlanGraph> FoldConstants(const PlanGraph& in, const OptimizeOptions& options) {
  GraphRewriter rw(in, "constant folding");
  return rw.Run([&](const Node& old, GraphRewriter& rw) -> absl::StatusOr<bool> {
    if (!Foldable(old, options)) return false;
    std::vector<const Tensor*> inputs = ConstantInputs(old, rw);
    if (inputs.size() != static_cast<size_t>(old.num_inputs())) return false;
    std::vector<Tensor> values;
    if (!Evaluate(old, inputs, in.host, &values)) return false;
    // Host-memory outputs (Shape on a GPU) stay on the host, where their readers want them.
    Device* device = in.DeviceOf(&old);
    if (const KernelDef* def = KernelRegistry::Global()->Find(old, device->device_type());
        def != nullptr && def->host_memory_outputs) {
      device = in.host;
    }
    std::vector<NodeOut> outs;
    for (int k = 0; k < old.num_outputs(); ++k) {
      NodeSpec spec;
      spec.name = old.num_outputs() == 1 ? old.name()
                                         : rw.FreeName(absl::StrCat(old.name(), "/output_", k));
      spec.op = "Const";
      spec.attrs = {{"dtype", values[k].dtype()}, {"value", values[k]}};
      RILL_ASSIGN_OR_RETURN(Node * c, rw.Add(std::move(spec), device, rw.NamesOf(old)));
      outs.push_back({c, 0});
    }
    std::vector<Node*> control;
    for (const NodeOut& o : outs) control.push_back(o.node);
    rw.Replace(old, std::move(outs), std::move(control));
    return true;
  });
}

}  // namespace rill
