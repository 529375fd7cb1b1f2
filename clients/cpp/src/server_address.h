// ServerAddress: a server's "host", "host:port" or "[v6 address]:port".
//
// Thread model: a value type.
#ifndef PARTITA_CLIENT_SRC_SERVER_ADDRESS_H_
#define PARTITA_CLIENT_SRC_SERVER_ADDRESS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "partita/client/result.h"

namespace partita::client {

struct ServerAddress {
  std::string host;
  uint16_t port = 0;

  // Parses `text`; `default_port` when it names no port. kInvalidArgument
  // for an empty host or a port that is not 1..65535.
  static Result<ServerAddress> Parse(std::string_view text, uint16_t default_port);

  // "host:port" ("[::1]:port" for IPv6).
  std::string ToString() const;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_SERVER_ADDRESS_H_
