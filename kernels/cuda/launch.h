// Launchers for rill's CUDA kernels. Plain pointers and sizes only, so the .cu files stay
// free of Eigen and of rill's graph headers; the kernel classes (*_ops.cc) call these on
// their device's stream. Each returns the launch's cudaError_t.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "rill/core/activation.h"
#include "rill/core/adjust_contrast_row.h"
#include "rill/core/apply_row.h"
#include "rill/core/batch_norm_row.h"
#include "rill/core/broadcast_plan.h"
#include "rill/core/colorspace_row.h"
#include "rill/core/element_map.h"
#include "rill/core/lrn_row.h"
#include "rill/core/mirror_pad_row.h"
#include "rill/core/point_activation.h"
#include "rill/core/range_value.h"
#include "rill/core/scatter_row.h"
#include "rill/core/segment_row.h"
#include "rill/core/select_plan.h"
#include "rill/core/unary_math.h"

namespace rill::gpu {

enum class BinaryKind {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kPow,
  kMax,
  kMin,
  kEqual,
  kLess,
  kGreater,
  kNotEqual,
  kLessEqual,
  kGreaterEqual,
  kLogicalAnd,  // bool operands
  kLogicalOr,
  kSquaredDifference,  // (a - b)^2
  kPolygamma,          // floating only (core/special_math.h)
  kFloorDiv,           // floating only here (integers compute on the host)
  kFloorMod,
  kTruncateDiv,  // floating only here (integers compute on the host)
  kTruncateMod,
  kAtan2,
  kDivNoNan,  // floating only (core/binary_math.h's SafeBinary)
  kMulNoNan,
  kXlogy,
  kXlog1py,
  kXdivy,
};
// The comparisons, whose output is bool.
inline bool IsComparison(BinaryKind op) {
  return op == BinaryKind::kEqual || op == BinaryKind::kLess || op == BinaryKind::kGreater ||
         op == BinaryKind::kNotEqual || op == BinaryKind::kLessEqual ||
         op == BinaryKind::kGreaterEqual;
}
enum class UnaryKind {
  kNeg,
  kAbs,
  kSquare,
  kSqrt,
  kExp,
  kLog,
  kRelu,
  kSigmoid,
  kTanh,
  kSign,
  kLogicalNot,  // bool
};
enum class ReduceKind { kSum, kMax, kMin, kProd };
enum class RandomKind { kUniform, kNormal, kTruncated };

// out = op(a, b) over `n` output elements laid out by `plan` (see core/broadcast.h).
// `out` is T, or bool for the comparisons.
template <typename T>
cudaError_t LaunchBinary(BinaryKind op, const T* a, const T* b, void* out, int64_t n,
                         const BroadcastPlan& plan, cudaStream_t stream);
template <typename T>
cudaError_t LaunchUnary(UnaryKind op, const T* x, T* y, int64_t n, cudaStream_t stream);
// y = op(x) with core/unary_math.h's formula (float and double).
template <typename T>
cudaError_t LaunchUnary(UnaryMath op, const T* x, T* y, int64_t n, cudaStream_t stream);
// y = whether x is of class c (IsNan, IsInf, IsFinite; float and double).
template <typename T>
cudaError_t LaunchFloatClass(FloatClass c, const T* x, bool* y, int64_t n, cudaStream_t stream);
// y = Relu6, Elu, Selu or LeakyRelu (slope `alpha`) of x; out = the gradient op's backprops
// from gradients g and a (features or outputs, see core/point_activation.h). Float types.
template <PointActivation kAct, typename T>
cudaError_t LaunchPointActivation(const T* x, T* y, T alpha, int64_t n, cudaStream_t stream);
template <PointActivation kAct, typename T>
cudaError_t LaunchPointActivationGrad(const T* g, const T* a, T* out, T alpha, int64_t n,
                                      cudaStream_t stream);
// y = ClipValue(x, lo, hi) (core/unary_math.h); a bound's step is 0 for a scalar, else 1.
template <typename T>
cudaError_t LaunchClipByValue(const T* x, const T* lo, int64_t lo_step, const T* hi,
                              int64_t hi_step, T* y, int64_t n, cudaStream_t stream);
template <typename From, typename To>
cudaError_t LaunchCast(const From* x, To* y, int64_t n, bool truncate, cudaStream_t stream);
// y += scale * x
template <typename T>
cudaError_t LaunchAxpy(T scale, const T* x, T* y, int64_t n, cudaStream_t stream);
// y[i] = *value (a device scalar) or y[i] = v.
template <typename T>
cudaError_t LaunchFill(const T* value, T* y, int64_t n, cudaStream_t stream);
template <typename T>
cudaError_t LaunchFillConstant(T v, T* y, int64_t n, cudaStream_t stream);
// [outer, r, inner] -> [outer, inner]
template <typename T>
cudaError_t LaunchReduce(ReduceKind op, const T* x, T* y, int64_t outer, int64_t r, int64_t inner,
                         T* scratch, cudaStream_t stream);
// Elements of scratch LaunchReduce wants for `outputs` results over rows of r (0: none; a
// null scratch then is allowed too, and slower).
int64_t ReduceScratchElements(int64_t outputs, int64_t r);
template <typename T>
cudaError_t LaunchScale(T* y, T scale_num, int64_t divisor, int64_t n, cudaStream_t stream);
// ArgMax, or ArgMin when `min`, over [outer, r, inner] into [outer, inner].
template <typename T, typename Index>
cudaError_t LaunchArgMax(const T* x, Index* y, int64_t outer, int64_t r, int64_t inner, bool min,
                         cudaStream_t stream);
template <typename T>
cudaError_t LaunchSoftmax(const T* x, T* y, int64_t rows, int64_t cols, bool log,
                          cudaStream_t stream);
// Element i comes from Philox block (key, counter base + i): the same numbers as the CPU.
// When `base_at` is set the kernel reads base there instead (a recorded step's counter,
// set before each replay: DeviceBase::ReplayCounter).
template <typename T>
cudaError_t LaunchRandom(RandomKind kind, T* y, int64_t n, uint64_t key, uint64_t base,
                         const uint64_t* base_at, cudaStream_t stream);

// RandomUniformInt (core/random_draw_row.h): y[i] = lo + (block base + i) mod range.
template <typename T>
cudaError_t LaunchRandomUniformInt(T* y, int64_t n, T lo, uint64_t range, uint64_t key,
                                   uint64_t base, const uint64_t* base_at, cudaStream_t stream);
// Multinomial: sample i of [batch, samples] from row i / samples of logits [batch, classes]
// and Philox block base + i.
template <typename T, typename Out>
cudaError_t LaunchMultinomial(const T* logits, Out* y, int64_t batch, int64_t classes,
                              int64_t samples, uint64_t key, uint64_t base, const uint64_t* base_at,
                              cudaStream_t stream);

// ReluGrad(g, x), SigmoidGrad(y, dy), TanhGrad(y, dy) over n elements.
template <typename T>
cudaError_t LaunchActivationGrad(FusedActivation kind, const T* a, const T* b, T* out, int64_t n,
                                 cudaStream_t stream);
// Softmax cross entropy per row of [rows, cols] features: dense labels (same shape) or, when
// `ids` is set, class ids (a row whose id is out of range gets a NaN loss, as TensorFlow's
// GPU kernel does).
template <typename T, typename Index>
cudaError_t LaunchSoftmaxXent(const T* features, const T* labels, const Index* ids, T* loss,
                              T* backprop, int64_t rows, int64_t cols, cudaStream_t stream);
template <typename T>
cudaError_t LaunchSigmoidXent(const T* logits, const T* labels, T* loss, int64_t n,
                              cudaStream_t stream);
// Keras's categorical cross-entropy of probabilities, one thread per row
// (core/crossentropy_row.h).
template <typename T>
cudaError_t LaunchCategoricalCrossentropy(const T* output, const T* labels, T* loss, T* backprop,
                                          int64_t rows, int64_t cols, T epsilon,
                                          cudaStream_t stream);
// Keras's accuracy (core/accuracy_row.h, `kind` an AccuracyKind) of `examples` examples in
// one block: *result = hits / examples as float, counted in a fixed order.
template <typename T, typename L>
cudaError_t LaunchAccuracy(int kind, const T* output, const L* labels, int64_t examples,
                           int64_t classes, float* result, cudaStream_t stream);
// y[i] = *dy / count: the gradient of a Mean of `count` elements down to one.
template <typename T>
cudaError_t LaunchMeanAllGrad(const T* dy, T count, T* y, int64_t n, cudaStream_t stream);
// Dropout: element i keeps when word i % 4 of Philox block (key, base + i / 4) is >= rate
// (the CPU's numbers); mask is 0 or 1 / (1 - rate). `base_at` as LaunchRandom's.
template <typename T>
cudaError_t LaunchDropout(const T* x, T* out, T* mask, int64_t n, float rate, uint64_t key,
                          uint64_t base, const uint64_t* base_at, cudaStream_t stream);
// Optimizer updates; scalars are device pointers (one element each).
template <typename T>
cudaError_t LaunchApplyGradientDescent(T* var, const T* alpha, const T* delta, int64_t n,
                                       cudaStream_t stream);
// scalars[0] = -lr, scalars[1] = 1: alpha and beta, in device memory, of the GEMM that
// subtracts lr * op(a) op(b) from a variable in place (_MatMulApplyGradientDescent).
template <typename T>
cudaError_t LaunchGemmUpdateScalars(const T* lr, T* scalars, cudaStream_t stream);
template <typename T>
cudaError_t LaunchApplyMomentum(T* var, T* accum, const T* lr, const T* grad, const T* momentum,
                                bool nesterov, int64_t n, cudaStream_t stream);
template <typename T>
cudaError_t LaunchApplyAdam(T* var, T* m, T* v, const T* beta1_power, const T* beta2_power,
                            const T* lr, const T* beta1, const T* beta2, const T* epsilon,
                            const T* grad, bool nesterov, int64_t n, cudaStream_t stream);
// The TensorScatter ops: each group's rows (core/gather_nd.h's ScatterGroups, on the device)
// combined into `out`, which already holds the tensor's values.
template <typename T>
cudaError_t LaunchTensorScatter(ScatterKind kind, const T* updates, const int64_t* order,
                                const int64_t* starts, const int64_t* targets, int64_t groups,
                                int64_t inner, T* out, cudaStream_t stream);

// The adaptive updates of core/apply_row.h: device pointers to the variable, its slots
// (unused ones null), its scalars (each a device scalar) and the gradient.
template <typename T>
struct ApplyRuleArgs {
  T* var = nullptr;
  T* slot[kMaxApplySlots] = {};
  const T* scalar[kMaxApplyScalars] = {};
  const T* grad = nullptr;
  int64_t n = 0;
  bool update_slots = true;
};
template <typename T>
cudaError_t LaunchApplyRule(ApplyRule rule, const ApplyRuleArgs<T>& args, cudaStream_t stream);

// The strided copy of core/strided_copy.h (Transpose, Slice, Pad, BroadcastTo) over
// elements of `element_size` bytes (1, 2, 4 or 8), its fields without its headers.
struct StridedCopyDims {
  int rank;
  int64_t dims[kMaxCopyRank], src_strides[kMaxCopyRank], dst_strides[kMaxCopyRank];
  int64_t src_base, dst_base;
};
cudaError_t LaunchStridedCopy(const StridedCopyDims& c, int64_t n, size_t element_size,
                              const void* src, void* dst, cudaStream_t stream);

// dst[i] = values[i] for i < n, the values passed with the launches themselves (by value,
// so the host may change its array at once): a recorded step's counters, set before each
// replay (runtime/gpu/gpu_capture.cc).
cudaError_t LaunchSetCounters(uint64_t* dst, const uint64_t* values, int64_t n,
                              cudaStream_t stream);

// OneHot over indices [outer, inner] into [outer, depth, inner]; on and off are device
// scalars. An index out of [0, depth) gives off everywhere, as in TensorFlow.
template <typename T, typename Index>
cudaError_t LaunchOneHot(const Index* indices, const T* on, const T* off, T* out, int64_t outer,
                         int64_t depth, int64_t inner, cudaStream_t stream);

// Select's walk (core/select_plan.h) over n output elements of `element_size` bytes (1, 4
// or 8); cond, t, e and out on the device.
cudaError_t LaunchSelect(const SelectPlan& p, int64_t n, size_t element_size, const bool* cond,
                         const void* t, const void* e, void* out, cudaStream_t stream);

// Gather's rows (core/gather.h's geometry: batch, outer, n, k, inner) of `element_size`
// bytes (1, 2, 4 or 8); indices (Index: int32_t or int64_t), already validated, on the device.
template <typename Index>
cudaError_t LaunchGather(int64_t batch, int64_t outer, int64_t n, int64_t k, int64_t inner,
                         size_t element_size, const void* params, const Index* indices, void* out,
                         cudaStream_t stream);
// UnsortedSegmentSum into a zeroed out [segments, inner] by atomic adds; negative ids are
// dropped (ids already validated below segments).
template <typename T, typename Index>
cudaError_t LaunchSegmentSum(const T* data, const Index* ids, int64_t num_ids, int64_t inner,
                             T* out, cudaStream_t stream);
// The segment reductions (core/segment.h): out [segments, inner], element (s, i) reducing
// the data rows of lists offsets (segments + 1) and rows, each times weights[k] when
// weights is not null; `empty` for a segment without rows. Every array on the device.
template <typename T>
cudaError_t LaunchSegmentReduce(SegmentReduction r, const T* data, const int64_t* offsets,
                                const int64_t* rows, const T* weights, int64_t segments,
                                int64_t inner, T empty, T* out, cudaStream_t stream);

// Cumsum (prod false) or Cumprod of x viewed as [outer, n, inner], along n.
template <typename T>
cudaError_t LaunchScan(bool prod, const T* x, T* y, int64_t outer, int64_t n, int64_t inner,
                       bool exclusive, bool reverse, cudaStream_t stream);

// ReverseSequence or MatrixBandPart: n output elements of element_size bytes (1, 2, 4 or 8),
// each core/element_map.h's MapElement (a ReverseSequenceMap's lens on the device).
template <typename Map>
cudaError_t LaunchElementMap(size_t element_size, const void* in, void* out, int64_t n,
                             const Map& map, cudaStream_t stream);

// AdjustContrastv2's n elements of x, `sums` the per-image, per-channel sums (on the device).
template <typename T>
cudaError_t LaunchContrast(const T* x, const T* sums, const ContrastDims& d, T* y, int64_t n,
                           cudaStream_t stream);

// RGBToHSV, HSVToRGB (dy null) or their gradients of dy at x: `pixels` pixels of
// core/colorspace_row.h's formulas.
template <ColorKind K, typename T>
cudaError_t LaunchColor(const T* x, const T* dy, T* out, int64_t pixels, cudaStream_t stream);

// Cross of `vectors` pairs of 3-vectors (core/cross_row.h).
template <typename T>
cudaError_t LaunchCross(const T* a, const T* b, T* out, int64_t vectors, cudaStream_t stream);

// LRN over x (g null) or LRNGrad of g at x: n elements of core/lrn_row.h's formulas.
template <typename T>
cudaError_t LaunchLrn(const T* g, const T* x, T* out, int64_t n, const LrnParams& p,
                      cudaStream_t stream);

// CheckNumerics: core/check_numerics.h's flags of x's n elements OR-ed into *flags (device).
template <typename T>
cudaError_t LaunchNumericFlags(const T* x, int64_t n, int* flags, cudaStream_t stream);

// MirrorPadGrad: n output elements, each core/mirror_pad_row.h's sum over g.
template <typename T>
cudaError_t LaunchMirrorPadGrad(const T* g, const MirrorFold& fold, T* out, int64_t n,
                                cudaStream_t stream);

// TopKV2 over [rows, n]: each row's k first entries in core/topk.h's order.
template <typename T>
cudaError_t LaunchTopK(const T* x, T* values, int32_t* indices, int64_t rows, int64_t n, int64_t k,
                       cudaStream_t stream);

// out[i] = RangeValue(start, delta, i) for i < n.
template <typename T>
cudaError_t LaunchRange(T start, T delta, T* out, int64_t n, cudaStream_t stream);

// Batch normalization over x viewed as g (core/batch_norm_row.h's formulas): the batch's
// mean and biased variance per channel; y; the running statistics of a training step;
// the gradient's per-channel sums (scale_backprop, offset_backprop), then x_backprop.
template <typename T>
cudaError_t LaunchBatchNormMoments(const T* x, T* mean, T* variance, const BatchNormGeometry& g,
                                   cudaStream_t stream);
template <typename T>
cudaError_t LaunchBatchNormForward(const T* x, const T* scale, const T* offset, const T* mean,
                                   const T* variance, T epsilon, T* y, const BatchNormGeometry& g,
                                   cudaStream_t stream);
template <typename T>
cudaError_t LaunchBatchNormRunning(const T* mean, const T* variance, int64_t n, T factor,
                                   const T* mean_in, const T* variance_in, bool blend, T* mean_out,
                                   T* variance_out, int64_t channels, cudaStream_t stream);
template <typename T>
cudaError_t LaunchBatchNormGradSums(const T* dy, const T* x, const T* mean, const T* variance,
                                    T epsilon, T* scale_bp, T* offset_bp,
                                    const BatchNormGeometry& g, cudaStream_t stream);
template <typename T>
cudaError_t LaunchBatchNormBackprop(const T* dy, const T* x, const T* scale, const T* mean,
                                    const T* variance, T epsilon, const T* scale_bp,
                                    const T* offset_bp, bool training, T* dx,
                                    const BatchNormGeometry& g, cudaStream_t stream);

}  // namespace rill::gpu
