#include "rill/runtime/keras/model.h"

#include <unistd.h>

#include <cstring>

#include "absl/strings/str_cat.h"
#include "rill/ops/array_ops.h"
#include "rill/ops/state_ops.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/keras/dataset.h"
#include "rill/runtime/keras/distributed.h"
#include "rill/runtime/keras/losses.h"
#include "rill/runtime/saver.h"

namespace rill::keras {
namespace {

// The device the model's output is computed on, where batches go.
Device* ModelDevice(const Session& session, const Output& prediction) {
  absl::StatusOr<std::string> name = session.AssignedDevice(prediction.op());
  if (!name.ok()) return nullptr;
  for (const auto& d : DeviceSet::Local().devices()) {
    if (d->name() == *name) return d.get();
  }
  return nullptr;
}

// A batch iterator that prepares batches in that device's staging memory (a GPU's pinned
// host memory) and starts their upload there; plain host batches for the CPU.
std::unique_ptr<BatchIterator> Batches(const Session& session, const Output& prediction,
                                       const Dataset& data, int64_t batch_size, bool shuffle,
                                       uint64_t seed, Shard shard = {}) {
  Device* d = ModelDevice(session, prediction);
  Allocator* staging = d != nullptr ? d->host_staging_allocator() : nullptr;
  return std::make_unique<BatchIterator>(data, batch_size, shuffle, seed, staging,
                                         staging != nullptr ? d : nullptr, shard);
}

}  // namespace

struct Sequential::Impl {
  ModelOptions options;
  std::vector<std::shared_ptr<Layer>> layers;
  Scope root = Scope::NewRootScope();
  // Compile
  std::shared_ptr<ops::Optimizer> optimizer;
  std::string loss_name;
  std::vector<std::string> metric_names;
  CompileOptions compile;
  bool compiled = false;
  // Build
  bool built = false;
  absl::Status build_status;
  PartialTensorShape input_shape;
  DataType label_type = DT_INVALID;
  Output x, y, train_loss, eval_loss, prediction;
  std::vector<Output> train_metrics, eval_metrics;
  std::vector<std::string> metric_display;
  Operation train_op;
  std::unique_ptr<Session> session;
  Session::CallableHandle train_call = -1, eval_call = -1, predict_call = -1;
  // Sums of the training loss and metrics over an epoch's full batches, kept where they
  // are computed: a step that fetched them would make the host wait for the GPU each
  // step. queued_train_call trains and adds to them, fetching nothing.
  std::vector<Output> running_sums;
  Operation reset_running;
  Session::CallableHandle queued_train_call = -1, read_running_call = -1;

  Scope model_scope() const {
    return options.device.empty() ? root : root.WithDevice(options.device);
  }
  ModelOutputs train_outputs, eval_outputs;
  size_t initialized = 0;          // graph initializers already run
  internal::RankMeans rank_means;  // epoch metrics averaged over the ranks

