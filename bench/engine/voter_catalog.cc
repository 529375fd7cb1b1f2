#include "voter_catalog.h"

#include <array>

#include "catalog_builder.h"
#include "plan.pb.h"

namespace partita::bench {
namespace {

constexpr int kContestantNameLength = 50;
constexpr int kStateLength = 2;
constexpr int64_t kSubscriberNumbers = 10'000'000;

// A sample of the North American Numbering Plan's geographic codes.
constexpr std::array<AreaCodeState, 64> kAreaCodes = {{
    {201, "NJ"}, {202, "DC"}, {203, "CT"}, {205, "AL"}, {206, "WA"}, {207, "ME"}, {208, "ID"}, {212, "NY"},
    {213, "CA"}, {214, "TX"}, {215, "PA"}, {216, "OH"}, {217, "IL"}, {218, "MN"}, {219, "IN"}, {225, "LA"},
    {301, "MD"}, {302, "DE"}, {303, "CO"}, {304, "WV"}, {305, "FL"}, {307, "WY"}, {312, "IL"}, {313, "MI"},
    {314, "MO"}, {316, "KS"}, {317, "IN"}, {401, "RI"}, {402, "NE"}, {404, "GA"}, {405, "OK"}, {406, "MT"},
    {412, "PA"}, {415, "CA"}, {501, "AR"}, {502, "KY"}, {503, "OR"}, {504, "LA"}, {505, "NM"}, {515, "IA"},
    {601, "MS"}, {602, "AZ"}, {603, "NH"}, {605, "SD"}, {608, "WI"}, {612, "MN"}, {615, "TN"}, {617, "MA"},
    {701, "ND"}, {702, "NV"}, {704, "NC"}, {713, "TX"}, {801, "UT"}, {802, "VT"}, {803, "SC"}, {804, "VA"},
    {808, "HI"}, {907, "AK"}, {919, "NC"}, {614, "OH"}, {718, "NY"}, {720, "CO"}, {512, "TX"}, {843, "SC"},
}};

constexpr std::array<std::string_view, kMaxContestants> kContestantNames = {
    "Marisol Quenby", "Dorian Achterberg", "Talia Wrenfield", "Osric Pembleton",
    "Juniper Halloway", "Caspian Moreau", "Linnea Vasquez-Holt", "Barnaby Okafor",
    "Seraphine Lund", "Thaddeus Crane", "Ines Kowalczyk", "Rufus Abernathy",
};

}  // namespace

std::span<const AreaCodeState> UsAreaCodes() { return kAreaCodes; }

std::string_view ContestantName(int number) { return kContestantNames[number - 1]; }

proto::Catalog BuildVoterCatalog() {
  proto::Catalog catalog;

  proto::Table* contestants = AddTable(&catalog, "CONTESTANTS", kReplicated);
  AddColumn(contestants, "CONTESTANT_NUMBER", proto::VALUE_TYPE_INTEGER);
  AddColumn(contestants, "CONTESTANT_NAME", proto::VALUE_TYPE_VARCHAR, kContestantNameLength);
  AddHashPrimaryKey(contestants, {0});

  proto::Table* area_codes = AddTable(&catalog, "AREA_CODE_STATE", kReplicated);
  AddColumn(area_codes, "AREA_CODE", proto::VALUE_TYPE_SMALLINT);
  AddColumn(area_codes, "STATE", proto::VALUE_TYPE_VARCHAR, kStateLength);
  AddHashPrimaryKey(area_codes, {0});

  proto::Table* votes = AddTable(&catalog, "VOTES", /*partition_column=*/0);
  AddColumn(votes, "PHONE_NUMBER", proto::VALUE_TYPE_BIGINT);
  AddColumn(votes, "STATE", proto::VALUE_TYPE_VARCHAR, kStateLength);
  AddColumn(votes, "CONTESTANT_NUMBER", proto::VALUE_TYPE_INTEGER);

  const proto::Table& by_phone =
      *AddCountStarView(&catalog, "V_VOTES_BY_PHONE_NUMBER", *votes, {0}, "NUM_VOTES");
  const proto::Table& by_contestant_state =
      *AddCountStarView(&catalog, "V_VOTES_BY_CONTESTANT_NUMBER_STATE", *votes, {2, 1}, "NUM_VOTES");

  AddPrimaryKeyLookup(&catalog, kCheckContestant,
                      "SELECT contestant_number FROM contestants WHERE contestant_number = ?;", *contestants, {0});
  AddPrimaryKeyLookup(&catalog, kCheckVoter,
                      "SELECT num_votes FROM v_votes_by_phone_number WHERE phone_number = ?;", by_phone, {1});
  AddPrimaryKeyLookup(&catalog, kCheckState, "SELECT state FROM area_code_state WHERE area_code = ?;",
                      *area_codes, {1});
  AddInsert(&catalog, kInsertVote, "INSERT INTO votes (phone_number, state, contestant_number) VALUES (?, ?, ?);",
            *votes, /*upsert=*/false);
  AddInsert(&catalog, kInsertContestant,
            "INSERT INTO contestants (contestant_number, contestant_name) VALUES (?, ?);", *contestants,
            /*upsert=*/false);
  AddInsert(&catalog, kInsertAreaCode, "INSERT INTO area_code_state (area_code, state) VALUES (?, ?);",
            *area_codes, /*upsert=*/false);
  AddPrimaryKeyLookup(&catalog, kContestantStateVotes,
                      "SELECT num_votes FROM v_votes_by_contestant_number_state "
                      "WHERE contestant_number = ? AND state = ?;",
                      by_contestant_state, {2});
  return catalog;
}

int64_t PhoneGenerator::NextPhoneNumber() {
  const std::span<const AreaCodeState> codes = UsAreaCodes();
  const int64_t area_code = codes[random_.Uniform(codes.size())].area_code;
  return area_code * kPhoneAreaCodeFactor + static_cast<int64_t>(random_.Uniform(kSubscriberNumbers));
}

VoteCall PhoneGenerator::NextCall() {
  const int64_t phone = NextPhoneNumber();
  const auto contestant = static_cast<int32_t>(1 + random_.Uniform(static_cast<uint64_t>(contestant_count_)));
  return {phone, contestant};
}

}  // namespace partita::bench
