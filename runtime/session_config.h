// TensorFlow's ConfigProto, for SessionOptions::config: the fields a ported program sets,
// each acting on what rill has.
//   SessionOptions options;
//   options.config.mutable_graph_options()->mutable_optimizer_options()->set_opt_level(
//       OptimizerOptions::L0);
//   options.config.mutable_graph_options()->mutable_rewrite_options()->set_constant_folding(
//       RewriterConfig::OFF);
//   (*options.config.mutable_device_count())["GPU"] = 0;
// What each field does in rill:
// - optimizer_options (TensorFlow's classic graph optimizer): at L1, the default, constant
//   folding and common subexpression elimination run; at L0 only those its
//   do_constant_folding / do_common_subexpression_elimination ask for.
// - rewrite_options (TensorFlow's Grappler): OFF for constant_folding, arithmetic_optimization,
//   common_subgraph_elimination, loop_optimization or remapping turns off rill's pass of the
//   same work (arithmetic_optimization also merges repeated work, as Grappler's does);
//   disable_meta_optimizer turns them all off. A pass runs when either optimizer asks for
//   it, so folding stops only when both say so, as in TensorFlow. rill has no layout,
//   memory, dependency, shape or function pass: those toggles have nothing to turn off.
// - allow_soft_placement, log_device_placement, inter_op_parallelism_threads: as
//   SessionOptions' own fields, and win over them when set; a negative
//   inter_op_parallelism_threads runs every kernel on the thread that calls Run, as
//   TensorFlow's does.
// - device_count["GPU"] = n: the Session uses the first n GPUs (0: none). A CPU count
//   changes nothing: rill has one CPU device, which every Session needs.
// - intra_op_parallelism_threads and use_per_session_threads: kept; rill's kernels share
//   the Session's pool, whose size inter_op_parallelism_threads sets.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace rill {

class OptimizerOptions {
 public:
  enum Level { L1 = 0, L0 = -1 };
  enum GlobalJitLevel { DEFAULT = 0, OFF = -1, ON_1 = 1, ON_2 = 2 };
  Level opt_level() const { return opt_level_; }
  void set_opt_level(Level l) { opt_level_ = l; }
  bool do_constant_folding() const { return do_constant_folding_; }
  void set_do_constant_folding(bool b) { do_constant_folding_ = b; }
  bool do_common_subexpression_elimination() const { return do_cse_; }
  void set_do_common_subexpression_elimination(bool b) { do_cse_ = b; }
  // XLA's clustering; rill has no JIT compiler, so only DEFAULT and OFF describe it.
  GlobalJitLevel global_jit_level() const { return jit_; }
  void set_global_jit_level(GlobalJitLevel l) { jit_ = l; }

 private:
  Level opt_level_ = L1;
  bool do_constant_folding_ = false;
  bool do_cse_ = false;
  GlobalJitLevel jit_ = DEFAULT;
};

