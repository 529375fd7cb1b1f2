// The US telephone area codes of the Voter workload and their states:
// kAreaCodes[i] is in kAreaStates[i]. Generated at build time from
// bench/voter/procedures/org/partita/bench/voter/AreaCodes.java (the one
// list; see gen_area_codes.cmake), so both drivers draw from the same codes.
//
// Thread model: constant data; safe from any thread.
#ifndef PARTITA_BENCH_VOTER_AREA_CODES_H_
#define PARTITA_BENCH_VOTER_AREA_CODES_H_

#include <cstddef>

namespace partita::bench::voter {

extern const int kAreaCodes[];
extern const char* const kAreaStates[];
extern const size_t kAreaCodeCount;

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_AREA_CODES_H_
