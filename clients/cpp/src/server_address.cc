#include "server_address.h"

#include <charconv>

namespace partita::client {
namespace {
Status Bad(std::string_view text, std::string_view why) {
  return Status(Status::Code::kInvalidArgument,
                "malformed server address \"" + std::string(text) + "\": " + std::string(why));
}
}  // namespace

Result<ServerAddress> ServerAddress::Parse(std::string_view text, uint16_t default_port) {
  ServerAddress a;
  std::string_view port_text;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) return Bad(text, "no closing ']'");
    a.host = std::string(text.substr(1, close - 1));
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return Bad(text, "expected ':' after ']'");
    if (!rest.empty()) port_text = rest.substr(1);
  } else {
    const size_t colon = text.rfind(':');
    const bool has_port = colon != std::string_view::npos && text.find(':') == colon;
    a.host = std::string(has_port ? text.substr(0, colon) : text);
    if (has_port) port_text = text.substr(colon + 1);
  }
  if (a.host.empty()) return Bad(text, "no host");
  a.port = default_port;
  if (port_text.data() != nullptr) {
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 || port > 65535) {
      return Bad(text, "the port must be a number from 1 to 65535");
    }
    a.port = static_cast<uint16_t>(port);
  }
  return a;
}

std::string ServerAddress::ToString() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

}  // namespace partita::client