class RewriterConfig {
 public:
  enum Toggle {
    DEFAULT = 0,
    ON = 1,
    OFF = 2,
    AGGRESSIVE = 3,
    EXPERIMENTAL_MLIR = 4,
    EXPERIMENTAL_BOTH = 5
  };
#define RILL_REWRITER_TOGGLE(field)         \
  Toggle field() const { return field##_; } \
  void set_##field(Toggle t) { field##_ = t; }
  RILL_REWRITER_TOGGLE(constant_folding)
  RILL_REWRITER_TOGGLE(arithmetic_optimization)
  RILL_REWRITER_TOGGLE(common_subgraph_elimination)
  RILL_REWRITER_TOGGLE(loop_optimization)
  RILL_REWRITER_TOGGLE(remapping)
  RILL_REWRITER_TOGGLE(layout_optimizer)
  RILL_REWRITER_TOGGLE(dependency_optimization)
  RILL_REWRITER_TOGGLE(shape_optimization)
  RILL_REWRITER_TOGGLE(function_optimization)
  RILL_REWRITER_TOGGLE(debug_stripper)
  RILL_REWRITER_TOGGLE(scoped_allocator_optimization)
  RILL_REWRITER_TOGGLE(pin_to_host_optimization)
  RILL_REWRITER_TOGGLE(implementation_selector)
  RILL_REWRITER_TOGGLE(auto_mixed_precision)
#undef RILL_REWRITER_TOGGLE
  bool disable_meta_optimizer() const { return disable_meta_optimizer_; }
  void set_disable_meta_optimizer(bool b) { disable_meta_optimizer_ = b; }

 private:
  Toggle constant_folding_ = DEFAULT, arithmetic_optimization_ = DEFAULT,
         common_subgraph_elimination_ = DEFAULT, loop_optimization_ = DEFAULT, remapping_ = DEFAULT,
         layout_optimizer_ = DEFAULT, dependency_optimization_ = DEFAULT,
         shape_optimization_ = DEFAULT, function_optimization_ = DEFAULT, debug_stripper_ = DEFAULT,
         scoped_allocator_optimization_ = DEFAULT, pin_to_host_optimization_ = DEFAULT,
         implementation_selector_ = DEFAULT, auto_mixed_precision_ = DEFAULT;
  bool disable_meta_optimizer_ = false;
};

class GraphOptions {
 public:
  const OptimizerOptions& optimizer_options() const { return optimizer_options_; }
  OptimizerOptions* mutable_optimizer_options() { return &optimizer_options_; }
  const RewriterConfig& rewrite_options() const { return rewrite_options_; }
  RewriterConfig* mutable_rewrite_options() { return &rewrite_options_; }

 private:
  OptimizerOptions optimizer_options_;
  RewriterConfig rewrite_options_;
};

class ConfigProto {
 public:
  const GraphOptions& graph_options() const { return graph_options_; }
  GraphOptions* mutable_graph_options() { return &graph_options_; }
  const std::map<std::string, int32_t>& device_count() const { return device_count_; }
  std::map<std::string, int32_t>* mutable_device_count() { return &device_count_; }
  // Unset: SessionOptions' own field decides.
  bool allow_soft_placement() const { return allow_soft_placement_.value_or(false); }
  void set_allow_soft_placement(bool b) { allow_soft_placement_ = b; }
  bool has_allow_soft_placement() const { return allow_soft_placement_.has_value(); }
  bool log_device_placement() const { return log_device_placement_.value_or(false); }
  void set_log_device_placement(bool b) { log_device_placement_ = b; }
  bool has_log_device_placement() const { return log_device_placement_.has_value(); }
  int32_t inter_op_parallelism_threads() const { return inter_op_threads_; }
  void set_inter_op_parallelism_threads(int32_t n) { inter_op_threads_ = n; }
  int32_t intra_op_parallelism_threads() const { return intra_op_threads_; }
  void set_intra_op_parallelism_threads(int32_t n) { intra_op_threads_ = n; }
  bool use_per_session_threads() const { return use_per_session_threads_; }
  void set_use_per_session_threads(bool b) { use_per_session_threads_ = b; }

 private:
  GraphOptions graph_options_;
  std::map<std::string, int32_t> device_count_;
  std::optional<bool> allow_soft_placement_, log_device_placement_;
  int32_t inter_op_threads_ = 0, intra_op_threads_ = 0;
  bool use_per_session_threads_ = false;
};

struct SessionOptions;
class DeviceSet;
struct OptimizeOptions;

// `o` with its config's fields applied to SessionOptions' own (placement, threads).
SessionOptions ApplyConfig(SessionOptions o);
// The optimizer passes `o` asks for.
OptimizeOptions OptimizeOptionsOf(const SessionOptions& o);
// This process's devices less those the config's device_count leaves out.
DeviceSet DevicesFor(const ConfigProto& config);

}  // namespace rill
