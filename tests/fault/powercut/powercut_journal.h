// The undo journal shared by the power-cut shim (libpartita_powercut.so,
// which writes it) and `partita_powercut restore` (which applies it).
//
// A power cut loses what a process wrote to a file but had not yet made
// durable with fsync/fdatasync. The shim simulates that after the fact:
// before every write to a watched file it appends an undo record (the bytes
// and the file size the write is about to change), and on every successful
// fsync/fdatasync of the file a sync record. After the process is killed,
// `restore` walks each file's records after its last sync record backwards,
// putting the old bytes back and truncating the file to the size it had at
// its last sync: what remains is exactly what a real power cut would have
// left, under the model below.
//
// Model: file data is durable at the file's fsync/fdatasync and not before;
// metadata (creation, rename, unlink) is durable at once. Writes through
// mmap are not seen.
//
// Record layout (native byte order; the journal never leaves the machine):
//   u8 kind (kUndo 'W', kSync 'S') | u32 path length | path bytes |
//   kUndo only: u64 offset | u64 size before | u32 old length | old bytes
#ifndef PARTITA_TESTS_FAULT_POWERCUT_JOURNAL_H_
#define PARTITA_TESTS_FAULT_POWERCUT_JOURNAL_H_

#include <cstdint>

namespace partita::powercut {

enum RecordKind : uint8_t { kUndo = 'W', kSync = 'S' };

// Environment of the shim: the directory whose files are watched (required
// to watch anything), the journal's path (required), and optionally the
// number of successful syncs after which every sync of a watched file fails
// with EIO (the fsyncgate case).
inline constexpr const char* kDirEnv = "PARTITA_POWERCUT_DIR";
inline constexpr const char* kJournalEnv = "PARTITA_POWERCUT_JOURNAL";
inline constexpr const char* kSyncFailsAfterEnv = "PARTITA_POWERCUT_SYNC_EIO_AFTER";

}  // namespace partita::powercut

#endif  // PARTITA_TESTS_FAULT_POWERCUT_JOURNAL_H_
