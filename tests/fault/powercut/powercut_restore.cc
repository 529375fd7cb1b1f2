// partita_powercut restore JOURNAL: after the process that ran with
// libpartita_powercut.so has been killed, takes every watched file back to
// what a power cut at that moment would have left (powercut_journal.h):
// each file's writes after its last successful sync are undone, newest
// first, and the file is cut to the size it had then. Prints one line per
// file it changed. Exit 0 on success, 1 on a malformed journal, 2 on usage.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "powercut_journal.h"

namespace {

using namespace partita::powercut;

struct Undo {
  uint64_t offset;
  uint64_t size_before;
  std::string old_bytes;
};

template <typename T>
bool ReadValue(std::istream& in, T* value) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(value), sizeof *value));
}

bool ReadBytes(std::istream& in, uint32_t length, std::string* out) {
  out->resize(length);
  return length == 0 || static_cast<bool>(in.read(out->data(), length));
}

// Per file, the undo records since its last sync record, oldest first.
bool ReadJournal(const char* path, std::map<std::string, std::vector<Undo>>* unsynced) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "partita_powercut: cannot open journal " << path << "\n";
    return false;
  }
  for (;;) {
    const std::streamoff at = in.tellg();
    uint8_t kind;
    if (!ReadValue(in, &kind)) return true;  // clean end
    uint32_t path_length;
    std::string file;
    Undo undo;
    uint32_t old_length = 0;
    const bool ok = ReadValue(in, &path_length) && ReadBytes(in, path_length, &file) &&
                    (kind == kSync || (kind == kUndo && ReadValue(in, &undo.offset) &&
                                       ReadValue(in, &undo.size_before) && ReadValue(in, &old_length) &&
                                       ReadBytes(in, old_length, &undo.old_bytes)));
    if (!ok && in.eof() && (kind == kSync || kind == kUndo)) {
      // The shim appends a record in several writes before the write it
      // journals, so a process killed while appending leaves a torn last
      // record whose write never ran: nothing to undo for it.
      std::cout << "journal " << path << ": torn last record at offset " << at
                << " (the process was killed while journaling a write that never ran): ignored\n";
      return true;
    }
    if (!ok || (kind != kSync && kind != kUndo)) {
      std::cerr << "partita_powercut: journal " << path << " is malformed at offset " << at << "\n";
      return false;
    }
    if (kind == kSync) {
      (*unsynced)[file].clear();
    } else {
      (*unsynced)[file].push_back(std::move(undo));
    }
  }
}

bool Restore(const std::string& file, const std::vector<Undo>& undos) {
  const int fd = open(file.c_str(), O_WRONLY);
  if (fd < 0) {
    std::cout << file << ": gone (" << std::strerror(errno) << "); " << undos.size() << " unsynced write(s) ignored\n";
    return true;
  }
  for (auto it = undos.rbegin(); it != undos.rend(); ++it) {
    if (!it->old_bytes.empty() &&
        pwrite(fd, it->old_bytes.data(), it->old_bytes.size(), static_cast<off_t>(it->offset)) !=
            static_cast<ssize_t>(it->old_bytes.size())) {
      std::cerr << "partita_powercut: restoring " << file << ": " << std::strerror(errno) << "\n";
      close(fd);
      return false;
    }
  }
  const uint64_t size = undos.front().size_before;
  const bool cut = ftruncate(fd, static_cast<off_t>(size)) == 0;
  close(fd);
  if (!cut) {
    std::cerr << "partita_powercut: cutting " << file << ": " << std::strerror(errno) << "\n";
    return false;
  }
  std::cout << file << ": " << undos.size() << " unsynced write(s) dropped, size " << size << "\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "restore") != 0) {
    std::cerr << "usage: partita_powercut restore JOURNAL\n"
                 "  Drops every write the journal shows was not synced (run after killing the process\n"
                 "  that ran with LD_PRELOAD=libpartita_powercut.so; see tests/fault/powercut/README.md).\n";
    return 2;
  }
  std::map<std::string, std::vector<Undo>> unsynced;
  if (!ReadJournal(argv[2], &unsynced)) return 1;
  for (const auto& [file, undos] : unsynced) {
    if (!undos.empty() && !Restore(file, undos)) return 1;
  }
  return 0;
}
