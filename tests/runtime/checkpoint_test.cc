// Checkpoints: round trips, and every kind of damage detected before a variable changes:
// truncation at every byte, random bit flips, foreign files, absurd sizes, mismatched
// variables, and a writer killed in the middle of a save.
#include "rill/runtime/checkpoint.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "test_util.h"

namespace rill::testing {
namespace {
namespace checkpoint_test {

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "rill_" + std::to_string(getpid()) + "_" + name;
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void Spit(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct Model {
  Scope root = Scope::NewRootScope();
  ops::Variable w{root.WithOpName("w"), {{1.5f, -2.f}, {3.f, 4.f}}};
  ops::Variable step{root.WithOpName("step"), int64_t{7}};
  ops::Variable flags{root.WithOpName("flags"), {true, false, true}};
  std::unique_ptr<Saver> saver = std::make_unique<Saver>(root);
  std::unique_ptr<Session> session = std::make_unique<Session>(root);

  Model() {
    EXPECT_TRUE(session->Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  }
  std::vector<double> Values() {
    std::vector<Tensor> out;
    EXPECT_TRUE(session->Run({w, step, flags}, &out).ok());
    std::vector<double> v;
    for (const Tensor& t : out) {
      auto d = ToDoubles(t);
      v.insert(v.end(), d.begin(), d.end());
    }
    return v;
  }
  void Scramble() {  // different values, to see whether a restore changed them
    ASSERT_TRUE(session
                    ->Run({}, {},
                          {ops::Assign(root, w, {{0.f, 0.f}, {0.f, 0.f}}),
                           ops::Assign(root, step, int64_t{-1})},
                          nullptr)
                    .ok());
  }
};

TEST(Checkpoint, RoundTripIntoAFreshSession) {
  Model m;
  const std::string path = TempPath("roundtrip.ckpt");
  ASSERT_TRUE(m.saver->Save(*m.session, path).ok());
  auto want = m.Values();
  Session fresh(m.root);
  ASSERT_TRUE(m.saver->Restore(fresh, path).ok());  // no initializer needed
  std::vector<Tensor> out;
  ASSERT_TRUE(fresh.Run({m.w, m.step, m.flags}, &out).ok());
  ExpectTensorNear(out[0], DT_FLOAT, {2, 2}, {1.5, -2, 3, 4}, 0);
  EXPECT_EQ(out[1].scalar<int64_t>()(), 7);
  ExpectTensorNear(out[2], DT_BOOL, {3}, {1, 0, 1}, 0);
  std::remove(path.c_str());
}

TEST(Checkpoint, TruncationAtEveryByteIsDataLossAndChangesNothing) {
  Model m;
  const std::string path = TempPath("trunc.ckpt"), bad = TempPath("trunc_bad.ckpt");
  ASSERT_TRUE(m.saver->Save(*m.session, path).ok());
  const std::string bytes = Slurp(path);
  m.Scramble();
  const auto before = m.Values();
  int detected = 0;
  for (size_t n = 0; n < bytes.size(); ++n) {
    Spit(bad, bytes.substr(0, n));
    absl::Status s = m.saver->Restore(*m.session, bad);
    detected += s.code() == absl::StatusCode::kDataLoss;
  }
  EXPECT_EQ(detected, static_cast<int>(bytes.size())) << "of " << bytes.size() << " truncations";
  EXPECT_EQ(m.Values(), before);
  ASSERT_TRUE(m.saver->Restore(*m.session, path).ok());  // the whole file still restores
  std::remove(path.c_str());
  std::remove(bad.c_str());
}

TEST(Checkpoint, TenThousandBitFlipsAreAllDetected) {
  Model m;
  const std::string path = TempPath("flip.ckpt");
  ASSERT_TRUE(m.saver->Save(*m.session, path).ok());
  const std::string bytes = Slurp(path);
  std::mt19937 gen(12345);
  int detected = 0;
  for (int i = 0; i < 10000; ++i) {
    std::string b = bytes;
    size_t bit = gen() % (b.size() * 8);
    b[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    detected += ParseCheckpoint(b).status().code() == absl::StatusCode::kDataLoss;
  }
  EXPECT_EQ(detected, 10000);
  // And through the Saver, a sample: the variables stay as they were.
  m.Scramble();
  const auto before = m.Values();
  const std::string bad = TempPath("flip_bad.ckpt");
  for (int i = 0; i < 50; ++i) {
    std::string b = bytes;
    b[gen() % b.size()] ^= 0x10;
    Spit(bad, b);
    EXPECT_EQ(m.saver->Restore(*m.session, bad).code(), absl::StatusCode::kDataLoss);
  }
  EXPECT_EQ(m.Values(), before);
  std::remove(path.c_str());
  std::remove(bad.c_str());
}

TEST(Checkpoint, ForeignMissingAndAbsurdFiles) {
  Model m;
  const std::string path = TempPath("foreign.ckpt");
  Spit(path, "this is not a checkpoint at all, just some text");
  EXPECT_EQ(m.saver->Restore(*m.session, path).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(m.saver->Restore(*m.session, TempPath("nonexistent")).code(),
            absl::StatusCode::kNotFound);
  // A record that claims 2^63 bytes, with a valid header: refused before allocating.
  std::string b("RILLCKPT", 8);
  auto put32 = [&](uint32_t v) { b.append(reinterpret_cast<char*>(&v), 4); };
  auto put64 = [&](uint64_t v) { b.append(reinterpret_cast<char*>(&v), 8); };
  put32(1);
  put32(1);
  put32(Crc32c(b.data(), 16));
  put32(1);
  b += "w";
  put32(DT_FLOAT);
  put32(1);
  put64(uint64_t{1} << 61);
  put64(uint64_t{1} << 63);
  auto r = ParseCheckpoint(b);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
  std::remove(path.c_str());
}

// Bools of a known value: restore refuses bytes other than 0 and 1.
Tensor FalseBools(int64_t n) {
  Tensor t(DT_BOOL, TensorShape({n}));
  std::memset(t.data(), 0, static_cast<size_t>(n));
  return t;
}

TEST(Checkpoint, MismatchedVariablesAreRefusedWhole) {
  Model m;
  const std::string path = TempPath("mismatch.ckpt");
  // A checkpoint whose 'w' has another shape, and one whose 'step' has another dtype.
  ASSERT_TRUE(WriteCheckpoint(path, {{"w", Tensor(DT_FLOAT, TensorShape({3}))},
                                     {"step", Tensor(int64_t{1})},
                                     {"flags", FalseBools(3)}})
                  .ok());
  m.Scramble();
  const auto before = m.Values();
  absl::Status s = m.saver->Restore(*m.session, path);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(std::string(s.message()).find("'w'"), std::string::npos) << s;
  ASSERT_TRUE(WriteCheckpoint(path, {{"w", Tensor(DT_FLOAT, TensorShape({2, 2}))},
                                     {"step", Tensor(1.0)},
                                     {"flags", FalseBools(3)}})
                  .ok());
  EXPECT_EQ(m.saver->Restore(*m.session, path).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(WriteCheckpoint(path, {{"w", Tensor(DT_FLOAT, TensorShape({2, 2}))}}).ok());
  s = m.saver->Restore(*m.session, path);
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_EQ(m.Values(), before);
  std::remove(path.c_str());
}

TEST(Checkpoint, AWriterKilledMidSaveLeavesThePreviousCheckpointLoadable) {
  const std::string path = TempPath("killed.ckpt");
  Tensor small(DT_FLOAT, TensorShape({4}));
  small.flat<float>().setConstant(1.f);
  ASSERT_TRUE(WriteCheckpoint(path, {{"v", small}}).ok());
  Tensor big(DT_FLOAT, TensorShape({8 << 20}));  // 32 MiB: a save takes a while
  big.flat<float>().setConstant(2.f);
  for (int trial = 0; trial < 5; ++trial) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (;;) (void)WriteCheckpoint(path, {{"v", big}});  // killed from outside
    }
    usleep(20000 + trial * 37000);
    kill(child, SIGKILL);
    int status;
    waitpid(child, &status, 0);
    auto r = ReadCheckpoint(path);
    ASSERT_TRUE(r.ok()) << "trial " << trial << ": " << r.status();
    ASSERT_EQ(r->size(), 1u);
    float first = r->at(0).second.flat<float>()(0);
    EXPECT_TRUE(first == 1.f || first == 2.f);
  }
  std::remove(path.c_str());
  // Temporary files the killed writers left behind.
  std::system(("rm -f '" + path + "'.tmp.*").c_str());
}

}  // namespace checkpoint_test
}  // namespace
}  // namespace rill::testing
