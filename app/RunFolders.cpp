#include "app/RunFolders.hpp"

#include <algorithm>
#include <iostream>
#include <utility>

#include "fileio/FileError.hpp"
#include "fileio/Folders.hpp"
#include "insitu/EveryRank.hpp"
#include "sim/core/ConfigError.hpp"
#include "sim/core/Parallel.hpp"

namespace fluxview::app {

namespace fs = std::filesystem;

namespace {

ConfigError folder_error(const RunFolder& f, const std::string& what) {
  return ConfigError(f.option + " " + f.dir.string() + ": " + what +
                     "; allowed: a folder fluxview can create and write into");
}

bool inside(const fs::path& dir, const fs::path& outer) {
  const auto [o, d] = std::mismatch(outer.begin(), outer.end(), dir.begin(), dir.end());
  return o == outer.end();
}

}  // namespace

RunFolders::RunFolders(const std::vector<RunFolder>& folders, bool quiet) {
  on_every_rank([&] {
    if (!parallel::is_root()) return;
    // Everything is checked before any folder is made.
    for (const RunFolder& f : folders) try {
        check_folder_writable(f.dir);
      } catch (const FileError& e) {
        throw folder_error(f, e.what());
      }
    std::vector<fs::path> made;
    try {
      for (const RunFolder& f : folders) {
        try {
          const auto m = create_folder(f.dir);
          made.insert(made.end(), m.begin(), m.end());
        } catch (const FileError& e) {
          throw folder_error(f, e.what());
        }
      }
      // Outer folders first, so that one inside them needs no lock of its own.
      std::vector<std::pair<fs::path, const RunFolder*>> order;
      for (const RunFolder& f : folders) order.emplace_back(fs::canonical(f.dir), &f);
      std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return std::distance(a.first.begin(), a.first.end()) <
               std::distance(b.first.begin(), b.first.end());
      });
      for (const auto& entry : order) {
        // Not a structured binding: clang before 16 cannot capture one in a lambda.
        const fs::path& dir = entry.first;
        const RunFolder* f = entry.second;
        if (std::any_of(locks_.begin(), locks_.end(),
                        [&](const auto& l) { return inside(dir, l->dir()); }))
          continue;
        try {
          locks_.push_back(std::make_unique<FolderLock>(dir));
        } catch (const FolderBusy& e) {
          throw ConfigError(f->option + " " + f->dir.string() + ": " + e.what() +
                            "; allowed: a folder no running fluxview writes into (wait for "
                            "that run to end, or choose another folder)");
        } catch (const FileError& e) {
          throw folder_error(*f, e.what());
        }
      }
    } catch (...) {
      locks_.clear();
      remove_created_folders(made);
      throw;
    }
    // Holding the locks, no other run writes here: temporaries are what ended runs left.
    for (const auto& lock : locks_) {
      const auto removed = remove_stale_temporaries(lock->dir());
      if (!quiet && !removed.empty())
        std::cerr << "fluxview: removed " << removed.size()
                  << " temporary file(s) left by ended runs in " << lock->dir().string()
                  << " (e.g. " << removed.front().filename().string() << ")\n";
    }
  });
  on_every_rank([&] {
    if (parallel::is_root()) return;
    for (const RunFolder& f : folders) try {
        create_folder(f.dir);
      } catch (const FileError& e) {
        throw folder_error(f, e.what());
      }
  });
}

}  // namespace fluxview::app
