#include "fileio/AtomicFile.hpp"

#include <unistd.h>
#include <cstddef>
#include <system_error>
#include <utility>

#include <cerrno>
#include <exception>
#include <streambuf>
#include <vector>

#include "fileio/FileError.hpp"
#include "fileio/OutputFile.hpp"

namespace fluxview {

namespace fs = std::filesystem;

namespace {

// A stream buffer over an OutputFile. A failed write is kept (the stream only sees
// "eof") and rethrown by the caller, so the message carries the operating system's error.
class CheckedStreamBuf : public std::streambuf {
 public:
  explicit CheckedStreamBuf(OutputFile& file) : file_(file), buffer_(std::size_t(1) << 16) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  const std::exception_ptr& error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    // Large blocks (snapshot arrays) go straight to the file, not through the buffer.
    if (n < std::streamsize(buffer_.size())) return std::streambuf::xsputn(s, n);
    if (!drain()) return 0;
    try {
      file_.write(s, std::size_t(n));
    } catch (...) {
      error_ = std::current_exception();
      return 0;
    }
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    if (error_) return false;
    try {
      if (pptr() > pbase()) file_.write(pbase(), std::size_t(pptr() - pbase()));
    } catch (...) {
      error_ = std::current_exception();
      return false;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }
  OutputFile& file_;
  std::vector<char> buffer_;
  std::exception_ptr error_;
};

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

// Renames the synced temporary over the target and syncs the folder.
void replace(const fs::path& tmp, const fs::path& path) {
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw FileError("moving the new file into place at", path, ec.value());
  sync_folder(path.parent_path());
}

}  // namespace

fs::path temporary_path(const fs::path& path) {
  return path.string() + ".tmp-" + std::to_string(::getpid());
}

std::optional<long> temporary_owner(const std::string& filename) {
  const std::size_t at = filename.rfind(".tmp-");
  if (at == std::string::npos || at + 5 >= filename.size()) return std::nullopt;
  long pid = 0;
  for (std::size_t i = at + 5; i < filename.size(); ++i) {
    const char c = filename[i];
    if (c < '0' || c > '9' || pid > 100000000) return std::nullopt;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

void write_file_atomic(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  const fs::path tmp = temporary_path(path);
  try {
    OutputFile file(tmp, path);
    {
      CheckedStreamBuf buf(file);
      std::ostream out(&buf);
      write(out);
      out.flush();
      if (buf.error()) std::rethrow_exception(buf.error());
      if (!out) throw FileError(path, EIO, "writing '" + path.string() + "' failed");
    }
    file.sync();
    file.close();
    replace(tmp, path);
  } catch (...) {
    remove_quietly(tmp);
    throw;
  }
}

StagedFile::StagedFile(fs::path path) : path_(std::move(path)), tmp_(temporary_path(path_)) {}

StagedFile::~StagedFile() {
  if (!committed_) remove_quietly(tmp_);
}

void StagedFile::write(const std::function<void(const fs::path&)>& write,
                       const std::function<void(const fs::path&)>& verify) {
  write(tmp_);
  sync_file(tmp_, path_);
  if (verify) verify(tmp_);
}

void StagedFile::commit() {
  replace(tmp_, path_);
  committed_ = true;
}

void write_file_atomic_by_name(const fs::path& path,
                               const std::function<void(const fs::path&)>& write,
                               const std::function<void(const fs::path&)>& verify) {
  StagedFile staged(path);
  staged.write(write, verify);
  staged.commit();
}

}  // namespace fluxview
