// Gradients of the band diagonal ops, as TensorFlow's (array_grad.py): MatrixDiagV2/V3's
// diagonal gets its band of the gradient; MatrixDiagPartV2/V3's input gets the gradient set
// into a zero matrix; MatrixSetDiagV2/V3's input gets the gradient with the band zeroed and
// its diagonal the band. k, num_rows, num_cols and padding_value get none.
#include "rill/ops/array_ops.h"
#include "rill/ops/diag_band_ops.h"
#include "rill/ops/grad_util.h"
#include "rill/ops/gradients.h"

namespace rill::ops {
namespace {

using GradOut = std::vector<Output>;
using grad::In;

bool IsV3(const Operation& op) { return op.node()->attrs().contains("align"); }
DiagAlignAttrs AlignOf(const Operation& op) {
  return DiagAlignAttrs().Align(std::get<std::string>(op.node()->attrs().at("align")));
}

// The band k of `x`, zero-padded, packed as `op` packs it.
Output BandOf(const Scope& s, const Operation& op, const Output& x, const Output& k) {
  const Output zero = grad::Scalar(s, 0, x.type());
  return IsV3(op) ? Output(MatrixDiagPartV3(s, x, k, zero, AlignOf(op)))
                  : Output(MatrixDiagPartV2(s, x, k, zero));
}
// `x` with its band k set to `diag`, as `op` packs it.
Output WithBand(const Scope& s, const Operation& op, const Output& x, const Output& diag,
                const Output& k) {
  return IsV3(op) ? Output(MatrixSetDiagV3(s, x, diag, k, AlignOf(op)))
                  : Output(MatrixSetDiagV2(s, x, diag, k));
}

absl::Status MatrixDiagBandGrad(const Scope& s, const Operation& op, const GradOut& g,
                                GradOut* out) {
  *out = {BandOf(s, op, g[0], In(op, 1)), NoGradient(), NoGradient(), NoGradient(), NoGradient()};
  return s.status();
}

absl::Status MatrixDiagPartBandGrad(const Scope& s, const Operation& op, const GradOut& g,
                                    GradOut* out) {
  *out = {WithBand(s, op, ZerosLike(s, In(op, 0)), g[0], In(op, 1)), NoGradient(), NoGradient()};
  return s.status();
}

absl::Status MatrixSetDiagBandGrad(const Scope& s, const Operation& op, const GradOut& g,
                                   GradOut* out) {
  *out = {WithBand(s, op, g[0], ZerosLike(s, In(op, 1)), In(op, 2)), BandOf(s, op, g[0], In(op, 2)),
          NoGradient()};
  return s.status();
}

}  // namespace

RILL_REGISTER_GRADIENT("MatrixDiagV2", MatrixDiagBandGrad);
RILL_REGISTER_GRADIENT("MatrixDiagV3", MatrixDiagBandGrad);
RILL_REGISTER_GRADIENT("MatrixDiagPartV2", MatrixDiagPartBandGrad);
RILL_REGISTER_GRADIENT("MatrixDiagPartV3", MatrixDiagPartBandGrad);
RILL_REGISTER_GRADIENT("MatrixSetDiagV2", MatrixSetDiagBandGrad);
RILL_REGISTER_GRADIENT("MatrixSetDiagV3", MatrixSetDiagBandGrad);

}  // namespace rill::ops
