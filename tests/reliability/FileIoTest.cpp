// fileio, the lowest library: a failed write leaves the old file whole and no temporary,
// temporaries of ended processes are found and removed, a folder's lock admits one holder
// and names it, and folder checks name the path at fault with the operating system's error.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <optional>
#include <string>
#include <vector>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "fileio/AtomicFile.hpp"
#include "fileio/FileError.hpp"
#include "fileio/FolderLock.hpp"
#include "fileio/Folders.hpp"

namespace fs = std::filesystem;
using namespace fluxview;

namespace {

fs::path fresh(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("fluxview_fileio_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The pid of a process that has ended (a child, reaped).
pid_t ended_pid() {
  const pid_t p = fork();
  if (p == 0) _exit(0);
  waitpid(p, nullptr, 0);
  return p;
}

}  // namespace

TEST(FileIo, AFailedWriteLeavesTheOldFileWholeAndNoTemporary) {
  const fs::path d = fresh("atomic");
  const fs::path f = d / "run.json";
  write_file_atomic(f, [](std::ostream& o) { o << "first\n"; });
  EXPECT_EQ(slurp(f), "first\n");
  // A writer that fails half way (as a serialiser might) changes nothing.
  EXPECT_THROW(write_file_atomic(f,
                                 [](std::ostream& o) {
                                   o << std::string(1 << 20, 'x');
                                   throw std::runtime_error("half way");
                                 }),
               std::runtime_error);
  EXPECT_EQ(slurp(f), "first\n");
  // A folder that is not there: the error names the file and the OS error.
  try {
    write_file_atomic(d / "missing" / "x.vti", [](std::ostream& o) { o << "x"; });
    ADD_FAILURE() << "no error";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ENOENT);
    EXPECT_NE(std::string(e.what()).find((d / "missing" / "x.vti").string() +
                                         "' failed: No such file or directory"),
              std::string::npos)
        << e.what();
  }
  int files = 0;
  for (const auto& e : fs::directory_iterator(d)) files += e.is_regular_file();
  EXPECT_EQ(files, 1) << "a temporary was left";
}

TEST(FileIo, TemporariesOfEndedProcessesAreRemovedAndOthersKept) {
  const fs::path d = fresh("stale");
  fs::create_directories(d / "snapshot_000010");
  const std::string dead = std::to_string(ended_pid()), alive = std::to_string(getpid());
  for (const fs::path& p :
       {d / ("checkpoint_000020.h5.tmp-" + dead),
        d / "snapshot_000010" / ("piece_0001.vti.tmp-" + dead), d / ("run.json.tmp-" + alive),
        d / "notes.tmp", d / "spectrum_000004.csv.tmp", d / "run.json"})
    std::ofstream(p) << "x";
  EXPECT_EQ(temporary_owner("run.json.tmp-4711"), 4711);
  EXPECT_FALSE(temporary_owner("run.json.tmp-47x1").has_value());
  EXPECT_FALSE(temporary_owner("run.json").has_value());
  const auto removed = remove_stale_temporaries(d);
  EXPECT_EQ(removed.size(), 3u);
  EXPECT_FALSE(fs::exists(d / ("checkpoint_000020.h5.tmp-" + dead)));
  EXPECT_FALSE(fs::exists(d / "snapshot_000010" / ("piece_0001.vti.tmp-" + dead)));
  EXPECT_FALSE(fs::exists(d / "spectrum_000004.csv.tmp"));
  EXPECT_TRUE(fs::exists(d / ("run.json.tmp-" + alive))) << "a live process's temporary";
  EXPECT_TRUE(fs::exists(d / "notes.tmp")) << "not a temporary of fluxview's";
  EXPECT_TRUE(fs::exists(d / "run.json"));
}

TEST(FileIo, AFolderHasOneLockHolderWhoIsNamed) {
  const fs::path d = fresh("lock");
  EXPECT_FALSE(FolderLock::holder(d).has_value());
  {
    FolderLock lock(d);
    const auto h = FolderLock::holder(d);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->pid, long(getpid()));
    EXPECT_EQ(h->host, host_name());
    try {
      FolderLock again(d);
      ADD_FAILURE() << "a second lock was granted";
    } catch (const FolderBusy& e) {
      EXPECT_EQ(e.holder().pid, long(getpid()));
      EXPECT_NE(
          std::string(e.what()).find("another fluxview run (process " + std::to_string(getpid())),
          std::string::npos)
          << e.what();
    }
  }
  EXPECT_FALSE(FolderLock::holder(d).has_value()) << "released with its object";
  EXPECT_NO_THROW(FolderLock{d});
}

TEST(FileIo, FolderChecksNameThePathAtFaultAndTheOperatingSystemsError) {
  const fs::path d = fresh("checks");
  const fs::path file = d / "a_file";
  std::ofstream(file) << "x";
  try {
    check_folder_writable(file);
    ADD_FAILURE() << "a file passed as a folder";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ENOTDIR);
    EXPECT_EQ(e.path(), file);
  }
  try {
    check_folder_writable(file / "sub" / "deeper");
    ADD_FAILURE() << "a folder under a file passed";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), ENOTDIR);
    EXPECT_EQ(e.path(), fs::absolute(file));
    EXPECT_NE(std::string(e.what()).find("is not a folder (Not a directory)"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(check_folder_writable(d / "new" / "deeper"));
  EXPECT_FALSE(fs::exists(d / "new")) << "a check made a folder";
  const auto made = create_folder(d / "new" / "deeper");
  EXPECT_EQ(made.size(), 2u);
  EXPECT_TRUE(fs::is_directory(d / "new" / "deeper"));
  remove_created_folders(made);
  EXPECT_FALSE(fs::exists(d / "new"));
  try {
    check_file_writable(d);
    ADD_FAILURE() << "a folder passed as a file";
  } catch (const FileError& e) {
    EXPECT_EQ(e.error(), EISDIR);
  }
}
