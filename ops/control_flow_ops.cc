// If, While, PartitionedCall and StatefulPartitionedCall: op definitions (shape functions
// that check the functions against the node), the wrappers and the lambda builders.
// Kernels: kernels/cpu/control_flow_ops.cc; gradients: ops/control_flow_grad.cc and
// ops/control_flow_grad_while.cc.
#include "rill/ops/control_flow_ops.h"

#include "absl/strings/str_cat.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/array_ops.h"

namespace rill {
namespace {

std::string TypesString(const std::vector<DataType>& types) {
  return AttrValueDebugString(AttrValue(types));
}

// `f` takes arguments of `types` whose shapes the inputs from `first` can take.
absl::Status CheckArgs(const InferenceContext& c, const char* attr, const Function& f,
                       const std::vector<DataType>& types, int first) {
  if (f.arg_types() != types) {
    return errors::InvalidArgument("'", attr, "' (", FunctionDebugName(f), ") takes ",
                                   TypesString(f.arg_types()), "; the node passes ",
                                   TypesString(types));
  }
  for (int i = 0; i < f.num_args(); ++i) {
    if (!f.arg_shape(i).IsCompatibleWith(c.input_shape(first + i))) {
      return errors::InvalidArgument("'", attr, "' (", FunctionDebugName(f), ") takes arg ", i,
                                     " of shape ", f.arg_shape(i).DebugString(),
                                     "; the node passes ", c.input_shape(first + i).DebugString());
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRets(const char* attr, const Function& f, const std::vector<DataType>& types) {
  if (f.ret_types() != types) {
    return errors::InvalidArgument("'", attr, "' (", FunctionDebugName(f), ") returns ",
                                   TypesString(f.ret_types()), "; the node's outputs are ",
                                   TypesString(types));
  }
  return absl::OkStatus();
}

// A predicate function: one return value of a scalar (or unknown) shape.
absl::Status CheckPredicate(const Function& f) {
  const PartialTensorShape& s = f.num_rets() == 1 ? f.ret_shape(0) : PartialTensorShape();
  if (f.num_rets() != 1 || (!s.unknown_rank() && s.dims() != 0)) {
    return errors::InvalidArgument("'cond' (", FunctionDebugName(f),
                                   ") must return one scalar, returns ", f.num_rets(), " value(s)",
                                   f.num_rets() == 1 ? " of shape " : "",
                                   f.num_rets() == 1 ? s.DebugString() : "");
  }
  return absl::OkStatus();
}

absl::Status IfShape(InferenceContext& c) {
  const auto& tin = c.attr<std::vector<DataType>>("Tin");
  const auto& tout = c.attr<std::vector<DataType>>("Tout");
  const Function& then_f = *c.attr<FunctionRef>("then_branch");
  const Function& else_f = *c.attr<FunctionRef>("else_branch");
  for (const auto& [attr, f] : {std::pair<const char*, const Function*>{"then_branch", &then_f},
                                {"else_branch", &else_f}}) {
    RILL_RETURN_IF_ERROR(CheckArgs(c, attr, *f, tin, 1));
    RILL_RETURN_IF_ERROR(CheckRets(attr, *f, tout));
  }
  for (int i = 0; i < then_f.num_rets(); ++i) {
    c.set_output(i, ops::CommonShape(then_f.ret_shape(i), else_f.ret_shape(i)));
  }
  return absl::OkStatus();
}

// A loop's checks and outputs; the body returns the loop variables, then (a
// _WhileRecord's) values of `extra` dtypes that it logs.
absl::Status LoopShape(InferenceContext& c, const std::vector<DataType>& extra) {
  const auto& t = c.attr<std::vector<DataType>>("T");
  const Function& cond = *c.attr<FunctionRef>("cond");
  const Function& body = *c.attr<FunctionRef>("body");
  RILL_RETURN_IF_ERROR(CheckArgs(c, "cond", cond, t, 0));
  RILL_RETURN_IF_ERROR(CheckPredicate(cond));
  RILL_RETURN_IF_ERROR(CheckArgs(c, "body", body, t, 0));
  std::vector<DataType> rets = t;
  rets.insert(rets.end(), extra.begin(), extra.end());
  RILL_RETURN_IF_ERROR(CheckRets("body", body, rets));
  for (int i = 0; i < static_cast<int>(t.size()); ++i) {
    // The body's value feeds the next iteration: it must fit the arguments.
    if (!body.ret_shape(i).IsCompatibleWith(body.arg_shape(i)) ||
        !body.ret_shape(i).IsCompatibleWith(cond.arg_shape(i))) {
      return errors::InvalidArgument(
          "'body' (", FunctionDebugName(body), ") returns loop variable ", i, " of shape ",
          body.ret_shape(i).DebugString(), ", which its arguments (of shape ",
          body.arg_shape(i).DebugString(), ") cannot take on the next iteration");
    }
    c.set_output(i, ops::CommonShape(c.input_shape(i), body.ret_shape(i)));
  }
  return absl::OkStatus();
}

absl::Status WhileShape(InferenceContext& c) { return LoopShape(c, {}); }

absl::Status CallShape(InferenceContext& c) {
  const Function& f = *c.attr<FunctionRef>("f");
  RILL_RETURN_IF_ERROR(CheckArgs(c, "f", f, c.attr<std::vector<DataType>>("Tin"), 0));
  RILL_RETURN_IF_ERROR(CheckRets("f", f, c.attr<std::vector<DataType>>("Tout")));
  for (int i = 0; i < f.num_rets(); ++i) c.set_output(i, f.ret_shape(i));
  return absl::OkStatus();
}

// The loop's checks and outputs (its body also returning the values it logs after each
// iteration: `Thistory` past the recorded variables), then the iteration count (a scalar)
// and, per log (the recorded variables', then those values'), its values one after
// another ([?]) and their layout ([?, 1 + rank]: each value's element offset and shape).
absl::Status WhileRecordShape(InferenceContext& c) {
  const auto& t = c.attr<std::vector<DataType>>("T");
  const auto& values = c.attr<std::vector<DataType>>("Thistory");
  const auto& layouts = c.attr<std::vector<DataType>>("Tlayout");
  const auto& record = c.attr<std::vector<int64_t>>("record");
  const Function& body = *c.attr<FunctionRef>("body");
  if (record.size() > values.size() || layouts != std::vector<DataType>(values.size(), DT_INT64)) {
    return errors::InvalidArgument("'record' names ", record.size(), " variables but 'Thistory' ",
                                   values.size(), " and 'Tlayout' ", TypesString(layouts),
                                   " (one int64 per log)");
  }
  const int n = static_cast<int>(t.size()), r = static_cast<int>(record.size());
  const int logs = static_cast<int>(values.size());
  RILL_RETURN_IF_ERROR(LoopShape(c, std::vector<DataType>(values.begin() + r, values.end())));
  c.set_output(n, PartialTensorShape({}));
  for (int j = 0; j < logs; ++j) {
    if (j < r && (record[j] < 0 || record[j] >= n || t[record[j]] != values[j])) {
      return errors::InvalidArgument("'record'[", j, "] = ", record[j],
                                     " is not a loop variable of dtype ", DataTypeString(values[j]),
                                     " (", n, " variables)");
    }
    const PartialTensorShape& s =
        j < r ? body.arg_shape(static_cast<int>(record[j])) : body.ret_shape(n + j - r);
    c.set_output(n + 1 + j, PartialTensorShape({-1}));
    c.set_output(n + 1 + logs + j, ops::LogLayoutShape(s));
  }
  return absl::OkStatus();
}

// Value `index` of a _WhileRecord's log: of the static `shape` (the loop variable's).
absl::Status LogReadShape(InferenceContext& c) {
  RILL_RETURN_IF_ERROR(shape_fns::VectorInput(c, 0, "values"));
  const PartialTensorShape& layout = c.input_shape(1);
  if (!layout.unknown_rank() && layout.dims() != 2) {
    return errors::InvalidArgument("layout must be a matrix, is ", layout.DebugString());
  }
  RILL_RETURN_IF_ERROR(shape_fns::ScalarInput(c, 2, "index"));
  c.set_output(0, c.attr<PartialTensorShape>("shape"));
  return absl::OkStatus();
}

}  // namespace

// Stateful, as TensorFlow's If and While: never folded or merged, as their functions
// may be expensive.
RILL_REGISTER_OP("If")
    .Input("cond", "Tcond")
    .InputTypeList("input", "Tin")
    .OutputTypeList("output", "Tout")
    .TypeAttr("Tcond", kAllTypes)
    .Attr("Tin", AttrKind::kTypeList)
    .Attr("Tout", AttrKind::kTypeList)
    .Attr("then_branch", AttrKind::kFunc)
    .Attr("else_branch", AttrKind::kFunc)
    .SetIsStateful()
    .SetShapeFn(IfShape);

RILL_REGISTER_OP("While")
    .InputTypeList("input", "T")
    .OutputTypeList("output", "T")
    .Attr("T", AttrKind::kTypeList)
    .Attr("cond", AttrKind::kFunc)
    .Attr("body", AttrKind::kFunc)
    .Attr("parallel_iterations", AttrKind::kInt, int64_t{10})
    .SetIsStateful()
    .SetShapeFn(WhileShape);

// f(args...), f planned as a plan of its own (its nodes placed like any node's). As in
// TensorFlow, PartitionedCall is not stateful (the optimizer may merge identical calls);
// a function with random ops or other effects belongs in StatefulPartitionedCall.
RILL_REGISTER_OP("PartitionedCall")
    .InputTypeList("args", "Tin")
    .OutputTypeList("output", "Tout")
    .Attr("Tin", AttrKind::kTypeList)
    .Attr("Tout", AttrKind::kTypeList)
    .Attr("f", AttrKind::kFunc)
    .SetShapeFn(CallShape);

RILL_REGISTER_OP("StatefulPartitionedCall")
    .InputTypeList("args", "Tin")
    .OutputTypeList("output", "Tout")
    .Attr("Tin", AttrKind::kTypeList)
    .Attr("Tout", AttrKind::kTypeList)
    .Attr("f", AttrKind::kFunc)
    .SetIsStateful()
    .SetShapeFn(CallShape);

// A While's loop run again for its gradient (ops/control_flow_grad_while.cc): While's outputs,
// then the number of iterations and logs (kernels/cpu/control_flow_ops.cc's ValueLog):
// for each variable `record` names, its values before each iteration; then, for each
// value the body returns past the loop variables (intermediate values the gradient
// reads), its values after each iteration. Not differentiable itself.
RILL_REGISTER_OP("_WhileRecord")
    .InputTypeList("input", "T")
    .OutputTypeList("output", "T")
    .Output("iterations", DT_INT64)
    .OutputTypeList("values", "Thistory")
    .OutputTypeList("layout", "Tlayout")
    .Attr("T", AttrKind::kTypeList)
    .Attr("Thistory", AttrKind::kTypeList)
    .Attr("Tlayout", AttrKind::kTypeList)
    .Attr("record", AttrKind::kIntList)
    .Attr("cond", AttrKind::kFunc)
    .Attr("body", AttrKind::kFunc)
    .SetIsStateful()
    .SetShapeFn(WhileRecordShape);

// Value `index` of one variable's log (a _WhileRecord's `values` and `layout`): what the
// backward loop of While's gradient reads each iteration. Not differentiable.
RILL_REGISTER_OP("_LogRead")
    .Input("values", "T")
    .Input("layout", DT_INT64)
    .Input("index", DT_INT64)
    .Output("output", "T")
    .TypeAttr("T")
    .Attr("shape", AttrKind::kShape, PartialTensorShape())
    .SetShapeFn(LogReadShape);

namespace ops {
namespace {

OutputList OutputsOf(const Operation& op) {
  OutputList out;
  for (int i = 0; i < op.num_outputs(); ++i) out.emplace_back(op.node(), i);
  return out;
}

void TypesAndShapes(const std::vector<Output>& values, std::vector<DataType>* types,
                    std::vector<PartialTensorShape>* shapes) {
  for (const Output& v : values) {
    types->push_back(v.type());
    shapes->push_back(v.shape());
  }
}

Operation AddWhile(const Scope& scope, const InputList& input, const FunctionRef& cond,
                   const FunctionRef& body, const std::string& default_name) {
  return internal::NodeBuilder(scope, "While", default_name)
      .Inputs(input)
      .Attr("cond", cond)
      .Attr("body", body)
      .Finalize();
}

}  // namespace

PartialTensorShape LogLayoutShape(const PartialTensorShape& value) {
  return PartialTensorShape({-1, value.unknown_rank() ? -1 : 1 + value.dims()});
}

PartialTensorShape CommonShape(const PartialTensorShape& a, const PartialTensorShape& b) {
  if (a.unknown_rank() || b.unknown_rank() || a.dims() != b.dims()) return PartialTensorShape();
  std::vector<int64_t> dims(a.dim_sizes().begin(), a.dim_sizes().end());
  for (int d = 0; d < a.dims(); ++d) {
    if (dims[d] != b.dim_size(d)) dims[d] = -1;
  }
  return PartialTensorShape(absl::MakeConstSpan(dims));
}

namespace {

// A value a function builder returned: a node exists and has that output.
absl::Status CheckBuiltValue(const std::string& where, size_t i, const Output& v) {
  if (v.node() == nullptr) {
    return errors::InvalidArgument(where, "return value ", i,
                                   " is a null Output (no node was built for it)");
  }
  if (!v.valid()) {
    return errors::OutOfRange(where, "return value ", i, " is output ", v.index(), " of ",
                              v.node()->DebugName(), ", which has ", v.node()->num_outputs(),
                              " output(s)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FunctionRef> MakeFunction(const std::string& name,
                                         const std::vector<DataType>& types,
                                         const std::vector<PartialTensorShape>& shapes,
                                         const FunctionBodyFn& body) {
  const std::string where = absl::StrCat("function '", name, "': ");
  if (!shapes.empty() && shapes.size() != types.size()) {
    return errors::InvalidArgument(where, types.size(), " arg dtypes but ", shapes.size(),
                                   " shapes");
  }
  Scope root = Scope::NewRootScope();
  std::vector<Output> args;
  std::vector<Node*> arg_nodes;
  for (size_t i = 0; i < types.size(); ++i) {
    auto p = Placeholder(root.WithOpName(absl::StrCat("arg", i)), types[i],
                         Placeholder::Shape(shapes.empty() ? PartialTensorShape() : shapes[i]));
    args.push_back(p);
    arg_nodes.push_back(p.node());
  }
  std::vector<Output> rets;
  absl::Status s = root.status();
  if (s.ok()) s = body(root, args, &rets);
  if (s.ok()) s = root.status();
  if (!s.ok()) {
    return errors::Annotate(s, absl::StrCat(where,
                                            "(values of the caller's graph come in as "
                                            "arguments) "));
  }
  std::vector<NodeOut> ret_outs;
  for (size_t i = 0; i < rets.size(); ++i) {
    RILL_RETURN_IF_ERROR(CheckBuiltValue(where, i, rets[i]));
    if (rets[i].node()->graph() != root.graph()) {
      return errors::InvalidArgument(where, "return value ", i, " ('", rets[i].name(),
                                     "') is not a value of the function's graph; values of "
                                     "the caller's graph come in as arguments");
    }
    ret_outs.push_back({rets[i].node(), rets[i].index()});
  }
  return Function::Create(name, root.graph_as_shared_ptr(), std::move(arg_nodes),
                          std::move(ret_outs));
}

If::If(const Scope& scope, Input cond, InputList input, const FunctionRef& then_branch,
       const FunctionRef& else_branch) {
  if (!scope.ok()) return;
  std::vector<DataType> tout;
  if (then_branch != nullptr) tout = then_branch->ret_types();
  operation = internal::NodeBuilder(scope, "If")
                  .Input(cond)
                  .Inputs(input)
                  .Attr("Tout", tout)
                  .Attr("then_branch", then_branch)
                  .Attr("else_branch", else_branch)
                  .Finalize();
  if (operation.node() != nullptr) output = OutputsOf(operation);
}

internal::FunctionCallOp::FunctionCallOp(const Scope& scope, const char* op, InputList args,
                                         const std::vector<DataType>& Tout, const FunctionRef& f) {
  if (!scope.ok()) return;
  operation =
      internal::NodeBuilder(scope, op).Inputs(args).Attr("Tout", Tout).Attr("f", f).Finalize();
  if (operation.node() != nullptr) output = OutputsOf(operation);
}

While::While(const Scope& scope, InputList input, const FunctionRef& cond,
             const FunctionRef& body) {
  if (!scope.ok()) return;
  operation = AddWhile(scope, input, cond, body, "");
  if (operation.node() != nullptr) output = OutputsOf(operation);
}

absl::Status Cond(const Scope& scope, const Output& pred, const std::vector<Output>& inputs,
                  const FunctionBodyFn& then_fn, const FunctionBodyFn& else_fn,
                  std::vector<Output>* outputs) {
  RILL_RETURN_IF_ERROR(scope.status());
  std::vector<DataType> types;
  std::vector<PartialTensorShape> shapes;
  TypesAndShapes(inputs, &types, &shapes);
  // `last` names the If node itself; the functions are named after it.
  const CompositeOpScopes names = scope.GetCompositeOpScopes("cond");
  const std::string& name = names.child.name_prefix();
  RILL_ASSIGN_OR_RETURN(FunctionRef then_f,
                        MakeFunction(absl::StrCat(name, "/then"), types, shapes, then_fn));
  RILL_ASSIGN_OR_RETURN(FunctionRef else_f,
                        MakeFunction(absl::StrCat(name, "/else"), types, shapes, else_fn));
  If node(names.last, pred, inputs, then_f, else_f);
  RILL_RETURN_IF_ERROR(scope.status());
  *outputs = node.output;
  return absl::OkStatus();
}

namespace {

// The cond and body functions for loop variables of `types` and `shapes`.
absl::Status LoopFunctions(const std::string& name, const std::vector<DataType>& types,
                           const std::vector<PartialTensorShape>& shapes,
                           const CondGraphBuilderFn& cond, const BodyGraphBuilderFn& body,
                           FunctionRef* cond_f, FunctionRef* body_f) {
  auto cond_body = [&](const Scope& s, const std::vector<Output>& args,
                       std::vector<Output>* rets) -> absl::Status {
    Output pred;
    RILL_RETURN_IF_ERROR(cond(s, args, &pred));
    const std::string where = absl::StrCat("while loop '", name, "': 'cond' ");
    RILL_RETURN_IF_ERROR(CheckBuiltValue(where, 0, pred));
    if (pred.type() != DT_BOOL) {
      return errors::InvalidArgument(where, "must return a bool, got ",
                                     DataTypeString(pred.type()));
    }
    rets->push_back(pred);
    return absl::OkStatus();
  };
  RILL_ASSIGN_OR_RETURN(*cond_f,
                        MakeFunction(absl::StrCat(name, "/cond"), types, shapes, cond_body));
  RILL_ASSIGN_OR_RETURN(*body_f, MakeFunction(absl::StrCat(name, "/body"), types, shapes, body));
  if ((*body_f)->num_rets() != static_cast<int>(types.size())) {
    return errors::InvalidArgument("while loop '", name, "': the body returns ",
                                   (*body_f)->num_rets(), " values for ", types.size(),
                                   " loop variables");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status BuildWhileLoop(const Scope& scope, const std::vector<Output>& inputs,
                            const CondGraphBuilderFn& cond, const BodyGraphBuilderFn& body,
                            const std::string& frame_name, OutputList* outputs,
                            bool create_while_ctx) {
  (void)create_while_ctx;  // TensorFlow's v1 frames; a functional While needs none
  RILL_RETURN_IF_ERROR(scope.status());
  std::vector<DataType> types;
  std::vector<PartialTensorShape> shapes;
  TypesAndShapes(inputs, &types, &shapes);
  const CompositeOpScopes names =
      scope.GetCompositeOpScopes(frame_name.empty() ? "while" : frame_name);
  const std::string& name = names.child.name_prefix();
  FunctionRef cond_f, body_f;
  // Each pass can only lose dims or ranks, so this settles within rank + 2 passes per
  // variable; the bound keeps a body whose shapes keep changing from looping here.
  for (int pass = 0;; ++pass) {
    RILL_RETURN_IF_ERROR(LoopFunctions(name, types, shapes, cond, body, &cond_f, &body_f));
    std::vector<PartialTensorShape> relaxed;
    for (size_t i = 0; i < shapes.size(); ++i) {
      relaxed.push_back(pass < 8 ? CommonShape(shapes[i], body_f->ret_shape(static_cast<int>(i)))
                                 : PartialTensorShape());
    }
    bool same = true;
    for (size_t i = 0; i < shapes.size(); ++i) same = same && relaxed[i] == shapes[i];
    if (same) break;
    shapes = std::move(relaxed);
  }
  const Operation op = AddWhile(names.last, inputs, cond_f, body_f, "");
  RILL_RETURN_IF_ERROR(scope.status());
  *outputs = OutputsOf(op);
  return absl::OkStatus();
}

}  // namespace ops
}  // namespace rill
