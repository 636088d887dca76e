// The variable scatters of TensorFlow 1 (tf.compat.v1.scatter_update and kin, scatter_nd_*):
// a variable's rows, or the slices index tuples name, set to or combined with updates in
// place. Schemas, shape functions, wrappers; not differentiable (as TensorFlow's).
#include "rill/core/gather_nd.h"
#include "rill/core/shape_inference.h"
#include "rill/ops/gradients.h"
#include "rill/ops/state_ops.h"

namespace rill {
namespace {

// updates must be indices + ref[1:] or a scalar (Scatter*), or indices[:-1] + ref[K:]
// (ScatterNd*).
absl::Status VariableScatterShape(InferenceContext& c, bool nd) {
  const PartialTensorShape &ref = c.input_shape(0), &i = c.input_shape(1), &u = c.input_shape(2);
  if (nd && !i.unknown_rank() && i.dims() == 0) {
    return errors::InvalidArgument("indices must have rank >= 1, got []");
  }
  if (!nd && !ref.unknown_rank() && ref.dims() == 0) {
    return errors::InvalidArgument("the variable must have rank >= 1 to scatter rows into, got []");
  }
  if (!ref.unknown_rank() && !i.unknown_rank() && !u.unknown_rank()) {
    RILL_RETURN_IF_ERROR(nd ? CheckScatterNd(i.dim_sizes(), u.dim_sizes(), ref.dim_sizes())
                            : CheckScatterRows(i.dim_sizes(), u.dim_sizes(), ref.dim_sizes()));
  }
  c.set_output(0, ref);
  return absl::OkStatus();
}

}  // namespace

#define RILL_REGISTER_VARIABLE_SCATTER(Name, Types, Nd)                             \
  RILL_REGISTER_OP(Name)                                                            \
      .RefInput("ref", "T")                                                         \
      .Input("indices", "Tindices")                                                 \
      .Input("updates", "T")                                                        \
      .Output("output_ref", "T")                                                    \
      .TypeAttr("T", Types)                                                         \
      .TypeAttr("Tindices", kIndexTypes)                                            \
      .SetIsStateful()                                                              \
      .SetShapeFn([](InferenceContext& c) { return VariableScatterShape(c, Nd); }); \
  RILL_REGISTER_NO_GRADIENT(Name)
RILL_REGISTER_VARIABLE_SCATTER("ScatterUpdate", kAllTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterAdd", kNumberTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterSub", kNumberTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterMul", kNumberTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterDiv", kNumberTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterMin", kNumberTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterMax", kNumberTypes, false);
RILL_REGISTER_VARIABLE_SCATTER("ScatterNdUpdate", kAllTypes, true);
RILL_REGISTER_VARIABLE_SCATTER("ScatterNdAdd", kNumberTypes, true);
RILL_REGISTER_VARIABLE_SCATTER("ScatterNdSub", kNumberTypes, true);
#undef RILL_REGISTER_VARIABLE_SCATTER

namespace ops {

#define RILL_DEFINE_VARIABLE_SCATTER(Name)                                                       \
  Name::Name(const Scope& scope, Input ref, Input indices, Input updates) {                      \
    internal::NodeBuilder(scope, #Name).Input(ref).Input(indices).Input(updates).Finalize(this); \
  }
RILL_DEFINE_VARIABLE_SCATTER(ScatterUpdate)
RILL_DEFINE_VARIABLE_SCATTER(ScatterAdd)
RILL_DEFINE_VARIABLE_SCATTER(ScatterSub)
RILL_DEFINE_VARIABLE_SCATTER(ScatterMul)
RILL_DEFINE_VARIABLE_SCATTER(ScatterDiv)
RILL_DEFINE_VARIABLE_SCATTER(ScatterMin)
RILL_DEFINE_VARIABLE_SCATTER(ScatterMax)
RILL_DEFINE_VARIABLE_SCATTER(ScatterNdUpdate)
RILL_DEFINE_VARIABLE_SCATTER(ScatterNdAdd)
RILL_DEFINE_VARIABLE_SCATTER(ScatterNdSub)
#undef RILL_DEFINE_VARIABLE_SCATTER

}  // namespace ops
}  // namespace rill
