// Regressions of the outside attack of November 2026 on files, checkpoints and the Keras
// API: each test names the defect it guards (docs/robustness.md keeps the table).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <limits>
#include <thread>

#include "rill/runtime/checkpoint.h"
#include "rill/runtime/file_util.h"
#include "rill/runtime/io/graph_io.h"
#include "test_util.h"

namespace rill::testing {
namespace {
namespace hardening_io_test {

std::string Message(const absl::Status& s) { return std::string(s.message()); }
std::string Temp(const std::string& name) { return ::testing::TempDir() + "/" + name; }

// Defect 4: every save in a process used the temporary name path.tmp.<pid>, so concurrent
// saves to one path failed or left no whole checkpoint. Saves from several threads and
// from a second process, with readers beside them: every save succeeds and every read of
// the path finds a whole checkpoint whose values are one of those saved.
TEST(Hardening, ConcurrentSavesToOnePathAlwaysLeaveAWholeCheckpoint) {
  const std::string path = Temp("concurrent.ckpt");
  Scope root = Scope::NewRootScope();
  auto v = ops::Variable(root.WithOpName("v"), ops::Fill(root, {4096}, 0.0f));
  auto value = ops::Placeholder(root, DT_FLOAT);
  auto set = ops::Assign(root, v, ops::Fill(root, {4096}, value));
  Session session(root, SessionOptions(), CpuOnly());
  ASSERT_TRUE(session.Run({}, {}, {ops::GlobalVariablesInitializer(root)}, nullptr).ok());
  Saver saver(root);
  ASSERT_TRUE(saver.Save(session, path).ok());
  constexpr int kSavers = 4, kSaves = 40;
  std::atomic<int> failed_saves{0}, bad_reads{0}, reads{0};
  std::atomic<bool> done{false};
  const pid_t child = fork();
  if (child == 0) {  // another process saving whole files of 7s to the same path
    NamedTensors t = {
        {"v", FromDoubles(DT_FLOAT, TensorShape({4096}), std::vector<double>(4096, 7.0))}};
    int failures = 0;
    for (int i = 0; i < kSaves; ++i) failures += !WriteCheckpoint(path, t).ok();
    _exit(failures == 0 ? 0 : 1);
  }
  std::thread reader([&] {
    while (!done.load()) {
      auto got = ReadCheckpoint(path);
      ++reads;
      if (!got.ok() || got->size() != 1 || got->at(0).second.NumElements() != 4096) {
        ++bad_reads;
        continue;
      }
      const float* p = got->at(0).second.base<float>();
      for (int i = 1; i < 4096; ++i) bad_reads += p[i] != p[0];
    }
  });
  std::vector<std::thread> savers;
  for (int t = 0; t < kSavers; ++t) {
    savers.emplace_back([&, t] {
      for (int i = 0; i < kSaves; ++i) {
        std::vector<Tensor> out;
        // Runs and saves interleave across threads: each file is some whole value.
        if (!session.Run({{value, static_cast<float>(t)}}, {}, {set}, &out).ok() ||
            !saver.Save(session, path).ok()) {
          ++failed_saves;
        }
      }
    });
  }
  for (auto& t : savers) t.join();
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  done = true;
  reader.join();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(failed_saves.load(), 0);
  EXPECT_EQ(bad_reads.load(), 0) << "of " << reads.load() << " reads";
  // No temporary file is left beside the checkpoint.
  for (const char* leftover : {".tmp."}) {
    std::string cmd = "ls " + ::testing::TempDir() + " | grep -c 'concurrent.ckpt" + leftover + "'";
    FILE* f = popen(cmd.c_str(), "r");
    int n = -1;
    ASSERT_EQ(fscanf(f, "%d", &n), 1);
    pclose(f);
    EXPECT_EQ(n, 0);
  }
}

// Defect 15: saving a checkpoint, a DOT file or a trace to a directory was INTERNAL.
TEST(Hardening, WritingToADirectoryNamesThePath) {
  const std::string dir = ::testing::TempDir();
  for (const char* what : {"checkpoint", "Graphviz file", "trace file"}) {
    absl::Status st = WriteFileAtomically(dir, "x", what);
    EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << st;
    EXPECT_NE(Message(st).find(dir), std::string::npos) << st;
    EXPECT_NE(Message(st).find("directory"), std::string::npos) << st;
  }
  absl::Status missing = WriteFileAtomically(dir + "/no/such/folder/x.ckpt", "x", "checkpoint");
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition) << missing;
  EXPECT_EQ(ReadFileToString(dir, "checkpoint").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ReadFileToString(Temp("absent.ckpt"), "checkpoint").status().code(),
            absl::StatusCode::kNotFound);
}

// Defect 7: a checkpoint with a valid CRC restored bool bytes 2 and 255.
TEST(Hardening, CheckpointBoolsOtherThanZeroAndOneAreDataLoss) {
  for (unsigned char bad : {2, 255}) {
    Tensor b(DT_BOOL, TensorShape({3}));
    std::memset(b.data(), 1, 3);
    reinterpret_cast<unsigned char*>(b.data())[1] = bad;
    const std::string path = Temp("bools.ckpt");
    ASSERT_TRUE(WriteCheckpoint(path, {{"flags", b}}).ok());  // the CRC covers the bad byte
    auto got = ReadCheckpoint(path);
    ASSERT_EQ(got.status().code(), absl::StatusCode::kDataLoss) << got.status();
    EXPECT_NE(Message(got.status()).find("bool element 1"), std::string::npos) << got.status();
  }
  Tensor good(DT_BOOL, TensorShape({2}));
  good.base<bool>()[0] = true;
  good.base<bool>()[1] = false;
  ASSERT_TRUE(WriteCheckpoint(Temp("good.ckpt"), {{"flags", good}}).ok());
  auto got = ReadCheckpoint(Temp("good.ckpt"));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(ToDoubles(got->at(0).second), std::vector<double>({1, 0}));
}

// Defect 9: a graph file's lists became one string per value (about 40 bytes each, then
// copied), so a 134 MB file took 5.6 GB to load. Lists are now read one value at a time:
// loading a file of a large constant costs about its text and its tensor. Measured in a
// child process by the growth of its peak resident set.
TEST(Hardening, LoadingAGraphFileCostsAboutItsTextAndTensors) {
  constexpr int64_t kValues = 4 << 20;  // 8 MiB of text, a 16 MiB float tensor
  const std::string path = Temp("big_const.rgraph");
  {
    std::string text = absl::StrCat("version: 1\nnode {\n  name: \"c\"\n  op: \"Const\"\n",
                                    "  attr { key: \"dtype\" type: float }\n",
                                    "  attr { key: \"value\" tensor { dtype: float shape: [",
                                    kValues, "] values: [1");
    text.reserve(text.size() + 2 * kValues + 32);
    for (int64_t i = 1; i < kValues; ++i) text += ",1";
    text += "] } }\n}\n";
    ASSERT_TRUE(WriteFileAtomically(path, text, "graph file").ok());
  }
  const pid_t child = fork();
  if (child == 0) {
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    Scope root = Scope::NewRootScope();
    GraphImportResult result;
    if (!LoadGraph(path, root, &result).ok()) _exit(2);
    Node* c = root.graph()->FindNode("c");
    if (c == nullptr || c->constant_value()->NumElements() != kValues) _exit(3);
    getrusage(RUSAGE_SELF, &after);
    const int64_t grown_mib = (after.ru_maxrss - before.ru_maxrss) >> 10;
    std::fprintf(stderr, "peak grew by %lld MiB\n", static_cast<long long>(grown_mib));
    // Text and tensor are 24 MiB (25 to 29 MiB of growth measured, 74 under TSan, whose
    // shadow memory counts); one string per value, as before, needs over 300 MiB.
    _exit(grown_mib < 160 ? 0 : 4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// Defect 9: no file larger than the loader's cap is read at all.
TEST(Hardening, ReadersRefuseFilesPastTheirCapBeforeReading) {
  const std::string path = Temp("capped.bin");
  ASSERT_TRUE(WriteFileAtomically(path, std::string(4096, 'x'), "test file").ok());
  auto got = ReadFileToString(path, "test file", 4095);
  ASSERT_EQ(got.status().code(), absl::StatusCode::kResourceExhausted) << got.status();
  EXPECT_NE(Message(got.status()).find("4096 bytes"), std::string::npos) << got.status();
  auto whole = ReadFileToString(path, "test file", 4096);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->size(), 4096u);
}

}  // namespace hardening_io_test
}  // namespace
}  // namespace rill::testing