  absl::Status Build(const Tensor& x_data, const Tensor* y_data);
  absl::Status BuildTraining(const Tensor& y_data);
  absl::Status InitializeNewVariables();
  absl::Status CheckData(const Tensor& x_data, const Tensor* y_data) const;
};

Sequential::Sequential(ModelOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
}
Sequential::~Sequential() = default;

Sequential& Sequential::Add(std::shared_ptr<Layer> layer) {
  if (impl_->built) {
    impl_->build_status = errors::FailedPrecondition(
        "layers cannot be added after the model "
        "is built (by Fit, Evaluate or Predict)");
  } else if (layer == nullptr) {
    impl_->build_status =
        errors::InvalidArgument("Add: layer ", impl_->layers.size(), " is a null pointer");
  } else {
    impl_->layers.push_back(std::move(layer));
  }
  return *this;
}

absl::Status Sequential::Compile(std::shared_ptr<ops::Optimizer> optimizer, const std::string& loss,
                                 const std::vector<std::string>& metrics, CompileOptions options) {
  if (impl_->built) return errors::FailedPrecondition("Compile must come before Fit");
  if (optimizer == nullptr) return errors::InvalidArgument("Compile: no optimizer");
  impl_->optimizer = std::move(optimizer);
  impl_->loss_name = loss;
  impl_->metric_names = metrics;
  impl_->compile = options;
  impl_->compiled = true;
  return absl::OkStatus();
}

absl::Status Sequential::Compile(const std::string& optimizer, const std::string& loss,
                                 const std::vector<std::string>& metrics, CompileOptions options) {
  // Keras's defaults for each name.
  std::shared_ptr<ops::Optimizer> opt;
  if (optimizer == "sgd") opt = std::make_shared<ops::GradientDescentOptimizer>(0.01);
  if (optimizer == "momentum") opt = std::make_shared<ops::MomentumOptimizer>(0.01, 0.9);
  if (optimizer == "adam") opt = std::make_shared<ops::AdamOptimizer>(0.001);
  if (optimizer == "rmsprop") {
    opt = std::make_shared<ops::RMSPropOptimizer>(0.001, 0.9, 0, 1e-7, false, 0);
  }
  if (optimizer == "adagrad") opt = std::make_shared<ops::AdagradOptimizer>(0.001, 0.1, 1e-7);
  if (optimizer == "adadelta") opt = std::make_shared<ops::AdadeltaOptimizer>(0.001, 0.95, 1e-7);
  if (optimizer == "adamax") opt = std::make_shared<ops::AdaMaxOptimizer>(0.001);
  if (opt == nullptr) {
    return errors::InvalidArgument(
        "unknown optimizer '", optimizer,
        "'; use sgd, momentum, adam, rmsprop, adagrad, adadelta, adamax or an Optimizer object");
  }
  return Compile(opt, loss, metrics, options);
}

absl::Status Sequential::Impl::CheckData(const Tensor& xd, const Tensor* yd) const {
  if (!xd.IsInitialized() || xd.dtype() != DT_FLOAT || xd.dims() < 1) {
    return errors::InvalidArgument("x must be a float32 tensor [examples, ...], got ",
                                   xd.IsInitialized() ? xd.DebugString() : "nothing");
  }
  if (built) {
    PartialTensorShape got = xd.shape();
    if (!input_shape.IsCompatibleWith(got)) {
      return errors::InvalidArgument("x has shape ", xd.shape().DebugString(),
                                     " but the model was built for ", input_shape.DebugString());
    }
    if (yd != nullptr && label_type != DT_INVALID && yd->dtype() != label_type) {
      return errors::InvalidArgument("y has dtype ", DataTypeString(yd->dtype()),
                                     " but the model was built for ", DataTypeString(label_type));
    }
  }
  if (yd != nullptr &&
      (!yd->IsInitialized() || yd->dims() < 1 || yd->dim_size(0) != xd.dim_size(0))) {
    return errors::InvalidArgument("y must have as many rows as x (", xd.dim_size(0), ")");
  }
  return absl::OkStatus();
}

absl::Status Sequential::Impl::Build(const Tensor& xd, const Tensor* yd) {
  RILL_RETURN_IF_ERROR(build_status);
  if (built) {
    RILL_RETURN_IF_ERROR(CheckData(xd, yd));
    return yd != nullptr ? BuildTraining(*yd) : absl::OkStatus();
  }
  RILL_RETURN_IF_ERROR(CheckData(xd, yd));
  if (layers.empty()) return errors::FailedPrecondition("the model has no layers");
  std::vector<int64_t> dims(xd.shape().dim_sizes().begin(), xd.shape().dim_sizes().end());
  dims[0] = -1;
  input_shape = PartialTensorShape(dims);
  Scope s = model_scope();
  x = ops::Placeholder(s.WithOpName("x"), DT_FLOAT, ops::Placeholder::Shape(input_shape));
  // Variables first, then the training forward pass, then inference (shared variables).
  ModelOutputs train, eval;
  Output h = x;
  for (size_t i = 0; i < layers.size(); ++i) {
    Scope ls = s.NewSubScope(layers[i]->name());
    RILL_RETURN_IF_ERROR(
        errors::Annotate(layers[i]->Build(ls, h.shape(), options.seed + 1000003 * (i + 1)),
                         absl::StrCat("layer ", i, " (", layers[i]->name(), "): ")));
    h = layers[i]->Call(ls.NewSubScope("train"), h, true);
    RILL_RETURN_IF_ERROR(root.status());
  }
  train = {h, layers.back()->logits(), layers.back()->activation(), compile.from_logits};
  h = x;
  for (auto& layer : layers) h = layer->Call(s.NewSubScope(layer->name() + "_infer"), h, false);
  eval = {h, layers.back()->logits(), layers.back()->activation(), compile.from_logits};
  prediction = eval.output;
  train_outputs = train;
  eval_outputs = eval;
  RILL_RETURN_IF_ERROR(root.status());
  session = std::make_unique<Session>(root, options.session);
  RILL_RETURN_IF_ERROR(InitializeNewVariables());
  CallableOptions predict;
  predict.feed = {x};
  predict.fetch = {prediction};
  RILL_RETURN_IF_ERROR(session->MakeCallable(predict, &predict_call));
  built = true;
  return yd != nullptr ? BuildTraining(*yd) : absl::OkStatus();
}

absl::Status Sequential::Impl::InitializeNewVariables() {
  std::vector<Node*> inits = root.graph()->initializers();
  std::vector<Operation> fresh;
  for (size_t i = initialized; i < inits.size(); ++i) fresh.emplace_back(inits[i]);
  initialized = inits.size();
  if (fresh.empty()) return absl::OkStatus();
  ops::NoOp init(root.WithNoControlDependencies().WithControlDependencies(fresh).WithOpName(
      root.GetUniqueNameForOp("init")));
  RILL_RETURN_IF_ERROR(root.status());
  return session->Run({}, {}, {init.operation}, nullptr);
}

// The loss, metrics and optimizer, the first time labels are seen (after Compile).
absl::Status Sequential::Impl::BuildTraining(const Tensor& yd) {
  if (!compiled || train_call >= 0) return absl::OkStatus();
  Scope s = model_scope();
  label_type = yd.dtype();
  std::vector<int64_t> ydims(yd.shape().dim_sizes().begin(), yd.shape().dim_sizes().end());
  ydims[0] = -1;
  y = ops::Placeholder(s.WithOpName("y"), label_type,
                       ops::Placeholder::Shape(PartialTensorShape(ydims)));
  RILL_ASSIGN_OR_RETURN(train_loss, BuildLoss(s.NewSubScope("loss"), loss_name, train_outputs, y));
  RILL_ASSIGN_OR_RETURN(eval_loss,
                        BuildLoss(s.NewSubScope("eval_loss"), loss_name, eval_outputs, y));
  for (const std::string& m : metric_names) {
    std::string display;
    RILL_ASSIGN_OR_RETURN(
        Output tm, BuildMetric(s.NewSubScope("metrics"), m, loss_name, train_outputs, y, &display));
    RILL_ASSIGN_OR_RETURN(Output em, BuildMetric(s.NewSubScope("eval_metrics"), m, loss_name,
                                                 eval_outputs, y, &display));
    train_metrics.push_back(tm);
    eval_metrics.push_back(em);
    metric_display.push_back(display);
  }
  train_op = internal::ForRanks(optimizer)->Minimize(s, train_loss);
  CallableOptions q, r;
  q.feed = {x, y};
  q.target = {train_op};
  std::vector<Output> values = {train_loss};
  values.insert(values.end(), train_metrics.begin(), train_metrics.end());
  std::vector<Operation> resets;
  Scope rs = s.NewSubScope("running");
  for (const Output& v : values) {
    ops::Variable sum(rs.WithOpName(rs.GetUniqueNameForOp("sum")), PartialTensorShape({}),
                      DT_FLOAT);
    resets.push_back(ops::Assign(rs, sum, ops::Const(rs, 0.0f)).operation);
    q.target.push_back(ops::AssignAdd(rs, sum, v).operation);
    running_sums.push_back(sum);
  }
  reset_running = ops::NoOp(rs.WithControlDependencies(resets).WithOpName("reset"));
  r.fetch = running_sums;
  RILL_RETURN_IF_ERROR(root.status());
  RILL_RETURN_IF_ERROR(InitializeNewVariables());                 // the optimizer's slots
  RILL_RETURN_IF_ERROR(internal::SyncVariables(root, *session));  // rank 0's weights
  RILL_RETURN_IF_ERROR(session->MakeCallable(q, &queued_train_call));
  RILL_RETURN_IF_ERROR(session->MakeCallable(r, &read_running_call));
  CallableOptions t, e;
  t.feed = e.feed = {x, y};
  t.fetch = {train_loss};
  t.fetch.insert(t.fetch.end(), train_metrics.begin(), train_metrics.end());
  t.target = {train_op};
  e.fetch = {eval_loss};
  e.fetch.insert(e.fetch.end(), eval_metrics.begin(), eval_metrics.end());
  RILL_RETURN_IF_ERROR(session->MakeCallable(t, &train_call));
  return session->MakeCallable(e, &eval_call);
}

namespace {

// Example-weighted running means of the fetched loss and metrics: `values` (each a
// batch's mean, or a sum of batch means) count `weight` times, for `n` examples.
struct Averages {
  std::vector<double> sums;
  int64_t count = 0;
  void Add(const std::vector<Tensor>& values, int64_t n) { Add(values, n, n); }
  void Add(const std::vector<Tensor>& values, int64_t weight, int64_t n) {
    sums.resize(values.size(), 0.0);
    for (size_t i = 0; i < values.size(); ++i)
      sums[i] += static_cast<double>(values[i].base<float>()[0]) * static_cast<double>(weight);
    count += n;
  }
  Metrics Get(const std::vector<std::string>& names, const std::string& prefix = "") const {
    Metrics m;
    for (size_t i = 0; i < names.size() && i < sums.size(); ++i) {
      m.emplace_back(prefix + names[i], count ? sums[i] / static_cast<double>(count) : 0.0);
    }
    return m;
  }
};

}  // namespace

absl::Status Sequential::TraceTrainStep(const Tensor& x, const Tensor& y, RunMetadata* metadata) {
  if (!impl_->compiled) return errors::FailedPrecondition("call Compile before TraceTrainStep");
  RILL_RETURN_IF_ERROR(impl_->Build(x, &y));
  RunOptions traced;
  traced.trace_level = RunOptions::FULL_TRACE;
  std::vector<Tensor> fetched;
  return impl_->session->RunCallable(impl_->train_call, {x, y}, &fetched, traced, metadata);
}

namespace {

// The batch size and row count every entry point takes: batch_size >= 1 (any int64, the
// batch count is computed without wrapping), and rows to average over unless an empty
// result is meaningful.
absl::Status CheckBatching(const char* where, const Tensor& x, int64_t batch_size,
                           bool allow_empty) {
  if (batch_size < 1) {
    return errors::InvalidArgument(where, ": batch_size must be >= 1, got ", batch_size);
  }
  if (!allow_empty && x.IsInitialized() && x.dims() >= 1 && x.dim_size(0) == 0) {
    return errors::InvalidArgument(where, ": x has no examples (shape ", x.shape().DebugString(),
                                   "); there is nothing to average a loss or metric over");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<History> Sequential::Fit(const Tensor& x, const Tensor& y,
                                        const FitOptions& options) {
  if (!impl_->compiled) return errors::FailedPrecondition("call Compile before Fit");
  if (options.epochs < 1) {
    return errors::InvalidArgument("Fit: epochs must be >= 1, got ", options.epochs);
  }
  RILL_RETURN_IF_ERROR(CheckBatching("Fit", x, options.batch_size, /*allow_empty=*/false));
  RILL_RETURN_IF_ERROR(impl_->Build(x, &y));
  if (options.validation_data) {
    RILL_RETURN_IF_ERROR(
        impl_->CheckData(options.validation_data->first, &options.validation_data->second));
    RILL_RETURN_IF_ERROR(CheckBatching("Fit's validation_data", options.validation_data->first,
                                       options.batch_size, /*allow_empty=*/false));
  }
  if (options.checkpoint_every > 0) {
    // A path that cannot be written fails now, not after an epoch of training.
    RILL_RETURN_IF_ERROR(CheckWritable(options.checkpoint_path, "Fit's checkpoint_path"));
  }
  RILL_ASSIGN_OR_RETURN(Dataset data, Dataset::FromTensors(x, y));
  std::vector<std::string> names = {"loss"};
  names.insert(names.end(), impl_->metric_display.begin(), impl_->metric_display.end());
  const bool live = options.verbose == 1 && options.out == &std::cout && isatty(STDOUT_FILENO);
  // On several ranks, rank 0 alone prints and writes checkpoints.
  const bool lead = internal::LeadRank();
  std::ostream* out = options.verbose == 0 || !lead ? nullptr : options.out;
  std::unique_ptr<Saver> saver;
  if (options.checkpoint_every > 0 && lead) saver = std::make_unique<Saver>(impl_->root);
  History history;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    if (out) *out << "Epoch " << epoch + 1 << "/" << options.epochs << "\n";
    std::unique_ptr<BatchIterator> it =
        Batches(*impl_->session, impl_->prediction, data, options.batch_size, options.shuffle,
                options.shuffle_seed + epoch, internal::RankShard());
    ProgressBar bar(out, it->num_batches(), live);
    RILL_RETURN_IF_ERROR(impl_->session->Run({}, {}, {impl_->reset_running}, nullptr));
    // Full batches add to the running sums on the device and do not wait for it; a
    // smaller (last) batch fetches its values. Values are read when they are shown.
    Averages partial;
    int64_t step = 0, full_steps = 0;
    std::vector<Tensor> fetched;
    RunOptions queued;
    queued.wait_for_devices = false;
    auto means = [&]() -> absl::StatusOr<Metrics> {
      Averages all = partial;
      std::vector<Tensor> sums;
      RILL_RETURN_IF_ERROR(impl_->session->RunCallable(impl_->read_running_call, {}, &sums));
      all.Add(sums, options.batch_size, full_steps * options.batch_size);
      return all.Get(names);
    };
    while (auto batch = it->Next()) {
      fetched.clear();
      if (batch->size == options.batch_size) {
        RILL_RETURN_IF_ERROR(impl_->session->RunCallable(
            impl_->queued_train_call, {batch->x, batch->y}, &fetched, queued, nullptr));
        ++full_steps;
      } else {
        RILL_RETURN_IF_ERROR(
            impl_->session->RunCallable(impl_->train_call, {batch->x, batch->y}, &fetched));
        partial.Add(fetched, batch->size);
      }
      if (bar.WillDraw(++step)) {
        RILL_ASSIGN_OR_RETURN(Metrics shown, means());
        bar.Update(step, shown);
      }
    }
    RILL_ASSIGN_OR_RETURN(Metrics values, means());
    RILL_RETURN_IF_ERROR(impl_->rank_means.Average(&values));  // over the ranks' shards
    if (options.validation_data) {
      RILL_ASSIGN_OR_RETURN(
          Metrics val, Evaluate(options.validation_data->first, options.validation_data->second,
                                options.batch_size));
      for (auto& [k, v] : val) values.emplace_back("val_" + k, v);
    }
    history.epoch_seconds.push_back(bar.seconds());
    bar.Finish(values);
    for (auto& [k, v] : values) history.history[k].push_back(v);
    if (saver && (epoch + 1) % options.checkpoint_every == 0) {
      RILL_RETURN_IF_ERROR(saver->Save(*impl_->session, options.checkpoint_path));
    }
  }
  return history;
}

absl::StatusOr<Metrics> Sequential::Evaluate(const Tensor& x, const Tensor& y, int64_t batch_size) {
  if (!impl_->compiled) return errors::FailedPrecondition("call Compile before Evaluate");
  RILL_RETURN_IF_ERROR(CheckBatching("Evaluate", x, batch_size, /*allow_empty=*/false));
  RILL_RETURN_IF_ERROR(impl_->Build(x, &y));
  if (impl_->eval_call < 0) return errors::FailedPrecondition("the model has no loss");
  RILL_ASSIGN_OR_RETURN(Dataset data, Dataset::FromTensors(x, y));
  std::unique_ptr<BatchIterator> it =
      Batches(*impl_->session, impl_->prediction, data, batch_size, false, 0);
  Averages avg;
  std::vector<Tensor> fetched;
  while (auto batch = it->Next()) {
    fetched.clear();
    RILL_RETURN_IF_ERROR(
        impl_->session->RunCallable(impl_->eval_call, {batch->x, batch->y}, &fetched));
    avg.Add(fetched, batch->size);
  }
  std::vector<std::string> names = {"loss"};
  names.insert(names.end(), impl_->metric_display.begin(), impl_->metric_display.end());
  return avg.Get(names);
}

absl::StatusOr<Tensor> Sequential::Predict(const Tensor& x, int64_t batch_size) {
  // No rows predict no rows: an empty result is the truth, unlike a loss of nothing.
  RILL_RETURN_IF_ERROR(CheckBatching("Predict", x, batch_size, /*allow_empty=*/true));
  RILL_RETURN_IF_ERROR(impl_->Build(x, nullptr));
  RILL_ASSIGN_OR_RETURN(Dataset data, Dataset::FromTensors(x));
  std::unique_ptr<BatchIterator> it =
      Batches(*impl_->session, impl_->prediction, data, batch_size, false, 0);
  std::vector<Tensor> parts;
  int64_t rows = 0;
  while (auto batch = it->Next()) {
    std::vector<Tensor> fetched;
    RILL_RETURN_IF_ERROR(impl_->session->RunCallable(impl_->predict_call, {batch->x}, &fetched));
    rows += fetched[0].dim_size(0);
    parts.push_back(std::move(fetched[0]));
  }
  std::vector<int64_t> dims(impl_->prediction.shape().dim_sizes().begin(),
                            impl_->prediction.shape().dim_sizes().end());
  if (!parts.empty())
    dims.assign(parts[0].shape().dim_sizes().begin(), parts[0].shape().dim_sizes().end());
  dims[0] = rows;
  RILL_ASSIGN_OR_RETURN(TensorShape shape, TensorShape::Build(dims));
  Tensor result(DT_FLOAT, shape);
  char* dst = static_cast<char*>(result.data());
  for (const Tensor& p : parts) {
    std::memcpy(dst, p.data(), p.TotalBytes());
    dst += p.TotalBytes();
  }
  return result;
}

const Scope& Sequential::scope() const { return impl_->root; }
Output Sequential::input() const { return impl_->built ? impl_->x : Output(); }
Output Sequential::output() const { return impl_->built ? impl_->prediction : Output(); }

Session* Sequential::session() { return impl_->session.get(); }

absl::StatusOr<StepGraphStats> Sequential::FitStepGraphStats() const {
  if (!impl_->session || impl_->queued_train_call < 0) {
    return errors::FailedPrecondition("the model has not been compiled and fitted yet");
  }
  return impl_->session->GetStepGraphStats(impl_->queued_train_call);
}

std::vector<std::pair<std::string, std::string>> Sequential::Placements() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (!impl_->session) return out;
  std::vector<Output> shown = {impl_->prediction};
  for (const auto& layer : impl_->layers)
    for (const Output& v : layer->variables()) shown.push_back(v);
  if (impl_->train_loss.node()) shown.push_back(impl_->train_loss);
  for (const Output& o : shown) {
    auto d = impl_->session->AssignedDevice(o.op());
    out.emplace_back(o.node()->name(), d.ok() ? *d : "(not run yet)");
  }
  return out;
}

}  // namespace rill::keras
