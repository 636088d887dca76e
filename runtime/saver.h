// Saver: saves variables to a checkpoint file and restores them, as TensorFlow's Saver.
// Like TensorFlow's, it adds its restore ops to the graph when constructed (a placeholder
// and an Assign per variable), so restored values are placed like any other.
//   Saver saver(root);  saver.Save(session, "model.ckpt");
//   saver.Restore(other_session, "model.ckpt");
#pragma once

#include <string>
#include <vector>

#include "rill/runtime/session.h"

namespace rill {

class Saver {
 public:
  // `variables` empty: every Variable in the scope's graph when the Saver is made.
  explicit Saver(const Scope& scope, std::vector<Output> variables = {});

  absl::Status Save(const Session& session, const std::string& path) const;
  // Reads and checks the whole file before assigning anything: a corrupt, truncated or
  // foreign file (DataLoss), a variable missing from it (NotFound) or a dtype or shape
  // that does not fit (InvalidArgument) leaves every variable as it was.
  absl::Status Restore(const Session& session, const std::string& path) const;

 private:
  absl::Status status_;
  std::vector<Output> variables_;
  std::vector<Output> values_;      // a placeholder per variable
  std::vector<Operation> assigns_;  // Assign(variable, placeholder)
};

}  // namespace rill
