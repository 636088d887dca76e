// The progress line Keras prints during fit:
//   Epoch 1/10
//   1563/1563 [==============================] - 9s 6ms/step - loss: 1.8124 - accuracy: 0.3540
// redrawn in place on a terminal, printed once per epoch otherwise.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace rill::keras {

using Metrics = std::vector<std::pair<std::string, double>>;

class ProgressBar {
 public:
  // live: redraw after each step (a terminal); else only the final line.
  ProgressBar(std::ostream* out, int64_t steps, bool live);
  // Whether Update(step, ...) would draw now (so values are fetched only to be shown).
  bool WillDraw(int64_t step) const;
  void Update(int64_t step, const Metrics& values);
  // The final line, with extra values (validation) appended.
  void Finish(const Metrics& values);
  double seconds() const;

 private:
  std::string Line(int64_t step, const Metrics& values, bool final) const;

  std::ostream* out_;
  int64_t steps_;
  bool live_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// "9s 6ms/step", "0s 120us/step"
std::string FormatTiming(double seconds, int64_t steps);

}  // namespace rill::keras
