#include "rill/ops/state_ops.h"

#include "absl/strings/str_cat.h"
#include "rill/core/shape_inference.h"

namespace rill {
namespace {

absl::Status AssignShape(InferenceContext& c, bool strict) {
  const auto& var = c.input_shape(0);
  const auto& val = c.input_shape(1);
  bool validate = !c.attrs().contains("validate_shape") || c.attr<bool>("validate_shape");
  if ((validate || strict) && !var.IsCompatibleWith(val)) {
    return errors::InvalidArgument("value of shape ", val.DebugString(),
                                   " does not match the variable's shape ", var.DebugString());
  }
  c.set_output(0, validate || strict ? var : val);
  return absl::OkStatus();
}

}  // namespace

RILL_REGISTER_OP("Variable")
    .RefOutput("ref", "dtype")
    .Attr("shape", AttrKind::kShape)
    .TypeAttr("dtype", kAllTypes)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) -> absl::Status {
      const auto& s = c.attr<PartialTensorShape>("shape");
      if (!s.unknown_rank())
        RILL_RETURN_IF_ERROR(PartialTensorShape::Build(s.dim_sizes()).status());
      c.set_output(0, s);
      return absl::OkStatus();
    });

RILL_REGISTER_OP("Assign")
    .RefInput("ref", "T")
    .Input("value", "T")
    .Output("output_ref", "T")
    .TypeAttr("T")
    .Attr("validate_shape", AttrKind::kBool, true)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) { return AssignShape(c, false); });

RILL_REGISTER_OP("AssignAdd")
    .RefInput("ref", "T")
    .Input("value", "T")
    .Output("output_ref", "T")
    .TypeAttr("T", kNumberTypes)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) { return AssignShape(c, true); });

RILL_REGISTER_OP("AssignSub")
    .RefInput("ref", "T")
    .Input("value", "T")
    .Output("output_ref", "T")
    .TypeAttr("T", kNumberTypes)
    .SetIsStateful()
    .SetShapeFn([](InferenceContext& c) { return AssignShape(c, true); });

// Whether `ref` holds a value yet (its initializer, or any Assign, has run).
RILL_REGISTER_OP("IsVariableInitialized")
    .RefInput("ref", "dtype")
    .Output("is_initialized", DT_BOOL)
    .TypeAttr("dtype", kAllTypes)
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

namespace ops {

using internal::NodeBuilder;

IsVariableInitialized::IsVariableInitialized(const Scope& scope, Input ref) {
  NodeBuilder(scope, "IsVariableInitialized").Input(ref).Finalize(this);
}

Variable::Variable(const Scope& scope, const PartialTensorShape& shape, DataType dtype) {
  NodeBuilder(scope, "Variable").Attr("shape", shape).Attr("dtype", dtype).Finalize(this);
}

Variable::Variable(const Scope& scope, Input initial_value) {
  if (!initial_value.status().ok()) {
    scope.UpdateStatus(initial_value.status());
    return;
  }
  DataType dtype;
  PartialTensorShape shape;
  if (initial_value.is_constant()) {
    dtype = initial_value.tensor().dtype();
    shape = initial_value.tensor().shape();
  } else if (initial_value.node() != nullptr) {
    dtype = initial_value.output().type();
    shape = initial_value.output().shape();
  } else {
    return;  // the initial value's own op failed and recorded why
  }
  NodeBuilder(scope, "Variable").Attr("shape", shape).Attr("dtype", dtype).Finalize(this);
  if (node() == nullptr) return;
  // "<variable>/Assign", next to the variable (not under its scope a second time).
  const std::string& prefix = scope.name_prefix();
  const std::string relative =
      prefix.empty() ? node()->name() : node()->name().substr(prefix.size() + 1);
  Assign assign(scope.WithOpName(absl::StrCat(relative, "/Assign")).WithNoControlDependencies(),
                output, initial_value);
  initializer = assign.operation;
  if (initializer.node() != nullptr) scope.graph()->AddInitializer(initializer.node());
}

Assign::Assign(const Scope& scope, Input ref, Input value, const Attrs& attrs) {
  NodeBuilder(scope, "Assign")
      .Input(ref)
      .Input(value)
      .Attr("validate_shape", attrs.validate_shape_)
      .Finalize(this);
}

AssignAdd::AssignAdd(const Scope& scope, Input ref, Input value) {
  NodeBuilder(scope, "AssignAdd").Input(ref).Input(value).Finalize(this);
}

AssignSub::AssignSub(const Scope& scope, Input ref, Input value) {
  NodeBuilder(scope, "AssignSub").Input(ref).Input(value).Finalize(this);
}

Operation GlobalVariablesInitializer(const Scope& scope) {
  std::vector<Operation> inits;
  for (Node* n : scope.graph()->initializers()) inits.emplace_back(n);
  return NodeBuilder(scope.WithControlDependencies(inits), "NoOp", "init").Finalize();
}

}  // namespace ops
}  // namespace rill
